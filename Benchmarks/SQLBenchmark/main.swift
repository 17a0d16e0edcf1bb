// The resource layer on PostgreSQL against the endpoint Swift services write by hand
// (scripts/sql-bench): one Hummingbird server with
//
//   /books, /authors, /reviews, /entries   declared resources on JSONAPISQL (response cache on)
//   /uncached/...                          the same with the response cache off
//   /baseline/books                        the same read written by hand: the same three
//                                          statements through PostgresNIO into `Codable` structs,
//                                          a JSON:API document of DTOs through `JSONEncoder`
//   /stats                                 the statements the layer has run, for counting
//
// `--seed` fills empty tables from generate_series (authors, books, two reviews per book, and
// the streamed `entries`), then installs the change counters the response cache reads.
//
// Usage: jsonapi-sql-benchmark --postgres HOST:PORT --port PORT [--seed BOOKS ENTRIES]
import Foundation
import Hummingbird
import JSONAPI
import JSONAPIHummingbird
import JSONAPISQL
import JSONAPIServer
import Logging
import PostgresNIO

struct Author: Codable, Sendable, JSONAPIResource {
    static let resourceType = "authors"
    var id: String
    var name: String
}

struct Book: Codable, Sendable, JSONAPIResource {
    static let resourceType = "books"
    var id: String
    var title: String
    var year: Int
    var author: Identifier<Author>
    var reviews: [Identifier<Review>]
}

struct Review: Codable, Sendable, JSONAPIResource {
    static let resourceType = "reviews"
    var id: String
    var body: String
    var stars: Int
    var book: Identifier<Book>
}

/// One row of the streamed collection.
struct Entry: Codable, Sendable, JSONAPIResource {
    static let resourceType = "entries"
    var id: String
    var name: String
    var value: Int
}

// MARK: Arguments

struct Arguments {
    var host = "127.0.0.1"
    var postgresPort = 5432
    var port = 8080
    var seed: (books: Int, entries: Int)?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value() throws -> String {
            guard let value = rest.popFirst() else { throw UsageError() }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--postgres":
                let parts = try value().split(separator: ":")
                guard parts.count == 2, let port = Int(parts[1]) else { throw UsageError() }
                (host, postgresPort) = (String(parts[0]), port)
            case "--port":
                guard let port = Int(try value()) else { throw UsageError() }
                self.port = port
            case "--seed":
                guard let books = Int(try value()), let entries = Int(try value()) else { throw UsageError() }
                seed = (books, entries)
            default: throw UsageError()
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String {
        "usage: jsonapi-sql-benchmark --postgres HOST:PORT --port PORT [--seed BOOKS ENTRIES]"
    }
}

// MARK: The layer

func service(_ database: SQLResourceDatabase, cached: Bool) -> ResourceService {
    var books = SQLTable(Book.self)
    books.toOne("author", column: "author_id")
    books.toMany("reviews", inverseOf: "book")
    var reviews = SQLTable(Review.self)
    reviews.toOne("book", column: "book_id", onDelete: .cascade)
    var service = ResourceService()
    service.serve(ResourceDeclaration(source: database.source(SQLTable(Author.self))))
    service.serve(ResourceDeclaration(source: database.source(books)))
    service.serve(ResourceDeclaration(source: database.source(reviews)))
    var entries = ResourceDeclaration(source: database.source(SQLTable(Entry.self)))
    entries.streamsCollections = true
    service.serve(entries)
    service.transaction = database
    if !cached { service.responseCacheLimit = 0 }
    return service
}

/// Fills the tables when they are empty: `books` books by `books / 10` authors, two reviews per
/// book, `entries` entries; then the change counters.
func seedTables(_ client: PostgresClient, _ database: SQLResourceDatabase, books: Int, entries: Int) async throws {
    _ = service(database, cached: true)  // declares the tables
    try await database.createTables()
    let existing = try await client.query("SELECT count(*)::bigint FROM books").decode(Int64.self)
    var count: Int64 = 0
    for try await value in existing { count = value }
    if count == 0 {
        let authors = max(books / 10, 1)
        let statements: [PostgresQuery] = [
            "INSERT INTO authors (id, name) SELECT g, 'Author number ' || g FROM generate_series(1, \(authors)) g",
            """
            INSERT INTO books (id, title, year, author_id) SELECT g, 'The book numbered ' || g, 1900 + g % 120,
            1 + g % \(authors) FROM generate_series(1, \(books)) g
            """,
            """
            INSERT INTO reviews (id, body, stars, book_id) SELECT g,
            'Review ' || g || ': a sentence or two about the book, with \"quotes\" and ü.', 1 + g % 5,
            1 + (g - 1) / 2 FROM generate_series(1, \(books * 2)) g
            """,
            "INSERT INTO entries (id, name, value) SELECT g, 'Entry ' || g, g % 1000 FROM generate_series(1, \(entries)) g",
            "ANALYZE",
        ]
        for statement in statements { try await client.query(statement) }
    }
    try await database.installChangeTracking()
}

// MARK: The baseline

/// The read as Swift services write it by hand: DTOs of the document's shape, the same three
/// statements through PostgresNIO, `JSONEncoder`.
enum Baseline {
    struct Identifier: Codable, Sendable {
        var type: String
        var id: String
    }
    struct ToOne: Codable, Sendable { var data: Identifier }
    struct ToMany: Codable, Sendable { var data: [Identifier] }
    struct BookAttributes: Codable, Sendable {
        var title: String
        var year: Int
    }
    struct BookRelationships: Codable, Sendable {
        var author: ToOne
        var reviews: ToMany
    }
    struct BookDTO: Codable, Sendable {
        var type = "books"
        var id: String
        var attributes: BookAttributes
        var relationships: BookRelationships
    }
    struct Included: Codable, Sendable {
        var type: String
        var id: String
        var attributes: [String: AttributeValue]
        var relationships: [String: ToOne]?
    }
    enum AttributeValue: Codable, Sendable {
        case text(String)
        case number(Int)
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            }
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }
    struct Document: Codable, Sendable {
        var data: [BookDTO]
        var included: [Included]
    }

    static func books(_ client: PostgresClient, size: Int) async throws -> [UInt8] {
        var books: [BookDTO] = []
        var authorIDs: [Int] = []
        var bookIDs: [Int] = []
        let rows = try await client.query(
            "SELECT id, title, year, author_id FROM books ORDER BY id LIMIT \(size)")
        for try await (id, title, year, author) in rows.decode((Int, String, Int, Int).self) {
            bookIDs.append(id)
            if !authorIDs.contains(author) { authorIDs.append(author) }
            books.append(
                BookDTO(
                    id: String(id), attributes: BookAttributes(title: title, year: year),
                    relationships: BookRelationships(
                        author: ToOne(data: Identifier(type: "authors", id: String(author))), reviews: ToMany(data: []))
                ))
        }
        var included: [Included] = []
        let authors = try await client.query("SELECT id, name FROM authors WHERE id = ANY(\(authorIDs)) ORDER BY id")
        for try await (id, name) in authors.decode((Int, String).self) {
            included.append(Included(type: "authors", id: String(id), attributes: ["name": .text(name)]))
        }
        var index: [Int: Int] = [:]
        for (position, id) in bookIDs.enumerated() { index[id] = position }
        let reviews = try await client.query(
            "SELECT id, body, stars, book_id FROM reviews WHERE book_id = ANY(\(bookIDs)) ORDER BY id")
        for try await (id, body, stars, book) in reviews.decode((Int, String, Int, Int).self) {
            if let position = index[book] {
                books[position].relationships.reviews.data.append(Identifier(type: "reviews", id: String(id)))
            }
            included.append(
                Included(
                    type: "reviews", id: String(id), attributes: ["body": .text(body), "stars": .number(stars)],
                    relationships: ["book": ToOne(data: Identifier(type: "books", id: String(book)))]))
        }
        return Array(try JSONEncoder().encode(Document(data: books, included: included)))
    }
}

// MARK: Main

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
var logger = Logger(label: "jsonapi-sql-benchmark")
logger.logLevel = .warning
var configuration = PostgresClient.Configuration(
    host: arguments.host, port: arguments.postgresPort, username: "postgres", password: nil, database: "postgres",
    tls: .disable)
configuration.options.maximumConnections = 16
let database = SQLResourceDatabase.postgres(configuration, logger: logger)
let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
let cached = service(database, cached: true)
let uncached = service(database, cached: false)

try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await client.run() }
    if let seed = arguments.seed {
        try await seedTables(client, database, books: seed.books, entries: seed.entries)
    }
    let router = Router()
    router.add(middleware: JSONAPIMiddleware(configuration: cached.configuration))
    router.addJSONAPIService(cached)
    router.group("uncached").addJSONAPIService(uncached)
    router.get("baseline/books") { request, _ in
        let size = min(request.uri.queryParameters.get("page[size]", as: Int.self) ?? 10, 100)
        return Response(
            status: .ok, headers: [.contentType: "application/vnd.api+json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try await Baseline.books(client, size: size))))
    }
    router.get("stats") { _, _ in "\(database.statementsExecuted)\n" }
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: arguments.port)), logger: logger)
    // Until SIGTERM or SIGINT; then the client's run loop ends with the group.
    try await app.runService()
    group.cancelAll()
}
