import JSONAPIGenerator
import Testing

@testable @_spi(Backend) import JSONAPI

/// The recycling of large documents' memory (`ArenaShelf`). Each test binds a shelf of its own,
/// so other tests' documents never land on it.
@Suite("Recycled memory of large documents")
struct ArenaShelfTests {
    /// About 4 MB: past the shelf's minimum document size.
    static let large = CompoundDocumentGenerator(resources: 4_200, seed: 41).generate()
    /// A different document of a similar size (about 3 MB) with fewer resources, so recycled
    /// arrays hold stale records past its end, and its index (8,192 slots) is half the
    /// recycled one (16,384).
    static let similar = CompoundDocumentGenerator(resources: 3_000, seed: 42).generate()

    static func address<T>(_ array: [T]) -> UInt {
        array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    static func addresses(_ document: Document) -> [UInt] {
        let arena = document.storage.arena
        return [
            address(arena.resources), address(arena.relationships), address(arena.linkages),
            address(arena.index.recyclableSlots),
        ]
    }

    /// The same document parsed without recycling.
    static func fresh(_ bytes: [UInt8]) throws -> Document {
        var options = ParsingOptions()
        options.recyclesMemory = false
        return try Document(parsing: bytes, options: options)
    }

    /// `bytes` through a ``DocumentParser`` in chunks of `chunk` bytes, with the length or without.
    static func chunked(_ bytes: [UInt8], chunk: Int, sized: Bool) throws -> Document {
        var parser = DocumentParser(expectedByteCount: sized ? bytes.count : 0)
        try bytes.withUnsafeBytes { all in
            for start in stride(from: 0, to: all.count, by: chunk) {
                try parser.feed(UnsafeRawBufferPointer(rebasing: all[start..<min(all.count, start + chunk)]))
            }
        }
        return try parser.finish()
    }

    /// Every resource found by (type, id) at the same position in both documents.
    static func sameIndex(_ a: Document, _ b: Document) -> Bool {
        let all = a.primaryResources.map { $0 } + a.included.map { $0 }
        return all.allSatisfy { resource in
            guard let id = resource.id else { return false }
            return a.resource(type: resource.type, id: id)?.recordIndex
                == b.resource(type: resource.type, id: id)?.recordIndex
        }
    }

    @Test("a released document's arrays and a build's digests go to the next build of a similar size")
    func reuse() throws {
        let shelf = ArenaShelf()
        try ArenaShelf.$current.withValue(shelf) {
            var first: Document? = try Document(parsing: Self.large)
            let before = Self.addresses(try #require(first))
            #expect(shelf.count == (records: 0, digests: 1, mappings: 0))
            first = nil
            #expect(shelf.count == (records: 1, digests: 1, mappings: 0))

            let second = try Document(parsing: Self.similar)
            #expect(shelf.count == (records: 0, digests: 1, mappings: 0))
            #expect(Self.addresses(second) == before)
            #expect(second.storage.arena.index.recyclableSlots.count == 8_192)
            let expected = try Self.fresh(Self.similar)
            #expect(second.storage.arena.fingerprint == expected.storage.arena.fingerprint)
            #expect(second.storage.arena.checkInvariants(inputCount: Self.similar.count).isEmpty)
            #expect(Self.sameIndex(second, expected))
            #expect(second.statistics.resolvedLinkageCount == second.statistics.linkageCount)
        }
    }

    @Test("a small document leaves a large set alone, and a much larger one cannot use it")
    func sizes() throws {
        let shelf = ArenaShelf()
        try ArenaShelf.$current.withValue(shelf) {
            _ = try Document(parsing: Self.large)
            #expect(shelf.count == (records: 1, digests: 1, mappings: 0))
            let small = CompoundDocumentGenerator(resources: 20, seed: 3).generate()
            _ = try Document(parsing: small)
            #expect(shelf.count == (records: 1, digests: 1, mappings: 0))
        }
        // The size rule on its own: a set serves a build that needs at most its capacity and
        // at least about a quarter of it.
        var arena = ResourceArena()
        arena.resources.reserveCapacity(10_000)
        let capacity = arena.resources.capacity
        for (wanted, taken) in [
            (capacity + 1, false), (capacity / 4, false), (capacity / 2 + 1, true), (capacity, true),
        ] {
            let rules = ArenaShelf()
            rules.put(arena)
            #expect((rules.takeRecords(wantedResources: wanted) != nil) == taken, "wanted \(wanted) of \(capacity)")
        }
    }

    @Test("turned off, nothing is shelved or taken; releaseRecycledMemory empties the shelf")
    func optOut() throws {
        let shelf = ArenaShelf()
        try ArenaShelf.$current.withValue(shelf) {
            var options = ParsingOptions()
            options.recyclesMemory = false
            _ = try Document(parsing: Self.large, options: options)
            #expect(shelf.count == (records: 0, digests: 0, mappings: 0))

            _ = try Document(parsing: Self.large)
            #expect(shelf.count == (records: 1, digests: 1, mappings: 0))
            let before = shelf.count
            _ = try Document(parsing: Self.large, options: options)
            #expect(shelf.count == before)
            Document.releaseRecycledMemory()
            #expect(shelf.count == (records: 0, digests: 0, mappings: 0))
        }
    }

    @Test("a chunked parse without a length neither takes nor leaves record arrays")
    func unsized() throws {
        let shelf = ArenaShelf()
        try ArenaShelf.$current.withValue(shelf) {
            _ = try Document(parsing: Self.large)
            #expect(shelf.count == (records: 1, digests: 1, mappings: 0))
            let parsed = try Self.chunked(Self.large, chunk: 65_536, sized: false)
            #expect(parsed.storage.arena.fingerprint == (try Self.fresh(Self.large)).storage.arena.fingerprint)
            #expect(shelf.count == (records: 1, digests: 1, mappings: 0))
            Document.releaseRecycledMemory()
            _ = try Self.chunked(Self.large, chunk: Self.large.count, sized: false)
            #expect(shelf.count == (records: 0, digests: 0, mappings: 0))
        }
    }

    #if os(Linux)
        @Test("a chunked document's input mapping goes to the next chunked document of its size")
        func inputMapping() throws {
            // Past the 16 MB from which a chunked input is a mapping of its own.
            let bytes = CompoundDocumentGenerator(resources: 17_500, seed: 43).generate()
            #expect(bytes.count > InputBuffer.mappingThreshold)
            let expected = try Self.fresh(bytes).storage.arena.fingerprint
            func parse(sized: Bool) throws -> Document { try Self.chunked(bytes, chunk: 1_048_576, sized: sized) }
            func inputAddress(_ document: Document) -> UInt {
                document.withUnsafeInputBytes { UInt(bitPattern: $0.baseAddress) }
            }
            let shelf = ArenaShelf()
            try ArenaShelf.$current.withValue(shelf) {
                var first: Document? = try parse(sized: true)
                let address = inputAddress(try #require(first))
                first = nil
                #expect(shelf.count.mappings == 1)
                // Sized, the buffer is the shelved mapping from the start; unsized, it moves
                // there once it passes 16 MB. Either way the bytes and records are the document's.
                for sized in [true, false] {
                    var document: Document? = try parse(sized: sized)
                    #expect(shelf.count.mappings == 0)
                    do {
                        let parsed = try #require(document)
                        #expect(inputAddress(parsed) == address, "sized \(sized)")
                        #expect(parsed.withUnsafeInputBytes { $0.elementsEqual(bytes) })
                        #expect(parsed.storage.arena.fingerprint == expected)
                    }
                    document = nil
                    #expect(shelf.count.mappings == 1)
                }
                Document.releaseRecycledMemory()
                #expect(shelf.count.mappings == 0)
            }
        }
    #endif

    @Test("builds in many tasks at once share the shelf and each get their own document")
    func concurrent() async throws {
        let shelf = ArenaShelf()
        let expected = [
            try Self.fresh(Self.large).storage.arena.fingerprint,
            try Self.fresh(Self.similar).storage.arena.fingerprint,
        ]
        try await ArenaShelf.$current.withValue(shelf) {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for task in 0..<6 {
                    group.addTask {
                        var same = true
                        for round in 0..<3 {
                            let which = (task &+ round) % 2
                            let document = try Document(parsing: which == 0 ? Self.large : Self.similar)
                            same = same && document.storage.arena.fingerprint == expected[which]
                        }
                        return same
                    }
                }
                for try await same in group { #expect(same) }
            }
        }
        #expect(shelf.count.records <= 1 && shelf.count.digests <= 1)
    }
}
