import JSONAPI
import JSONAPIClient
import Synchronization
import Testing

/// What reaches the server: the request line and the header fields as ``CannedHTTPServer`` read
/// them off the socket, through each transport, for the client's routers and its media types and
/// headers.
@Suite struct RequestsOnTheWireTests {
    static let jsonapi = "application/vnd.api+json"
    static let person = Array(#"{"data":{"type":"people","id":"9","attributes":{"name":"Ann"}}}"#.utf8)
    static let people = Array(#"{"data":[{"type":"people","id":"9","attributes":{"name":"Ann"}}]}"#.utf8)
    static let linkage = Array(#"{"data":[{"type":"tags","id":"1"}]}"#.utf8)

    /// A server that records every request and answers each as its kind of endpoint expects:
    /// relationship endpoints (paths with `relationships` or `links`) with linkage, other reads
    /// with people, creates with `201`, everything else with `204`.
    final class RecordingServer: Sendable {
        final class Requests: Sendable {
            let list = Mutex<[CannedHTTPServer.Request]>([])
        }
        let requests = Requests()
        let server: CannedHTTPServer

        init() throws {
            let requests = self.requests
            server = try CannedHTTPServer { request, connection in
                requests.list.withLock { $0.append(request) }
                let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
                let isRelationship = path.contains("/relationships/") || path.contains("/links/")
                switch request.method {
                case "GET" where isRelationship:
                    connection.respond(status: 200, contentType: RequestsOnTheWireTests.jsonapi, body: linkage)
                case "GET" where path.hasSuffix("/9"):
                    connection.respond(status: 200, contentType: RequestsOnTheWireTests.jsonapi, body: person)
                case "GET":
                    connection.respond(status: 200, contentType: RequestsOnTheWireTests.jsonapi, body: people)
                case "POST" where !isRelationship && !path.hasSuffix("batch") && !path.hasSuffix("atomic"):
                    connection.respond(status: 201, contentType: RequestsOnTheWireTests.jsonapi, body: person)
                default:
                    connection.respond(status: 204, contentType: nil, body: [])
                }
            }
        }

        var baseURL: String { server.baseURL }
        var received: [CannedHTTPServer.Request] { requests.list.withLock { $0 } }
        func stop() { server.stop() }
    }

    /// Sends one request of every kind of endpoint.
    static func everyEndpoint(_ client: JSONAPIClient) async throws {
        let people = client.resources(Person.self)
        _ = try await people.list(
            JSONAPIQuery().including("pets").fields(Person.self, "name").paged(number: 2, size: 5))
        _ = try await people.get(id: "9")
        _ = try await people.related(id: "9", "friends", as: Person.self)
        _ = try await people.relationship(id: "9", "tags")
        _ = try await people.create(NewPerson(name: "Ann"))
        struct Rename: Encodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
        }
        _ = try await people.update(Rename(id: "a b", name: "Bo"))
        _ = try await people.delete(id: "9")
        try await people.changeRelationship(id: "9", "tags", .add([Identifier<Tag>("1")]))
        var batch = AtomicOperationsDocument()
        batch.remove(ResourceIdentifier(type: "people", id: "9"))
        _ = try await client.operations(batch)
    }

    /// A router of the client's own: a versioned prefix, relationships under `links`, batches
    /// at `/batch`.
    struct VersionedRouter: JSONAPIRouter {
        func path(for endpoint: JSONAPIEndpoint) -> String {
            switch endpoint {
            case .relationship(let type, let id, let relationship):
                "/v2/\(type)/\(JSONAPIDefaultRouter.segment(id))/links/\(relationship)"
            case .operations: "/v2/batch"
            default: "/v2" + JSONAPIDefaultRouter().path(for: endpoint)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func customRouterOnTheWire(_ transport: TransportKind) async throws {
        let server = try RecordingServer()
        defer { server.stop() }
        var configuration = JSONAPIClient.Configuration()
        configuration.router = VersionedRouter()
        try await Self.everyEndpoint(transport.client(server.baseURL, configuration: configuration))
        let lines = server.received.map { "\($0.method) \($0.target)" }
        #expect(
            lines == [
                "GET /v2/people?include=pets&fields%5Bpeople%5D=name&page%5Bnumber%5D=2&page%5Bsize%5D=5",
                "GET /v2/people/9",
                "GET /v2/people/9/friends",
                "GET /v2/people/9/links/tags",
                "POST /v2/people",
                "PATCH /v2/people/a%20b",
                "DELETE /v2/people/9",
                "POST /v2/people/9/links/tags",
                "POST /v2/batch",
            ])
    }

    @Test(arguments: TransportKind.allCases)
    func pathTemplateRouterOnTheWire(_ transport: TransportKind) async throws {
        let server = try RecordingServer()
        defer { server.stop() }
        var router = JSONAPIPathTemplateRouter()
        router.collection = "/api/{type}"
        router.resource = "/api/{type}/{id}"
        router.relationship = "/api/{type}/{id}/relationships/{relationship}"
        router.operations = "/api/atomic"
        router.overrides["people"] = .init(
            collection: "/api/users", resource: "/api/users/{id}", related: "/api/users/{id}/linked/{relationship}")
        var configuration = JSONAPIClient.Configuration()
        configuration.router = router
        try await Self.everyEndpoint(transport.client(server.baseURL, configuration: configuration))
        let lines = server.received.map { "\($0.method) \($0.target)" }
        #expect(
            lines == [
                "GET /api/users?include=pets&fields%5Bpeople%5D=name&page%5Bnumber%5D=2&page%5Bsize%5D=5",
                "GET /api/users/9",
                "GET /api/users/9/linked/friends",
                "GET /api/people/9/relationships/tags",
                "POST /api/users",
                "PATCH /api/users/a%20b",
                "DELETE /api/users/9",
                "POST /api/people/9/relationships/tags",
                "POST /api/atomic",
            ])
    }

    /// Each header field the server received with `name` (any case), in order.
    static func values(_ request: CannedHTTPServer.Request, _ name: String) -> [String] {
        request.headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }

    @Test(arguments: TransportKind.allCases)
    func mediaTypesAndHeadersOnTheWire(_ transport: TransportKind) async throws {
        let server = try RecordingServer()
        defer { server.stop() }
        var configuration = JSONAPIClient.Configuration()
        configuration.extensions = ["https://example.com/ext/audit"]
        configuration.profiles = ["https://example.com/profiles/a", "https://example.com/profiles/b"]
        configuration.headers = ["Authorization": "Bearer token", "X-Tenant": "configured"]
        let client = transport.client(server.baseURL, configuration: configuration)
        let people = client.resources(Person.self)
        _ = try await people.get(id: "9", headers: ["X-Trace": "7", "x-tenant": "per-request"])
        _ = try await people.create(NewPerson(name: "Ann"), headers: ["X-Trace": "8"])
        var batch = AtomicOperationsDocument()
        batch.remove(ResourceIdentifier(type: "people", id: "9"))
        _ = try await client.operations(batch)

        let received = server.received
        try #require(received.count == 3)
        let (get, create, operations) = (received[0], received[1], received[2])
        let media =
            #"application/vnd.api+json; ext="https://example.com/ext/audit"; "#
            + #"profile="https://example.com/profiles/a https://example.com/profiles/b""#
        #expect(Self.values(get, "Accept") == [media])
        #expect(Self.values(get, "Content-Type").isEmpty)
        #expect(Self.values(get, "Authorization") == ["Bearer token"])
        #expect(Self.values(get, "X-Trace") == ["7"])
        // A request's own field replaces the configured one of the same name, whatever its case.
        #expect(Self.values(get, "X-Tenant") == ["per-request"])

        #expect(Self.values(create, "Accept") == [media])
        #expect(Self.values(create, "Content-Type") == [media])
        #expect(Self.values(create, "Authorization") == ["Bearer token"])
        #expect(Self.values(create, "X-Tenant") == ["configured"])
        #expect(Self.values(create, "X-Trace") == ["8"])
        #expect(Self.values(create, "Content-Length") == [String(create.body.count)])

        // Atomic Operations add their extension to the configured one, in both media types.
        let atomic =
            #"application/vnd.api+json; ext="https://example.com/ext/audit https://jsonapi.org/ext/atomic"; "#
            + #"profile="https://example.com/profiles/a https://example.com/profiles/b""#
        #expect(Self.values(operations, "Accept") == [atomic])
        #expect(Self.values(operations, "Content-Type") == [atomic])
        #expect(Self.values(operations, "X-Trace").isEmpty)
    }
}
