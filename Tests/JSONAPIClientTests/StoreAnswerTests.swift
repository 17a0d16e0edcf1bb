import JSONAPI
import Testing

@testable import JSONAPIClient

/// Reads answered again from the store (`Configuration.queryLifetime`): the remembered document
/// with the store's current copies of its resources, against scripted server answers.
@Suite struct StoreAnswerTests {
    static let base = "https://api.example.com"
    static let listURL = base + "/articles?include=author"
    static let list = ScriptedTransport.Answer.status(
        200, ["ETag": #""v1""#, "Cache-Control": "no-store"],
        body: #"""
            {"data":[{"type":"articles","id":"1","attributes":{"title":"A"},"relationships":{"author":{"data":{"type":"people","id":"9"}}}},
            {"type":"articles","id":"2","attributes":{"title":"B"},"relationships":{"author":{"data":null}}}],
            "included":[{"type":"people","id":"9","attributes":{"name":"Ada"}}],
            "meta":{"total":2},"links":{"self":"/articles?include=author"},"jsonapi":{"version":"1.1"}}
            """#)

    static func client(
        _ answers: [ScriptedTransport.Answer], store: ResourceStore? = ResourceStore(),
        lifetime: Duration? = .seconds(3600), interceptors: [any JSONAPIInterceptor] = []
    ) -> (JSONAPIClient, ScriptedTransport) {
        let transport = ScriptedTransport(answers)
        var configuration = JSONAPIClient.Configuration()
        configuration.queryLifetime = lifetime
        configuration.interceptors = interceptors
        return (
            JSONAPIClient(baseURL: base, transport: transport, configuration: configuration, store: store), transport
        )
    }

    static func read(_ client: JSONAPIClient, _ url: String = listURL, headers: JSONAPIHTTPHeaders = [:]) async throws
        -> JSONAPIClientResponse
    {
        try await client.send(client.request("GET", url, headers: headers))
    }

    /// The document as compact JSON, keys in order, for comparison.
    static func text(_ response: JSONAPIClientResponse) -> String {
        response.document.map { String(decoding: $0.jsonBytes(), as: UTF8.self) } ?? ""
    }

    @Test("a repeated read is the same document from the store, without a request")
    func repeatedRead() async throws {
        let (client, transport) = Self.client([Self.list])
        let first = try await Self.read(client)
        let second = try await Self.read(client)
        #expect(first.source == .network)
        #expect(second.source == .store)
        #expect(transport.requests.count == 1)
        #expect(Self.text(second) == Self.text(first))
        #expect(second.status == 200)
        // Only the representation's media type: the server's length, validator and caching
        // fields describe bytes this answer is not.
        #expect(second.headers.fields.map(\.name) == ["Content-Type"])
        // Typed reads see it as they see the server's answer.
        let articles = try await client.resources(Article.self).list(JSONAPIQuery().including("author"))
        #expect(articles.value.map(\.title) == ["A", "B"])
        #expect(articles.meta?["total"] == JSON(2))
        #expect(transport.requests.count == 1)
    }

    @Test("the store's later copies show in the answer, with only the members the server sent")
    func liveCopies() async throws {
        let store = ResourceStore()
        let (client, _) = Self.client([Self.list], store: store)
        _ = try await Self.read(client)
        var renamed = JSONAPIResourceObject(type: "people", id: "9")
        renamed.attributes["name"] = JSON("Ada L.")
        renamed.attributes["born"] = JSON(1815)  // a member the list's answer did not have
        store.merge(renamed)
        let answer = try await Self.read(client)
        #expect(answer.source == .store)
        let person = try #require(answer.document?.included.first)
        #expect(person.attributes["name"]?.stringValue == "Ada L.")
        #expect(person.attributes["born"] == nil)
        #expect(store.resource(type: "people", id: "9")?.attributes["born"] == JSON(1815))
    }

    @Test("another URL, other header fields, linkage, a missing resource and an expired lifetime go to the server")
    func misses() async throws {
        let store = ResourceStore()
        let linkage = ScriptedTransport.Answer.status(
            200, body: #"{"data":[{"type":"people","id":"9"}],"links":{"self":"/articles/1/relationships/author"}}"#)
        let (client, transport) = Self.client(
            [Self.list, Self.list, Self.list, linkage, linkage, Self.list], store: store)
        _ = try await Self.read(client)
        #expect(try await Self.read(client, Self.base + "/articles?include=author&sort=title").source == .network)
        #expect(try await Self.read(client, headers: ["Authorization": "Bearer other"]).source == .network)
        let relationship = Self.base + "/articles/1/relationships/author"
        for _ in 0..<2 {
            let response = try await client.send(client.request("GET", relationship), kind: .relationshipUpdate)
            #expect(response.source == .network)
        }
        #expect(try await Self.read(client).source == .store)
        store.delete(type: "people", id: "9")
        #expect(try await Self.read(client).source == .network)
        #expect(transport.requests.count == 6)
        // A lifetime over before the read is repeated.
        let (brief, briefTransport) = Self.client([Self.list, Self.list], lifetime: .milliseconds(1))
        _ = try await Self.read(brief)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await Self.read(brief).source == .network)
        #expect(briefTransport.requests.count == 2)
    }

    @Test("a successful write forgets every remembered read; a refused one does not")
    func writesForget() async throws {
        let refused = ScriptedTransport.Answer.status(
            422, body: #"{"errors":[{"status":"422","title":"Invalid"}]}"#)
        let (client, transport) = Self.client([Self.list, refused, .status(204), Self.list])
        _ = try await Self.read(client)
        let body = Array(#"{"data":{"type":"articles","id":"1","attributes":{"title":"C"}}}"#.utf8)
        await #expect(throws: JSONAPIClientError.self) {
            _ = try await client.send(client.request("PATCH", Self.base + "/articles/1", body: body))
        }
        #expect(try await Self.read(client).source == .store)
        _ = try await client.send(client.request("DELETE", Self.base + "/tags/4"))
        #expect(try await Self.read(client).source == .network)
        #expect(transport.requests.map(\.method) == ["GET", "PATCH", "DELETE", "GET"])
    }

    @Test("credentials an interceptor sets are part of what a read is")
    func interceptorCredentials() async throws {
        struct Credentials: JSONAPIInterceptor {
            func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws
                -> JSONAPIClientResponse
            {
                var request = request
                request.headers.replaceOrAdd(
                    name: "Authorization", value: "Bearer " + (request.headers["X-User"] ?? ""))
                return try await next(request)
            }
        }
        let (client, transport) = Self.client([Self.list, Self.list], interceptors: [Credentials()])
        #expect(try await Self.read(client, headers: ["X-User": "ann"]).source == .network)
        #expect(try await Self.read(client, headers: ["X-User": "bo"]).source == .network)
        #expect(try await Self.read(client, headers: ["X-User": "ann"]).source == .store)
        #expect(transport.requests.count == 2)
    }

    @Test("without a store or a lifetime every read goes to the server; a lifetime must be positive")
    func offAndInvalid() async throws {
        let (noStore, transport) = Self.client([Self.list, Self.list], store: nil)
        _ = try await Self.read(noStore)
        #expect(try await Self.read(noStore).source == .network)
        #expect(transport.requests.count == 2)
        let (noLifetime, other) = Self.client([Self.list, Self.list], lifetime: nil)
        _ = try await Self.read(noLifetime)
        #expect(try await Self.read(noLifetime).source == .network)
        #expect(other.requests.count == 2)
        let (invalid, _) = Self.client([], lifetime: .zero)
        let error = await #expect(throws: JSONAPIClientError.self) { _ = try await Self.read(invalid) }
        #expect(error?.kind == .invalidRequest)
    }
}
