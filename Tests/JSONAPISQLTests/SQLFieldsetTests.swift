import Foundation
import JSONAPI
import JSONAPIServer
import SQLKit
import Testing

@testable import JSONAPISQL
@testable import JSONAPITestSupport

/// Sparse fieldsets as selected columns: the same answers as the in-memory source for random
/// fieldsets and includes, and a column left out of the fieldset is not read at all.
@Suite("SQL sparse fieldsets")
struct SQLFieldsetTests {
    static let members = ["title", "year", "rating", "author", "reviews"]

    /// The answer's `data` and `included` as comparable values (the in-memory source counts
    /// every page, the table does not: `meta` and the `last` link differ by design).
    static func json(_ answer: Answer) -> [NSObject?] {
        guard let body = answer.body,
            let document = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        else { return [] }
        return [document["data"] as? NSObject, document["included"] as? NSObject]
    }

    @Test("random fieldsets and includes: the in-memory source's answers", arguments: SQLTestDatabase.available)
    func differential(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            var sql = SQLLibrary.service(SQLLibrary.sources(database))
            sql.responseCacheLimit = 0
            try await database.createTables()
            try await SQLLibrary.seed(sql)
            let memory = try SQLWriteDifferentialTests.memoryService()
            var random = SplitMix64(seed: 55)
            for round in 0..<60 {
                let fieldset = Self.members.filter { _ in random.next() % 2 == 0 }
                let includes = ["author", "reviews", "reviews.book"].filter { _ in random.next() % 3 == 0 }
                var query = "fields[books]=\(fieldset.joined(separator: ","))"
                if !includes.isEmpty { query += "&include=" + includes.joined(separator: ",") }
                if random.next() % 2 == 0 { query += "&fields[reviews]=stars" }
                if random.next() % 2 == 0 { query += "&sort=-year&page[size]=2" }
                let expected = await memory.send("GET", "books", .collection, query: query)
                let answer = await sql.send("GET", "books", .collection, query: query)
                #expect(answer.status == expected.status, "round \(round) \(query): \(answer.text)")
                #expect(
                    Self.json(answer) == Self.json(expected),
                    "round \(round) \(query)\n\(answer.text)\n\(expected.text)")
            }
        }
    }

    @Test("a column outside the fieldset is not read")
    func columnsNotRead() async throws {
        try await SQLTestDatabase.sqliteMemory.with { database in
            var service = SQLLibrary.service(SQLLibrary.sources(database))
            service.responseCacheLimit = 0
            try await database.createTables()
            try await SQLLibrary.seed(service)
            // SQLite keeps what it is given: a year no book's model can hold.
            try await database.session { connection in
                try await connection.raw("UPDATE books SET year = 'not a year'").run()
            }
            let titles = await service.send("GET", "books", .collection, query: "fields[books]=title,reviews")
            #expect(titles.status == 200, "\(titles.text)")
            #expect(titles.document?.primaryResources.count == 3)
            let whole = await service.send("GET", "books", .collection)
            // A value the declaration cannot hold is the server's failure, told without the
            // driver's words.
            #expect(whole.status == 500, "\(whole.text)")
            #expect(!whole.text.contains("SQLite") && !whole.text.contains("Int64") && !whole.text.contains("year"))
        }
    }
}
