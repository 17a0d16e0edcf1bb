/// Whole-object fast paths: the small objects a compound document is full of, taken in one
/// step instead of event by event.
///
/// A resource identifier `{"type":"people","id":"9"}` costs seven scanner events, each passing
/// through the grammar's dispatch; a relationship's `links` object is much the same. When such an
/// object lies wholly in the current chunk and has the plain shape below, the builder reads it
/// directly and makes exactly the records and frame changes its events would have made. Anything
/// else (another member, escapes, non-ASCII, a value the rules would complain about, an object
/// cut by the chunk end) declines before changing anything, and the events follow as usual; so
/// results never depend on which path ran, which the backend-equivalence tests check against
/// the libyajl backend (which never offers objects) and the split-everywhere tests check across
/// chunkings.
extension DocumentBuilder {
    /// Takes a resource identifier in linkage, or a resource's or relationship's `links` object,
    /// in one step when it has the plain shape; nil otherwise (see the extension's discussion).
    public mutating func wholeObject(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int
    ) -> Int? {
        guard hasTop, opaqueDepth == 0 else { return nil }
        switch top.kind {
        case .linkageArray:
            return wholeIdentifier(p, at: i, count: n, base: base, stringLimit: stringLimit, element: true)
        case .relationship where top.member == .data:
            return wholeIdentifier(p, at: i, count: n, base: base, stringLimit: stringLimit, element: false)
        case .resource where top.member == .links, .relationship where top.member == .links:
            return wholeLinks(p, at: i, count: n, base: base, stringLimit: stringLimit)
        default:
            return nil
        }
    }

    /// `{"type":"…","id":"…"}` (members in either order) with plain strings, as a linkage array
    /// element (`element`) or a to-one relationship's `data`.
    private mutating func wholeIdentifier(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int, element: Bool
    ) -> Int? {
        var j = i &+ 1
        var type: Range<Int>?
        var id: Range<Int>?
        for member in 0..<2 {
            Self.skipWhitespace(p, &j, n)
            if member == 1 {
                guard j < n, Self.byte(p, j) == UInt8(ascii: ",") else { return nil }
                j &+= 1
                Self.skipWhitespace(p, &j, n)
            }
            if type == nil && Self.matches(p, j, n, "\"type\"") {
                j &+= 6
                guard Self.colon(p, &j, n) else { return nil }
                type = Self.plainString(p, &j, n, limit: stringLimit)
                if type == nil { return nil }
            } else if id == nil && Self.matches(p, j, n, "\"id\"") {
                j &+= 4
                guard Self.colon(p, &j, n) else { return nil }
                id = Self.plainString(p, &j, n, limit: stringLimit)
                if id == nil { return nil }
            } else {
                return nil
            }
        }
        Self.skipWhitespace(p, &j, n)
        guard j < n, Self.byte(p, j) == UInt8(ascii: "}"), let type, let id else { return nil }
        let typeName = UnsafeRawBufferPointer(start: p + type.lowerBound, count: type.count)
        // The event path checks other type names (and reports bad ones); plain ones are valid.
        guard MemberNameRules.isPlainFast(typeName) else { return nil }
        // Accepted: from here on, what the events would have done.
        let start = base &+ i
        var record = LinkageRecord()
        record.type = arena.types.intern(typeName)
        record.id = ByteRange(base &+ id.lowerBound, base &+ id.upperBound)
        record.object = ByteRange(start, base &+ j &+ 1)
        if element {
            if let relationship = currentRelationship { arena.relationships[relationship].linkageCount &+= 1 }
            arena.linkages.append(record)
            top.count &+= 1
        } else {
            let r = Int(top.record)
            top.valueStart = UInt32(truncatingIfNeeded: start)
            arena.relationships[r].data = .one
            arena.relationships[r].linkageCount &+= 1
            arena.linkages.append(record)
            top.member = .none
        }
        return j &+ 1
    }

    /// A resource's or relationship's `links` object whose members are all plain names with
    /// plain string links that pass the URI check (in a relationship, only the names the
    /// specification allows there).
    private mutating func wholeLinks(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int
    ) -> Int? {
        let inRelationship = top.kind == .relationship
        var j = i &+ 1
        Self.skipWhitespace(p, &j, n)
        guard j < n else { return nil }
        if Self.byte(p, j) != UInt8(ascii: "}") {
            while true {
                guard j < n, Self.byte(p, j) == UInt8(ascii: "\"") else { return nil }
                guard let name = Self.plainString(p, &j, n, limit: stringLimit) else { return nil }
                let nameBytes = UnsafeRawBufferPointer(start: p + name.lowerBound, count: name.count)
                if inRelationship {
                    guard Self.isRelationshipLinkName(nameBytes) else { return nil }
                } else {
                    guard MemberNameRules.isPlainFast(nameBytes) else { return nil }
                }
                guard Self.colon(p, &j, n), let link = Self.plainString(p, &j, n, limit: stringLimit) else {
                    return nil
                }
                let linkBytes = UnsafeRawBufferPointer(start: p + link.lowerBound, count: link.count)
                guard MemberNameRules.linkProblem(linkBytes) == nil else { return nil }
                Self.skipWhitespace(p, &j, n)
                guard j < n else { return nil }
                let c = Self.byte(p, j)
                if c == UInt8(ascii: "}") { break }
                guard c == UInt8(ascii: ",") else { return nil }
                j &+= 1
                Self.skipWhitespace(p, &j, n)
            }
        }
        // Accepted: the parent records the object's range, as completing the member would.
        let range = ByteRange(base &+ i, base &+ j &+ 1)
        top.valueStart = UInt32(truncatingIfNeeded: base &+ i)
        if inRelationship {
            arena.relationships[Int(top.record)].links = range
        } else {
            arena.resources[Int(top.record)].links = range
        }
        top.member = .none
        return j &+ 1
    }

    // MARK: Byte helpers

    @inline(__always)
    private static func byte(_ p: UnsafeRawPointer, _ i: Int) -> UInt8 {
        p.load(fromByteOffset: i, as: UInt8.self)
    }

    /// Moves `j` past JSON whitespace (space, tab, LF, CR), staying at or below `n`.
    @inline(__always)
    private static func skipWhitespace(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int) {
        // SAFETY: every read is at an index below `n`.
        while j < n {
            let c = byte(p, j)
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            j &+= 1
        }
    }

    /// Whether `literal` is at `p[j]`, wholly before `n`.
    @inline(__always)
    private static func matches(_ p: UnsafeRawPointer, _ j: Int, _ n: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard j &+ count <= n else { return false }
        return memcmpBytes(p + j, UnsafeRawPointer(literal.utf8Start), count)
    }

    /// Moves `j` past optional whitespace, a colon and optional whitespace; false if no colon.
    @inline(__always)
    private static func colon(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int) -> Bool {
        skipWhitespace(p, &j, n)
        guard j < n, byte(p, j) == UInt8(ascii: ":") else { return false }
        j &+= 1
        skipWhitespace(p, &j, n)
        return true
    }

    /// A string at `p[j]` made only of printable ASCII without escapes, wholly before `n` and
    /// at most `limit` bytes long: its contents' range, with `j` moved past the closing quote.
    /// Nil for anything else (then `j` is meaningless).
    @inline(__always)
    private static func plainString(_ p: UnsafeRawPointer, _ j: inout Int, _ n: Int, limit: Int) -> Range<Int>? {
        guard j < n, byte(p, j) == UInt8(ascii: "\"") else { return nil }
        let start = j &+ 1
        var k = start
        // SAFETY: each 16-byte load ends at or before `n`; single reads are below `n`.
        while k &+ 16 <= n {
            let special = JSONScanner.specialBytes(p.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self))
            if special.low == 0 && special.high == 0 {
                k &+= 16
                continue
            }
            k &+=
                special.low != 0
                ? special.low.trailingZeroBitCount &>> 3 : 8 &+ (special.high.trailingZeroBitCount &>> 3)
            break
        }
        while k < n {
            let c = byte(p, k)
            if c == UInt8(ascii: "\"") { break }
            guard c >= 0x20 && c < 0x7F && c != UInt8(ascii: "\\") else { return nil }
            k &+= 1
        }
        guard k < n, byte(p, k) == UInt8(ascii: "\""), k &- start <= limit else { return nil }
        j = k &+ 1
        return start..<k
    }

    /// The link names a relationship's `links` object may have.
    @inline(__always)
    private static func isRelationshipLinkName(_ name: UnsafeRawBufferPointer) -> Bool {
        name.equals("self") || name.equals("related") || name.equals("first") || name.equals("last")
            || name.equals("prev") || name.equals("next")
    }
}
