import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@testable import JSONAPITestSupport

@Suite struct AdapterTests {
    struct SecretFailure: Error, CustomStringConvertible {
        var description: String { "database password is hunter2" }
    }

    /// `jsonapiDecode` answers a body with every value that does not fit the model, each with
    /// its pointer, in one 422.
    @Test func everyProblemOfABodyAtOnce() async throws {
        let router = Router()
        router.add(middleware: JSONAPIMiddleware())
        router.post("notes") { request, _ -> JSONAPIResponse in
            var note = try await request.jsonapiDecode(ListedNote.self, kind: .createRequest)
            note.id = "1"
            return try JSONAPIResponse(status: .created, encoding: note, encoder: JSONAPIEncoder())
        }
        try await Application(router: router).test(.live) { client in
            try await ExampleServiceScenario(port: try #require(client.port)).everyProblemOfABodyAtOnce()
        }
    }

    /// Path parameters percent-decoded: the id a link wrote encoded, and 404 for a segment that
    /// is not percent-encoded UTF-8.
    @Test func pathParametersDecoded() async throws {
        let router = Router()
        router.add(middleware: JSONAPIMiddleware())
        struct Tag: Codable, JSONAPIResource {
            static let resourceType = "tags"
            var id: String
        }
        router.get("tags/:id") { _, context -> JSONAPIResponse in
            try JSONAPIResponse(encoding: Tag(id: try context.jsonapiParameter("id")), encoder: JSONAPIEncoder())
        }
        try await Application(router: router).test(.live) { client in
            let scenario = ExampleServiceScenario(port: try #require(client.port))
            let tag = try await scenario.send("GET", "/tags/%C3%89%20a%2Fb", expect: 200)
            #expect(tag?.primaryResources.first?.id == "É a/b")
            try await scenario.send("GET", "/tags/%FF", expect: 404)
        }
    }

    @Test func errorsBecomeErrorDocuments() async throws {
        let router = Router()
        router.add(middleware: JSONAPIMiddleware())
        router.get("boom") { _, _ -> JSONAPIResponse in throw SecretFailure() }
        router.get("ok") { _, _ in JSONAPIResponse(bytes: Array(#"{"meta":{}}"#.utf8)) }
        router.get("archive") { _, _ -> JSONAPIResponse in
            throw JSONAPIHTTPError.methodNotAllowed("GET", allowed: ["POST", "DELETE"])
        }
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/boom", method: .get) { response in
                #expect(response.status == .internalServerError)
                let text = String(buffer: response.body)
                #expect(!text.contains("hunter2"))
                let document = try Document(parsing: Array(text.utf8))
                #expect(document.errors.first?.status == "500")
            }
            try await client.execute(uri: "/ok", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.api+json")
            }
            // A 405 thrown by a handler keeps the methods it lists in `Allow`.
            try await client.execute(uri: "/archive", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST, DELETE")
                let document = try Document(parsing: Array(String(buffer: response.body).utf8))
                #expect(document.errors.first?.status == "405")
            }
        }
    }
}
