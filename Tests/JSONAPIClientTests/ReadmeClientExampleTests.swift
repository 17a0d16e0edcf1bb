import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIClient
import JSONAPIHummingbird
import Testing

@testable import JSONAPIExample
@testable import JSONAPITestSupport

/// The README's client example, written as there (the base URL aside), run against the example
/// service on a loopback port.
@Suite struct ReadmeClientExampleTests {
    enum Readme {
        struct Person: Decodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
        }

        struct Article: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var title: String
            var author: Person?  // resolved when the response includes it
        }

        struct NewArticle: Encodable, JSONAPIResource {
            static let resourceType = "articles"
            var id = ""  // the server assigns it
            var title: String
            var author: Identifier<Person>
        }

        struct Seen {
            var firstPage: [Article] = []
            var titles: [String] = []
            var createdStatus = 0
            var createdID = ""
            var missingStatus = 0
            var missingDetail = ""
        }

        static func run(baseURL: String) async throws -> Seen {
            var seen = Seen()
            let client = JSONAPIClient(baseURL: baseURL, transport: URLSessionTransport())
            let articles = client.resources(Article.self)

            let page = try await articles.list(
                JSONAPIQuery().including("author").sorted(by: "-createdAt").paged(number: 1, size: 5))
            for article in page.value { print(article.title, "by", article.author?.name ?? "?") }
            seen.firstPage = page.value

            var titles: [String] = []
            for try await page in articles.pages(JSONAPIQuery().paged(number: 1, size: 50)) {
                titles += page.value.map(\.title)  // follows links.next to the last page
            }
            seen.titles = titles

            let created = try await articles.create(NewArticle(title: "Hello", author: "1"))
            print(created.status, created.resource?.id ?? "")  // 201 and the new id
            seen.createdStatus = created.status
            seen.createdID = created.resource?.id ?? ""

            do {
                _ = try await articles.get(id: "999")
            } catch let error as JSONAPIClientError where error.kind == .errorResponse {
                print(error.status ?? 0, error.errors.first?.detail ?? "")  // 404 and the server's detail
                seen.missingStatus = error.status ?? 0
                seen.missingDetail = error.errors.first?.detail ?? ""
            }
            return seen
        }
    }

    @Test func readmeExample() async throws {
        let service = try await ExampleService(store: .seeded(articles: 120, seed: 1))
        let app = HummingbirdFront.application(
            service: service, port: 0, configuration: ExampleService.configuration(maximumBodyBytes: 1 << 20),
            timeouts: JSONAPIServerTimeouts(idleTimeout: testServerIdleTimeout))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let seen = try await Readme.run(baseURL: "http://127.0.0.1:\(port)")
            #expect(seen.firstPage.count == 5)
            #expect(seen.firstPage.allSatisfy { $0.author != nil })
            #expect(seen.titles.count == 120)
            #expect(seen.createdStatus == 201)
            #expect(!seen.createdID.isEmpty)
            #expect(seen.missingStatus == 404)
            #expect(!seen.missingDetail.isEmpty)
        }
    }
}
