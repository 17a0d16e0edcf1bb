import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Requests sent to one service at once, through the layer: no update lost, and no answer that
/// no serial order of the same requests could give.
@Suite("Resource service: concurrent requests")
struct ConcurrentRequestTests {
    /// Writes of different members of one resource, all at once: each lands.
    @Test("concurrent PATCHes of different members and relationship additions all land")
    func noLostUpdates() async throws {
        let sources = try Library.sources()
        for index in 10..<30 {
            _ = try await sources.reviews.create(Library.Review(id: String(index), body: "r", stars: 1, book: "2"))
        }
        let service = Library.service(sources)
        let statuses = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                await service.send(
                    "PATCH", "books", .resource(id: "1"),
                    body: #"{"data":{"type":"books","id":"1","attributes":{"title":"New title"}}}"#
                ).status
            }
            group.addTask {
                await service.send(
                    "PATCH", "books", .resource(id: "1"),
                    body: #"{"data":{"type":"books","id":"1","attributes":{"year":1999}}}"#
                ).status
            }
            for index in 10..<30 {
                group.addTask {
                    await service.send(
                        "POST", "books", .relationship(id: "1", relationship: "reviews"),
                        body: #"{"data":[{"type":"reviews","id":"\#(index)"}]}"#
                    ).status
                }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        let book = try #require(try await sources.books.fetch(id: "1"))
        #expect(book.title == "New title" && book.year == 1999)
        #expect(Set(book.reviews.map(\.id)) == Set(["1", "2"] + (10..<30).map(String.init)))
        #expect(book.reviews.count == 22)
    }

    /// Readers beside writers: every read is a state some serial order passes through, and one
    /// reader never sees a review disappear once it saw it.
    @Test("reads beside concurrent writes see states of a serial order, in order")
    func readsSeeSerialStates() async throws {
        let sources = try Library.sources()
        for index in 10..<40 {
            _ = try await sources.reviews.create(Library.Review(id: String(index), body: "r", stars: 1, book: "2"))
        }
        let service = Library.service(sources)
        let added = Set((10..<40).map(String.init))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 10..<40 {
                group.addTask {
                    let status = await service.send(
                        "POST", "books", .relationship(id: "1", relationship: "reviews"),
                        body: #"{"data":[{"type":"reviews","id":"\#(index)"}]}"#
                    ).status
                    #expect(status == 200)
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    var seen: Set<String> = []
                    for _ in 0..<25 {
                        let answer = await service.send("GET", "books", .relationship(id: "1", relationship: "reviews"))
                        let document = try #require(answer.document, "\(answer.text)")
                        let ids = document.primaryResources.compactMap(\.id)
                        #expect(Set(ids).count == ids.count, "a review twice: \(ids)")
                        #expect(Array(ids.prefix(2)) == ["1", "2"], "the reviews it had first: \(ids)")
                        let now = Set(ids)
                        #expect(now.subtracting(["1", "2"]).isSubset(of: added))
                        #expect(seen.isSubset(of: now), "a review went away: \(seen.subtracting(now))")
                        seen = now
                    }
                }
            }
            try await group.waitForAll()
        }
        let book = try #require(try await sources.books.fetch(id: "1"))
        #expect(book.reviews.count == 32)
    }
}
