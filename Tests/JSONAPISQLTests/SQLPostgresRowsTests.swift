import Foundation
import JSONAPI
import JSONAPIServer
import SQLKit
import Testing

@testable import JSONAPISQL
@testable import JSONAPITestSupport

/// Rows of a `PostgresClient` are read by PostgresNIO cell by cell; the same rows read through
/// SQLKit's `decode(column:as:)` are the reference: every record equal, NULLs, escapes, the
/// widest integers, narrower column types of an existing table, and the statements counted.
@Suite("SQL: PostgreSQL rows read by PostgresNIO")
struct SQLPostgresRowsTests {
    static let available = SQLTestDatabase.available.contains(.postgres)

    /// Every book and author, listed and by id, through the reader and through SQLKit.
    static func compare(_ sources: SQLLibrary.Sources) async throws {
        let query = ResourceListQuery(page: .offset(0, limit: 100))
        let books = try await sources.books.listRecords(query).models
        let reference = try await SQLStatements.$readsPostgresRows.withValue(false) {
            try await sources.books.listRecords(query).models
        }
        #expect(books == reference)
        #expect(books.count >= 5)
        let ids = books.compactMap(\.id)
        let byID = try await sources.books.records(ids: ids)
        let referenceByID = try await SQLStatements.$readsPostgresRows.withValue(false) {
            try await sources.books.records(ids: ids)
        }
        #expect(byID == referenceByID)
        let authors = try await sources.authors.records(ids: ["1", "2", "3"])
        let referenceAuthors = try await SQLStatements.$readsPostgresRows.withValue(false) {
            try await sources.authors.records(ids: ["1", "2", "3"])
        }
        #expect(authors == referenceAuthors)
    }

    @Test("the same records as SQLKit reads, and one statement each", .enabled(if: available))
    func sameRecords() async throws {
        try await SQLTestDatabase.postgres.with { database in
            let sources = SQLLibrary.sources(database)
            try await database.createTables()
            let service = SQLLibrary.service(sources)
            try await SQLLibrary.seed(service)
            let extra: [(String, String)] = [
                (
                    "authors",
                    #"{"data":{"type":"authors","id":"3","attributes":{"name":"Łódź \"quoted\" \\ back\nslash 🎉","born":-9223372036854775808}}}"#
                ),
                (
                    "books",
                    SQLLibrary.book("4", #"tab\there, \u0001 control"#, 9_223_372_036_854_775_807, "-0.5", author: "3")
                ),
                ("books", SQLLibrary.book("5", "", 0, "1e300", author: "3")),
            ]
            for (type, body) in extra {
                let answer = await service.send("POST", type, .collection, body: body)
                #expect(answer.status == 201, "\(answer.text)")
            }
            let before = database.statementsExecuted
            _ = try await sources.books.records(ids: ["1", "2"])
            #expect(database.statementsExecuted - before == 1)
            try await Self.compare(sources)
        }
    }

    @Test("tables mapped onto narrower column types: the same records", .enabled(if: available))
    func narrowerColumns() async throws {
        try await SQLTestDatabase.postgres.with { database in
            let sources = SQLLibrary.sources(database)
            try await database.createTables()
            // An existing table's types: `varchar`, `smallint`, `real` (float4), `char(n)`.
            try await database.session {
                try await $0.raw("ALTER TABLE books ALTER COLUMN title TYPE varchar(200)").run()
                try await $0.raw("ALTER TABLE books ALTER COLUMN year TYPE smallint").run()
                try await $0.raw("ALTER TABLE books ALTER COLUMN rating TYPE real").run()
                try await $0.raw("ALTER TABLE authors ALTER COLUMN name TYPE char(40)").run()
            }
            let service = SQLLibrary.service(sources)
            try await SQLLibrary.seed(service)
            let extra = [
                SQLLibrary.book("4", "Four", 2000, "0.25", author: "1"),
                SQLLibrary.book("5", "Five", -32768, "null", author: "2"),
            ]
            for body in extra {
                let answer = await service.send("POST", "books", .collection, body: body)
                #expect(answer.status == 201, "\(answer.text)")
            }
            try await Self.compare(sources)
            let four = try await sources.books.records(ids: ["4"])
            #expect(four.first?.attributes["rating"] == .double(0.25))
        }
    }
}
