import Foundation
import JSONAPI
import JSONAPIClient
import Testing

@testable import JSONAPIExample

/// The examples of the client's DocC catalog (the landing page and "Using the client"), as
/// written there, run against the example service on a loopback port: only the base URL differs.
/// (`scripts/docs` fails when a line of them is in no test.)
enum UsingTheClientExample {
    /// The article's models; the others (`Article`, `Person`, `Tag`, `NewPerson`) are the tests'.
    struct NewArticle: Encodable, JSONAPIResource {
        static let resourceType = "articles"
        var id = ""  // empty: the server assigns it; set it for a client id
        var lid: String?  // JSON:API 1.1 local id
        var title: String
        var author: Identifier<Person>
    }

    struct ArticlePatch: Encodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: Field<String> = .absent  // left out of the body
        var body: Field<String> = .absent  // .null sends null
    }

    struct FullArticle: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person
    }

    struct RequestID: JSONAPIInterceptor {
        func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws
            -> JSONAPIClientResponse
        {
            var request = request
            request.headers.replaceOrAdd(name: "X-Request-ID", value: UUID().uuidString)
            return try await next(request)
        }
    }

    struct VersionedRouter: JSONAPIRouter {
        func path(for endpoint: JSONAPIEndpoint) -> String {
            switch endpoint {
            case .operations: "/v2/batch"
            default: "/v2" + JSONAPIDefaultRouter().path(for: endpoint)
            }
        }
    }

    struct Seen {
        var pageCount = 0
        var total: JSON?
        var pagesRead = 0
        var everything = 0
        var streamed = 0
        var firstTitle = ""
        var authorID: String?
        var tagIDs: [String] = []
        var createdStatus = 0
        var updatedBody: String? = "unset"
        var deletedStatus = 0
        var operations = 0
        var notFound = ""
        var storedAuthor: String?
        var liveChanges: [String] = []
        var typeChange = ""
        var storedArticles = 0
        var storeSources: [String] = []
        var sources: [String] = []
        var conflictTitle = ""
        var resilientTitle = ""
        var routedPath = ""
    }

    static func run(baseURL base: String) async throws -> Seen {
        var seen = Seen()
        let token = "secret"

        // Set up.
        var configuration = JSONAPIClient.Configuration()
        configuration.headers = ["Authorization": "Bearer \(token)"]
        configuration.timeout = .seconds(30)  // the whole exchange, body included
        configuration.maximumResponseBytes = 256 << 20  // a longer body is an error, not a crash
        configuration.decoding.keyDecodingStrategy = .convertFromSnakeCase
        configuration.profiles = ["https://example.com/profiles/audit"]

        let baseURL = base
        let client = JSONAPIClient(
            baseURL: baseURL, transport: URLSessionTransport(),
            configuration: configuration, store: ResourceStore(maximumResources: 50_000))

        // Read.
        let articles = client.resources(Article.self)
        do {
            let page = try await articles.list(
                JSONAPIQuery()
                    .including("author", "comments.author")
                    .fields(Article.self, "title", "author")
                    .fields(Person.self, "name")
                    .sorted(by: "-createdAt")
                    .paged(number: 1, size: 50)
                    .filtered("title", equals: "Hello"))
            _ = page.value  // [Article]
            _ = page.meta  // the top-level meta, such as ["total": 1234]
            _ = page.links  // self, first, prev, next, last
            _ = page.skipped  // resources the decoder left out (with ignoresMissingResources)
            _ = page.document  // the parsed document, for anything else
            seen.pageCount = page.value.count
            seen.total = page.meta?["total"]

            var printed: [Int] = []
            func print(_ count: Int) { printed.append(count) }
            for try await page in articles.pages(JSONAPIQuery().paged(number: 1, size: 100)) {
                print(page.value.count)
            }
            seen.pagesRead = printed.count
            let everything = try await articles.pages(maximumPages: 20).models()
            seen.everything = everything.count

            var count = 0
            for try await article in articles.stream(JSONAPIQuery().paged(number: 1, size: 100)) {
                count += article.title.isEmpty ? 0 : 1  // one model at a time; none is kept
            }
            seen.streamed = count

            let article = try await articles.get(id: "1").value
            let author = try await articles.related(id: "1", "author", as: Person.self).value.first
            let tagIDs = try await articles.relationship(id: "1", "tags").value  // [ResourceIdentifier]
            seen.firstTitle = article.title
            seen.authorID = author?.id
            seen.tagIDs = tagIDs.map { $0.id ?? "" }
        }

        // Write.
        do {
            let created = try await articles.create(NewArticle(title: "Hello", author: "9"))
            let updated = try await articles.update(ArticlePatch(id: "1", body: .null))

            try await articles.changeRelationship(id: "1", "tags", .add([Identifier<Tag>("4")]))
            try await articles.changeRelationship(id: "1", "author", .toOne(Identifier<Person>("9")))

            let deleted = try await articles.delete(id: "3")
            seen.createdStatus = created.status
            seen.updatedBody = updated.resource?.body
            seen.deletedStatus = deleted.status

            var batch = AtomicOperationsDocument()
            try batch.add(NewPerson(lid: "p", name: "Ada"))
            try batch.add(NewArticle(title: "Notes", author: Identifier(id: "", lid: "p")))
            let results = try await client.operations(batch)
            seen.operations = results.results.count
        }

        // Errors.
        var printed: [String] = []
        do {
            func print(_ text: String) { printed.append(text) }
            do {
                _ = try await articles.get(id: "4242")
            } catch let error as JSONAPIClientError where error.kind == .errorResponse && error.status == 404 {
                print(error.errors.first?.detail ?? "not found")
            }
        }
        seen.notFound = printed.first ?? ""

        // The store.
        do {
            let store = ResourceStore()
            let storing = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport(), store: store)
            let everyone = JSONAPIQuery().paged(number: 1, size: 100)
            _ = try await storing.resources(Article.self).list()  // articles with author linkage
            _ = try await storing.resources(Person.self).list(everyone)  // their authors, later
            let stored = try store.model(FullArticle.self, id: "1")  // author: Person, from the store
            seen.storedAuthor = stored?.author.id
        }

        // The live store.
        do {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            let live = ResourceStore()
            let liveClient = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport(), store: live)
            let changes = live.changes(of: ResourceStore.Key(type: "articles", id: "2"))
            let liveArticles = liveClient.resources(Article.self)
            _ = try await liveArticles.get(id: "2")
            _ = try await liveArticles.update(ArticlePatch(id: "2", title: .value("Live")), optimistic: true)
            for await change in changes.prefix(2) { print(change) }  // articles/2 inserted, articles/2 updated
            seen.liveChanges = printed

            let articleChanges = live.changes(ofType: "articles")
            _ = try await liveArticles.list()
            for await change in articleChanges.prefix(1) { print(change) }  // articles/1 inserted
            let everyArticle = try live.models(of: Article.self)  // in no particular order
            seen.typeChange = printed.last ?? ""
            seen.storedArticles = everyArticle.count
        }

        // Reads answered from the store.
        do {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            var remembering = JSONAPIClient.Configuration()
            remembering.queryLifetime = .seconds(30)
            let recent = JSONAPIClient(
                baseURL: baseURL, transport: URLSessionTransport(), configuration: remembering, store: ResourceStore())
            let read = try await recent.send(recent.request("GET", baseURL + "/articles?include=author"))
            let reread = try await recent.send(recent.request("GET", baseURL + "/articles?include=author"))
            print(read.source, reread.source)  // network store
            seen.storeSources = printed
        }

        // Caching and conditional writes: another client changes article 1 between the read and
        // the write.
        do {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            let reader = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport())
            let first = try await reader.send(reader.request("GET", baseURL + "/articles/1"))
            let again = try await reader.send(reader.request("GET", baseURL + "/articles/1"))
            print(first.source, again.source)  // network revalidated

            let other = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport())
            _ = try await other.resources(Article.self).update(ArticlePatch(id: "1", title: .value("Theirs")))
            do {
                _ = try await reader.resources(Article.self).update(ArticlePatch(id: "1", title: .value("Mine")))
            } catch let error as JSONAPIClientError where error.kind == .preconditionFailed {
                let current = try await reader.resources(Article.self).get(id: "1")  // read it again, then decide
                print(current.value.title)
            }

            var uncached = JSONAPIClient.Configuration()
            uncached.caching.isEnabled = false  // every request as the caller made it
            seen.sources = printed.first.map { [$0] } ?? []
            seen.conflictTitle = printed.dropFirst().first ?? ""
            #expect(!uncached.caching.isEnabled)
        }

        // Retries and interceptors: a client configured so reads the service as any other.
        do {
            var resilient = JSONAPIClient.Configuration()
            resilient.retries = JSONAPIClient.RetryPolicy(maximumAttempts: 4)
            resilient.interceptors = [RequestID()]
            let client = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport(), configuration: resilient)
            seen.resilientTitle = try await client.resources(Article.self).get(id: "2").value.title
        }

        // Routing.
        do {
            var router = JSONAPIPathTemplateRouter()
            router.collection = "/api/{type}"
            router.resource = "/api/{type}/{id}"
            router.overrides["people"] = .init(collection: "/api/users", resource: "/api/users/{id}")
            configuration.router = router

            configuration.router = VersionedRouter()
            seen.routedPath = VersionedRouter().path(for: .operations)
        }
        return seen
    }
}

/// The landing page's example.
enum ClientLandingPageExample {
    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Identifier<Person>?
    }

    static func run(baseURL base: String) async throws -> [String] {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let baseURL = base
        let client = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport())
        let articles = client.resources(Article.self)

        let page = try await articles.list(JSONAPIQuery().sorted(by: "-createdAt").paged(number: 1, size: 20))
        for article in page.value { print(article.title) }
        print(page.meta?["total"] ?? "?", page.next ?? "last page")
        return printed
    }
}

@Suite struct ClientArticleExampleTests {
    @Test func usingTheClient() async throws {
        let service = try await ExampleService(store: .seeded(articles: 40, seed: 3))
        try await ExampleServiceFront.hummingbird.serve(service) { base in
            let seen = try await UsingTheClientExample.run(baseURL: base)
            #expect(seen.pageCount == 0)  // no article is titled "Hello" yet
            #expect(seen.total == JSON(0))
            #expect(seen.pagesRead == 1)  // 40 articles, pages of 100
            #expect(seen.everything == 40)  // 4 pages of the default 10
            #expect(seen.streamed == 40)
            #expect(!seen.firstTitle.isEmpty)
            #expect(seen.authorID != nil)
            #expect(seen.createdStatus == 201)
            #expect(seen.updatedBody == nil)
            #expect(seen.deletedStatus == 204)
            #expect(seen.operations == 2)
            #expect(!seen.notFound.isEmpty)
            #expect(seen.storedAuthor == "9")  // article 1's author was set to person 9
            #expect(seen.liveChanges == ["articles/2 inserted", "articles/2 updated"])
            #expect(seen.typeChange == "articles/1 inserted")
            #expect(seen.storedArticles > 1)
            #expect(seen.storeSources == ["network store"])
            #expect(seen.sources == ["network revalidated"])
            #expect(seen.conflictTitle == "Theirs")
            #expect(!seen.resilientTitle.isEmpty)  // the write was refused, the other client's title kept
            #expect(seen.routedPath == "/v2/batch")
            // What the writes did, read back.
            let client = JSONAPIClient(baseURL: base, transport: URLSessionTransport())
            let tags = try await client.resources(Article.self).relationship(id: "1", "tags").value.map { $0.id ?? "" }
            #expect(tags.contains("4"))
        }
    }

    @Test func landingPage() async throws {
        let service = try await ExampleService(store: .seeded(articles: 25, seed: 3))
        try await ExampleServiceFront.hummingbird.serve(service) { base in
            let printed = try await ClientLandingPageExample.run(baseURL: base)
            #expect(printed.count == 21)  // 20 titles, then the total and the next link
            #expect(printed.last?.hasPrefix("25 ") == true)
            #expect(printed.last?.contains("page") == true)
        }
    }
}
