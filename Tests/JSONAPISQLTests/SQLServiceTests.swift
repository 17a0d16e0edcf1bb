import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// The resource layer on a database, through the service as requests: every endpoint, the
/// inverse of a to-one read and written as one fact, includes in one statement per path, delete
/// rules, and transactions around hooks and Atomic Operations. On SQLite and PostgreSQL.
@Suite("SQL data source through the service")
struct SQLServiceTests {
    static func ids(_ answer: Answer) -> [String] {
        guard let document = answer.document else { return [] }
        return document.primaryResources.compactMap(\.id)
    }

    static func linkage(_ answer: Answer, _ name: String) -> [String] {
        guard let document = answer.document, let resource = document.primaryResources.first,
            let relationship = resource.relationship(name)
        else { return [] }
        return relationship.identifiers.compactMap(\.id)
    }

    @Test(
        "reads: collection, resource, related, relationship, with include, filter, sort and pages",
        arguments: SQLTestDatabase.available)
    func reads(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            let service = SQLLibrary.service(sources)
            try await database.createTables()
            try await SQLLibrary.seed(service)

            let all = await service.send("GET", "books", .collection, query: "sort=-year")
            #expect(all.status == 200, "\(all.text)")
            #expect(Self.ids(all) == ["3", "2", "1"])

            let one = await service.send("GET", "books", .resource(id: "1"), query: "include=author,reviews")
            #expect(one.status == 200)
            #expect(Self.linkage(one, "reviews") == ["1", "2"])
            #expect(Self.linkage(one, "author") == ["1"])
            #expect(
                one.document?.included.map { "\($0.type)/\($0.id ?? "")" }.sorted() == [
                    "authors/1", "reviews/1", "reviews/2",
                ])

            let filtered = await service.send(
                "GET", "books", .collection, query: "filter=and(greaterThan(year,1960),startsWith(title,'Dune'))")
            #expect(Self.ids(filtered) == ["1"], "\(filtered.text)")
            let byAuthor = await service.send(
                "GET", "books", .collection, query: "filter=equals(author.name,'Frank%20Herbert')&sort=title")
            #expect(Self.ids(byAuthor) == ["3", "1"], "\(byAuthor.text)")
            let unrated = await service.send("GET", "books", .collection, query: "filter=isNull(rating)")
            #expect(Self.ids(unrated) == ["3"])
            let notUnrated = await service.send("GET", "books", .collection, query: "filter=not(lessThan(rating,4.6))")
            #expect(
                Self.ids(notUnrated) == ["2", "3"], "NULL compared is false, so its negation holds: \(notUnrated.text)")

            let page = await service.send("GET", "books", .collection, query: "sort=title&page[size]=2")
            #expect(Self.ids(page) == ["3", "1"])
            #expect(page.document?.links?["next"] != nil)
            let last = await service.send("GET", "books", .collection, query: "sort=title&page[size]=2&page[number]=2")
            #expect(Self.ids(last) == ["2"])
            #expect(last.document?.links?["next"] == nil)

            let related = await service.send("GET", "books", .related(id: "1", relationship: "reviews"))
            #expect(Self.ids(related) == ["1", "2"])
            let relationship = await service.send("GET", "books", .relationship(id: "1", relationship: "author"))
            #expect(relationship.status == 200 && relationship.text.contains(#""id":"1""#))
            let missing = await service.send("GET", "books", .resource(id: "999"))
            #expect(missing.status == 404)
            let notAnInteger = await service.send("GET", "books", .resource(id: "1 OR 1=1"))
            #expect(notAnInteger.status == 404)
        }
    }

    @Test("a to-many inverse of a to-one is one fact, written from either side", arguments: SQLTestDatabase.available)
    func inverseIsOneFact(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let service = SQLLibrary.service(SQLLibrary.sources(database))
            try await database.createTables()
            try await SQLLibrary.seed(service)

            let created = await service.send(
                "POST", "reviews", .collection, body: SQLLibrary.review("3", "Bleak.", 4, book: "2"))
            #expect(created.status == 201, "\(created.text)")
            let ofBook2 = await service.send("GET", "books", .relationship(id: "2", relationship: "reviews"))
            #expect(ofBook2.text.contains(#""id":"3""#), "\(ofBook2.text)")

            // Book 3 claims review 1: the review's book is now 3, and book 1 no longer lists it.
            let claimed = await service.send(
                "POST", "books", .relationship(id: "3", relationship: "reviews"),
                body: #"{"data":[{"type":"reviews","id":"1"}]}"#)
            #expect(claimed.status == 200, "\(claimed.text)")
            let review = await service.send("GET", "reviews", .resource(id: "1"))
            #expect(Self.linkage(review, "book") == ["3"])
            let book1 = await service.send("GET", "books", .resource(id: "1"))
            #expect(Self.linkage(book1, "reviews") == ["2"])

            // A review keeps its book (the relationship is required): it cannot leave it.
            let emptied = await service.send(
                "PATCH", "books", .relationship(id: "1", relationship: "reviews"), body: #"{"data":[]}"#)
            #expect(emptied.status == 409, "\(emptied.text)")
            let still = await service.send("GET", "books", .resource(id: "1"))
            #expect(Self.linkage(still, "reviews") == ["2"])
        }
    }

    @Test("writes: create with a server id, update, delete, each delete rule", arguments: SQLTestDatabase.available)
    func writes(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let service = SQLLibrary.service(SQLLibrary.sources(database))
            try await database.createTables()
            try await SQLLibrary.seed(service)

            let created = await service.send(
                "POST", "books", .collection,
                body:
                    #"{"data":{"type":"books","attributes":{"title":"Emma","year":1815,"rating":null},"relationships":{"author":{"data":{"type":"authors","id":"2"}}}}}"#
            )
            #expect(created.status == 201, "\(created.text)")
            #expect(created.document?.primaryResources.first?.id == "4")

            let updated = await service.send(
                "PATCH", "books", .resource(id: "4"),
                body: #"{"data":{"type":"books","id":"4","attributes":{"rating":3.5}}}"#)
            #expect(updated.status == 200, "\(updated.text)")
            let read = await service.send("GET", "books", .resource(id: "4"))
            #expect(read.text.contains(#""rating":3.5"#) && read.text.contains(#""title":"Emma""#))

            // Author 1 is named by books: refused, naming the relationship.
            let refused = await service.send("DELETE", "authors", .resource(id: "1"))
            #expect(refused.status == 409, "\(refused.text)")
            #expect(refused.text.contains("author"))
            // A book's reviews go with it (their book cascades).
            let deleted = await service.send("DELETE", "books", .resource(id: "1"))
            #expect(deleted.status == 204, "\(deleted.text)")
            let reviews = await service.send("GET", "reviews", .collection)
            #expect(Self.ids(reviews).isEmpty, "\(reviews.text)")
            let again = await service.send("DELETE", "books", .resource(id: "1"))
            #expect(again.status == 404)

            let linkToNothing = await service.send(
                "POST", "books", .collection,
                body:
                    #"{"data":{"type":"books","attributes":{"title":"X","year":1,"rating":null},"relationships":{"author":{"data":{"type":"authors","id":"77"}}}}}"#
            )
            #expect(linkToNothing.status == 404, "\(linkToNothing.text)")
            // The failed create used no id: the next one gets 5.
            let next = await service.send(
                "POST", "books", .collection,
                body:
                    #"{"data":{"type":"books","attributes":{"title":"Y","year":2,"rating":null},"relationships":{"author":{"data":{"type":"authors","id":"2"}}}}}"#
            )
            #expect(next.document?.primaryResources.first?.id == "5", "\(next.text)")
        }
    }

    @Test("an include costs one statement per path, whatever the page size", arguments: SQLTestDatabase.available)
    func statementsPerInclude(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            var service = SQLLibrary.service(SQLLibrary.sources(database))
            service.responseCacheLimit = 0
            try await database.createTables()
            try await SQLLibrary.seed(service)
            for index in 10..<60 {
                let answer = await service.send(
                    "POST", "books", .collection,
                    body: SQLLibrary.book("\(index)", "B\(index)", 2000, "1.0", author: index % 2 == 0 ? "1" : "2"))
                #expect(answer.status == 201)
                _ = await service.send(
                    "POST", "reviews", .collection, body: SQLLibrary.review("\(index)", "R", 3, book: "\(index)"))
            }
            for size in [5, 50] {
                let before = database.statementsExecuted
                let answer = await service.send(
                    "GET", "books", .collection, query: "include=author,reviews&page[size]=\(size)")
                #expect(answer.status == 200)
                #expect(answer.document?.primaryResources.count == size)
                // The page (with each book's review ids), the authors, the reviews.
                #expect(database.statementsExecuted - before == 3, "page size \(size)")
            }
        }
    }

    /// The statements of each kind of request, for a book with `reviews` reviews (books 100 and
    /// 101, both by author 1, reviews numbered from 1000): counted per request.
    static func statementsPerRequest(_ database: SQLResourceDatabase, reviews: Int) async throws -> [String: Int] {
        var service = SQLLibrary.service(SQLLibrary.sources(database))
        service.responseCacheLimit = 0
        try await database.createTables()
        try await SQLLibrary.seed(service)
        for book in ["100", "101"] {
            _ = await service.send(
                "POST", "books", .collection, body: SQLLibrary.book(book, "B", 2000, "1.0", author: "1"))
        }
        for index in 0..<reviews {
            _ = await service.send(
                "POST", "reviews", .collection, body: SQLLibrary.review("\(1000 + index)", "R", 3, book: "100"))
        }
        let linkage = (0..<reviews).map { #"{"type":"reviews","id":"\#(1000 + $0)"}"# }.joined(separator: ",")
        let requests: [(String, String, String, ResourceRequest.Endpoint, String, String?)] = [
            ("list with includes", "GET", "books", .collection, "include=author,reviews&page[size]=\(reviews)", nil),
            (
                "nested includes", "GET", "reviews", .collection,
                "include=book.author,book.reviews&page[size]=\(reviews)", nil
            ),
            ("one with includes", "GET", "books", .resource(id: "100"), "include=author,reviews", nil),
            ("related to-many", "GET", "books", .related(id: "100", relationship: "reviews"), "include=book", nil),
            ("linkage", "GET", "books", .relationship(id: "100", relationship: "reviews"), "", nil),
            (
                "update", "PATCH", "books", .resource(id: "100"), "",
                #"{"data":{"type":"books","id":"100","attributes":{"title":"C"}}}"#
            ),
            (
                "to-many moved", "PATCH", "books", .relationship(id: "101", relationship: "reviews"), "",
                #"{"data":[\#(linkage)]}"#
            ),
            (
                "to-many added", "POST", "books", .relationship(id: "100", relationship: "reviews"), "",
                #"{"data":[\#(linkage)]}"#
            ),
            ("create", "POST", "reviews", .collection, "", SQLLibrary.review("5000", "R", 3, book: "101")),
            ("delete with cascade", "DELETE", "books", .resource(id: "100"), "", nil),
        ]
        var counts: [String: Int] = [:]
        for (name, method, type, endpoint, query, body) in requests {
            let before = database.statementsExecuted
            let answer = await service.send(method, type, endpoint, query: query, body: body)
            #expect((200..<300).contains(answer.status), "\(name): \(answer.text)")
            counts[name] = database.statementsExecuted - before
        }
        return counts
    }

    @Test("no request kind costs a statement per resource", arguments: SQLTestDatabase.available)
    func noStatementPerResource(_ kind: SQLTestDatabase) async throws {
        let few = try await kind.with { try await Self.statementsPerRequest($0, reviews: 3) }
        let many = try await kind.with { try await Self.statementsPerRequest($0, reviews: 40) }
        #expect(few.count == 10)
        for (name, count) in few.sorted(by: { $0.key < $1.key }) {
            #expect(many[name] == count, "\(name): \(count) statements for 3 reviews, \(many[name] ?? -1) for 40")
        }
        // The reads: the page and one per include path and level.
        #expect(few["list with includes"] == 3)
        #expect(few["nested includes"] == 4)
    }

    @Test(
        "a filter through relationships is one statement, nested or not; an authorized type is filtered by the service",
        arguments: SQLTestDatabase.available)
    func filtersThroughRelationships(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            var service = SQLLibrary.service(sources)
            service.responseCacheLimit = 0
            try await database.createTables()
            try await SQLLibrary.seed(service)
            let cases: [(String, String, [String])] = [
                ("books", "startsWith(author.name,'Ursula')", ["2"]),
                ("books", "greaterOrEqual(reviews.stars,5)", ["1"]),
                ("reviews", "equals(book.author.name,'Frank Herbert')", ["1", "2"]),
                ("books", "equals(reviews.book.title,'Dune')", ["1"]),
                ("books", "not(isNull(reviews.book.title))", ["1", "2", "3"]),
                ("books", "or(equals(author.born,1929),lessThan(reviews.stars,4))", ["1", "2"]),
            ]
            for (type, filter, expected) in cases {
                let query = "filter=" + (filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                let before = database.statementsExecuted
                let answer = await service.send("GET", type, .collection, query: query)
                #expect(answer.status == 200, "\(filter): \(answer.text)")
                #expect(Self.ids(answer) == expected, "\(filter)")
                // The page alone: the condition on the related rows is part of it.
                #expect(database.statementsExecuted - before == 1, "\(filter)")
            }
            // With an authorization rule on authors, the service finds the authors it may show
            // first (a statement of its own) and filters by their ids.
            var guarded = ResourceService()
            guarded.responseCacheLimit = 0
            var authors = ResourceDeclaration(source: sources.authors)
            authors.authorize = { action, _ in
                if case .read(let id) = action, id == "2" { return .hide }
                return .allow
            }
            guarded.serve(authors)
            guarded.serve(ResourceDeclaration(source: sources.books))
            guarded.serve(ResourceDeclaration(source: sources.reviews))
            let before = database.statementsExecuted
            let hidden = await guarded.send(
                "GET", "books", .collection, query: "filter=startsWith(author.name,%27Ursula%27)")
            #expect(hidden.status == 200)
            #expect(Self.ids(hidden).isEmpty)
            #expect(database.statementsExecuted - before == 2)
        }
    }

    @Test(
        "a hook writes its own SQL on the request's connection: kept with it, undone with it",
        arguments: SQLTestDatabase.available)
    func hooksOnTheTransactionsConnection(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            let service = SQLLibrary.service(sources) { books in
                books.beforeWrite = { book, _, _ in
                    let title = book.title
                    try await database.withConnection { sql in
                        try await sql.raw("INSERT INTO audit (note) VALUES (\(bind: "before " + title))").run()
                    }
                    if title == "Refused" { throw JSONAPIHTTPError.forbidden("refused") }
                }
                books.afterWrite = { book, _, _ in
                    try await database.withConnection { sql in
                        try await sql.raw("INSERT INTO audit (note) VALUES (\(bind: "after " + book.title))").run()
                    }
                    if book.title == "Late" { throw JSONAPIHTTPError.conflict("refused after the write") }
                }
            }
            try await database.createTables()
            try await database.withConnection { sql in try await sql.raw("CREATE TABLE audit (note TEXT)").run() }
            try await SQLLibrary.seed(service)
            func notes() async throws -> [String] {
                try await database.withConnection { sql in
                    try await sql.raw("SELECT note FROM audit ORDER BY note").all().map {
                        try $0.decode(column: "note", as: String.self)
                    }
                }
            }
            let seeded = try await notes()
            #expect(seeded.count == 6)  // three books, before and after each
            #expect(
                await service.send(
                    "POST", "books", .collection, body: SQLLibrary.book("7", "Kept", 2000, "null", author: "1")
                ).status == 201)
            #expect(
                await service.send(
                    "POST", "books", .collection, body: SQLLibrary.book("8", "Refused", 2000, "null", author: "1")
                ).status == 403)
            #expect(
                await service.send(
                    "POST", "books", .collection, body: SQLLibrary.book("9", "Late", 2000, "null", author: "1")
                ).status == 409)
            #expect(try await notes() == (seeded + ["after Kept", "before Kept"]).sorted())
            #expect(await service.send("GET", "books", .resource(id: "9")).status == 404)
        }
    }

    @Test(
        "a hook's writes and a failed Atomic Operations request leave nothing behind",
        arguments: SQLTestDatabase.available)
    func transactions(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            var service = SQLLibrary.service(sources) { books in
                books.beforeWrite = { book, _, _ in
                    // Writes an author through its source, inside the request's transaction, then refuses.
                    guard book.title == "Refused" else { return }
                    _ = try await sources.authors.create(Library.Author(id: "9", name: "Ghost", born: nil))
                    throw JSONAPIHTTPError.forbidden("refused")
                }
            }
            try await database.createTables()
            try await SQLLibrary.seed(service)
            let refused = await service.send(
                "POST", "books", .collection, body: SQLLibrary.book("7", "Refused", 2000, "null", author: "1"))
            #expect(refused.status == 403)
            let ghost = await service.send("GET", "authors", .resource(id: "9"))
            #expect(ghost.status == 404, "the hook's write went with the request: \(ghost.text)")

            service.transaction = database
            let operations = try Document(
                parsing: Array(
                    #"""
                    {"atomic:operations":[
                      {"op":"add","data":{"type":"authors","id":"5","attributes":{"name":"Emily","born":1818}}},
                      {"op":"add","data":{"type":"books","id":"8","attributes":{"title":"W","year":1847,"rating":null},"relationships":{"author":{"data":{"type":"authors","id":"404"}}}}}
                    ]}
                    """#.utf8)
            ).atomicOperations()
            await #expect(throws: (any Error).self) {
                try await service.perform(
                    operations, request: ResourceRequest(method: "POST", type: "", endpoint: .collection))
            }
            let emily = await service.send("GET", "authors", .resource(id: "5"))
            #expect(emily.status == 404, "the first operation was rolled back: \(emily.text)")
        }
    }

    @Test("text a table cannot store: refused at its pointer, and the description says so")
    func nullCharacterInText() async throws {
        try await SQLTestDatabase.sqliteMemory.with { database in
            let service = SQLLibrary.service(SQLLibrary.sources(database))
            try await database.createTables()
            try await SQLLibrary.seed(service)
            let refused = await service.send(
                "POST", "books", .collection, body: SQLLibrary.book("7", "A\\u0000B", 2000, "null", author: "1"))
            #expect(refused.status == 422)
            #expect(refused.pointers == ["/data/attributes/title"])
            let title = service.description(of: "books")?.shape.attributes.first { $0.name == "title" }
            #expect(title?.value.bounds?.excludesNullCharacter == true)
            #expect(service.description(of: "books")?.shape.id?.bounds?.excludesNullCharacter == true)
            let year = service.description(of: "books")?.shape.attributes.first { $0.name == "year" }
            #expect(year?.value.bounds?.excludesNullCharacter != true)
        }
        // A text id holding U+0000 is refused at the id, as such.
        try await SQLTestDatabase.sqliteMemory.with { database in
            var table = SQLTable(Library.Author.self)
            table.idKind = .text
            var authors = ResourceDeclaration(source: database.source(table))
            authors.clientIDs = .allowed
            var service = ResourceService()
            service.serve(authors)
            try await database.createTables()
            let refused = await service.send(
                "POST", "authors", .collection,
                body: #"{"data":{"type":"authors","id":"a\u0000","attributes":{"name":"N"}}}"#)
            #expect(refused.status == 422)
            #expect(refused.pointers == ["/data/id"])
            #expect(refused.errors.first?.detail?.contains("U+0000") == true)
        }
        let memory = Library.service(try Library.sources())
        let title = memory.description(of: "books")?.shape.attributes.first { $0.name == "title" }
        #expect(title?.value.bounds?.excludesNullCharacter != true)
    }
}
