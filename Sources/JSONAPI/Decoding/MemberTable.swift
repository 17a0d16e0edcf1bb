/// The members of the objects being decoded, scanned once per object into one reused buffer.
///
/// A keyed container needs to find members by name many times (once per property). Instead of
/// walking the object's bytes for each property, the container scans the object once when it is
/// created and records every member as a fixed-size entry: raw key range, value range, flags.
/// Entries of all live containers share one growing buffer used as a stack: a container's
/// entries are a *segment*, pushed when the container is made and dropped when the value that
/// made it has been decoded (the decoder resets the top after each nested `init(from:)`).
///
/// ```
/// entries:  [hdr A][title][body][metrics] [hdr B][views][shares]   <- top
///            segment A: the article's attributes      segment B: the nested `metrics` object
/// hdr:      keyStart = stamp, keyEnd = member count, valueStart = lookup hint,
///           valueEnd | flags << 32 = a 64-bit filter of the member names
/// ```
///
/// The filter has one bit per member, chosen by the name's first byte and length (all bits when
/// a name has escapes, whose raw bytes are not the name). A lookup whose bit is clear cannot
/// match any member, so the keys that live elsewhere in a resource (`id`, relationships,
/// `links`, `meta`) are rejected without comparing them with every attribute.
///
/// Each segment starts with a header entry holding a stamp. A container remembers its
/// segment's base and stamp; if a container outlives its value (a pathological `init(from:)`
/// that stores a container and uses it later) its stamp no longer matches and it scans its
/// object again, so a stale container reads correct members, never another object's.
///
/// The hint is where the last lookup succeeded: properties are usually declared in the order
/// the server writes them, so the next lookup usually matches at the first comparison.
struct MemberEntry {
    var keyStart: UInt32
    var keyEnd: UInt32
    var valueStart: UInt32
    var valueEnd: UInt32
    var flags: UInt32

    /// The member name contains backslash escapes.
    static let keyEscaped: UInt32 = 1
    /// The value is a string that contains backslash escapes.
    static let valueEscaped: UInt32 = 2

    @inline(__always) var key: ByteRange { ByteRange(start: keyStart, end: keyEnd) }
    @inline(__always) var value: ByteRange { ByteRange(start: valueStart, end: valueEnd) }
}

/// Where a container's members are in the ``MemberTable``.
struct MemberSegment {
    /// Index of the header entry; members follow it.
    var base: Int
    var count: Int
    var stamp: UInt32

    static let empty = MemberSegment(base: -1, count: 0, stamp: 0)
}

/// The shared entry buffer. Owned by one ``ResourceDecoder``; never shared across threads.
///
/// `@safe`: the entries live in a ``TrivialStack`` that the table alone holds and frees, and
/// every index used is checked against its count.
@safe
final class MemberTable {
    // SAFETY: the table owns the stack and frees it once, in `deinit`; it is never copied out.
    // Only the owning decoder's thread touches it, never through overlapping accesses.
    @exclusivity(unchecked) private var entries = unsafe TrivialStack<MemberEntry>(capacity: 256)
    @exclusivity(unchecked) private var nextStamp: UInt32 = 1

    deinit {
        unsafe entries.free()
    }

    /// The number of entries in use: a segment made since is dropped by setting it back.
    var top: Int {
        @inline(__always) get { unsafe entries.count }
        @inline(__always) set { unsafe entries.truncate(to: newValue) }
    }

    /// Forgets every entry (segments made before are no longer valid), keeping the buffer
    /// unless it grew past 4,096 entries (a decoder kept for reuse holds small buffers only).
    func reset() {
        unsafe entries.removeAll(shrinkingTo: 256, ifAbove: 4096)
        unsafe nextStamp &+= 1
    }

    /// Whether `segment` still holds the members it was made with.
    @inline(__always)
    func isValid(_ segment: MemberSegment) -> Bool {
        unsafe segment.base >= 0 && segment.base < entries.count
            && entries[unchecked: segment.base].keyStart == segment.stamp
    }

    // SAFETY (`hint`, `mayContain`, `setHint`, `member`): callers pass a segment that `scan`
    // made and `isValid` accepts (its header is below `top`) and, for a member, a position below
    // the segment's count, so every index read below is in `0..<top`.

    /// The lookup hint of a segment (a member position).
    @inline(__always)
    func hint(_ segment: MemberSegment) -> Int { unsafe Int(entries[unchecked: segment.base].valueStart) }

    /// The filter bit of a member name (see the type's documentation).
    @inline(__always)
    static func filterBit(firstByte: UInt8, count: Int) -> UInt64 {
        UInt64(1) &<< ((UInt64(firstByte) &+ UInt64(truncatingIfNeeded: count) &* 7) & 63)
    }

    /// Whether `segment` may have a member whose raw name is `name` (false: it has none).
    @inline(__always)
    func mayContain(_ segment: MemberSegment, name: UnsafeRawBufferPointer) -> Bool {
        let header = unsafe entries[unchecked: segment.base]
        let filter = UInt64(header.valueEnd) | UInt64(header.flags) &<< 32
        let first = unsafe name.isEmpty ? 0 : name[0]
        return filter & Self.filterBit(firstByte: first, count: name.count) != 0
    }

    @inline(__always)
    func setHint(_ segment: MemberSegment, _ position: Int) {
        unsafe entries[unchecked: segment.base].valueStart = UInt32(truncatingIfNeeded: position)
    }

    /// The entry of member `position` of `segment`.
    @inline(__always)
    func member(_ segment: MemberSegment, _ position: Int) -> MemberEntry {
        unsafe entries[unchecked: segment.base &+ 1 &+ position]
    }

    /// Scans the object at `range` (which the parser validated) and pushes its members.
    ///
    /// Returns an empty segment when `range` is absent or not an object.
    func scan(_ b: ByteView, object range: ByteRange) -> MemberSegment {
        guard range.isPresent, Int(range.start) < b.count, b[Int(range.start)] == UInt8(ascii: "{") else {
            return .empty
        }
        let base = unsafe entries.count
        unsafe entries.reserve(17)
        let stamp = unsafe nextStamp
        unsafe nextStamp &+= 1
        unsafe entries.push(MemberEntry(keyStart: stamp, keyEnd: 0, valueStart: 0, valueEnd: 0, flags: 0))
        let end = min(Int(range.end), b.count)
        var filter: UInt64 = 0
        // SAFETY: every unchecked read below is at an offset in `0..<end`, `end <= b.count`: `i`
        // starts past `range.start` (non-negative) and only grows, and each read is after an
        // `i < end` test; `keyStart < keyEnd - 1 <= end` when the key has bytes.
        var i = ValueReader.skipWhitespace(b, Int(range.start) &+ 1)
        while i < end, unsafe b[unchecked: i] == UInt8(ascii: "\"") {
            // Strings are skipped with the whole buffer as the limit, so that the 16-byte steps
            // also run for the short keys and values near the object's end; a string of the
            // validated input always closes inside its object, and `min` keeps a bad range in it.
            let (rawKeyEnd, keyEscaped) = ValueReader.stringEnd(b, i, limit: b.count)
            let keyEnd = min(rawKeyEnd, end)
            let keyStart = i &+ 1
            if keyEscaped {
                filter = ~0
            } else {
                let keyCount = max(0, keyEnd &- 1 &- keyStart)
                filter |= Self.filterBit(firstByte: keyCount > 0 ? unsafe b[unchecked: keyStart] : 0, count: keyCount)
            }
            i = keyEnd
            if i < end, unsafe b[unchecked: i] != UInt8(ascii: ":") { i = ValueReader.skipWhitespace(b, i) }
            guard i < end, unsafe b[unchecked: i] == UInt8(ascii: ":") else { break }
            i &+= 1
            if i < end, unsafe b[unchecked: i] <= 0x20 { i = ValueReader.skipWhitespace(b, i) }
            guard i < end else { break }
            let valueStart = i
            var flags: UInt32 = keyEscaped ? MemberEntry.keyEscaped : 0
            if unsafe b[unchecked: i] == UInt8(ascii: "\"") {
                let (valueEnd, valueEscaped) = ValueReader.stringEnd(b, i, limit: b.count)
                if valueEscaped { flags |= MemberEntry.valueEscaped }
                i = min(valueEnd, end)
            } else {
                i = ValueReader.valueEnd(b, i)
            }
            unsafe entries.push(
                MemberEntry(
                    keyStart: UInt32(truncatingIfNeeded: keyStart),
                    keyEnd: UInt32(truncatingIfNeeded: max(keyStart, keyEnd &- 1)),
                    valueStart: UInt32(truncatingIfNeeded: valueStart), valueEnd: UInt32(truncatingIfNeeded: i),
                    flags: flags))
            if i < end, unsafe b[unchecked: i] != UInt8(ascii: ",") { i = ValueReader.skipWhitespace(b, i) }
            guard i < end, unsafe b[unchecked: i] == UInt8(ascii: ",") else { break }
            i &+= 1
            if i < end, unsafe b[unchecked: i] <= 0x20 { i = ValueReader.skipWhitespace(b, i) }
        }
        let count = unsafe entries.count &- base &- 1
        unsafe entries[base].keyEnd = UInt32(truncatingIfNeeded: count)
        unsafe entries[base].valueEnd = UInt32(truncatingIfNeeded: filter)
        unsafe entries[base].flags = UInt32(truncatingIfNeeded: filter &>> 32)
        return MemberSegment(base: base, count: count, stamp: stamp)
    }
}
