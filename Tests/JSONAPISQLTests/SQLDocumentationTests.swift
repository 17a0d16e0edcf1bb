import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Models as a user writes them: plain `Codable`, relationships as `Identifier`s.
struct SQLAuthor: Codable, Sendable, JSONAPIResource {
    static let resourceType = "authors"
    var id: String
    var name: String
}

struct SQLBook: Codable, Sendable, JSONAPIResource {
    static let resourceType = "books"
    var id: String
    var title: String
    var year: Int
    var author: Identifier<SQLAuthor>
    var reviews: [Identifier<SQLReview>]
}

struct SQLReview: Codable, Sendable, JSONAPIResource {
    static let resourceType = "reviews"
    var id: String
    var stars: Int
    var book: Identifier<SQLBook>
}

/// The example of the JSONAPISQL article, run as it is written.
@Suite("JSONAPISQL documentation examples")
struct SQLDocumentationTests {
    @Test("the article's service: declared, created, served")
    func article() async throws {
        let database = try await SQLResourceDatabase.sqlite(.memory)
        var books = SQLTable(SQLBook.self)
        books.toOne("author", column: "author_id")
        books.toMany("reviews", inverseOf: "book")
        var reviews = SQLTable(SQLReview.self)
        reviews.toOne("book", column: "book_id", onDelete: .cascade)

        var service = ResourceService()
        service.serve(ResourceDeclaration(source: database.source(SQLTable(SQLAuthor.self))))
        service.serve(ResourceDeclaration(source: database.source(books)))
        service.serve(ResourceDeclaration(source: database.source(reviews)))
        service.transaction = database
        try await database.createTables()

        let author = await service.send(
            "POST", "authors", .collection, body: #"{"data":{"type":"authors","attributes":{"name":"Frank Herbert"}}}"#)
        #expect(author.status == 201, "\(author.text)")
        let book = await service.send(
            "POST", "books", .collection,
            body:
                #"{"data":{"type":"books","attributes":{"title":"Dune","year":1965},"relationships":{"author":{"data":{"type":"authors","id":"1"}}}}}"#
        )
        #expect(book.status == 201, "\(book.text)")
        let review = await service.send(
            "POST", "reviews", .collection,
            body:
                #"{"data":{"type":"reviews","attributes":{"stars":5},"relationships":{"book":{"data":{"type":"books","id":"1"}}}}}"#
        )
        #expect(review.status == 201, "\(review.text)")
        let read = await service.send("GET", "books", .resource(id: "1"), query: "include=reviews")
        #expect(read.text.contains(#""reviews":{"data":[{"type":"reviews","id":"1"}]"#), "\(read.text)")
        await database.shutdown()
    }
}
