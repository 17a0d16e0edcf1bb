import JSONAPI
import Testing

@testable import JSONAPIClient

/// `JSONAPIResources.stream`: models decoded one at a time while the body arrives, against
/// scripted answers (statuses, media types, bodies that break off or go wrong midway, retries).
/// The example service over loopback, through both transports, is in LargeServiceResponseTests.
@Suite struct ClientStreamTests {
    static let base = "https://api.example.com"
    static let page = #"""
        {"data":[{"type":"articles","id":"1","attributes":{"title":"A"},"relationships":{"author":{"data":{"type":"people","id":"9"}}}},
        {"type":"articles","id":"2","attributes":{"title":"B"}}],
        "included":[{"type":"people","id":"9","attributes":{"name":"Ada"}},{"type":"articles","id":"3","attributes":{"title":"C"}}],
        "meta":{"total":2}}
        """#

    static func client(
        _ answers: [ScriptedTransport.Answer], store: ResourceStore? = nil,
        _ configure: (inout JSONAPIClient.Configuration) -> Void = { _ in }
    ) -> (JSONAPIClient, ScriptedTransport) {
        let transport = ScriptedTransport(answers)
        var configuration = JSONAPIClient.Configuration()
        configure(&configuration)
        return (
            JSONAPIClient(baseURL: base, transport: transport, configuration: configuration, store: store), transport
        )
    }

    /// Reads the stream to its end or first failure: the titles before it, and the failure.
    static func titles(_ stream: JSONAPIResourceStream<Article>) async -> (titles: [String], error: JSONAPIClientError?)
    {
        var titles: [String] = []
        do {
            for try await article in stream { titles.append(article.title) }
        } catch {
            return (titles, error as? JSONAPIClientError)
        }
        return (titles, nil)
    }

    @Test("the primary resources of the type, in order; included ones go to the store only")
    func primaryModels() async throws {
        let store = ResourceStore()
        let (client, transport) = Self.client([.status(200, body: Self.page)], store: store)
        let stream = client.resources(Article.self).stream(JSONAPIQuery().including("author"))
        let read = await Self.titles(stream)
        #expect(read.titles == ["A", "B"])
        #expect(read.error == nil)
        #expect(transport.requests.map(\.url) == [Self.base + "/articles?include=author"])
        #expect(transport.requests.first?.headers["Accept"] == "application/vnd.api+json")
        #expect(store.count == 4)
        #expect(store.resource(type: "people", id: "9")?.attributes["name"] == JSON("Ada"))
    }

    @Test("a relationship typed as a model resolves through what arrived before; what comes after is reported")
    func relatedResources() async throws {
        let before = #"""
            {"included":[{"type":"people","id":"9","attributes":{"name":"Ada"}},{"type":"tags","id":"4","attributes":{"name":"swift"}}],
            "data":[{"type":"articles","id":"1","attributes":{"title":"A"},"relationships":{"author":{"data":{"type":"people","id":"9"}},"tags":{"data":[{"type":"tags","id":"4"}]}}}]}
            """#
        let after = #"""
            {"data":[{"type":"articles","id":"1","attributes":{"title":"A"},"relationships":{"author":{"data":{"type":"people","id":"9"}},"tags":{"data":[]}}}],
            "included":[{"type":"people","id":"9","attributes":{"name":"Ada"}}]}
            """#
        let (client, _) = Self.client(
            [.status(200, body: before)], store: ResourceStore())
        var resolved: [FullArticle] = []
        for try await article in client.resources(FullArticle.self).stream() { resolved.append(article) }
        #expect(resolved.map(\.author.name) == ["Ada"])
        #expect(resolved.first?.tags.map(\.name) == ["swift"])
        // The author arrives after the article, and the store has not seen this one yet.
        let fresh = ResourceStore()
        let (late, _) = Self.client([.status(200, body: after)], store: fresh)
        let reported = await #expect(throws: JSONAPIClientError.self) {
            for try await _ in late.resources(FullArticle.self).stream() {}
        }
        #expect(reported?.kind == .decoding)
        #expect(reported?.message.contains("/data/0") == true)
        #expect(reported?.message.contains("people") == true)
        // Without a store nothing arrived before is kept.
        let (storeless, _) = Self.client([.status(200, body: before)])
        await #expect(throws: JSONAPIClientError.self) {
            for try await _ in storeless.resources(FullArticle.self).stream() {}
        }
    }

    @Test("an error status throws from the first next(), as list does")
    func errorStatus() async throws {
        let (client, _) = Self.client([
            .status(404, body: #"{"errors":[{"status":"404","title":"Not found"}]}"#)
        ])
        let read = await Self.titles(client.resources(Article.self).stream())
        #expect(read.titles.isEmpty)
        #expect(read.error?.kind == .errorResponse)
        #expect(read.error?.errors.first?.title == "Not found")
    }

    @Test("a body of another media type is refused before it is read")
    func mediaType() async throws {
        let html = ScriptedTransport.Answer(status: 200, headers: ["Content-Type": "text/html"], body: "<html>")
        let (client, _) = Self.client([html])
        let read = await Self.titles(client.resources(Article.self).stream())
        #expect(read.error?.kind == .unsupportedMediaType)
    }

    @Test("a body that goes wrong midway, or ends before its length, throws there, after the models before it")
    func brokenMidway() async throws {
        let invalid = Self.page.replacingOccurrences(of: #""B""#, with: "B")
        var short = ScriptedTransport.Answer.status(200, body: Self.page)
        short.headers.add(name: "Content-Length", value: String(Self.page.utf8.count + 10))
        let (client, _) = Self.client([.status(200, body: invalid), short])
        let broken = await Self.titles(client.resources(Article.self).stream())
        #expect(broken.titles == ["A"])
        #expect(broken.error?.kind == .invalidDocument)
        #expect(broken.error?.parsingError != nil)
        let cut = await Self.titles(client.resources(Article.self).stream())
        #expect(cut.titles == ["A", "B"])
        #expect(cut.error?.kind == .truncatedBody)
    }

    @Test("a resource that does not decode as the model is a decoding error with its place")
    func decodingError() async throws {
        let body = #"{"data":[{"type":"articles","id":"1","attributes":{"title":7}}]}"#
        let (client, _) = Self.client([.status(200, body: body)])
        let read = await Self.titles(client.resources(Article.self).stream())
        #expect(read.error?.kind == .decoding)
        #expect(read.error?.message.contains("/data/0") == true)
    }

    @Test("a 204 is an empty stream; a 503 is retried as any request is; each iteration sends again")
    func statusesAndRetries() async throws {
        let (client, transport) = Self.client([
            .status(204), .status(503, ["Retry-After": "0"]), .status(200, body: Self.page),
            .status(200, body: Self.page),
        ]) { configuration in
            configuration.retries = JSONAPIClient.RetryPolicy(
                maximumAttempts: 2, initialDelay: .milliseconds(1), jitter: 0)
        }
        let stream = client.resources(Article.self).stream()
        #expect(await Self.titles(stream).titles.isEmpty)
        #expect(await Self.titles(stream).titles == ["A", "B"])
        #expect(await Self.titles(stream).titles == ["A", "B"])
        #expect(transport.requests.count == 4)
    }

    @Test("the stream is neither kept by the cache nor answered from the store")
    func notCached() async throws {
        var fresh = ScriptedTransport.Answer.status(200, body: Self.page)
        fresh.headers.add(name: "Cache-Control", value: "max-age=60")
        let (client, transport) = Self.client([fresh, fresh], store: ResourceStore()) { configuration in
            configuration.queryLifetime = .seconds(60)
        }
        let stream = client.resources(Article.self).stream()
        #expect(await Self.titles(stream).titles == ["A", "B"])
        #expect(await Self.titles(stream).titles == ["A", "B"])
        #expect(transport.requests.count == 2)
    }
}
