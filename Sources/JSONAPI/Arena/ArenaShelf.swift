/// The large arrays of released documents, kept for the next build of a similar size.
///
/// A build of a large document writes tens of megabytes of records, index slots and digests into
/// fresh allocations. Whether those pages are already mapped depends on the allocator's mood:
/// glibc hands large blocks back to the system when they are freed (or trims its heap), so the
/// next build faults every page in again and the kernel zeroes it first: one fault per page, in
/// one process and not in another that parsed the same bytes, so the cost of a large build
/// would depend on what the process did before. The shelf makes it deterministic: a released
/// document's record arrays and
/// index slots, a finished build's digests and a chunked document's input mapping
/// (``InputBuffer``) wait here, and the next build whose reservation they fit takes them, pages
/// and all.
///
/// Sets are kept by size class (the bit width of the resource or identifier capacity), one per
/// class, so a service that alternates small and large documents reuses both. A build takes only
/// a set with room for its reservation and less than four times it (an input mapping: at most
/// twice what it asks for). Documents under ``minimumDocumentBytes`` take no part: their arrays
/// are small blocks, which the allocator keeps warm anyway. ``Document/releaseRecycledMemory()``
/// empties the shelf; ``ParsingOptions/recyclesMemory`` turns it off.
final class ArenaShelf: Sendable {
    /// A released document's record arrays and index slots, still holding its elements: the
    /// document's storage is still alive while it shelves them, and emptying an array that is not
    /// uniquely referenced would allocate a fresh one. Whoever takes the set empties it.
    struct Records: Sendable {
        var resources: [ResourceRecord]
        var relationships: [RelationshipRecord]
        var linkages: [LinkageRecord]
        var slots: [ResourceIndex.Entry]
    }

    /// A finished build's digest arrays.
    struct Digests: Sendable {
        var resources: [UInt64]
        var linkages: [UInt64]
    }

    /// Documents shorter than this neither take nor leave arrays.
    static let minimumDocumentBytes = 2 << 20

    /// A chunked document's input mapping (Linux), by address: see ``InputBuffer``.
    struct Mapping: Sendable {
        var address: Int
        var capacity: Int
    }

    private let records = Locked<[Int: Records]>([:])
    private let digests = Locked<[Int: Digests]>([:])
    private let mappings = Locked<[Int: Mapping]>([:])

    /// The shelf builds use; tests bind their own (``current``).
    static let shared = ArenaShelf()

    /// The shelf of the current task: ``shared`` unless a test bound a private one, so tests that
    /// look at what was shelved do not race with other tests' documents.
    @TaskLocal static var current: ArenaShelf? = nil

    /// The shelf for this task.
    @inline(__always)
    static var active: ArenaShelf { current ?? shared }

    init() {}

    /// The size class of a capacity: its bit width.
    @inline(__always)
    static func sizeClass(_ capacity: Int) -> Int { Int.bitWidth &- capacity.leadingZeroBitCount }

    /// Takes a shelved set whose array (`capacity`) holds `minimum` to `maximum` elements or
    /// bytes; the classes in between are the only ones that can.
    private static func take<Set>(
        from sets: inout [Int: Set], minimum: Int, maximum: Int, capacity: (Set) -> Int
    ) -> Set? {
        guard minimum > 0, maximum >= minimum else { return nil }
        for key in sizeClass(minimum)...sizeClass(maximum) {
            if let found = sets[key], capacity(found) >= minimum, capacity(found) <= maximum {
                sets[key] = nil
                return found
            }
        }
        return nil
    }

    /// Takes shelved records whose resource array has room for `wantedResources`, and less than
    /// four times that.
    func takeRecords(wantedResources: Int) -> Records? {
        records.withLock {
            Self.take(from: &$0, minimum: wantedResources, maximum: 4 &* wantedResources &- 1) {
                $0.resources.capacity
            }
        }
    }

    /// Takes shelved digests whose identifier array has room for `wantedLinkages`, and less than
    /// four times that.
    func takeDigests(wantedLinkages: Int) -> Digests? {
        digests.withLock {
            Self.take(from: &$0, minimum: wantedLinkages, maximum: 4 &* wantedLinkages &- 1) { $0.linkages.capacity }
        }
    }

    /// Shelves a released arena's arrays, replacing a set of the same class.
    func put(_ arena: ResourceArena) {
        let capacity = arena.resources.capacity
        let set = Records(
            resources: arena.resources, relationships: arena.relationships, linkages: arena.linkages,
            slots: arena.index.recyclableSlots)
        records.withLock { $0[Self.sizeClass(capacity)] = set }
    }

    /// Shelves a finished build's digest arrays, leaving the builder's empty.
    func put(resourceDigests: inout [UInt64], linkageDigests: inout [UInt64]) {
        let capacity = linkageDigests.capacity
        let set = Digests(resources: resourceDigests, linkages: linkageDigests)
        resourceDigests = []
        linkageDigests = []
        digests.withLock { $0[Self.sizeClass(capacity)] = set }
    }

    /// Takes a shelved input mapping of `minimum` to `maximum` bytes.
    func takeMapping(minimum: Int, maximum: Int) -> Mapping? {
        mappings.withLock { Self.take(from: &$0, minimum: minimum, maximum: maximum) { $0.capacity } }
    }

    /// Shelves a released input mapping; returns one it displaced, which the caller unmaps.
    func put(_ mapping: Mapping) -> Mapping? {
        mappings.withLock { $0.updateValue(mapping, forKey: Self.sizeClass(mapping.capacity)) }
    }

    /// How many sets are shelved (records, digests, input mappings).
    var count: (records: Int, digests: Int, mappings: Int) {
        (records.withLock { $0.count }, digests.withLock { $0.count }, mappings.withLock { $0.count })
    }

    /// Drops everything shelved, unmapping the input mappings.
    func empty() {
        records.withLock { $0.removeAll() }
        digests.withLock { $0.removeAll() }
        let released = mappings.withLock { shelved in
            defer { shelved.removeAll() }
            return Array(shelved.values)
        }
        for mapping in released { InputBuffer.unmap(mapping) }
    }

    deinit {
        // A private shelf (tests) must not leak the mappings it holds.
        for mapping in mappings.withLock({ Array($0.values) }) { InputBuffer.unmap(mapping) }
    }
}
