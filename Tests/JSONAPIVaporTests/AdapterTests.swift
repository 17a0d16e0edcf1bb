import JSONAPI
import JSONAPIVapor
import Testing
import Vapor

@testable import JSONAPITestSupport

/// The Vapor adapter's pieces outside the example service: the content coder, Vapor's own
/// errors, and errors that must not leak.
@Suite struct AdapterTests {
    struct SecretFailure: Error, CustomStringConvertible {
        var description: String { "database password is hunter2" }
    }

    struct Article: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
    }

    static func application() async throws -> Application {
        let app = try await Application.make(Environment(name: "testing", arguments: ["adapter-tests"]))
        app.logger.logLevel = .critical
        app.middleware.use(JSONAPIMiddleware())
        app.routes.defaultMaxBodySize = 1024
        app.get("boom") { _ async throws -> JSONAPIResponse in throw SecretFailure() }
        app.get("abort") { _ async throws -> JSONAPIResponse in throw Abort(.forbidden, reason: "token 1234 expired") }
        app.get("archive") { _ async throws -> JSONAPIResponse in
            throw JSONAPIHTTPError.methodNotAllowed("GET", allowed: ["POST", "DELETE"])
        }
        app.post("echo") { request async throws -> Response in
            let article = try request.content.decode(Article.self, using: JSONAPIContentCoder())
            let response = Response(status: .ok)
            try response.content.encode(article, using: JSONAPIContentCoder())
            return response
        }
        app.post("notes") { request async throws -> JSONAPIResponse in
            var note = try await request.jsonapiDecode(ListedNote.self, kind: .createRequest)
            note.id = "1"
            return try JSONAPIResponse(status: .created, encoding: note, encoder: JSONAPIEncoder())
        }
        app.post("notes-content") { request async throws -> Response in
            var note = try request.content.decode(ListedNote.self, using: JSONAPIContentCoder())
            note.id = "1"
            let response = Response(status: .created)
            try response.content.encode(note, using: JSONAPIContentCoder())
            return response
        }
        app.post("collected") { request async throws -> JSONAPIResponse in
            let document = try await request.jsonapiDocument(kind: .createRequest)
            let title = document.primaryResources.first?.attributes["title"]?.stringValue ?? ""
            return try JSONAPIResponse(document: Document(parsing: Array(#"{"meta":{"title":"\#(title)"}}"#.utf8)))
        }
        return app
    }

    func send(_ port: Int, _ method: String, _ target: String, body: String? = nil) async throws
        -> LoopbackHTTP.Response
    {
        try #require(
            try await LoopbackHTTP.send(
                port: port, method, target, text: body, contentType: ExampleServiceScenario.jsonapi))
    }

    @Test func errorsBecomeErrorDocumentsWithoutTheirText() async throws {
        try await withRunningServer(try await Self.application()) { port in
            let boom = try await send(port, "GET", "/boom")
            try ExampleServiceScenario.check(boom, method: "GET", target: "/boom", status: 500)
            #expect(!boom.text.contains("hunter2"))
            let abort = try await send(port, "GET", "/abort")
            try ExampleServiceScenario.check(abort, method: "GET", target: "/abort", status: 403)
            #expect(!abort.text.contains("1234"))
            try ExampleServiceScenario.check(
                try await send(port, "GET", "/nowhere"), method: "GET", target: "/nowhere", status: 404)
            // A 405 thrown by a handler keeps the methods it lists in `Allow`.
            let refused = try await send(port, "GET", "/archive")
            try ExampleServiceScenario.check(refused, method: "GET", target: "/archive", status: 405)
            #expect(refused.header("Allow") == "POST, DELETE")
        }
    }

    /// `jsonapiDecode` and the content coder answer a body with every value that does not fit
    /// the model, each with its pointer, in one 422.
    @Test func everyProblemOfABodyAtOnce() async throws {
        try await withRunningServer(try await Self.application()) { port in
            let scenario = ExampleServiceScenario(port: port)
            try await scenario.everyProblemOfABodyAtOnce(path: "/notes")
            try await scenario.everyProblemOfABodyAtOnce(path: "/notes-content")
        }
    }

    /// `req.content` and `response.content` through ``JSONAPIContentCoder``: a typed round trip,
    /// `Content-Type` without `charset`, and a value that does not fit the model as 422.
    @Test func contentCoderRoundTrip() async throws {
        try await withRunningServer(try await Self.application()) { port in
            let echoed = try await send(
                port, "POST", "/echo", body: #"{"data":{"type":"articles","id":"1","attributes":{"title":"Hi"}}}"#)
            let document = try ExampleServiceScenario.check(echoed, method: "POST", target: "/echo", status: 200)
            #expect(
                try JSONAPIDecoder().decode(Article.self, from: try #require(document)) == Article(id: "1", title: "Hi")
            )
            let wrong = try await send(
                port, "POST", "/echo", body: #"{"data":{"type":"articles","id":"1","attributes":{"title":5}}}"#)
            let errors = try ExampleServiceScenario.check(wrong, method: "POST", target: "/echo", status: 422)
            #expect(errors?.errors.first?.source?.pointer == "/data/attributes/title")
            let broken = try await send(port, "POST", "/echo", body: #"{"data":"#)
            try ExampleServiceScenario.check(broken, method: "POST", target: "/echo", status: 400)
        }
    }

    struct Writer: Codable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Post: Codable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var author: Writer
    }

    /// The coder answers requests it cannot see: by default it includes no related model (a
    /// request without `include` gets none), unlike a bare `JSONAPIEncoder()`, which writes the
    /// whole graph; an encoder given to it keeps its own options.
    @Test func contentCoderIncludesNothingUnasked() throws {
        let post = Post(id: "1", author: Writer(id: "9", name: "Dan"))
        var body = ByteBuffer()
        var headers = HTTPHeaders()
        try JSONAPIContentCoder().encode(post, to: &body, headers: &headers)
        let document = try Document(parsing: Array(body.readableBytesView))
        #expect(!document.hasIncluded)
        #expect(document.primaryResources[0].relationship("author")?.identifiers.map(\.id) == ["9"])
        var whole = ByteBuffer()
        try JSONAPIContentCoder(encoder: JSONAPIEncoder()).encode(post, to: &whole, headers: &headers)
        #expect(try Document(parsing: Array(whole.readableBytesView)).included.map(\.id) == ["9"])
    }

    /// A route that collects its body (Vapor's default) is read from the collected buffer, and
    /// Vapor's own limit for collected bodies answers 413 with an error document.
    @Test func collectedBodies() async throws {
        try await withRunningServer(try await Self.application()) { port in
            let body = #"{"data":{"type":"articles","attributes":{"title":"Hi"}}}"#
            let echoed = try ExampleServiceScenario.check(
                try await send(port, "POST", "/collected", body: body), method: "POST", target: "/collected",
                status: 200)
            #expect(echoed?.meta?["title"]?.stringValue == "Hi")
            let long = String(repeating: " ", count: 2000) + body
            try ExampleServiceScenario.check(
                try await send(port, "POST", "/collected", body: long), method: "POST", target: "/collected",
                status: 413)
        }
    }

    @Test func contentConfigurationReplacesVaporsJSONAPIMapping() throws {
        var content = ContentConfiguration.default()
        content.useJSONAPI()
        let encoder = try content.requireEncoder(for: .jsonAPI)
        var buffer = ByteBuffer()
        var headers = HTTPHeaders()
        try encoder.encode(Article(id: "1", title: "Hi"), to: &buffer, headers: &headers)
        #expect(headers.first(name: .contentType) == "application/vnd.api+json")
        #expect(String(buffer: buffer) == #"{"data":{"type":"articles","id":"1","attributes":{"title":"Hi"}}}"#)
    }
}
