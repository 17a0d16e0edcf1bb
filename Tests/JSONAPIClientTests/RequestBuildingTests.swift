import JSONAPI
import JSONAPIClient
import Testing

/// Routing, URLs, headers and the chained query, without a server.
@Suite struct RequestBuildingTests {
    struct Article: Decodable, JSONAPIResource { static let resourceType = "articles"; var id: String }

    @Test func defaultRoutes() {
        let router = JSONAPIDefaultRouter()
        #expect(router.path(for: .collection(type: "articles")) == "/articles")
        #expect(router.path(for: .resource(type: "articles", id: "a/b c")) == "/articles/a%2Fb%20c")
        #expect(router.path(for: .related(type: "articles", id: "1", relationship: "author")) == "/articles/1/author")
        #expect(
            router.path(for: .relationship(type: "articles", id: "1", relationship: "tags"))
                == "/articles/1/relationships/tags")
        #expect(router.path(for: .operations) == "/operations")
        #expect(JSONAPIDefaultRouter.segment("é") == "%C3%A9")
    }

    @Test func templateRoutes() {
        var router = JSONAPIPathTemplateRouter()
        router.collection = "/api/{type}"
        router.resource = "/api/{type}/{id}"
        router.overrides["people"] = .init(collection: "/api/users", resource: "/api/users/{id}")
        #expect(router.path(for: .collection(type: "articles")) == "/api/articles")
        #expect(router.path(for: .resource(type: "people", id: "9")) == "/api/users/9")
        #expect(router.path(for: .related(type: "people", id: "9", relationship: "pets")) == "/people/9/pets")
        #expect(JSONAPIPathTemplateRouter().path(for: .resource(type: "a", id: "{x}")) == "/a/%7Bx%7D")
        var unknown = JSONAPIPathTemplateRouter()
        unknown.resource = "/r/{id}/{nope}/{"
        #expect(unknown.path(for: .resource(type: "a", id: "1")) == "/r/1/{nope}/{")
    }

    @Test func urlsAreWellFormed() {
        #expect(
            JSONAPIClient.wellFormed("http://h:1/articles?fields[articles]=title&filter[q]=a b")
                == "http://h:1/articles?fields%5Barticles%5D=title&filter%5Bq%5D=a%20b")
        #expect(JSONAPIClient.wellFormed("http://[::1]:8080/a?x=%5B") == "http://[::1]:8080/a?x=%5B")
        #expect(JSONAPIClient.wellFormed("/p?q=é") == "/p?q=%C3%A9")
    }

    @Test func chainedQuery() {
        let query = JSONAPIQuery()
            .including("author", "comments.author")
            .fields(Article.self, "title", "author")
            .fields(type: "people", ["name"])
            .sorted(by: "-createdAt", "title")
            .paged(number: 2, size: 20)
            .filtered("author", "name", equals: "Ann & Bo")
            .adding(parameter: "withDrafts", value: "1")
        #expect(
            query.queryString
                == "include=author,comments.author&fields%5Barticles%5D=author,title&fields%5Bpeople%5D=name"
                + "&sort=-createdAt,title&page%5Bnumber%5D=2&page%5Bsize%5D=20"
                + "&filter%5Bauthor%5D%5Bname%5D=Ann%20%26%20Bo&withDrafts=1"
        )
        #expect(JSONAPIQuery().paged(offset: 40, limit: 20).page == .offset(40, limit: 20))
        #expect(JSONAPIQuery().paged(after: "c", size: 5).page == .cursor(after: "c", before: nil, size: 5))
    }

    @Test func headersAndURLs() {
        var configuration = JSONAPIClient.Configuration()
        configuration.profiles = ["https://example.com/profile"]
        configuration.headers = ["Authorization": "Bearer t", "Accept": "overridden-below"]
        let client = JSONAPIClient(
            baseURL: "https://api.example.com/v1/", transport: URLSessionTransport(), configuration: configuration)
        #expect(client.baseURL == "https://api.example.com/v1")
        let request = client.request(
            "POST", client.url(for: .collection(type: "articles")), body: [1], headers: ["x-trace": "7"],
            extensions: ["https://jsonapi.org/ext/atomic"])
        #expect(request.url == "https://api.example.com/v1/articles")
        #expect(request.headers["accept"] == "overridden-below")
        #expect(
            request.headers["Content-Type"]
                == #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"; profile="https://example.com/profile""#
        )
        #expect(request.headers["AUTHORIZATION"] == "Bearer t")
        #expect(request.headers["X-Trace"] == "7")
        #expect(client.absoluteURL("/articles?page[number]=2") == "https://api.example.com/articles?page[number]=2")
        #expect(client.absoluteURL("articles") == "https://api.example.com/v1/articles")
        #expect(client.absoluteURL("http://other/x") == "http://other/x")
    }

    @Test func invalidConfigurationIsAnError() async {
        var configuration = JSONAPIClient.Configuration()
        configuration.maximumResponseBytes = 0
        let client = JSONAPIClient(
            baseURL: "http://127.0.0.1:1", transport: URLSessionTransport(), configuration: configuration)
        let error = await #expect(throws: JSONAPIClientError.self) {
            try await client.resources(Article.self).list()
        }
        #expect(error?.kind == .invalidRequest)
    }
}
