import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Linked in-memory stores: an inverse pair is one fact, and a delete follows the declared rules,
/// as a database's foreign keys would.
@Suite("In-memory data source: linked stores")
struct InMemoryLinksTests {
    typealias Book = Library.Book

    static func linkage(_ answer: Answer) -> [String] {
        answer.document?.primaryResources.map { $0.id ?? "" } ?? []
    }

    @Test("a review created for a book is in the book's reviews, read from either side")
    func createdOnTheToOneSide() async throws {
        let sources = try Library.linkedSources()
        let service = Library.service(sources)
        let created = await service.send(
            "POST", "reviews", .collection,
            body:
                #"{"data":{"type":"reviews","attributes":{"body":"Sharp.","stars":4},"relationships":{"book":{"data":{"type":"books","id":"2"}}}}}"#
        )
        #expect(created.status == 201)
        let id = try #require(created.document?.primaryResources.first?.id)
        let linkage = await service.send("GET", "books", .relationship(id: "2", relationship: "reviews"))
        #expect(linkage.text.contains(#"{"type":"reviews","id":"\#(id)"}"#))
        #expect(try await sources.books.fetch(id: "2")?.reviews == [Identifier(id)])
        let included = await service.send("GET", "books", .resource(id: "2"), query: "include=reviews")
        #expect(included.document?.included.map { $0.id ?? "" } == [id])
    }

    @Test("a book claiming a review moves it: the review's book is the book that claimed it")
    func claimedOnTheToManySide() async throws {
        let sources = try Library.linkedSources()
        let service = Library.service(sources)
        let claim = await service.send(
            "POST", "books", .relationship(id: "3", relationship: "reviews"),
            body: #"{"data":[{"type":"reviews","id":"1"}]}"#)
        #expect(claim.status == 204 || claim.status == 200)
        #expect(try await sources.reviews.fetch(id: "1")?.book == "3")
        let first = await service.send("GET", "books", .relationship(id: "1", relationship: "reviews"))
        #expect(first.text.contains(#"[{"type":"reviews","id":"2"}]"#))
        let third = await service.send("GET", "books", .relationship(id: "3", relationship: "reviews"))
        #expect(third.text.contains(#"[{"type":"reviews","id":"1"}]"#))
        // A review keeps its book: it cannot leave one without joining another.
        let emptied = await service.send(
            "PATCH", "books", .relationship(id: "1", relationship: "reviews"), body: #"{"data":[]}"#)
        #expect(emptied.status == 409)
        #expect(emptied.errors.first?.code == "required-relationship")
        #expect(try await sources.reviews.fetch(id: "2")?.book == "1")
        // A whole-resource PATCH writes the same fact.
        let patched = await service.send(
            "PATCH", "books", .resource(id: "2"),
            body:
                #"{"data":{"type":"books","id":"2","relationships":{"reviews":{"data":[{"type":"reviews","id":"2"}]}}}}"#
        )
        #expect(patched.status == 200)
        #expect(try await sources.reviews.fetch(id: "2")?.book == "2")
        #expect(try await sources.books.fetch(id: "1")?.reviews == [])
    }

    @Test("a delete follows the rules: refused while named, cascading to what it owns")
    func deleteRules() async throws {
        let sources = try Library.linkedSources()
        let service = Library.service(sources)
        let refused = await service.send("DELETE", "authors", .resource(id: "1"))
        #expect(refused.status == 409)
        #expect(refused.errors.first?.detail?.contains("`author`") == true)
        #expect(try await sources.authors.fetch(id: "1") != nil)
        #expect(await service.send("DELETE", "books", .resource(id: "1")).status == 204)
        #expect(try await sources.reviews.fetch(ids: ["1", "2"]).isEmpty)
        #expect(await service.send("GET", "reviews", .resource(id: "1")).status == 404)
        #expect(await service.send("DELETE", "books", .resource(id: "3")).status == 204)
        #expect(await service.send("DELETE", "authors", .resource(id: "1")).status == 204)
    }

    struct Shelf: Codable, Sendable, Equatable, JSONAPIResource {
        static let resourceType = "shelves"
        var id: String
        var books: [Identifier<Book>]
        var favourite: Identifier<Book>?
    }

    @Test("set null and to-many linkage: a deleted book leaves no shelf naming it")
    func setNullAndToMany() async throws {
        let sources = try Library.linkedSources()
        let shelves = try InMemoryDataSource([
            Shelf(id: "a", books: ["1", "2", "3"], favourite: "3"), Shelf(id: "b", books: ["3"], favourite: nil),
        ])
        try shelves.toMany("books", in: sources.books)
        try shelves.toOne("favourite", in: sources.books, onDelete: .setNull)
        _ = try await sources.books.delete(id: "3")
        #expect(try await shelves.fetch(id: "a") == Shelf(id: "a", books: ["1", "2"], favourite: nil))
        #expect(try await shelves.fetch(id: "b") == Shelf(id: "b", books: [], favourite: nil))
        // A cascade that meets a refusal deletes nothing.
        try sources.reviews.toOne("book", in: sources.books, onDelete: .cascade)
        let pinned = try InMemoryDataSource([Pin(id: "p", review: "1")])
        try pinned.toOne("review", in: sources.reviews)
        await #expect(throws: JSONAPIHTTPError.self) { try await sources.books.delete(id: "1") }
        #expect(try await sources.books.fetch(id: "1") != nil)
        #expect(try await sources.reviews.fetch(ids: ["1", "2"]).count == 2)
        #expect(try await shelves.fetch(id: "a")?.books == ["1", "2"])
    }

    struct Pin: Codable, Sendable, Equatable, JSONAPIResource {
        static let resourceType = "pins"
        var id: String
        var review: Identifier<Library.Review>
    }

    @Test("a link names what the models have, or the declaration throws")
    func declarationsChecked() throws {
        let sources = try Library.sources()
        #expect(throws: InMemoryLinkError.self) { try sources.books.toOne("title", in: sources.authors) }
        #expect(throws: InMemoryLinkError.self) { try sources.books.toOne("reviews", in: sources.reviews) }
        #expect(throws: InMemoryLinkError.self) {
            try sources.books.toOne("author", in: sources.authors, onDelete: .setNull)
        }
        #expect(throws: InMemoryLinkError.self) {
            try sources.books.toMany("author", inverseOf: "book", in: sources.reviews)
        }
        #expect(throws: InMemoryLinkError.self) {
            try sources.books.toMany("reviews", inverseOf: "stars", in: sources.reviews)
        }
    }

    @Test("random writes on either side: both sides always read the same fact")
    func randomWritesAgree() async throws {
        let sources = try Library.linkedSources()
        let service = Library.service(sources)
        var random = SplitMix64(seed: 50)
        for _ in 0..<200 {
            let review = String(1 + random.next() % 2)
            let book = String(1 + random.next() % 3)
            if random.next() % 2 == 0 {
                _ = await service.send(
                    "PATCH", "reviews", .relationship(id: review, relationship: "book"),
                    body: #"{"data":{"type":"books","id":"\#(book)"}}"#)
            } else {
                _ = await service.send(
                    "POST", "books", .relationship(id: book, relationship: "reviews"),
                    body: #"{"data":[{"type":"reviews","id":"\#(review)"}]}"#)
            }
            for book in ["1", "2", "3"] {
                let fromBook = try await sources.books.fetch(id: book)?.reviews.map(\.id) ?? []
                let fromReviews = try await sources.reviews.fetch(ids: ["1", "2"]).filter { $0.book.id == book }
                    .map(\.id)
                #expect(fromBook == fromReviews)
            }
        }
    }
}
