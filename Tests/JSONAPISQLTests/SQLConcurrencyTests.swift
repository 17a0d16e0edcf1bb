import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Two service instances on one database, as a deployment runs them: conditional writes of the
/// same resource at once, through both. Each round every request carries the `ETag` read before
/// it; one wins, every other is a 412, and the table holds what the winner was answered.
@Suite("SQL data source: two instances, one database")
struct SQLConcurrencyTests {
    @Test(
        "concurrent PATCHes with If-Match: one wins, the rest 412, no update lost", arguments: SQLTestDatabase.available
    )
    func conditionalWrites(_ kind: SQLTestDatabase) async throws {
        try await kind.withTwo { first, second in
            let services = [
                SQLLibrary.service(SQLLibrary.sources(first)), SQLLibrary.service(SQLLibrary.sources(second)),
            ]
            try await first.createTables()
            try await SQLLibrary.seed(services[0])
            for round in 0..<8 {
                let before = await services[round % 2].send("GET", "books", .resource(id: "1"))
                let etag = try #require(before.response?.etag)
                let answers = await withTaskGroup(of: (String, Answer).self) { group in
                    for writer in 0..<10 {
                        let title = "Round \(round) writer \(writer)"
                        group.addTask {
                            let answer = await services[writer % 2].send(
                                "PATCH", "books", .resource(id: "1"),
                                body: #"{"data":{"type":"books","id":"1","attributes":{"title":"\#(title)"}}}"#,
                                ifMatch: etag)
                            return (title, answer)
                        }
                    }
                    var answers: [(String, Answer)] = []
                    for await answer in group { answers.append(answer) }
                    return answers
                }
                let winners = answers.filter { $0.1.status == 200 }
                #expect(winners.count == 1, "round \(round): \(answers.map { $0.1.status })")
                #expect(answers.allSatisfy { $0.1.status == 200 || $0.1.status == 412 }, "\(answers.map(\.1.text))")
                let after = await services[(round + 1) % 2].send("GET", "books", .resource(id: "1"))
                if let winner = winners.first {
                    #expect(after.text.contains(#""title":"\#(winner.0)""#), "round \(round): \(after.text)")
                }
            }
        }
    }

    @Test(
        "an answer is reused while the tables are unchanged, and not after another instance's write",
        arguments: SQLTestDatabase.available)
    func responseCacheAcrossInstances(_ kind: SQLTestDatabase) async throws {
        try await kind.withTwo { first, second in
            let (reader, writer) = (
                SQLLibrary.service(SQLLibrary.sources(first)), SQLLibrary.service(SQLLibrary.sources(second))
            )
            let books = SQLLibrary.sources(first).books
            try await first.createTables()
            try await SQLLibrary.seed(writer)
            let before = try #require(try await books.currentVersion())

            let read = await reader.send("GET", "books", .collection, query: "include=reviews")
            #expect(read.status == 200)
            // Again: only the version is read (one statement), the answer is the same.
            let statements = first.statementsExecuted
            let again = await reader.send("GET", "books", .collection, query: "include=reviews")
            #expect(again.text == read.text)
            #expect(first.statementsExecuted - statements <= 1)

            // A review written through the other instance changes the books' inverse
            // relationship: the reader's next answer has it.
            let created = await writer.send(
                "POST", "reviews", .collection, body: SQLLibrary.review("3", "Again.", 4, book: "2"))
            #expect(created.status == 201)
            let after = try #require(try await books.currentVersion())
            #expect(after > before)
            let fresh = await reader.send("GET", "books", .collection, query: "include=reviews")
            #expect(fresh.text != read.text)
            #expect(fresh.text.contains(#"{"type":"reviews","id":"3"}"#), "\(fresh.text)")
        }
    }
}
