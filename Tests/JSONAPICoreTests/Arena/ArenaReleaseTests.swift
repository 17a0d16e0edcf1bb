import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// `ResourceArena.releaseRecords()` empties every record table, found by reflection, so a table
/// added to the arena and not released fails here rather than in a stream that slides.
@Suite("Arena: releasing records")
struct ArenaReleaseTests {
    /// What survives a release, and why: type numbers and the index name records across it,
    /// and the top-level record describes the document (its own test below).
    static let survivors: Set<String> = ["topLevel", "types", "index"]

    /// A document with a record in every table but `errors` (which a document with `data`
    /// cannot have): a `lid` and `meta` on a resource, `links` and `meta` on a relationship,
    /// `lid` and `meta` on an identifier, an @-member, a member with an invalid name (whose value
    /// is ignored), and an element of `data` that is not an object.
    static let text = #"""
        {"data":[{"type":"a","id":"1","lid":"l1","meta":{"m":1},"relationships":{"r":{"links":{"self":"/r"},
        "meta":{"m":2},"data":[{"type":"a","lid":"l1","meta":{"m":3}}]}}},7],"@context":{},"bad=name":1}
        """#

    /// The number of entries of each table, by property name.
    static func tableSizes(_ arena: ResourceArena) -> [String: Int] {
        var sizes: [String: Int] = [:]
        for child in Mirror(reflecting: arena).children {
            guard let name = child.label, !survivors.contains(name) else { continue }
            if let table = child.value as? SparseRanges {
                sizes[name] = table.count
            } else if let table = child.value as? any Collection {
                sizes[name] = table.count
            } else {
                Issue.record("arena member `\(name)` is neither a table nor a listed survivor")
            }
        }
        return sizes
    }

    @Test("every record table is emptied")
    func everyTableEmptied() throws {
        var arena = try Document(parsing: Self.text, options: ParsingOptions(kind: .response, lenient: true)).storage
            .arena
        arena.errors.append(ByteRange(0, 1))
        let before = Self.tableSizes(arena)
        #expect(before.count >= 11)
        let empty = before.filter { $0.value == 0 }.map(\.key)
        #expect(empty.isEmpty, "the fixture leaves these tables empty: \(empty)")
        let typeCount = arena.types.names.count
        arena.releaseRecords()
        #expect(Self.tableSizes(arena).values.allSatisfy { $0 == 0 })
        #expect(arena.types.names.count == typeCount)
    }

    @Test("the top-level record keeps the document's shape and drops released positions")
    func topLevelAfterRelease() throws {
        let text =
            #"{"data":[{"type":"a","id":"1"}],"included":[{"type":"b","id":"2"}],"meta":{},"links":{},"jsonapi":{}}"#
        var arena = try Document(parsing: text).storage.arena
        let shape = (arena.topLevel.data, arena.topLevel.primaryIsLinkage, arena.topLevel.dataRange)
        arena.releaseRecords()
        let top = arena.topLevel
        #expect(top.data == shape.0 && top.primaryIsLinkage == shape.1)
        // `data` is still there, its bytes are not: present, and outside any window.
        #expect(shape.2.isPresent && top.dataRange.isPresent && top.dataRange.start > 1 << 31)
        #expect(top.primaryStart == 0 && top.includedStart == 0)
        #expect(top.meta.isAbsent && top.links.isAbsent && top.jsonapi.isAbsent && top.errors.isAbsent)
    }
}
