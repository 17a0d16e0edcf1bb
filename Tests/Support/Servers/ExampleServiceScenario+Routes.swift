import JSONAPI
import JSONAPIServer
import Testing

extension ExampleServiceScenario {
    /// Every path of every type `service` serves answers exactly the methods of its route table
    /// (`ResourceService.methods(type:endpoint:)`): each other method is a 405 whose `Allow` is
    /// the table's, each served one reaches the service (which refuses the probes' unknown id or
    /// their body, so nothing is changed; a path the router does not know would be a 404 without
    /// a detail). The front must serve the same declarations as `service`.
    func routesFollowTheTable(_ service: ResourceService) async throws {
        let id = "no-such-id"
        for type in service.resourceTypes {
            let relationships = service.description(of: type)?.shape.relationships.map(\.name) ?? []
            var endpoints: [(ResourceRequest.Endpoint, String)] = [
                (.collection, "/\(type)"), (.resource(id: id), "/\(type)/\(id)"),
            ]
            for name in relationships {
                endpoints.append((.related(id: id, relationship: name), "/\(type)/\(id)/\(name)"))
                endpoints.append((.relationship(id: id, relationship: name), "/\(type)/\(id)/relationships/\(name)"))
            }
            for (endpoint, target) in endpoints {
                let served = service.methods(type: type, endpoint: endpoint)
                for method in ["GET", "POST", "PATCH", "DELETE", "PUT", "TRACE"] {
                    let body: String? = ["POST", "PATCH", "DELETE"].contains(method) ? #"{"data":[]}"# : nil
                    let response = try await LoopbackHTTP.send(
                        port: port, method, target, text: body, contentType: Self.jsonapi)
                    let answer = try #require(response, "\(method) \(target): no answer")
                    if served.contains(method) {
                        let document = try Self.check(
                            answer, method: method, target: target, status: answer.status == 405 ? 0 : answer.status)
                        #expect(
                            answer.status != 404 || document?.errors.first?.detail != nil,
                            "\(method) \(target): \(answer.text)")
                    } else {
                        #expect(answer.status == 405, "\(method) \(target): \(answer.status)")
                        #expect(
                            answer.header("Allow") == served.joined(separator: ", "),
                            "\(method) \(target): Allow \(answer.header("Allow") ?? "absent")")
                    }
                }
            }
        }
    }
}
