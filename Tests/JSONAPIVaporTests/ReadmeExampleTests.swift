import JSONAPI
import JSONAPIVapor
import Testing
import Vapor

@testable import JSONAPITestSupport

/// The README's Vapor example, its routes written exactly as there, served over a real socket.
@Suite struct ReadmeExampleTests {
    struct Article: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
    }

    /// The README's lines between `Application.make` and `app.execute()`.
    static func configure(_ app: Application) {
        let configuration = JSONAPIConfiguration()
        app.middleware.use(JSONAPIMiddleware(configuration: configuration))
        var articles = JSONAPIResourceRoutes()
        articles.resource = { request in
            let id = try request.parameters.require("id")
            guard id == "1" else { throw JSONAPIHTTPError.notFound("There is no article \(id).") }
            return try JSONAPIResponse(encoding: Article(id: id, title: "Hello"), encoder: JSONAPIEncoder())
        }
        articles.create = { request in
            let article = try await request.jsonapiDecode(
                Article.self, kind: .createRequest, configuration: configuration)
            return try JSONAPIResponse(status: .created, encoding: article, encoder: JSONAPIEncoder())
        }
        app.jsonapiResource("articles", articles)
    }

    @Test func readmeRoutes() async throws {
        let app = try await Application.make(Environment(name: "testing", arguments: ["readme"]))
        Self.configure(app)
        try await withRunningServer(app) { port in
            let scenario = ExampleServiceScenario(port: port)
            let article = try await scenario.send("GET", "/articles/1", expect: 200)
            #expect(article?.primaryResources.first?.attributes["title"]?.stringValue == "Hello")
            try await scenario.send("GET", "/articles/2", expect: 404)
            let created = try await scenario.send(
                "POST", "/articles", body: #"{"data":{"type":"articles","id":"7","attributes":{"title":"New"}}}"#,
                expect: 201)
            #expect(created?.primaryResources.first?.id == "7")
            try await scenario.send(
                "POST", "/articles", body: #"{"data":{"type":"articles","id":"8","attributes":{}}}"#, expect: 422)
        }
    }
}
