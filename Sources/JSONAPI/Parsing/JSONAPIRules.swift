/// The JSON:API rules about member names, as one table that every path of the builder reads.
///
/// A document is built through two kinds of path: the event path (`DocumentBuilder+Grammar.swift`
/// and the key fast path in `DocumentBuilder.swift`), which sees one scanner event at a time, and
/// the whole-object readers (`DocumentBuilder+WholeObjects.swift`, `+WholeResources.swift`),
/// which take a small object in one step. Both ask this table which member a name is, which
/// names an attribute or relationship may not have, which names are reserved inside attribute
/// values and which link names an object's `links` may hold. A rule about names is therefore
/// one entry here: the whole-object readers decline any name the table does not give them, so
/// the event path, which reports problems, always has the last word.
///
/// What a member *means* (which record it fills, what its value must be) stays in the grammar:
/// an entry names a ``DocumentBuilder/Member`` that the grammar already handles.
///
/// The rules hold for every document; ``ParsingOptions`` carries them (`ParsingOptions.rules`,
/// internal) so that a test can add an entry and watch every path obey it.
struct JSONAPIRules: Sendable, Hashable {
    /// A set of names: the members of one kind of object, or a list of reserved names.
    enum Names: Int, CaseIterable, Sendable {
        /// The members of the top-level object.
        case topLevel
        /// The members of a resource object.
        case resource
        /// The members of a resource identifier object.
        case identifier
        /// The members of a relationship object.
        case relationship
        /// The members of a link object.
        case linkObject
        /// The members of an error object.
        case error
        /// The members of an error's `source` object.
        case errorSource
        /// The members of the `jsonapi` object.
        case jsonapi
        /// The link names of the top-level `links` object.
        case topLevelLinks
        /// The link names of a relationship's `links` object.
        case relationshipLinks
        /// The link names of an error's `links` object.
        case errorLinks
        /// Names an attribute or a relationship must not have ("fields" share a namespace with
        /// `type` and `id`).
        case reservedFieldNames
        /// Names an object inside an attribute value must not have (1.0 and 1.1, "Attributes":
        /// such objects must not hold `relationships` or `links`).
        case reservedInAttributeValues
    }

    /// A name of at most sixteen bytes, packed as the type table packs type names
    /// (`TypeTable.pack`), so that a comparison is two word compares.
    typealias PackedName = TypeTable.PackedName

    /// A name with its quotes, packed for matching a key where it lies in the input.
    struct QuotedName: Hashable, Sendable {
        var low: UInt64
        var high: UInt64
        var maskLow: UInt64
        var maskHigh: UInt64
        /// The quoted name's length in bytes.
        var count: Int

        /// Packs `"name"`, which has at most sixteen bytes with its quotes.
        init(_ name: StaticString) {
            precondition(name.utf8CodeUnitCount <= 14, "a rule's name has at most fourteen bytes")
            var bytes: [UInt8] = [UInt8(ascii: "\"")]
            name.withUTF8Buffer { unsafe bytes += $0 }
            bytes.append(UInt8(ascii: "\""))
            (low, high, maskLow, maskHigh, count) = (0, 0, 0, 0, bytes.count)
            for (i, byte) in bytes.enumerated() {
                if i < 8 {
                    low |= UInt64(byte) << UInt64(i * 8)
                    maskLow |= 0xFF << UInt64(i * 8)
                } else {
                    high |= UInt64(byte) << UInt64((i - 8) * 8)
                    maskHigh |= 0xFF << UInt64((i - 8) * 8)
                }
            }
        }

        /// A name no key matches (a key starts with a quote, this with a zero byte).
        static let none = QuotedName(low: 0, high: 0, maskLow: ~0, maskHigh: 0, count: 2)

        private init(low: UInt64, high: UInt64, maskLow: UInt64, maskHigh: UInt64, count: Int) {
            (self.low, self.high, self.maskLow, self.maskHigh, self.count) = (low, high, maskLow, maskHigh, count)
        }

        /// Whether the sixteen bytes `low`, `high` at a key's opening quote start with this name.
        @inline(__always)
        func matches(low keyLow: UInt64, high keyHigh: UInt64) -> Bool {
            keyLow & maskLow == low && keyHigh & maskHigh == high
        }

        /// Whether the key at `input[j]` (its opening quote) is this name. False near the end of
        /// the bytes, where the eight (or sixteen) bytes do not fit.
        @inline(__always)
        func matches(_ input: ByteView, _ j: Int) -> Bool {
            guard j >= 0 else { return false }
            if maskHigh == 0 {
                guard input.count &- j >= 8 else { return false }
                // SAFETY: `0 <= j` and `j + 8 <= input.count`, checked just above.
                return unsafe input.word64(unchecked: j) & maskLow == low
            }
            guard input.count &- j >= 16 else { return false }
            // SAFETY: `0 <= j` and `j + 16 <= input.count`, checked just above.
            return unsafe matches(
                low: input.word64(unchecked: j),
                high: input.word64(unchecked: j &+ 8))
        }
    }

    /// One name of a set and, for the members of an object, the member it is.
    struct Entry: Hashable, Sendable {
        var name: PackedName
        var quoted: QuotedName
        var member: DocumentBuilder.Member
        /// One more than the index of the next entry of the same set whose name starts with the
        /// same byte; 0 when there is none.
        var next: Int32 = 0
    }

    /// The rows the table was made from, in order.
    private var rows: [(Names, StaticString, DocumentBuilder.Member)]
    /// Every entry, grouped by set in the order of ``Names``.
    private(set) var entries: [Entry] = []
    /// Where each set's entries are in ``entries``, indexed by `Names.rawValue`.
    private(set) var ranges: [Range<Int>] = []
    /// `heads[set * 256 + byte]`: one more than the index of the set's first entry whose name
    /// starts with `byte`, or 0. A lookup reads one of these and compares a name or two.
    private(set) var heads: [Int32] = []
    /// The quoted names the whole-object readers match, made once per table (not per build).
    private(set) var readerKeys: DocumentBuilder.ReaderKeys

    /// A table of `(set, name, member)` rows; `member` is `.none` for the sets of reserved and
    /// link names.
    init(_ rows: [(Names, StaticString, DocumentBuilder.Member)]) {
        self.rows = rows
        (entries, ranges, heads) = Self.index(rows)
        readerKeys = DocumentBuilder.ReaderKeys(entries: entries, ranges: ranges)
    }

    /// Adds `name` to `set`, as `member` for the members of an object.
    mutating func add(_ name: StaticString, to set: Names, as member: DocumentBuilder.Member = .none) {
        rows.append((set, name, member))
        (entries, ranges, heads) = Self.index(rows)
        readerKeys = DocumentBuilder.ReaderKeys(entries: entries, ranges: ranges)
    }

    /// The ``entries``, ``ranges`` and ``heads`` of a table of rows.
    private static func index(_ rows: [(Names, StaticString, DocumentBuilder.Member)])
        -> (entries: [Entry], ranges: [Range<Int>], heads: [Int32])
    {
        var entries: [Entry] = []
        var ranges: [Range<Int>] = []
        var heads = [Int32](repeating: 0, count: Names.allCases.count * 256)
        for set in Names.allCases {
            let start = entries.count
            for row in rows where row.0 == set {
                let (name, first) = row.1.withUTF8Buffer { utf8 in
                    unsafe (TypeTable.pack(UnsafeRawBufferPointer(utf8)), utf8.first)
                }
                guard name.count >= 0, let first else { continue }
                entries.append(Entry(name: name, quoted: QuotedName(row.1), member: row.2))
                // Appended at the end of its first byte's chain, so lookups keep the table's order.
                let slot = set.rawValue * 256 + Int(first)
                if heads[slot] == 0 {
                    heads[slot] = Int32(entries.count)
                } else {
                    var k = Int(heads[slot])
                    while entries[k - 1].next != 0 { k = Int(entries[k - 1].next) }
                    entries[k - 1].next = Int32(entries.count)
                }
            }
            ranges.append(start..<entries.count)
        }
        return (entries, ranges, heads)
    }

    static func == (lhs: JSONAPIRules, rhs: JSONAPIRules) -> Bool { lhs.entries == rhs.entries }
    func hash(into hasher: inout Hasher) { hasher.combine(entries) }

    /// One more than the index of `set`'s first entry whose name starts with `first`, or 0.
    @inline(__always)
    func head(_ set: Names, _ first: UInt8) -> Int {
        Int(heads[set.rawValue &* 256 &+ Int(first)])
    }

    /// The entry of the chain from `k` (see ``head(_:_:)``) whose name is `name`, packed only
    /// when an entry of its length turns up (`buffer`, when given, holds `name`).
    @inline(__always)
    private func entry(_ name: UnsafeRawBufferPointer, from k: Int, within buffer: UnsafeRawBufferPointer?) -> Entry? {
        var k = k
        var packed: PackedName?
        while k != 0 {
            let entry = entries[k &- 1]
            if entry.name.count == name.count {
                if packed == nil {
                    // Every entry's name has at most sixteen bytes, so this one packs.
                    packed = unsafe buffer.map { unsafe TypeTable.pack(name, within: $0) } ?? TypeTable.pack(name)
                }
                if entry.name == packed { return entry }
            }
            k = Int(entry.next)
        }
        return nil
    }

    /// The member `name` is in an object whose members are `set`, or nil when the specification
    /// does not define it there.
    @inline(__always)
    func member(_ name: UnsafeRawBufferPointer, in set: Names) -> DocumentBuilder.Member? {
        guard let first = unsafe name.first else { return nil }
        let k = head(set, first)
        guard k != 0 else { return nil }
        return unsafe entry(name, from: k, within: nil)?.member
    }

    /// ``member(_:in:)`` for a name lying inside `buffer`, packed with two loads.
    @inline(__always)
    func member(_ name: UnsafeRawBufferPointer, in set: Names, within buffer: UnsafeRawBufferPointer)
        -> DocumentBuilder.Member?
    {
        guard let first = unsafe name.first else { return nil }
        let k = head(set, first)
        guard k != 0 else { return nil }
        return unsafe entry(name, from: k, within: buffer)?.member
    }

    /// Whether `name` is in `set`.
    @inline(__always)
    func contains(_ name: UnsafeRawBufferPointer, in set: Names) -> Bool {
        unsafe member(name, in: set) != nil
    }

    /// ``contains(_:in:)`` for a name lying inside `buffer`: a name whose first byte starts no
    /// name of `set` (nearly every name) costs one table read, inline; the rest is out of line,
    /// so that the readers that test every name stay small.
    @inline(__always)
    func contains(_ name: UnsafeRawBufferPointer, in set: Names, within buffer: UnsafeRawBufferPointer) -> Bool {
        guard let first = unsafe name.first else { return false }
        let k = head(set, first)
        return unsafe k != 0 && chainContains(name, from: k, within: buffer)
    }

    @inline(never)
    private func chainContains(_ name: UnsafeRawBufferPointer, from k: Int, within buffer: UnsafeRawBufferPointer)
        -> Bool
    {
        unsafe entry(name, from: k, within: buffer) != nil
    }

    /// The entry of `set` whose quoted name is at `input[j]` (the key's opening quote), or nil.
    /// Reads the sixteen bytes from `j`; nil when they do not lie inside `input`, so a key near the
    /// end of the bytes is left to the event path.
    @inline(__always)
    func quotedKey(_ input: ByteView, at j: Int, in set: Names) -> Entry? {
        guard j >= 0, input.count &- j >= 16 else { return nil }
        // SAFETY: `0 <= j` and `j + 16 <= input.count`, checked just above.
        var k = unsafe head(set, input[unchecked: j &+ 1])
        guard k != 0 else { return nil }
        // SAFETY: as above.
        let low = unsafe input.word64(unchecked: j)
        // SAFETY: as above.
        let high = unsafe input.word64(unchecked: j &+ 8)
        while k != 0 {
            let entry = entries[k &- 1]
            if entry.quoted.matches(low: low, high: high) { return entry }
            k = Int(entry.next)
        }
        return nil
    }

    /// The quoted name of the first entry of `set` that is `member`, for matching a key in place;
    /// ``QuotedName/none`` when `set` has no such entry.
    func quotedName(of member: DocumentBuilder.Member, in set: Names) -> QuotedName {
        Self.quotedName(of: member, in: set, entries: entries, ranges: ranges)
    }

    static func quotedName(
        of member: DocumentBuilder.Member, in set: Names, entries: [Entry], ranges: [Range<Int>]
    ) -> QuotedName {
        entries[ranges[set.rawValue]].first { $0.member == member }?.quoted ?? .none
    }

    /// The names of `set`, as text (for messages and for mapping coding paths to pointers).
    func names(in set: Names) -> [String] {
        entries[ranges[set.rawValue]].map { String(decoding: TypeTable.unpack($0.name), as: UTF8.self) }
    }

    /// The link-name set of a `links` object, or nil where any valid member name is a link name
    /// (a resource's and a link object's `links`, whose names the specification leaves open).
    static func linkNames(_ context: DocumentBuilder.LinksContext) -> Names? {
        switch context {
        case .topLevel: .topLevelLinks
        case .relationship: .relationshipLinks
        case .error: .errorLinks
        case .resource, .linkObject: nil
        }
    }

    /// JSON:API 1.1 (which keeps every 1.0 name): "Document Structure" and its sections.
    static let standard = JSONAPIRules([
        (.topLevel, "data", .data), (.topLevel, "errors", .errors), (.topLevel, "meta", .meta),
        (.topLevel, "jsonapi", .jsonapi), (.topLevel, "links", .links), (.topLevel, "included", .included),

        // The common members first: the whole-object readers look them up for every resource.
        (.resource, "type", .type), (.resource, "id", .id), (.resource, "attributes", .attributes),
        (.resource, "relationships", .relationships), (.resource, "links", .links), (.resource, "meta", .meta),
        (.resource, "lid", .lid),

        (.identifier, "type", .type), (.identifier, "id", .id), (.identifier, "lid", .lid),
        (.identifier, "meta", .meta),

        (.relationship, "data", .data), (.relationship, "links", .links), (.relationship, "meta", .meta),

        (.linkObject, "href", .href), (.linkObject, "rel", .rel), (.linkObject, "describedby", .describedby),
        (.linkObject, "title", .title), (.linkObject, "type", .linkType), (.linkObject, "hreflang", .hreflang),
        (.linkObject, "meta", .meta),

        (.error, "id", .id), (.error, "links", .links), (.error, "status", .status), (.error, "code", .code),
        (.error, "title", .title), (.error, "detail", .detail), (.error, "source", .source),
        (.error, "meta", .meta),

        (.errorSource, "pointer", .pointer), (.errorSource, "parameter", .parameter),
        (.errorSource, "header", .header),

        (.jsonapi, "version", .version), (.jsonapi, "ext", .ext), (.jsonapi, "profile", .profile),
        (.jsonapi, "meta", .meta),

        (.topLevelLinks, "self", .none), (.topLevelLinks, "related", .none), (.topLevelLinks, "describedby", .none),
        (.topLevelLinks, "first", .none), (.topLevelLinks, "last", .none), (.topLevelLinks, "prev", .none),
        (.topLevelLinks, "next", .none),

        (.relationshipLinks, "self", .none), (.relationshipLinks, "related", .none),
        (.relationshipLinks, "first", .none), (.relationshipLinks, "last", .none),
        (.relationshipLinks, "prev", .none), (.relationshipLinks, "next", .none),

        (.errorLinks, "about", .none), (.errorLinks, "type", .none),

        (.reservedFieldNames, "type", .none), (.reservedFieldNames, "id", .none),

        (.reservedInAttributeValues, "relationships", .none), (.reservedInAttributeValues, "links", .none),
    ])
}
