import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@testable import JSONAPITestSupport

/// The README's Hummingbird example, its routes written exactly as there, served over a real
/// socket.
@Suite struct ReadmeExampleTests {
    /// The README's lines from `JSONAPIConfiguration()` to `addJSONAPIResource`.
    static func router() -> Router<BasicRequestContext> {
        let configuration = JSONAPIConfiguration()
        let rules = QueryRules(sortFields: ["title"], pagination: .pages(defaultSize: 10, maximumSize: 100))
        let router = Router()
        router.add(middleware: JSONAPIMiddleware(configuration: configuration))
        var articles = JSONAPIResourceRoutes<BasicRequestContext>()
        articles.collection = { request, _ in
            let query = try request.jsonapiQuery(rules: rules)  // 400 with every problem
            let page = [JSONAPIResourceObject(type: "articles", id: "1", attributes: ["title": "Hello"])]
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("data")
            writer.beginArray()
            for article in page { article.write(to: &writer) }
            writer.endArray()
            if let requested = query.page {
                writer.key("links")
                requested.links(forRequest: request.jsonapiTarget, result: .total(page.count)).write(to: &writer)
            }
            writer.endObject()
            return JSONAPIResponse(bytes: try writer.finish())
        }
        articles.create = { request, _ in
            let document = try await request.jsonapiDocument(kind: .createRequest, configuration: configuration)
            guard let resource = document.primaryResources.first else {
                throw JSONAPIHTTPError(
                    status: 422, title: "Invalid resource", detail: "`data` must be a resource object")
            }
            var created = JSONAPIResourceObject(resource)
            created.id = created.id ?? "2"  // store it ...
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("data")
            created.write(to: &writer)
            writer.endObject()
            return JSONAPIResponse(status: .created, bytes: try writer.finish())
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
            // A create request whose data is not a resource object is refused by the parser (400).
            try await scenario.send("POST", "/articles", body: #"{"data":null}"#, expect: 400)
        }
    }
}
