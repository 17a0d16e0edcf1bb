/// Reads values inside byte ranges the scanner has already validated.
///
/// The arena keeps attribute values, `meta` and links as byte ranges; views find members and
/// elements by walking those bytes again. The bytes are known to be valid JSON, so this reader
/// checks nothing about the grammar, but every read stays inside the view: checked, or in the
/// byte loops below unchecked where the loop itself keeps the offset in `0..<count`. A wrong
/// range yields wrong answers at worst, never a read outside the input.
enum ValueReader {
    /// The first offset at or after `i` that is not JSON whitespace.
    @inline(__always)
    static func skipWhitespace(_ b: ByteView, _ i: Int) -> Int {
        var i = max(i, 0)
        // SAFETY: `0 <= i < b.count` at each read: `i` starts at 0 or above and only grows.
        while i < b.count {
            switch unsafe b[unchecked: i] {
            case 0x20, 0x0A, 0x0D, 0x09: i &+= 1
            default: return i
            }
        }
        return i
    }

    /// The end (one past the closing quote) of the string whose opening quote is at `start`,
    /// and whether it has escapes; `limit` (at most the buffer's end) if it does not end before it.
    ///
    /// Views, the typed decoder and the writer all skip strings with this one loop. Attribute
    /// objects are mostly string bytes, so it is their scans' inner loop: it looks at
    /// 16 bytes per step for a quote or a backslash and jumps straight to the first one found
    /// (lane order is byte order on the little-endian machines Swift runs on).
    @inline(__always)
    static func stringEnd(_ b: ByteView, _ start: Int, limit: Int = .max)
        -> (end: Int, hasEscapes: Bool)
    {
        let limit = min(limit, b.count)
        // Never below 0, even for a wrong `start` (then the answer is wrong, the reads in bounds).
        var i = max(start &+ 1, 0)
        var escaped = false
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        while true {
            // `i` starts at 0 or above and only grows; `limit <= b.count` (see `skipChunks`).
            i = skipChunks(b, from: i, limit: limit) { chunk in (chunk .== quote) .| (chunk .== backslash) }
            guard i < limit else { return (limit, escaped) }
            // SAFETY: `0 <= i < limit <= b.count`.
            let c = unsafe b[unchecked: i]
            if c == UInt8(ascii: "\"") { return (i &+ 1, escaped) }
            if c == UInt8(ascii: "\\") {
                escaped = true
                i &+= 2
            } else {
                i &+= 1
            }
        }
    }

    /// The first offset from `start` in whose 16-byte chunk `hits` marks a byte, stepping 16
    /// bytes at a time while a whole chunk fits below `limit`; where the steps stop when none is
    /// marked (the caller's byte loop goes on from there).
    @inline(__always)
    static func skipChunks(
        _ b: ByteView, from start: Int, limit: Int, _ hits: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>
    ) -> Int {
        var i = start
        // SAFETY: each chunk is read at `i` with `0 <= i` (callers pass a non-negative start and
        // `i` only grows) and `i + 16 <= limit <= b.count`.
        while i &+ 16 <= limit {
            let marked = unsafe unsafeBitCast(hits(unsafe b.chunk16(unchecked: i)), to: SIMD2<UInt64>.self)
            if marked[0] != 0 { return i &+ (marked[0].trailingZeroBitCount &>> 3) }
            if marked[1] != 0 { return i &+ 8 &+ (marked[1].trailingZeroBitCount &>> 3) }
            i &+= 16
        }
        return i
    }

    /// The end (exclusive) of the value starting at `start` (which must not be whitespace).
    ///
    /// Containers and scalars are skipped 16 bytes at a time to the next byte that can matter
    /// (a quote or bracket; a delimiter or whitespace), which the byte loop then decides on.
    static func valueEnd(_ b: ByteView, _ start: Int) -> Int {
        guard UInt(bitPattern: start) < UInt(bitPattern: b.count) else { return b.count }
        // SAFETY: here and in the loops below, `0 <= i < b.count` at each read: `i` starts at
        // `start` and only grows (a string's end is past its start, or the buffer's end), and
        // each 16-byte chunk is read at `i` with `i + 16 <= b.count`.
        switch unsafe b[unchecked: start] {
        case UInt8(ascii: "\""):
            return stringEnd(b, start).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // `c | 0x20` is `{` for `[` and `{`, `}` for `]` and `}`.
            let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
            let lower = SIMD16<UInt8>(repeating: 0x20)
            let open = SIMD16<UInt8>(repeating: UInt8(ascii: "{"))
            let close = SIMD16<UInt8>(repeating: UInt8(ascii: "}"))
            var depth = 0
            var i = start
            while i < b.count {
                i = skipChunks(b, from: i, limit: b.count) { chunk in
                    (chunk .== quote) .| ((chunk | lower) .== open) .| ((chunk | lower) .== close)
                }
                guard i < b.count else { break }
                switch unsafe b[unchecked: i] {
                case UInt8(ascii: "\""):
                    i = stringEnd(b, i).end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth &+= 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth &-= 1
                    if depth == 0 { return i &+ 1 }
                default:
                    break
                }
                i &+= 1
            }
            return b.count
        default:
            // A delimiter (`,`, `}`, `]`) or whitespace ends a number or literal; control bytes
            // (`<= 0x20`) are only candidates, decided by the byte loop.
            let comma = SIMD16<UInt8>(repeating: UInt8(ascii: ","))
            let lower = SIMD16<UInt8>(repeating: 0x20)
            let close = SIMD16<UInt8>(repeating: UInt8(ascii: "}"))
            var i = start
            while i < b.count {
                i = skipChunks(b, from: i, limit: b.count) { chunk in
                    (chunk .== comma) .| ((chunk | lower) .== close) .| (chunk .<= lower)
                }
                guard i < b.count else { break }
                switch unsafe b[unchecked: i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                    return i
                default:
                    i &+= 1
                }
            }
            return i
        }
    }

    /// Calls `body` with (key contents range, key has escapes, value range) for each member of
    /// the object starting at `start`, until `body` returns false.
    static func forEachMember(
        _ b: ByteView, object start: Int,
        _ body: (_ key: ByteRange, _ keyEscaped: Bool, _ value: ByteRange) -> Bool
    ) {
        guard start < b.count, b[start] == UInt8(ascii: "{") else { return }
        var i = skipWhitespace(b, start &+ 1)
        while i < b.count, b[i] == UInt8(ascii: "\"") {
            let (keyEnd, escaped) = stringEnd(b, i)
            let key = ByteRange(i &+ 1, max(i &+ 1, keyEnd &- 1))
            i = skipWhitespace(b, keyEnd)
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return }
            i = skipWhitespace(b, i &+ 1)
            let end = valueEnd(b, i)
            guard body(key, escaped, ByteRange(i, end)) else { return }
            i = skipWhitespace(b, end)
            guard i < b.count, b[i] == UInt8(ascii: ",") else { return }
            i = skipWhitespace(b, i &+ 1)
        }
    }

    /// Calls `body` with each element's range of the array starting at `start`, until it returns false.
    static func forEachElement(_ b: ByteView, array start: Int, _ body: (ByteRange) -> Bool) {
        guard start < b.count, b[start] == UInt8(ascii: "[") else { return }
        var i = skipWhitespace(b, start &+ 1)
        guard i < b.count, b[i] != UInt8(ascii: "]") else { return }
        while i < b.count {
            let end = valueEnd(b, i)
            guard body(ByteRange(i, end)) else { return }
            i = skipWhitespace(b, end)
            guard i < b.count, b[i] == UInt8(ascii: ",") else { return }
            i = skipWhitespace(b, i &+ 1)
        }
    }

    /// The value range of member `name` in the object at `range`, or nil.
    static func member(_ b: ByteView, object range: ByteRange, named name: String) -> ByteRange? {
        guard range.isPresent else { return nil }
        var found: ByteRange?
        let utf8 = Array(name.utf8)
        // SAFETY: the view of `utf8` is used only inside its `withUnsafeBytes`.
        unsafe utf8.withUnsafeBytes { wanted in
            let wanted = unsafe ByteView(unsafeBytes: wanted)
            forEachMember(b, object: Int(range.start)) { key, escaped, value in
                if keyEquals(b, key, escaped, wanted) {
                    found = value
                    return false
                }
                return true
            }
        }
        return found
    }

    /// Whether the raw key contents at `key` equal the unescaped bytes `wanted`.
    @inline(__always)
    static func keyEquals(
        _ b: ByteView, _ key: ByteRange, _ escaped: Bool, _ wanted: ByteView
    )
        -> Bool
    {
        let raw = b.subview(key)
        if !escaped { return raw.elementsEqual(wanted) }
        var decoded: [UInt8] = []
        unsafe raw.withUnsafeBytes { raw in unsafe JSONStringDecoding.unescape(raw, into: &decoded) }
        // SAFETY: the view of `decoded` is used only inside its `withUnsafeBytes`.
        return unsafe decoded.withUnsafeBytes { decoded in unsafe ByteView(unsafeBytes: decoded).elementsEqual(wanted) }
    }
}
