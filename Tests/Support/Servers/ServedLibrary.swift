import JSONAPI
import JSONAPIServer

/// A small library, modelled as users write models: plain `Codable` structs, relationships as
/// identifiers.
enum Library {
    struct Author: Codable, Sendable, Equatable, JSONAPIResource {
        static let resourceType = "authors"
        var id: String
        var name: String
        var born: Int?
    }

    struct Book: Codable, Sendable, Equatable, JSONAPIResource {
        static let resourceType = "books"
        var id: String
        var title: String
        var year: Int
        var rating: Double?
        var author: Identifier<Author>
        var reviews: [Identifier<Review>]
    }

    struct Review: Codable, Sendable, Equatable, JSONAPIResource {
        static let resourceType = "reviews"
        var id: String
        var body: String
        var stars: Int
        var book: Identifier<Book>
    }

    /// The data sources of one service.
    struct Sources: Sendable {
        let authors: InMemoryDataSource<Author>
        let books: InMemoryDataSource<Book>
        let reviews: InMemoryDataSource<Review>
    }

    /// Two authors, three books, two reviews.
    static func sources() throws -> Sources {
        Sources(
            authors: try InMemoryDataSource([
                Author(id: "1", name: "Frank Herbert", born: 1920),
                Author(id: "2", name: "Ursula K. Le Guin", born: 1929),
            ]),
            books: try InMemoryDataSource([
                Book(id: "1", title: "Dune", year: 1965, rating: 4.5, author: "1", reviews: ["1", "2"]),
                Book(id: "2", title: "The Dispossessed", year: 1974, rating: 4.7, author: "2", reviews: []),
                Book(id: "3", title: "Children of Dune", year: 1976, rating: nil, author: "1", reviews: []),
            ]),
            reviews: try InMemoryDataSource([
                Review(id: "1", body: "A classic.", stars: 5, book: "1"),
                Review(id: "2", body: "Long.", stars: 3, book: "1"),
            ]))
    }

    /// ``sources()`` linked as a database's tables are: `Book.reviews` is the inverse of
    /// `Review.book`, deleting a book deletes its reviews, and an author is not deleted while a
    /// book names it.
    static func linkedSources() throws -> Sources {
        let sources = try sources()
        try sources.reviews.toOne("book", in: sources.books, onDelete: .cascade)
        try sources.books.toOne("author", in: sources.authors)
        try sources.books.toMany("reviews", inverseOf: "book", in: sources.reviews)
        return sources
    }

    /// The service over `sources`, with `configure` applied to the books' declaration.
    static func service(
        _ sources: Sources, books configure: (inout ResourceDeclaration<InMemoryDataSource<Book>>) -> Void = { _ in }
    ) -> ResourceService {
        var service = ResourceService()
        service.serve(ResourceDeclaration(source: sources.authors))
        var books = ResourceDeclaration(source: sources.books)
        configure(&books)
        service.serve(books)
        service.serve(ResourceDeclaration(source: sources.reviews))
        return service
    }
}
