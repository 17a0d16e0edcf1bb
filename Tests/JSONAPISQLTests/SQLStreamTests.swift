import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// A table read as a stream (`streamRecords`, what a streamed collection answers from): batches
/// of growing size, each a statement that starts after the last row of the one before, read
/// every matching row once and in the order the same query reads them in one statement.
@Suite("SQL: streamed collections")
struct SQLStreamTests {
    /// More rows than the first four batches (500, 1,000, 2,000, 4,000) hold, so that the
    /// stream reads a full batch of each size and ends on a partial one.
    static let books = 7_777

    /// One SQLite kind (the statements are the same for a file) and PostgreSQL: 7,777 writes
    /// per database are most of this test's time.
    @Test(
        "every matching row once, in order, across batches",
        arguments: SQLTestDatabase.available.filter { $0 != .sqliteFile })
    func everyRowOnce(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            try await database.createTables()
            _ = try await sources.authors.create(Library.Author(id: "1", name: "Anonymous", born: nil))
            try await database.transaction {
                for number in 1...Self.books {
                    let book = Library.Book(
                        id: String(number), title: "Book \(number % 613)", year: 1900 + number % 97,
                        rating: number % 5 == 0 ? nil : Double(number % 50) / 10, author: Identifier("1"),
                        reviews: [])
                    _ = try await sources.books.create(book)
                }
            }
            // No sort (the id alone), a sort with NULLs and ties, and a filter.
            let queries = [
                ResourceListQuery(),
                ResourceListQuery(sort: [
                    JSONAPIQuery.SortField("rating"), JSONAPIQuery.SortField("year", descending: true),
                ]),
                ResourceListQuery(
                    sort: [JSONAPIQuery.SortField("title", descending: true)],
                    filter: .compare("year", .greaterThan, .int(1950))),
            ]
            for query in queries {
                var streamed: [String] = []
                for try await record in sources.books.streamRecords(query) { streamed.append(record.id ?? "") }
                // The reference: the same query in one statement, without pages.
                let listed = try await sources.books.listRecords(query).models.map { $0.id ?? "" }
                #expect(streamed == listed, "\(query)")
                #expect(Set(streamed).count == streamed.count, "a row read twice: \(query)")
                if query.filter == ResourceFilter() { #expect(streamed.count == Self.books) }
            }
        }
    }
}
