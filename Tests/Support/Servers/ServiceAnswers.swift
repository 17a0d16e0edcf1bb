import JSONAPI
import JSONAPIServer

/// An answer of the service: the response, or the error document of what it threw.
struct Answer {
    var status: Int
    var body: [UInt8]?
    var response: ResourceResponse?
    var errors: [JSONAPIErrorObject]

    var document: Document? { body.flatMap { try? Document(parsing: $0) } }
    var text: String { body.map { String(decoding: $0, as: UTF8.self) } ?? "" }
    var pointers: [String] { errors.compactMap(\.source?.pointer) }
}

extension ResourceService {
    /// Sends one request and answers what it responded or the error document of what it threw,
    /// as an adapter's middleware writes it.
    func send(
        _ method: String, _ type: String, _ endpoint: ResourceRequest.Endpoint, query: String = "",
        body: String? = nil, ifMatch: String? = nil, ifNoneMatch: String? = nil, userInfo: [String: any Sendable] = [:]
    ) async -> Answer {
        let request: ResourceRequest
        if let body {
            request = ResourceRequest(
                method: method, type: type, endpoint: endpoint, query: query, ifMatch: ifMatch,
                ifNoneMatch: ifNoneMatch, userInfo: userInfo, body: Array(body.utf8))
        } else {
            request = ResourceRequest(
                method: method, type: type, endpoint: endpoint, query: query, ifMatch: ifMatch,
                ifNoneMatch: ifNoneMatch, userInfo: userInfo)
        }
        do {
            let response = try await respond(to: request)
            return Answer(status: response.status, body: response.body, response: response, errors: [])
        } catch {
            let errors = JSONAPIErrorObject.errors(describing: error)
            let document = JSONAPIErrorDocument(errors: errors)
            return Answer(status: document.httpStatus, body: document.responseBytes(), response: nil, errors: errors)
        }
    }
}
