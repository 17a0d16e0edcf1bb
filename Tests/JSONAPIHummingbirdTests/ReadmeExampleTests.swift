import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@testable import JSONAPITestSupport

/// The Serving article's Hummingbird example, its routes written exactly as there, served over a
/// real socket.
@Suite struct ReadmeExampleTests {
    struct Article: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
    }

    struct NewArticle: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String?  // a client may choose it
        var title: String
    }

    /// The article's lines from `JSONAPIConfiguration()` to `addJSONAPIResource`.
    static func router() -> Router<BasicRequestContext> {
        let configuration = JSONAPIConfiguration()
        let rules = QueryRules(sortFields: ["title"], pagination: .pages(defaultSize: 10, maximumSize: 100))
        let router = Router()
        router.add(middleware: JSONAPIMiddleware(configuration: configuration))
        var articles = JSONAPIResourceRoutes<BasicRequestContext>()
        articles.collection = { request, _ in
            let query = try request.jsonapiQuery(rules: rules)  // 400 naming every bad parameter
            let page = [Article(id: "1", title: "Hello")]
            let links = query.page?.links(forRequest: request.jsonapiTarget, result: .total(page.count))
            return try JSONAPIResponse(encoding: page, encoder: JSONAPIEncoder(), links: links)
        }
        articles.create = { request, _ in
            let new = try await request.jsonapiDecode(
                NewArticle.self, kind: .createRequest, configuration: configuration)
            let article = Article(id: new.id ?? "2", title: new.title)  // store it ...
            return try JSONAPIResponse(status: .created, encoding: article, encoder: JSONAPIEncoder())
        }
        router.addJSONAPIResource("articles", articles)
        return router
    }

    @Test func readmeRoutes() async throws {
        try await Application(router: Self.router()).test(.live) { client in
            let scenario = ExampleServiceScenario(port: try #require(client.port))
            let list = try await scenario.send("GET", "/articles?page[size]=5&sort=-title", expect: 200)
            #expect(list?.primaryResources.first?.attributes["title"]?.stringValue == "Hello")
            #expect(list?.links?["first"] != nil)
            try await scenario.send("GET", "/articles?sort=body", expect: 400)
            let created = try await scenario.send(
                "POST", "/articles", body: #"{"data":{"type":"articles","attributes":{"title":"New"}}}"#, expect: 201)
            #expect(created?.primaryResources.first?.id == "2")
            let chosen = try await scenario.send(
                "POST", "/articles", body: #"{"data":{"type":"articles","id":"x1","attributes":{"title":"Mine"}}}"#,
                expect: 201)
            #expect(chosen?.primaryResources.first?.id == "x1")
            // A create request whose data is not a resource object is refused (400), and one
            // without the model's attributes cannot be decoded (422).
            try await scenario.send("POST", "/articles", body: #"{"data":null}"#, expect: 400)
            try await scenario.send("POST", "/articles", body: #"{"data":{"type":"articles"}}"#, expect: 422)
        }
    }

    /// The article's "A body as it arrives": a body fed buffer by buffer, and one past the limit.
    @Test func bodyAsItArrives() async throws {
        func buffers(_ text: String, size: Int) -> AsyncStream<ByteBuffer> {
            let bytes = Array(text.utf8)
            return AsyncStream { continuation in
                var offset = 0
                while offset < bytes.count {
                    continuation.yield(ByteBuffer(bytes: bytes[offset..<min(bytes.count, offset + size)]))
                    offset += size
                }
                continuation.finish()
            }
        }
        func parse(_ text: String) async throws -> Document {
            let body = buffers(text, size: 1_000)
            let contentLength: String? = nil  // chunked: no Content-Length header

            var configuration = JSONAPIConfiguration()
            configuration.maximumBodyBytes = 256 * 1024
            var parser = try configuration.bodyParser(kind: .createRequest, contentLength: contentLength)
            for try await buffer in body {  // the framework's body stream
                try parser.feed(buffer.readableBytesView)  // tokenized now; 413 past 256 KiB
            }
            let document = try parser.finish()  // 400 with every problem, or the document
            return document
        }

        let document = try await parse(#"{"data":{"type":"articles","attributes":{"title":"New"}}}"#)
        #expect(document.primaryResources.first?.attributes["title"]?.stringValue == "New")
        let long = String(repeating: "x", count: 300 * 1024)
        do {
            _ = try await parse(#"{"data":{"type":"articles","attributes":{"title":"\#(long)"}}}"#)
            Issue.record("a body past the limit was parsed")
        } catch {
            #expect(JSONAPIErrorDocument(describing: error).httpStatus == 413)
        }
    }
}
