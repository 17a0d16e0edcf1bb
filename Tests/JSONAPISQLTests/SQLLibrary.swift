import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer

@testable import JSONAPITestSupport

/// The library of ``Library`` on a database: authors, books (a to-one author; reviews, the
/// inverse of a review's book) and reviews.
enum SQLLibrary {
    struct Sources: Sendable {
        let authors: SQLDataSource<Library.Author>
        let books: SQLDataSource<Library.Book>
        let reviews: SQLDataSource<Library.Review>
    }

    static func sources(_ database: SQLResourceDatabase, onDelete: ResourceDeleteRule = .refuse) -> Sources {
        var books = SQLTable(Library.Book.self)
        books.toOne("author", column: "author_id", onDelete: onDelete)
        books.toMany("reviews", inverseOf: "book")
        var reviews = SQLTable(Library.Review.self)
        reviews.toOne("book", column: "book_id", onDelete: .cascade)
        return Sources(
            authors: database.source(SQLTable(Library.Author.self)), books: database.source(books),
            reviews: database.source(reviews))
    }

    /// The service over `sources`, with `configure` applied to the books' declaration.
    static func service(
        _ sources: Sources, books configure: (inout ResourceDeclaration<SQLDataSource<Library.Book>>) -> Void = { _ in }
    ) -> ResourceService {
        var service = ResourceService()
        var authors = ResourceDeclaration(source: sources.authors)
        authors.clientIDs = .allowed
        service.serve(authors)
        var books = ResourceDeclaration(source: sources.books)
        books.clientIDs = .allowed
        configure(&books)
        service.serve(books)
        var reviews = ResourceDeclaration(source: sources.reviews)
        reviews.clientIDs = .allowed
        service.serve(reviews)
        return service
    }

    /// Two authors, three books, two reviews: ``Library``'s data, written through the service.
    static func seed(_ service: ResourceService) async throws {
        let writes: [(String, String)] = [
            ("authors", #"{"data":{"type":"authors","id":"1","attributes":{"name":"Frank Herbert","born":1920}}}"#),
            ("authors", #"{"data":{"type":"authors","id":"2","attributes":{"name":"Ursula K. Le Guin","born":1929}}}"#),
            ("books", book("1", "Dune", 1965, "4.5", author: "1")),
            ("books", book("2", "The Dispossessed", 1974, "4.7", author: "2")),
            ("books", book("3", "Children of Dune", 1976, "null", author: "1")),
            ("reviews", review("1", "A classic.", 5, book: "1")),
            ("reviews", review("2", "Long.", 3, book: "1")),
        ]
        for (type, body) in writes {
            let answer = await service.send("POST", type, .collection, body: body)
            guard answer.status == 201 else { throw TestSetupError("seeding \(type): \(answer.status) \(answer.text)") }
        }
    }

    static func book(_ id: String, _ title: String, _ year: Int, _ rating: String, author: String) -> String {
        #"{"data":{"type":"books","id":"\#(id)","attributes":{"title":"\#(title)","year":\#(year),"rating":\#(rating)},"relationships":{"author":{"data":{"type":"authors","id":"\#(author)"}}}}}"#
    }

    static func review(_ id: String, _ body: String, _ stars: Int, book: String) -> String {
        #"{"data":{"type":"reviews","id":"\#(id)","attributes":{"body":"\#(body)","stars":\#(stars)},"relationships":{"book":{"data":{"type":"books","id":"\#(book)"}}}}}"#
    }
}
