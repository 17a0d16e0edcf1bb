import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Keyset pages (the cursor pagination profile's `page[after]`, `page[before]` and
/// `page[size]`) on the database and on the in-memory source: walking the `next` links forward
/// and the `prev` links backward reads every resource once, in the order of the sort then the
/// id, whatever the sort; writes between pages neither skip nor repeat a resource that stayed;
/// a cursor the service did not make is a 400 at its parameter.
@Suite("Keyset pages on SQL and in memory")
struct SQLCursorPageTests {
    /// One service of the library's books, paginated with cursors.
    struct Front: Sendable {
        var service: ResourceService
        var books: any ResourceDataSource<Library.Book>
    }

    static func cursorPages(_ books: inout ResourceDeclaration<some ResourceDataSource<Library.Book>>) {
        books.pagination = .cursors(defaultSize: 7, maximumSize: 50, allowsRangePagination: true)
    }

    /// The in-memory front, then the same on `database`, with the same books.
    static func fronts(
        _ database: SQLResourceDatabase, data: SQLFilterDifferentialTests.Data
    ) async throws -> [Front] {
        var memory = ResourceService()
        memory.responseCacheLimit = 0
        let memoryBooks = try InMemoryDataSource(data.books)
        memory.serve(ResourceDeclaration(source: try InMemoryDataSource(data.authors)))
        var books = ResourceDeclaration(source: memoryBooks)
        cursorPages(&books)
        memory.serve(books)
        memory.serve(ResourceDeclaration(source: InMemoryDataSource<Library.Review>()))

        let sources = SQLLibrary.sources(database)
        var sql = SQLLibrary.service(sources) { cursorPages(&$0) }
        sql.responseCacheLimit = 0
        try await database.createTables()
        for author in data.authors { _ = try await sources.authors.create(author) }
        for book in data.books { _ = try await sources.books.create(book) }
        return [Front(service: memory, books: memoryBooks), Front(service: sql, books: sources.books)]
    }

    /// The query of a link's target.
    static func query(_ link: String?) -> String? {
        guard let link, let mark = link.firstIndex(of: "?") else { return nil }
        return String(link[link.index(after: mark)...])
    }

    /// The ids of every page from `query` on, following `link` ("next" or "prev"), each page's
    /// ids in order; at most 100 pages.
    static func walk(_ service: ResourceService, from query: String, following link: String) async -> [[String]] {
        var pages: [[String]] = []
        var query: String? = query
        while let current = query, pages.count < 100 {
            let answer = await service.send("GET", "books", .collection, query: current)
            guard answer.status == 200, let document = answer.document else {
                Issue.record("\(current): \(answer.status) \(answer.text)")
                return pages
            }
            let ids = document.primaryResources.compactMap(\.id)
            if ids.isEmpty { break }
            pages.append(ids)
            query = Self.query(document.links?[link]?.href)
        }
        return pages
    }

    @Test("every resource once, forward and backward, in every order", arguments: SQLTestDatabase.available)
    func walks(_ kind: SQLTestDatabase) async throws {
        var random = SplitMix64(seed: 51)
        let data = SQLFilterDifferentialTests.data(&random)
        try await kind.with { database in
            let fronts = try await Self.fronts(database, data: data)
            for round in 0..<12 {
                let sort = SQLFilterDifferentialTests.sort(&random)
                let sortQuery = sort.isEmpty ? "" : "sort=\(sort)&"
                let size = 1 + Int(random.next() % 9)
                let fields = sort.split(separator: ",").map { JSONAPIQuery.SortField(stringLiteral: String($0)) }
                // The order the in-memory source lists without pages: the reference.
                let expected = try await fronts[0].books.list(ResourceListQuery(sort: fields)).models.map(\.id)
                for front in fronts {
                    let forward = await Self.walk(
                        front.service, from: sortQuery + "page[size]=\(size)", following: "next")
                    #expect(forward.flatMap { $0 } == expected, "round \(round) \(sort) size \(size)")
                    #expect(forward.dropLast().allSatisfy { $0.count == size })
                    // From the last resource back: `page[before]` its cursor, then `prev`.
                    let last = await front.service.send(
                        "GET", "books", .collection,
                        query: sortQuery + "page[size]=50&page[after]="
                            + (Self.cursor(of: expected.count - 1, in: front, sortQuery: sortQuery) ?? ""))
                    #expect(last.document?.primaryResources.isEmpty == true)
                    let end = try #require(
                        await Self.cursor(of: expected.count - 1, in: front, sortQuery: sortQuery))
                    let backward = await Self.walk(
                        front.service, from: sortQuery + "page[size]=\(size)&page[before]=\(end)", following: "prev")
                    #expect(
                        backward.reversed().flatMap { $0 } + [expected.last ?? ""] == expected,
                        "round \(round) \(sort) size \(size) backward")
                }
            }
        }
    }

    /// The cursor of the resource at `index` of the whole order, from the page that holds it.
    static func cursor(of index: Int, in front: Front, sortQuery: String) async -> String? {
        var query: String? = sortQuery + "page[size]=50"
        var seen = 0
        while let current = query {
            let answer = await front.service.send("GET", "books", .collection, query: current)
            guard let document = answer.document else { return nil }
            let resources = document.primaryResources
            if index < seen + resources.count {
                let resource = resources[resources.index(resources.startIndex, offsetBy: index - seen)]
                return resource.meta?["page"]?["cursor"]?.stringValue
            }
            seen += resources.count
            query = Self.query(document.links?["next"]?.href)
        }
        return nil
    }

    @Test("writes between pages: nothing that stayed is skipped or repeated", arguments: SQLTestDatabase.available)
    func writesBetweenPages(_ kind: SQLTestDatabase) async throws {
        var random = SplitMix64(seed: 52)
        let data = SQLFilterDifferentialTests.data(&random)
        try await kind.with { database in
            for front in try await Self.fronts(database, data: data) {
                let first = await front.service.send(
                    "GET", "books", .collection, query: "sort=-year,title&page[size]=10")
                let firstIDs = first.document?.primaryResources.compactMap(\.id) ?? []
                #expect(firstIDs.count == 10)
                // A resource of the first page and one not yet read are deleted; one is created.
                let all = try await front.books.list(
                    ResourceListQuery(sort: [JSONAPIQuery.SortField("year", descending: true), "title"])
                ).models.map(\.id)
                let unread = all[30]
                #expect(await front.service.send("DELETE", "books", .resource(id: firstIDs[9])).status == 204)
                #expect(await front.service.send("DELETE", "books", .resource(id: unread)).status == 204)
                let rest = await Self.walk(
                    front.service, from: Self.query(first.document?.links?["next"]?.href) ?? "", following: "next")
                let read = firstIDs + rest.flatMap { $0 }
                #expect(Set(read).count == read.count, "a resource was read twice")
                #expect(Set(all).subtracting([unread, firstIDs[9]]).isSubset(of: Set(read)), "a resource was skipped")
            }
        }
    }

    @Test("a cursor the service did not make is a 400 at its parameter", arguments: SQLTestDatabase.available)
    func foreignCursors(_ kind: SQLTestDatabase) async throws {
        var random = SplitMix64(seed: 53)
        let data = SQLFilterDifferentialTests.data(&random)
        try await kind.with { database in
            for front in try await Self.fronts(database, data: data) {
                let page = await front.service.send("GET", "books", .collection, query: "sort=title&page[size]=3")
                let next = try #require(Self.query(page.document?.links?["next"]?.href))
                #expect(await front.service.send("GET", "books", .collection, query: next).status == 200)
                // The same cursor under another sort, an altered one, one that is not base64url.
                let cursor = try #require(
                    page.document?.primaryResources.last?.meta?["page"]?["cursor"]?.stringValue)
                let foreignID = ResourcePosition(values: ["x"], id: "not-an-id").cursor
                for (query, parameter) in [
                    ("sort=title,year&page[after]=\(cursor)", "page[after]"),
                    ("sort=title&page[before]=\(cursor)x", "page[before]"),
                    ("sort=title&page[after]=%2B%2F%3D", "page[after]"),
                    ("sort=title&page[after]=\(foreignID)", "page[after]"),
                    ("sort=title&page[after]=\(ResourcePosition(values: [["nested"]], id: "1").cursor)", "page[after]"),
                ] {
                    let answer = await front.service.send("GET", "books", .collection, query: query)
                    if query.hasSuffix(foreignID) && front.books is InMemoryDataSource<Library.Book> {
                        // Any text is an id in memory: the position is simply past no resource.
                        #expect(answer.status == 200, "\(query)")
                        continue
                    }
                    #expect(answer.status == 400, "\(type(of: front.books)) \(query): \(answer.text.prefix(200))")
                    #expect(answer.errors.first?.source?.parameter == parameter, "\(query)")
                }
                // Values a client wrote into a cursor reach the database as parameters.
                let hostile = ResourcePosition(values: ["'; DROP TABLE books; --"], id: "1").cursor
                let answer = await front.service.send(
                    "GET", "books", .collection, query: "sort=title&page[after]=\(hostile)")
                #expect(answer.status == 200)
                #expect(try await front.books.list(ResourceListQuery()).models.count == data.books.count)
            }
        }
    }

    @Test("cursors: text round trip; anything else is not one")
    func cursorText() {
        let positions = [
            ResourcePosition(values: [], id: "1"),
            ResourcePosition(values: ["Émile \"Z\"", 12, 4.5, nil, true], id: "x/7"),
            ResourcePosition(values: ["\u{0}"], id: ""),
        ]
        for position in positions {
            let cursor = position.cursor
            #expect(
                cursor.allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" || $0 == "_" })
            #expect(ResourcePosition(cursor: cursor, sortFields: position.values.count) == position)
            #expect(ResourcePosition(cursor: cursor, sortFields: position.values.count + 1) == nil)
        }
        for text in ["", "a", "ab=", "!!!!", "WzFd", "eyJhIjoxfQ", String(repeating: "A", count: 5)] {
            #expect(ResourcePosition(cursor: text, sortFields: 0) == nil, "\(text)")
        }
    }
}
