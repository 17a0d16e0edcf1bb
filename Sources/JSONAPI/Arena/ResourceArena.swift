// The arena: flat storage for one parsed JSON:API document.
//
// The builder never creates a dictionary or an object per resource. It appends fixed-size
// records of `UInt32` offsets into the input to a few arrays, and keeps the input bytes. Values
// that the JSON:API grammar does not give structure to (attribute values, `meta`, link
// objects, error members) are kept as one byte range each and read again on demand by the views:
// the scanner already proved those bytes are valid JSON, so the second read needs no checks
// and costs nothing unless someone asks. This is what keeps a built document within a fraction
// of the input's size: a record per resource, relationship and identifier, none per token.
//
// Records
// -------
// ByteRange            start, end: UInt32            [start, end) of a value in the input;
//                                                    `.absent` (both UInt32.max) when missing.
//                                                    For an id or a member name: the raw
//                                                    contents between the quotes, escapes
//                                                    flagged in the owner's `flags`.
// ResourceRecord       type: UInt32                  index into `types`
//   (48 bytes)         id: ByteRange                 (string contents)
//                      object: ByteRange             the whole `{...}` of the resource
//                      attributes, links: ByteRange
//                      firstRelationship, relationshipCount: UInt32   slice of `relationships`
//                      flags: UInt32                 idHasEscapes, lidHasEscapes, idIsNumber, hasLid, hasMeta
// RelationshipRecord   name: ByteRange               the member name under `relationships`
//   (28 bytes)         object: ByteRange
//                      firstLinkage, linkageCount: UInt32             slice of `linkages`
//                      flags                         nameHasEscapes, hasLinks, hasMeta, and in
//                                                    the top 4 bits data: absent, null, one, many
// LinkageRecord        type: UInt32, id: ByteRange (string contents), object: ByteRange
//   (28 bytes)         target: UInt32                resolved resource index, or UInt32.max
//                      flags                         idHasEscapes, lidHasEscapes, hasLid, hasMeta
//
// Members that few records have live out of line, in a `SparseRanges` table per member (12
// bytes per record that has the member, sorted by record index): a resource's `lid` and `meta`,
// a relationship's `links` and `meta`, an identifier's `lid` and `meta`. A flag on the record says
// the member is there, so a record without it never searches the table. In a response almost
// no identifier has a `lid` or `meta`; keeping those two ranges in every identifier record made
// them 44 bytes instead of 28 (3.3 MB of a 100 MB document's 26 MB arena).
//
// Sections of `resources` are contiguous slices: primary data is `primary`, included resources
// are `included` (either may come first in the input; each is one run of records).
// Relationship records of a resource are contiguous, and so are the identifiers of one
// relationship, because the builder appends them while it is inside that object.
//
// Worked example
// --------------
// The 168-byte input (shown on two lines; offsets count from the first `{`)
//
//   {"data":{"type":"articles","id":"1","relationships":{"author":{"data":{"type":"people","id":"9"}}}},
//   "included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}]}
//
// becomes:
//
//   types             0 "articles", 1 "people"        (interned in order of first sight)
//   resources[0]      type 0, id 33..<34 ("1"), object 8..<99, attributes -, links -,
//                     relationships 0..<1
//   resources[1]      type 1, id 135..<136 ("9"), object 112..<166, attributes 151..<165,
//                     relationships 0..<0
//   relationships[0]  name 54..<60 ("author"), object 62..<97, data .one, linkages 0..<1
//   linkages[0]       type 1, id 93..<94 ("9"), object 70..<96, target 1   (resolved at the end)
//   topLevel          data .one, primary 0..<1, included 1..<2, object 0..<168
//   index             (0, "1") -> 0, (1, "9") -> 1
//
// Reading `resources[1].attributes["name"]` rescans the 14 bytes at 151..<165; nothing else
// is touched. `Document.resource(type: "people", id: "9")` is one hash and one probe.

/// A half-open byte range `[start, end)` in the input, or `.absent`.
@usableFromInline
struct ByteRange: Hashable, Sendable {
    @usableFromInline var start: UInt32
    @usableFromInline var end: UInt32

    @inlinable init(start: UInt32, end: UInt32) {
        self.start = start
        self.end = end
    }

    @inlinable init(_ start: Int, _ end: Int) {
        self.start = UInt32(truncatingIfNeeded: start)
        self.end = UInt32(truncatingIfNeeded: end)
    }

    @usableFromInline static let absent = ByteRange(start: .max, end: .max)

    @inlinable var isAbsent: Bool { start == .max }
    @inlinable var isPresent: Bool { start != .max }
    @inlinable var count: Int { isAbsent ? 0 : Int(end &- start) }
}

/// How a relationship's (or the document's) `data` member looked.
@usableFromInline
enum DataShape: UInt8, Sendable {
    case absent
    case null
    case one
    case many
}

@usableFromInline
struct ResourceRecord: Sendable, Equatable {
    @usableFromInline var type: UInt32 = .max
    @usableFromInline var id: ByteRange = .absent
    @usableFromInline var object: ByteRange = .absent
    @usableFromInline var attributes: ByteRange = .absent
    @usableFromInline var links: ByteRange = .absent
    @usableFromInline var firstRelationship: UInt32 = 0
    @usableFromInline var relationshipCount: UInt32 = 0
    @usableFromInline var flags: RecordFlags = []

    @inlinable init() {}
}

@usableFromInline
struct RelationshipRecord: Sendable, Equatable {
    @usableFromInline var name: ByteRange = .absent
    @usableFromInline var object: ByteRange = .absent
    @usableFromInline var firstLinkage: UInt32 = 0
    @usableFromInline var linkageCount: UInt32 = 0
    /// ``RecordFlags`` in the low bits, the `data` shape in the top four.
    @usableFromInline var flags: RecordFlags = []

    @inlinable init() {}

    /// How the relationship's `data` looked, kept in the top bits of `flags` (a separate byte
    /// would pad the record from 28 to 32 bytes).
    @inlinable var data: DataShape {
        get { DataShape(rawValue: UInt8(truncatingIfNeeded: flags.rawValue >> 28)) ?? .absent }
        set { flags.rawValue = (flags.rawValue & 0x0FFF_FFFF) | UInt32(newValue.rawValue) << 28 }
    }
}

@usableFromInline
struct LinkageRecord: Sendable, Equatable {
    @usableFromInline var type: UInt32 = .max
    @usableFromInline var id: ByteRange = .absent
    @usableFromInline var object: ByteRange = .absent
    @usableFromInline var target: UInt32 = .max
    @usableFromInline var flags: RecordFlags = []

    @inlinable init() {}
}

/// Bits shared by the record kinds.
@usableFromInline
struct RecordFlags: OptionSet, Sendable, Equatable {
    @usableFromInline var rawValue: UInt32
    @inlinable init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The `id` (or a relationship's name) contains backslash escapes.
    @usableFromInline static let idHasEscapes = RecordFlags(rawValue: 1 << 0)
    /// The `lid` contains backslash escapes.
    @usableFromInline static let lidHasEscapes = RecordFlags(rawValue: 1 << 1)
    /// Lenient mode kept a number `id`; `id` is the number's text, not a string's contents.
    @usableFromInline static let idIsNumber = RecordFlags(rawValue: 1 << 2)
    /// The relationship's name contains backslash escapes.
    @usableFromInline static let nameHasEscapes = RecordFlags(rawValue: 1 << 3)
    /// The record has a `lid` (in the arena's `SparseRanges` for it).
    @usableFromInline static let hasLid = RecordFlags(rawValue: 1 << 4)
    /// The record has a `meta` member (kept out of line).
    @usableFromInline static let hasMeta = RecordFlags(rawValue: 1 << 5)
    /// The relationship has a `links` member (kept out of line).
    @usableFromInline static let hasLinks = RecordFlags(rawValue: 1 << 6)
    /// The resource is an element of `included` (rather than primary data).
    @usableFromInline static let isIncluded = RecordFlags(rawValue: 1 << 7)
}

/// Byte ranges of a member that few records have, by record index: kept beside the record array
/// rather than in every record (see the layout notes at the top of this file). Each table knows
/// the record flag that says a record has its member; setting a member sets both.
///
/// The builder sets a member while it is inside that record, which is almost always the last
/// record of its kind, so entries are appended in order; ``set(_:for:flags:)`` still inserts in
/// order if not. Lookups are a binary search, and happen only for records with the flag.
@usableFromInline
struct SparseRanges: Sendable, Equatable {
    /// The flag of the records that have an entry here.
    @usableFromInline let flag: RecordFlags
    /// A record index and its member's range.
    @usableFromInline
    struct Entry: Sendable, Equatable {
        @usableFromInline var record: UInt32
        @usableFromInline var range: ByteRange
    }

    /// Sorted by `record`, one entry per record (one allocation per table, not one per field).
    @usableFromInline var entries: [Entry] = []

    @inlinable init(flag: RecordFlags) { self.flag = flag }

    /// The first entry whose record is not below `key`.
    @inlinable func lowerBound(_ key: UInt32) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low &+ high) &>> 1
            if entries[middle].record < key { low = middle &+ 1 } else { high = middle }
        }
        return low
    }

    /// The range of the member of `record`, whose flags are `flags`, or `.absent`.
    @inlinable func range(of record: Int, flags: RecordFlags) -> ByteRange {
        guard flags.contains(flag) else { return .absent }
        let key = UInt32(truncatingIfNeeded: record)
        let i = lowerBound(key)
        return i < entries.count && entries[i].record == key ? entries[i].range : .absent
    }

    /// Records `range` as the member of `record`, whose flags are `flags` (in the record array,
    /// or of a record about to be appended), replacing an earlier one (a repeated member).
    @inline(__always)
    mutating func set(_ range: ByteRange, for record: Int, flags: inout RecordFlags) {
        flags.insert(flag)
        let key = UInt32(truncatingIfNeeded: record)
        if let last = entries.last, last.record >= key {
            replaceOrInsert(range, key: key)
        } else {
            // A small document's first entry makes room for a few more in the same allocation.
            if entries.capacity == 0 { entries.reserveCapacity(16) }
            entries.append(Entry(record: key, range: range))
        }
    }

    @inline(never)
    private mutating func replaceOrInsert(_ range: ByteRange, key: UInt32) {
        let i = lowerBound(key)
        if entries[i].record == key {
            entries[i].range = range
        } else {
            entries.insert(Entry(record: key, range: range), at: i)
        }
    }

    mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }

    var count: Int { entries.count }
    var footprint: Int { entries.count * MemoryLayout<Entry>.stride }
}

/// Where the top-level members of a document are.
@usableFromInline
struct TopLevelRecord: Sendable, Equatable {
    @usableFromInline var object: ByteRange = .absent
    @usableFromInline var data: DataShape = .absent
    @usableFromInline var dataRange: ByteRange = .absent
    /// Primary resources (`resources[primary]`), or for a relationship document, primary linkage.
    @usableFromInline var primaryStart: UInt32 = 0
    @usableFromInline var primaryCount: UInt32 = 0
    @usableFromInline var primaryIsLinkage: Bool = false
    @usableFromInline var includedStart: UInt32 = 0
    @usableFromInline var includedCount: UInt32 = 0
    @usableFromInline var hasIncluded: Bool = false
    @usableFromInline var meta: ByteRange = .absent
    @usableFromInline var links: ByteRange = .absent
    @usableFromInline var jsonapi: ByteRange = .absent
    @usableFromInline var errors: ByteRange = .absent

    @inlinable init() {}
}

/// A member the specification does not define (an extension member such as `atomic:operations`,
/// an @-member, or in lenient mode an unknown member): its name and value.
@usableFromInline
struct ForeignMember: Sendable, Equatable {
    @usableFromInline var name: ByteRange
    @usableFromInline var nameHasEscapes: Bool
    @usableFromInline var value: ByteRange
}

/// An element of `data` or `included` that is not a resource object (read on in lenient mode):
/// where it is, so that the elements after it keep their places in JSON Pointers.
@usableFromInline
struct SkippedElement: Sendable, Equatable {
    @usableFromInline var range: ByteRange
    @usableFromInline var isIncluded: Bool
}

/// The arena of one document: every record array, the type table and the identifier index.
@usableFromInline
struct ResourceArena: Sendable {
    @usableFromInline var resources: [ResourceRecord] = []
    @usableFromInline var relationships: [RelationshipRecord] = []
    @usableFromInline var linkages: [LinkageRecord] = []
    @usableFromInline var errors: [ByteRange] = []
    @usableFromInline var topLevel = TopLevelRecord()
    @usableFromInline var foreignMembers: [ForeignMember] = []
    /// Top-level members whose value the document does not keep (a repeated member, one with an
    /// invalid name): where they are, so that a problem inside one is located from the records
    /// (a stream's window may no longer hold the member's start).
    @usableFromInline var ignoredMembers: [ForeignMember] = []
    /// Elements of `data` and `included` that are not resource objects, in document order.
    @usableFromInline var skippedElements: [SkippedElement] = []
    /// Members few records have (see the layout notes at the top of this file).
    @usableFromInline var resourceLids = SparseRanges(flag: .hasLid)
    @usableFromInline var resourceMeta = SparseRanges(flag: .hasMeta)
    @usableFromInline var relationshipLinks = SparseRanges(flag: .hasLinks)
    @usableFromInline var relationshipMeta = SparseRanges(flag: .hasMeta)
    @usableFromInline var linkageLids = SparseRanges(flag: .hasLid)
    @usableFromInline var linkageMeta = SparseRanges(flag: .hasMeta)
    @usableFromInline var types = TypeTable()
    @usableFromInline var index = ResourceIndex()

    @inlinable init() {}

    /// Bytes the arena's records, index and type table use. Reserved but unwritten capacity is
    /// left out: it is address space, not memory (the pages are never touched).
    var footprint: Int {
        resources.count * MemoryLayout<ResourceRecord>.stride
            + relationships.count * MemoryLayout<RelationshipRecord>.stride
            + linkages.count * MemoryLayout<LinkageRecord>.stride
            + errors.count * MemoryLayout<ByteRange>.stride
            + (foreignMembers.count + ignoredMembers.count) * MemoryLayout<ForeignMember>.stride
            + skippedElements.count * MemoryLayout<SkippedElement>.stride
            + resourceLids.footprint + resourceMeta.footprint + relationshipLinks.footprint + relationshipMeta.footprint
            + linkageLids.footprint + linkageMeta.footprint
            + index.footprint + types.footprint
    }

    /// How many elements of `included` (or of `data`) that are not resource objects come before
    /// `offset`: what a record's place in its section adds to its count of records before it.
    func skippedElements(isIncluded: Bool, before offset: Int) -> Int {
        var n = 0
        for element in skippedElements where element.isIncluded == isIncluded && Int(element.range.start) < offset {
            n &+= 1
        }
        return n
    }

    /// A resource's `lid`, or `.absent`.
    @inlinable func lid(ofResource i: Int) -> ByteRange {
        resourceLids.range(of: i, flags: resources[i].flags)
    }

    /// A resource's `meta`, or `.absent`.
    @inlinable func meta(ofResource i: Int) -> ByteRange {
        resourceMeta.range(of: i, flags: resources[i].flags)
    }

    /// A relationship's `links`, or `.absent`.
    @inlinable func links(ofRelationship i: Int) -> ByteRange {
        relationshipLinks.range(of: i, flags: relationships[i].flags)
    }

    /// A relationship's `meta`, or `.absent`.
    @inlinable func meta(ofRelationship i: Int) -> ByteRange {
        relationshipMeta.range(of: i, flags: relationships[i].flags)
    }

    /// A resource identifier's `lid`, or `.absent`.
    @inlinable func lid(ofLinkage i: Int) -> ByteRange {
        linkageLids.range(of: i, flags: linkages[i].flags)
    }

    /// A resource identifier's `meta`, or `.absent`.
    @inlinable func meta(ofLinkage i: Int) -> ByteRange {
        linkageMeta.range(of: i, flags: linkages[i].flags)
    }
}
