import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Writes on the database against the linked in-memory stores (``Library/linkedSources()``),
/// which keep the same facts in Swift: random sequences of creates, relationship writes from
/// both sides of the inverse pair, and deletes under each rule, the same status from both
/// services for every request and the same resources and linkage afterwards.
@Suite("SQL writes against the linked in-memory source")
struct SQLWriteDifferentialTests {
    /// The in-memory service, linked as ``SQLLibrary/sources(_:onDelete:)`` declares the tables.
    static func memoryService() throws -> ResourceService {
        let sources = try Library.linkedSources()
        var service = ResourceService()
        var authors = ResourceDeclaration(source: sources.authors)
        authors.clientIDs = .allowed
        service.serve(authors)
        var books = ResourceDeclaration(source: sources.books)
        books.clientIDs = .allowed
        service.serve(books)
        var reviews = ResourceDeclaration(source: sources.reviews)
        reviews.clientIDs = .allowed
        service.serve(reviews)
        return service
    }

    /// A random write of the library: ids from a small range, so that many name what exists and
    /// some what does not.
    static func request(_ random: inout SplitMix64, _ step: Int)
        -> (method: String, type: String, endpoint: ResourceRequest.Endpoint, body: String?)
    {
        func pick(_ count: UInt64) -> String { String(1 + random.next() % count) }
        switch random.next() % 9 {
        case 0:
            return (
                "POST", "reviews", .collection, SQLLibrary.review(String(100 + step), "Noted.", 3, book: pick(5))
            )
        case 1:
            return (
                "POST", "books", .collection,
                SQLLibrary.book(String(100 + step), "Book \(step)", 1990, "null", author: pick(3))
            )
        case 2:
            return (
                "PATCH", "reviews", .relationship(id: pick(3), relationship: "book"),
                #"{"data":{"type":"books","id":"\#(pick(4))"}}"#
            )
        case 3:
            return (
                "POST", "books", .relationship(id: pick(4), relationship: "reviews"),
                #"{"data":[{"type":"reviews","id":"\#(pick(3))"}]}"#
            )
        case 4:
            let ids = (1...3).filter { _ in random.next() % 2 == 0 }
            return (
                "PATCH", "books", .relationship(id: pick(4), relationship: "reviews"),
                #"{"data":[\#(ids.map { #"{"type":"reviews","id":"\#($0)"}"# }.joined(separator: ","))]}"#
            )
        case 5: return ("DELETE", "books", .resource(id: pick(4)), nil)
        case 6: return ("DELETE", "authors", .resource(id: pick(3)), nil)
        case 7: return ("DELETE", "reviews", .resource(id: pick(3)), nil)
        default:
            return (
                "PATCH", "books", .resource(id: pick(4)),
                #"{"data":{"type":"books","id":"\#(pick(4))","attributes":{"year":\#(1900 + step)}}}"#
            )
        }
    }

    /// Every resource of the service: type/id, its attributes and its linkage (to-many as a set).
    static func state(_ service: ResourceService) async -> [String: String] {
        var state: [String: String] = [:]
        for type in ["authors", "books", "reviews"] {
            let answer = await service.send("GET", type, .collection, query: "page[size]=100")
            guard let document = answer.document else { continue }
            for view in document.primaryResources {
                let resource = JSONAPIResourceObject(view)
                var text = resource.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    .joined(separator: ",")
                for member in resource.relationships {
                    let ids: [String]
                    switch member.value.data {
                    case .one(let identifier)?: ids = [identifier.id ?? ""]
                    case .many(let identifiers)?: ids = identifiers.map { $0.id ?? "" }.sorted()
                    case .null?, nil: ids = []
                    }
                    text += " \(member.key)=\(ids)"
                }
                state["\(type)/\(resource.id ?? "")"] = text
            }
        }
        return state
    }

    @Test("random writes: the same answers and the same facts", arguments: SQLTestDatabase.available)
    func randomWrites(_ kind: SQLTestDatabase) async throws {
        var statuses: Set<Int> = []
        for seed in UInt64(1)...4 {
            try await kind.with { database in
                let sql = SQLLibrary.service(SQLLibrary.sources(database))
                try await database.createTables()
                try await SQLLibrary.seed(sql)
                let memory = try Self.memoryService()
                var random = SplitMix64(seed: seed)
                for step in 0..<40 {
                    let (method, type, endpoint, body) = Self.request(&random, step)
                    let expected = await memory.send(method, type, endpoint, body: body)
                    let answer = await sql.send(method, type, endpoint, body: body)
                    statuses.insert(expected.status)
                    #expect(
                        answer.status == expected.status,
                        "seed \(seed) step \(step): \(method) \(type) \(endpoint) \(body ?? ""): \(answer.text) against \(expected.text)"
                    )
                }
                let expected = await Self.state(memory)
                let state = await Self.state(sql)
                #expect(state == expected, "seed \(seed)")
            }
        }
        // The sequences reach every kind of answer: created, changed, deleted, missing, refused.
        #expect(statuses.isSuperset(of: [200, 201, 204, 404, 409]), "\(statuses.sorted())")
    }
}
