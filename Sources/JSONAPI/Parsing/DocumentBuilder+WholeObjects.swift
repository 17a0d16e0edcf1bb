/// Whole-object fast paths: the small objects a compound document is full of, taken in one
/// step instead of event by event.
///
/// A resource identifier `{"type":"people","id":"9"}` costs seven scanner events, each passing
/// through the grammar's dispatch; a relationship's `links` object is much the same. When such an
/// object lies wholly in the current chunk and has the plain shape below, the builder reads it
/// directly and makes exactly the records and frame changes its events would have made. Anything
/// else (another member, escapes or non-ASCII in a name, a value the rules would complain about, an
/// object cut by the chunk end) declines before changing anything, and the events follow as usual; so
/// results never depend on which path ran, which the backend-equivalence tests check against
/// the libyajl backend (which never offers objects) and the split-everywhere tests check across
/// chunkings.
extension DocumentBuilder {
    /// The builder reads resource objects, identifiers and links objects whole, which is most of
    /// a JSON:API document: the scanner indexes nothing ahead of it.
    public static var readsWholeObjects: Bool { true }

    /// The quoted member names the identifier and relationship readers match keys against, made
    /// once with the rules table (`JSONAPIRules.readerKeys`): matching one costs a load and a
    /// compare, less than a lookup in the table, on the objects a document holds most of. A class,
    /// so that the readers, which run on a mutating builder, read the names in place instead of
    /// copying them.
    final class ReaderKeys: Sendable {
        let type: JSONAPIRules.QuotedName
        let id: JSONAPIRules.QuotedName
        let data: JSONAPIRules.QuotedName
        let links: JSONAPIRules.QuotedName
        let meta: JSONAPIRules.QuotedName

        init(entries: [JSONAPIRules.Entry], ranges: [Range<Int>]) {
            func name(_ member: Member, _ set: JSONAPIRules.Names) -> JSONAPIRules.QuotedName {
                JSONAPIRules.quotedName(of: member, in: set, entries: entries, ranges: ranges)
            }
            type = name(.type, .identifier)
            id = name(.id, .identifier)
            data = name(.data, .relationship)
            links = name(.links, .relationship)
            meta = name(.meta, .relationship)
        }
    }

    /// A resource identifier read by ``parseIdentifier(_:at:count:stringLimit:)``: its `type` and
    /// `id` contents and the object's extent, as chunk indices, and whether the id has escapes.
    struct PlainIdentifier {
        var type: Range<Int>
        var id: Range<Int>
        var object: Range<Int>
        var idEscaped = false
    }

    /// Takes a relationship object, a resource identifier in linkage, or a resource's or
    /// relationship's `links` object in one step when it has the plain shape; nil otherwise
    /// (see the extension's discussion). A relationship (whose linkage array holds objects)
    /// needs three levels of `depthLimit`, the others one.
    public mutating func wholeObject(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int, depthLimit: Int
    ) -> Int? {
        guard hasTop, opaqueDepth == 0 else { return nil }
        switch top.kind {
        case .dataArray where options.kind != .relationshipUpdate:
            return unsafe wholeResource(
                p, at: i, count: n, base: base, stringLimit: stringLimit, depthLimit: depthLimit, section: .primary)
        case .includedArray:
            return unsafe wholeResource(
                p, at: i, count: n, base: base, stringLimit: stringLimit, depthLimit: depthLimit, section: .included)
        case .relationships where top.member == .relationshipValue:
            return unsafe wholeRelationship(
                p, at: i, count: n, base: base, stringLimit: stringLimit, depthLimit: depthLimit)
        case .linkageArray:
            guard
                let identifier = unsafe Self.parseIdentifier(
                    p, at: i, count: n, stringLimit: stringLimit, keys: readerKeys)
            else { return nil }
            if let relationship = Self.currentRelationship(top: top, hasTop: hasTop, below: below) {
                arena.relationships[relationship].linkageCount &+= 1
            }
            unsafe appendLinkage(identifier, p, count: n, base: base)
            return identifier.object.upperBound
        case .relationship where top.member == .data:
            guard
                let identifier = unsafe Self.parseIdentifier(
                    p, at: i, count: n, stringLimit: stringLimit, keys: readerKeys)
            else { return nil }
            let r = Int(top.record)
            top.valueStart = UInt32(truncatingIfNeeded: base &+ i)
            arena.relationships[r].data = .one
            arena.relationships[r].linkageCount &+= 1
            unsafe appendLinkage(identifier, p, count: n, base: base)
            top.member = .none
            return identifier.object.upperBound
        case .resource where top.member == .attributes:
            fieldNameScratch.clearScratch()
            guard
                let end = unsafe Self.parseAttributes(
                    p, at: i, count: n, stringLimit: stringLimit, depthLimit: depthLimit, names: &fieldNameScratch,
                    rules: options.rules)
            else { return nil }
            top.valueStart = UInt32(truncatingIfNeeded: base &+ i)
            for name in fieldNameScratch {
                fieldNames.append(ByteRange(base &+ name.lowerBound, base &+ name.upperBound))
            }
            arena.resources[Int(top.record)].attributes = ByteRange(base &+ i, base &+ end)
            top.member = .none
            return end
        case .resource where top.member == .links, .relationship where top.member == .links:
            let inRelationship = top.kind == .relationship
            guard
                let end = unsafe Self.parseLinks(
                    p, at: i, count: n, stringLimit: stringLimit, inRelationship: inRelationship, rules: options.rules)
            else { return nil }
            let range = ByteRange(base &+ i, base &+ end)
            top.valueStart = UInt32(truncatingIfNeeded: base &+ i)
            if inRelationship {
                let r = Int(top.record)
                arena.relationshipLinks.set(range, for: r, flags: &arena.relationships[r].flags)
            } else {
                arena.resources[Int(top.record)].links = range
            }
            top.member = .none
            return end
        default:
            return nil
        }
    }

    /// The linkage record the events of a plain identifier would have made.
    @inline(__always)
    mutating func appendLinkage(_ identifier: PlainIdentifier, _ p: UnsafeRawPointer, count n: Int, base: Int) {
        var record = LinkageRecord()
        record.type = unsafe arena.types.intern(Self.bytes(p, identifier.type), within: Self.chunk(p, n))
        record.id = ByteRange(base &+ identifier.id.lowerBound, base &+ identifier.id.upperBound)
        record.object = ByteRange(base &+ identifier.object.lowerBound, base &+ identifier.object.upperBound)
        if identifier.idEscaped { record.flags.insert(.idHasEscapes) }
        if linkageDigests.count == arena.linkages.count {
            let digest =
                identifier.idEscaped
                ? unsafe escapedDigest(type: record.type, p, identifier.id)
                : unsafe arena.index.digest(type: record.type, id: Self.bytes(p, identifier.id))
            linkageDigests.append(digest)
        }
        arena.linkages.append(record)
    }

    /// The index digest of `type` and the id whose raw contents (with escapes) lie at chunk
    /// indices `id`: the digest of the unescaped bytes, as the event path's `digest` makes it.
    @inline(never)
    mutating func escapedDigest(type: UInt32, _ p: UnsafeRawPointer, _ id: Range<Int>) -> UInt64 {
        let index = arena.index
        return unsafe ResourceIndex.withUnescaped(
            ByteRange(id.lowerBound, id.upperBound), escaped: true, input: Self.chunk(p, id.upperBound),
            scratch: &scratch
        ) { unsafe index.digest(type: type, id: $0) }
    }

    /// A relationship object read by ``parseRelationship(_:at:count:stringLimit:depthLimit:)``,
    /// as chunk indices; its identifiers are the last `identifierCount` of `plainIdentifiers`.
    struct PlainRelationship {
        var name: Range<Int> = 0..<0
        var object: Range<Int>
        var links: Range<Int>?
        var meta: Range<Int>?
        var data: DataShape
        var identifierCount: Int
    }

    /// A relationship object at `p[i]` whose events would make its records without a word:
    /// `links` (plain), `data` (null, a plain identifier or an array of them) and `meta` (plain
    /// names), each at most once, in any order, nothing else, and `data` present in a request.
    /// Appends its identifiers to `plainIdentifiers` and changes nothing else. `depthLimit`
    /// counts the relationship object as one level (its linkage needs three).
    mutating func parseRelationship(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, depthLimit: Int
    ) -> PlainRelationship? {
        guard i < n, unsafe Self.byte(p, i) == UInt8(ascii: "{"), depthLimit >= 3 else { return nil }
        var j = i &+ 1
        var links: Range<Int>?
        var meta: Range<Int>?
        var data = DataShape.absent
        let firstIdentifier = plainIdentifiers.count
        unsafe Self.skipWhitespace(p, &j, n)
        guard j < n, unsafe Self.byte(p, j) != UInt8(ascii: "}") else { return nil }
        while true {
            let member: Member
            if unsafe links == nil && readerKeys.links.matches(p, j, n) {
                member = .links
                j &+= readerKeys.links.count
            } else if unsafe data == .absent && readerKeys.data.matches(p, j, n) {
                member = .data
                j &+= readerKeys.data.count
            } else if unsafe meta == nil && readerKeys.meta.matches(p, j, n) {
                member = .meta
                j &+= readerKeys.meta.count
            } else {
                return nil
            }
            guard unsafe Self.colon(p, &j, n) else { return nil }
            switch member {
            case .links:
                guard
                    let end = unsafe Self.parseLinks(
                        p, at: j, count: n, stringLimit: stringLimit, inRelationship: true, rules: options.rules)
                else { return nil }
                links = j..<end
                j = end
            case .data:
                guard j < n else { return nil }
                switch unsafe Self.byte(p, j) {
                case UInt8(ascii: "n"):
                    guard unsafe JSONScanner.literal(.null, at: j, p, count: n) else { return nil }
                    data = .null
                    j &+= 4
                case UInt8(ascii: "{"):
                    guard
                        let identifier = unsafe Self.parseIdentifier(
                            p, at: j, count: n, stringLimit: stringLimit, keys: readerKeys)
                    else { return nil }
                    plainIdentifiers.append(identifier)
                    data = .one
                    j = identifier.object.upperBound
                case UInt8(ascii: "["):
                    guard let end = unsafe parseIdentifierArray(p, at: j, count: n, stringLimit: stringLimit) else {
                        return nil
                    }
                    data = .many
                    j = end
                default:
                    return nil
                }
            case .meta:
                guard
                    let end = unsafe Self.parseMeta(
                        p, at: j, count: n, stringLimit: stringLimit, depthLimit: depthLimit &- 1,
                        rules: options.rules)
                else { return nil }
                meta = j..<end
                j = end
            default:
                return nil
            }
            guard let more = unsafe Self.nextMember(p, &j, n) else { return nil }
            if !more { break }
        }
        // A request's relationship must carry `data`: leave that complaint to the grammar.
        if data == .absent && options.kind.relationshipsNeedData { return nil }
        return PlainRelationship(
            object: i..<(j &+ 1), links: links, meta: meta, data: data,
            identifierCount: plainIdentifiers.count &- firstIdentifier)
    }

    /// The records the events of a relationship read by `parseRelationship` would have made,
    /// for resource `resource`: the relationship, then its identifiers, `plainIdentifiers[first...]`.
    /// With `resource` nil the caller counts the relationship in its resource record itself.
    @inline(__always)
    mutating func appendRelationship(
        _ relationship: PlainRelationship, name: ByteRange, nameEscaped: Bool, resource: Int?,
        firstIdentifier first: Int, _ p: UnsafeRawPointer, count n: Int, base: Int
    ) {
        var record = RelationshipRecord()
        record.name = name
        record.object = ByteRange(base &+ relationship.object.lowerBound, base &+ relationship.object.upperBound)
        if nameEscaped { record.flags.insert(.nameHasEscapes) }
        record.firstLinkage = UInt32(truncatingIfNeeded: arena.linkages.count)
        record.linkageCount = UInt32(truncatingIfNeeded: relationship.identifierCount)
        record.data = relationship.data
        if relationship.links != nil || relationship.meta != nil {
            outOfLineMembers(of: relationship, base: base, flags: &record.flags)
        }
        arena.relationships.append(record)
        if let resource { arena.resources[resource].relationshipCount &+= 1 }
        var k = first
        while k < first &+ relationship.identifierCount {
            unsafe appendLinkage(plainIdentifiers[k], p, count: n, base: base)
            k &+= 1
        }
    }

    /// Puts the `links` and `meta` of the relationship about to be appended in their tables (see
    /// `SparseRanges`), setting its record's `flags`. Kept out of the appending path, which most
    /// relationships take without either.
    @inline(never)
    private mutating func outOfLineMembers(of relationship: PlainRelationship, base: Int, flags: inout RecordFlags) {
        let position = arena.relationships.count
        if let links = relationship.links {
            arena.relationshipLinks.set(
                ByteRange(base &+ links.lowerBound, base &+ links.upperBound), for: position, flags: &flags)
        }
        if let meta = relationship.meta {
            arena.relationshipMeta.set(
                ByteRange(base &+ meta.lowerBound, base &+ meta.upperBound), for: position, flags: &flags)
        }
    }

    /// A relationship object taken whole where the events have reached it (the member of a
    /// `relationships` object being built event by event).
    private mutating func wholeRelationship(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int, depthLimit: Int
    ) -> Int? {
        plainIdentifiers.clearScratch()
        guard
            let relationship = unsafe parseRelationship(
                p, at: i, count: n, stringLimit: stringLimit, depthLimit: depthLimit)
        else { return nil }
        unsafe appendRelationship(
            relationship, name: top.key, nameEscaped: top.keyEscaped, resource: Int(top.record), firstIdentifier: 0,
            p, count: n, base: base)
        top.valueStart = UInt32(truncatingIfNeeded: base &+ i)
        top.member = .none
        return relationship.object.upperBound
    }

    /// `[` plain identifiers `]` at `p[i]`, collected in `plainIdentifiers`; the index past `]`.
    @inline(__always)
    private mutating func parseIdentifierArray(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int
    ) -> Int? {
        var j = i &+ 1
        unsafe Self.skipWhitespace(p, &j, n)
        guard j < n else { return nil }
        if unsafe Self.byte(p, j) == UInt8(ascii: "]") { return j &+ 1 }
        while true {
            guard
                let identifier = unsafe Self.parseIdentifier(
                    p, at: j, count: n, stringLimit: stringLimit, keys: readerKeys)
            else { return nil }
            plainIdentifiers.append(identifier)
            j = identifier.object.upperBound
            unsafe Self.skipWhitespace(p, &j, n)
            guard j < n else { return nil }
            let c = unsafe Self.byte(p, j)
            if c == UInt8(ascii: "]") { return j &+ 1 }
            guard c == UInt8(ascii: ",") else { return nil }
            j &+= 1
            unsafe Self.skipWhitespace(p, &j, n)
        }
    }

    /// `{"type":"…","id":"…"}` (members in either order) with a plain type name and any valid
    /// id (see ``idString(_:_:_:limit:escaped:)``), at `p[i]`; changes nothing.
    static func parseIdentifier(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, keys: ReaderKeys
    ) -> PlainIdentifier? {
        guard i < n, unsafe byte(p, i) == UInt8(ascii: "{") else { return nil }
        var j = i &+ 1
        var type: Range<Int>?
        var id: Range<Int>?
        var idEscaped = false
        for member in 0..<2 {
            unsafe skipWhitespace(p, &j, n)
            if member == 1 {
                guard j < n, unsafe byte(p, j) == UInt8(ascii: ",") else { return nil }
                j &+= 1
                unsafe skipWhitespace(p, &j, n)
            }
            if unsafe type == nil && keys.type.matches(p, j, n) {
                j &+= keys.type.count
                guard unsafe colon(p, &j, n) else { return nil }
                type = unsafe plainString(p, &j, n, limit: stringLimit)
                if type == nil { return nil }
            } else if unsafe id == nil && keys.id.matches(p, j, n) {
                j &+= keys.id.count
                guard unsafe colon(p, &j, n) else { return nil }
                id = unsafe idString(p, &j, n, limit: stringLimit, escaped: &idEscaped)
                if id == nil { return nil }
            } else {
                return nil
            }
        }
        unsafe skipWhitespace(p, &j, n)
        guard j < n, unsafe byte(p, j) == UInt8(ascii: "}"), let type, let id else { return nil }
        // The event path checks other type names (and reports bad ones); plain ones are valid.
        let chunk = unsafe Self.chunk(p, n)
        guard
            unsafe MemberNameRules.isPlainFast(
                Self.bytes(p, type), in: chunk)
        else { return nil }
        return PlainIdentifier(type: type, id: id, object: i..<(j &+ 1), idEscaped: idEscaped)
    }

    /// An `attributes` object at `p[i]` that the event path would accept without a word: every
    /// member name plain (ASCII letters and digits, no escapes) and neither `type` nor `id`; every
    /// value valid JSON (strings through the scanner's own string scan, so escapes and UTF-8 are
    /// checked exactly as there), with objects inside values using plain names other than
    /// `links` and `relationships`, nested no deeper than `depthLimit` (counting the attributes
    /// object) or 32. Appends each member name's contents range to `names`; returns the index
    /// past the closing `}`, or nil (then `names` is meaningless). Repeated names are left to
    /// the resource's close, as on the event path.
    static func parseAttributes(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, depthLimit: Int,
        names: inout [Range<Int>], rules: JSONAPIRules
    ) -> Int? {
        unsafe parseFields(
            p, at: i, count: n, stringLimit: stringLimit, depthLimit: depthLimit, names: &names, attributes: true,
            rules: rules)
    }

    /// A `meta` object at `p[i]` that the event path would accept without a word: as
    /// ``parseAttributes(_:at:count:stringLimit:depthLimit:names:)`` without the two rules that
    /// are only for attributes (any plain name may be a member, `links` and `relationships`
    /// included). The index past the closing `}`, or nil.
    static func parseMeta(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, depthLimit: Int, rules: JSONAPIRules
    ) -> Int? {
        var unused: [Range<Int>] = []
        return unsafe parseFields(
            p, at: i, count: n, stringLimit: stringLimit, depthLimit: depthLimit, names: &unused, attributes: false,
            rules: rules)
    }

    /// The shared body of the two above; `attributes` is a constant at each call site.
    @inline(__always)
    private static func parseFields(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, depthLimit: Int,
        names: inout [Range<Int>], attributes: Bool, rules: JSONAPIRules
    ) -> Int? {
        guard i < n, unsafe byte(p, i) == UInt8(ascii: "{") else { return nil }
        let chunk = unsafe Self.chunk(p, n)
        let maximumLevel = Swift.min(depthLimit, 32)
        // One bit per open container, set for objects; `level` containers are open.
        var objects: UInt32 = 1
        var level = 1
        var j = i &+ 1
        unsafe skipWhitespace(p, &j, n)
        guard j < n else { return nil }
        if unsafe byte(p, j) == UInt8(ascii: "}") { return j &+ 1 }
        var expectingKey = true
        while true {
            if expectingKey {
                guard let name = unsafe plainString(p, &j, n, limit: stringLimit) else { return nil }
                let nameBytes = unsafe Self.bytes(p, name)
                guard unsafe MemberNameRules.isPlainFast(nameBytes, in: chunk) else { return nil }
                if attributes {
                    if level == 1 {
                        guard unsafe !rules.contains(nameBytes, in: .reservedFieldNames, within: chunk) else {
                            return nil
                        }
                        names.append(name)
                    } else {
                        guard unsafe !rules.contains(nameBytes, in: .reservedInAttributeValues, within: chunk) else {
                            return nil
                        }
                    }
                }
                guard unsafe colon(p, &j, n) else { return nil }
            }
            // A value at `p[j]`.
            guard j < n else { return nil }
            let c = unsafe byte(p, j)
            switch c {
            case UInt8(ascii: "\""):
                var hasEscapes = false
                let closing = unsafe JSONScanner.scanStringFast(p, from: j &+ 1, count: n, hasEscapes: &hasEscapes)
                guard closing < n, unsafe byte(p, closing) == UInt8(ascii: "\""), closing &- (j &+ 1) <= stringLimit
                else {
                    return nil
                }
                j = closing &+ 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard level < maximumLevel else { return nil }
                let isObject = c == UInt8(ascii: "{")
                if isObject { objects |= 1 &<< UInt32(level) } else { objects &= ~(1 &<< UInt32(level)) }
                level &+= 1
                j &+= 1
                unsafe skipWhitespace(p, &j, n)
                guard j < n else { return nil }
                if unsafe byte(p, j) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    level &-= 1
                    j &+= 1
                } else {
                    expectingKey = isObject
                    continue
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                var phase: NumberPhase =
                    c == UInt8(ascii: "-") ? .afterMinus : (c == UInt8(ascii: "0") ? .zero : .integer)
                guard let end = unsafe try? JSONScanner.scanNumber(p, from: j &+ 1, count: n, base: 0, phase: &phase),
                    end < n
                else { return nil }
                j = end
            case UInt8(ascii: "t"):
                guard unsafe JSONScanner.literal(.true, at: j, p, count: n) else { return nil }
                j &+= 4
            case UInt8(ascii: "f"):
                guard unsafe JSONScanner.literal(.false, at: j, p, count: n) else { return nil }
                j &+= 5
            case UInt8(ascii: "n"):
                guard unsafe JSONScanner.literal(.null, at: j, p, count: n) else { return nil }
                j &+= 4
            default:
                return nil
            }
            // After a value: a comma and the next member or element, or the end of containers.
            while true {
                unsafe skipWhitespace(p, &j, n)
                guard j < n else { return nil }
                let inObject = objects & (1 &<< UInt32(level &- 1)) != 0
                let d = unsafe byte(p, j)
                if d == UInt8(ascii: ",") {
                    j &+= 1
                    unsafe skipWhitespace(p, &j, n)
                    expectingKey = inObject
                    break
                }
                guard d == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return nil }
                j &+= 1
                level &-= 1
                if level == 0 { return j }
            }
        }
    }

    /// A `links` object at `p[i]` whose members are all plain names with plain links that pass
    /// the URI check (in a relationship, only the names the specification allows there); the
    /// index past its `}`. Changes nothing.
    static func parseLinks(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, inRelationship: Bool, rules: JSONAPIRules
    ) -> Int? {
        guard i < n, unsafe byte(p, i) == UInt8(ascii: "{") else { return nil }
        var j = i &+ 1
        unsafe skipWhitespace(p, &j, n)
        guard j < n else { return nil }
        if unsafe byte(p, j) == UInt8(ascii: "}") { return j &+ 1 }
        while true {
            if inRelationship {
                // Only the names the table allows here, matched in place.
                guard let key = unsafe rules.quotedKey(p, at: j, count: n, in: .relationshipLinks) else { return nil }
                j &+= key.quoted.count
            } else {
                guard let name = unsafe plainString(p, &j, n, limit: stringLimit),
                    unsafe MemberNameRules.isPlainFast(
                        Self.bytes(p, name),
                        in: Self.chunk(p, n))
                else { return nil }
            }
            guard unsafe colon(p, &j, n), unsafe plainLink(p, &j, n, limit: stringLimit) else { return nil }
            unsafe skipWhitespace(p, &j, n)
            guard j < n else { return nil }
            let c = unsafe byte(p, j)
            if c == UInt8(ascii: "}") { return j &+ 1 }
            guard c == UInt8(ascii: ",") else { return nil }
            j &+= 1
            unsafe skipWhitespace(p, &j, n)
        }
    }

    // MARK: Byte helpers

    /// The scanner's byte read.
    @inline(__always)
    static func byte(_ p: UnsafeRawPointer, _ i: Int) -> UInt8 { unsafe JSONScanner.byte(p, i) }

    /// The bytes of `range` of the chunk at `p`, for the type table, the index and the name
    /// rules: every caller passes a range a reader found inside its chunk (`plainString` and the
    /// readers stop at `n`).
    @inline(__always)
    static func bytes(_ p: UnsafeRawPointer, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        unsafe JSONScanner.bytes(p, range)
    }

    /// The whole chunk at `p`, `n` bytes long, as a buffer (the readers are called with the
    /// chunk's start and length).
    @inline(__always)
    static func chunk(_ p: UnsafeRawPointer, _ n: Int) -> UnsafeRawBufferPointer {
        unsafe JSONScanner.bytes(p, 0..<n)
    }

    /// The chunk at `p`, `n` bytes long, as a view, for the readers' sixteen-byte loops.
    @inline(__always)
    static func view(_ p: UnsafeRawPointer, _ n: Int) -> ByteView {
        // SAFETY: the readers are called with the chunk's start and length, valid while they run;
        // no view is kept past the reader that made it.
        unsafe ByteView(unsafeStart: p, count: n)
    }

    /// The scanner's whitespace skip.
    @inline(__always)
    static func skipWhitespace(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int) {
        unsafe JSONScanner.skipWhitespace(p, &j, count: n)
    }

    /// After an object member's value: moves `j` past whitespace and a comma to the next
    /// member (true), or to the object's `}` (false); nil for anything else.
    @inline(__always)
    static func nextMember(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int) -> Bool? {
        unsafe skipWhitespace(p, &j, n)
        guard j < n else { return nil }
        let c = unsafe byte(p, j)
        if c == UInt8(ascii: "}") { return false }
        guard c == UInt8(ascii: ",") else { return nil }
        j &+= 1
        unsafe skipWhitespace(p, &j, n)
        return true
    }

    /// Moves `j` past optional whitespace, a colon and optional whitespace; false if no colon.
    @inline(__always)
    static func colon(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int) -> Bool {
        unsafe skipWhitespace(p, &j, n)
        guard j < n, unsafe byte(p, j) == UInt8(ascii: ":") else { return false }
        j &+= 1
        unsafe skipWhitespace(p, &j, n)
        return true
    }

    /// A string at `p[j]` made only of printable ASCII without escapes, wholly before `n` and
    /// at most `limit` bytes long: its contents' range, with `j` moved past the closing quote.
    /// Nil for anything else (then `j` is meaningless). Narrower than `JSONScanner`'s string
    /// scan, which it shares the sixteen-byte test with: that scan's general cases (escapes,
    /// non-ASCII, chunk ends) cost more than they save on the short ids and names these objects
    /// hold.
    @inline(__always)
    static func plainString(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int, limit: Int) -> Range<Int>? {
        guard j < n, unsafe byte(p, j) == UInt8(ascii: "\"") else { return nil }
        let start = j &+ 1
        let k = unsafe plainEnd(p, from: start, n)
        guard k < n, unsafe byte(p, k) == UInt8(ascii: "\""), k &- start <= limit else { return nil }
        j = k &+ 1
        return start..<k
    }

    /// The index of the first byte from `start` (inside the chunk) that is not printable ASCII
    /// other than `\\`, or `n`: the closing quote of a plain string.
    @inline(__always)
    static func plainEnd(_ p: UnsafeRawPointer, from start: Int, _ n: Int) -> Int {
        var k = start
        let chunkView = unsafe Self.view(p, n)
        // Single reads below are below `n`.
        while k &+ 16 <= n {
            // SAFETY: `k` lies at or past `start`, an index into the chunk, and the sixteen bytes at
            // `k` end at or before `n`, the view's count (the loop's condition).
            let special = unsafe LaneSet(JSONScanner.specialLanes(chunkView.chunk16(unchecked: k)))
            if special.isEmpty {
                k &+= 16
                continue
            }
            return k &+ special.first
        }
        while k < n {
            let c = unsafe byte(p, k)
            guard c >= 0x20 && c < 0x7F && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") else { break }
            k &+= 1
        }
        return k
    }

    /// An `id` string at `p[j]`, wholly before `n` and at most `limit` bytes long: its contents'
    /// range, with `j` moved past the closing quote and `escaped` set when it has escapes; nil for
    /// anything else. An id is any string, so escapes and non-ASCII text are taken too, checked by
    /// the scanner's own string scan exactly as on the event path (which records the same flag),
    /// after the plain test of ``plainString(_:_:_:limit:)``, which settles the usual plain ids
    /// more cheaply. `escaped` is left alone for a plain id: the callers start it false.
    @inline(__always)
    static func idString(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int, limit: Int, escaped: inout Bool)
        -> Range<Int>?
    {
        guard j < n, unsafe byte(p, j) == UInt8(ascii: "\"") else { return nil }
        let start = j &+ 1
        let k = unsafe plainEnd(p, from: start, n)
        guard k < n, unsafe byte(p, k) == UInt8(ascii: "\"") else {
            return unsafe anyString(p, start: start, from: k, &j, n, limit: limit, escaped: &escaped)
        }
        guard k &- start <= limit else { return nil }
        j = k &+ 1
        return start..<k
    }

    /// The rest of a string whose contents begin at `start` and are plain ASCII up to `k`, when
    /// the scanner's string scan accepts it wholly before `n` (escapes and UTF-8 checked as there)
    /// and it is at most `limit` bytes long: as ``idString(_:_:_:limit:escaped:)``.
    @inline(never)
    static func anyString(
        _ p: UnsafeRawPointer, start: Int, from k: Int, _ j: inout Int, _ n: Int, limit: Int, escaped: inout Bool
    ) -> Range<Int>? {
        var hasEscapes = false
        let closing = unsafe JSONScanner.scanStringFast(p, from: k, count: n, hasEscapes: &hasEscapes)
        guard closing < n, unsafe byte(p, closing) == UInt8(ascii: "\""), closing &- start <= limit else {
            return nil
        }
        j = closing &+ 1
        escaped = hasEscapes
        return start..<closing
    }

    /// Whether a string at `p[j]` is a link `MemberNameRules.linkProblem` would accept, made
    /// only of ASCII bytes a URI may hold unencoded (no `%`, no escapes), wholly before `n` and at
    /// most `limit` bytes long; moves `j` past its closing quote. One pass finds the closing quote
    /// and checks every byte before it.
    @inline(__always)
    private static func plainLink(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int, limit: Int) -> Bool {
        guard j < n, unsafe byte(p, j) == UInt8(ascii: "\"") else { return false }
        let start = j &+ 1
        var k = start
        let nonASCII = SIMD16<UInt8>(repeating: 0x80)
        let chunkView = unsafe Self.view(p, n)
        // Single reads below are below `n`.
        while k &+ 16 <= n {
            // SAFETY: `k` lies past `j`, an index into the chunk, and the sixteen bytes at `k` end
            // at or before `n`, the view's count (the loop's condition).
            let chunk = unsafe chunkView.chunk16(unchecked: k)
            let hits = MemberNameRules.nonURIBytes(chunk) .| (chunk .>= nonASCII)
            let lanes = LaneSet(hits)
            if lanes.isEmpty {
                k &+= 16
                continue
            }
            k &+= lanes.first
            break
        }
        while k < n {
            let c = unsafe byte(p, k)
            if c == UInt8(ascii: "\"") { break }
            guard c < 0x80, MemberNameRules.isURIByte(c) else { return false }
            k &+= 1
        }
        guard k < n, unsafe byte(p, k) == UInt8(ascii: "\""), k > start, k &- start <= limit else { return false }
        let link = unsafe Self.bytes(p, start..<k)
        guard unsafe byte(p, start) == UInt8(ascii: "/") || MemberNameRules.hasScheme(link) else { return false }
        j = k &+ 1
        return true
    }
}
