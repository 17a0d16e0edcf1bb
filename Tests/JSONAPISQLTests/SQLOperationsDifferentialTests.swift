import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Atomic Operations batches, valid and failing at every position, against a reference that
/// applies a batch whole or not at all: the books the database holds after each batch are the
/// reference's, whether the service runs a batch in the database's transaction
/// (`ResourceService.transaction`) or undoes a failed one operation by operation.
@Suite("Atomic Operations batches against a reference: all or nothing")
struct SQLOperationsDifferentialTests {
    struct Book: Equatable, CustomStringConvertible {
        var title: String
        var year: Int
        var description: String { "\(title) (\(year))" }
    }

    @Test(arguments: SQLTestDatabase.available, [false, true])
    func batches(_ kind: SQLTestDatabase, inTransaction: Bool) async throws {
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            var service = SQLLibrary.service(sources)
            service.responseCacheLimit = 0
            if inTransaction { service.transaction = database }
            try await database.createTables()
            try await SQLLibrary.seed(service)
            var reference: [String: Book] = [
                "1": Book(title: "Dune", year: 1965), "2": Book(title: "The Dispossessed", year: 1974),
                "3": Book(title: "Children of Dune", year: 1976),
            ]
            var random = JSONAPITestSupport.SplitMix64(seed: inTransaction ? 0xA701 : 0xA702)
            var nextID = 100
            var applied = 0
            var refused = 0
            for round in 0..<60 {
                var staged = reference
                var operations: [String] = []
                var fails = false
                for _ in 0..<(1 + Int(random.next() % 5)) {
                    let existing = staged.keys.sorted()
                    switch random.next() % 5 {
                    case 0, 1:
                        let id = String(nextID)
                        nextID += 1
                        let year = 1900 + Int(random.next() % 100)
                        if random.next() % 6 == 0 {
                            operations.append(
                                #"{"op":"add","data":{"type":"books","id":"\#(id)","attributes":{"title":5,"year":\#(year)},"relationships":{"author":{"data":{"type":"authors","id":"1"}}}}}"#
                            )
                            fails = true
                        } else {
                            operations.append(
                                #"{"op":"add","data":{"type":"books","id":"\#(id)","attributes":{"title":"T\#(id)","year":\#(year)},"relationships":{"author":{"data":{"type":"authors","id":"2"}}}}}"#
                            )
                            staged[id] = Book(title: "T\(id)", year: year)
                        }
                    case 2:
                        guard let id = existing.randomElement(using: &random), random.next() % 6 != 0 else {
                            operations.append(
                                #"{"op":"update","data":{"type":"books","id":"999","attributes":{"title":"X"}}}"#)
                            fails = true
                            continue
                        }
                        let title = "Round \(round)"
                        operations.append(
                            #"{"op":"update","data":{"type":"books","id":"\#(id)","attributes":{"title":"\#(title)"}}}"#
                        )
                        staged[id]?.title = title
                    case 3:
                        guard let id = existing.randomElement(using: &random) else { continue }
                        operations.append(#"{"op":"remove","ref":{"type":"books","id":"\#(id)"}}"#)
                        staged[id] = nil
                    default:
                        guard let id = existing.randomElement(using: &random) else { continue }
                        operations.append(
                            #"{"op":"update","data":{"type":"books","id":"\#(id)","attributes":{"year":"x"}}}"#)
                        fails = true
                    }
                }
                guard !operations.isEmpty else { continue }
                let batch = try Document(
                    parsing: Array(#"{"atomic:operations":[\#(operations.joined(separator: ","))]}"#.utf8)
                ).atomicOperations()
                do {
                    _ = try await service.perform(
                        batch, request: ResourceRequest(method: "POST", type: "", endpoint: .collection))
                    #expect(!fails, "round \(round): a failing batch was applied: \(operations)")
                    reference = staged
                    applied += 1
                } catch {
                    let statuses = JSONAPIErrorObject.errors(describing: error).compactMap(\.status)
                    #expect(fails, "round \(round): \(statuses) \(error)")
                    // A refused batch says why with a client error, not a failed undo.
                    #expect(statuses.allSatisfy { $0.hasPrefix("4") }, "round \(round): \(statuses)")
                    refused += 1
                }
                var stored: [String: Book] = [:]
                for book in try await sources.books.list(ResourceListQuery()).models {
                    stored[book.id] = Book(title: book.title, year: book.year)
                }
                #expect(stored == reference, "round \(round): \(operations)")
            }
            // The generator makes both kinds of batch.
            #expect(applied > 10 && refused > 10, "applied \(applied), refused \(refused)")
        }
    }
}
