/// Reads values inside byte ranges the scanner has already validated.
///
/// The arena keeps attribute values, `meta` and links as byte ranges; views find members and
/// elements by walking those bytes again. The bytes are known to be valid JSON, so this reader
/// checks nothing about the grammar, but every read is still bounds-checked against the buffer:
/// a wrong range yields wrong answers at worst, never a read outside the input.
enum ValueReader {
    /// The first offset at or after `i` that is not JSON whitespace.
    @inline(__always)
    static func skipWhitespace(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int {
        var i = i
        while i < b.count {
            switch b[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i &+= 1
            default: return i
            }
        }
        return i
    }

    /// The end (exclusive) of the string whose opening quote is at `start`, and whether it has escapes.
    @inline(__always)
    static func stringEnd(_ b: UnsafeRawBufferPointer, _ start: Int) -> (end: Int, hasEscapes: Bool) {
        var i = start &+ 1
        var escapes = false
        guard let base = b.baseAddress else { return (b.count, false) }
        // SAFETY: every load is at an offset checked against `b.count` first.
        while i &+ 8 <= b.count {
            let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if !hasQuoteOrBackslash(word) {
                i &+= 8
                continue
            }
            break
        }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { return (i &+ 1, escapes) }
            if c == UInt8(ascii: "\\") {
                escapes = true
                i &+= 2
                continue
            }
            i &+= 1
            if i &+ 8 <= b.count, c < 0x80 {
                // Re-enter the fast loop after each interesting byte.
                while i &+ 8 <= b.count {
                    let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if hasQuoteOrBackslash(word) { break }
                    i &+= 8
                }
            }
        }
        return (b.count, escapes)
    }

    @inline(__always)
    static func hasQuoteOrBackslash(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = word ^ (ones &* 0x22)
        let s = word ^ (ones &* 0x5C)
        let hasQ = (q &- ones) & ~q & highs
        let hasS = (s &- ones) & ~s & highs
        return (hasQ | hasS) != 0
    }

    /// The end (exclusive) of the value starting at `start` (which must not be whitespace).
    static func valueEnd(_ b: UnsafeRawBufferPointer, _ start: Int) -> Int {
        guard start < b.count else { return b.count }
        switch b[start] {
        case UInt8(ascii: "\""):
            return stringEnd(b, start).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < b.count {
                switch b[i] {
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
            var i = start
            while i < b.count {
                switch b[i] {
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
        _ b: UnsafeRawBufferPointer, object start: Int,
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
    static func forEachElement(_ b: UnsafeRawBufferPointer, array start: Int, _ body: (ByteRange) -> Bool) {
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
    static func member(_ b: UnsafeRawBufferPointer, object range: ByteRange, named name: String) -> ByteRange? {
        guard range.isPresent else { return nil }
        var found: ByteRange?
        var utf8 = Array(name.utf8)
        utf8.withUnsafeMutableBytes { wanted in
            let wanted = UnsafeRawBufferPointer(wanted)
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
        _ b: UnsafeRawBufferPointer, _ key: ByteRange, _ escaped: Bool, _ wanted: UnsafeRawBufferPointer
    )
        -> Bool
    {
        let raw = b.slice(key)
        if !escaped {
            guard raw.count == wanted.count else { return false }
            guard let p = raw.baseAddress, let q = wanted.baseAddress else { return raw.count == 0 }
            return memcmpBytes(p, q, raw.count)
        }
        var decoded: [UInt8] = []
        JSONStringDecoding.unescape(raw, into: &decoded)
        return decoded.elementsEqual(wanted)
    }
}
