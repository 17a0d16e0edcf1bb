import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// The README's three-resource service, its lines written exactly as there, served over a real
/// socket and used through every kind of endpoint.
@Suite struct ResourceServiceReadmeTests {
    struct Author: Codable, Sendable, JSONAPIResource {
        static let resourceType = "authors"
        var id: String
        var name: String
    }

    struct Book: Codable, Sendable, JSONAPIResource {
        static let resourceType = "books"
        var id: String
        var title: String
        var year: Int
        var author: Identifier<Author>
        var reviews: [Identifier<Review>]
    }

    struct Review: Codable, Sendable, JSONAPIResource {
        static let resourceType = "reviews"
        var id: String
        var stars: Int
        var book: Identifier<Book>
    }

    /// The README's lines from the stores to `addJSONAPIService`.
    static func router() throws -> Router<BasicRequestContext> {
        let (authors, bookStore, reviews) = (
            InMemoryDataSource<Author>(), InMemoryDataSource<Book>(), InMemoryDataSource<Review>()
        )
        // One fact read from both sides: a book's reviews are the reviews whose `book` names it.
        // Deleting a book deletes its reviews; an author is not deleted while a book names them.
        try bookStore.toMany("reviews", inverseOf: "book", in: reviews)
        try reviews.toOne("book", in: bookStore, onDelete: .cascade)
        try bookStore.toOne("author", in: authors)

        var service = ResourceService()
        service.serve(ResourceDeclaration(source: authors))
        var books = ResourceDeclaration(source: bookStore)
        books.validation.length(\.title, 1...200)
        service.serve(books)
        service.serve(ResourceDeclaration(source: reviews))

        let router = Router()
        router.add(middleware: JSONAPIMiddleware(configuration: service.configuration))
        router.addJSONAPIService(service)
        return router
    }

    @Test func theReadmeServiceServesEveryEndpoint() async throws {
        let app = Application(router: try Self.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let scenario = ResourceServiceScenario(port: port)
            try await scenario.send(
                "POST", "/authors", body: #"{"data":{"type":"authors","attributes":{"name":"Ursula K. Le Guin"}}}"#,
                expect: 201)
            try await scenario.send(
                "POST", "/books",
                body: #"""
                    {"data":{"type":"books","attributes":{"title":"The Dispossessed","year":1974},
                     "relationships":{"author":{"data":{"type":"authors","id":"1"}},"reviews":{"data":[]}}}}
                    """#, expect: 201)
            try await scenario.send(
                "POST", "/reviews",
                body:
                    #"{"data":{"type":"reviews","attributes":{"stars":5},"relationships":{"book":{"data":{"type":"books","id":"1"}}}}}"#,
                expect: 201)
            // The review is the book's: the book's side reads what the review wrote.
            let linkage = try await scenario.send("GET", "/books/1/relationships/reviews", expect: 200)
            #expect(try Document(parsing: linkage.body).primaryResources.map(\.id) == ["1"])
            try await scenario.send(
                "POST", "/books/1/relationships/reviews", body: #"{"data":[{"type":"reviews","id":"1"}]}"#, expect: 200)
            let page = try await scenario.send("GET", "/books?include=author,reviews&sort=-year", expect: 200)
            let document = try Document(parsing: page.body)
            #expect(document.included.map(\.type) == ["authors", "reviews"])
            let empty = try await scenario.send(
                "PATCH", "/books/1", body: #"{"data":{"type":"books","id":"1","attributes":{"title":""}}}"#, expect: 422
            )
            #expect(try Document(parsing: empty.body).errors.first?.source?.pointer == "/data/attributes/title")
            try await scenario.send("DELETE", "/authors/1", expect: 409)
            try await scenario.send("DELETE", "/books/1", expect: 204)
            try await scenario.send("GET", "/reviews/1", expect: 404)
            try await scenario.send("DELETE", "/authors/1", expect: 204)
        }
    }
}
