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
            switch unsafe b[i] {
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
    static func stringEnd(_ b: UnsafeRawBufferPointer, _ start: Int, limit: Int = .max)
        -> (end: Int, hasEscapes: Bool)
    {
        let limit = min(limit, b.count)
        guard let base = b.baseAddress else { return (limit, false) }
        var i = start &+ 1
        var escaped = false
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        while true {
            // SAFETY: each 16-byte load starts at `i` with `i + 16 <= limit <= b.count`.
            while i &+ 16 <= limit {
                let chunk = unsafe base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let hits = unsafe unsafeBitCast((chunk .== quote) .| (chunk .== backslash), to: SIMD2<UInt64>.self)
                if hits[0] != 0 {
                    i &+= hits[0].trailingZeroBitCount &>> 3
                    break
                }
                if hits[1] != 0 {
                    i &+= 8 &+ (hits[1].trailingZeroBitCount &>> 3)
                    break
                }
                i &+= 16
            }
            guard i < limit else { return (limit, escaped) }
            let c = unsafe b[i]
            if c == UInt8(ascii: "\"") { return (i &+ 1, escaped) }
            if c == UInt8(ascii: "\\") {
                escaped = true
                i &+= 2
            } else {
                i &+= 1
            }
        }
    }

    /// The end (exclusive) of the value starting at `start` (which must not be whitespace).
    static func valueEnd(_ b: UnsafeRawBufferPointer, _ start: Int) -> Int {
        guard start < b.count else { return b.count }
        switch unsafe b[start] {
        case UInt8(ascii: "\""):
            return unsafe stringEnd(b, start).end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < b.count {
                switch unsafe b[i] {
                case UInt8(ascii: "\""):
                    i = unsafe stringEnd(b, i).end
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
                switch unsafe b[i] {
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
        guard start < b.count, unsafe b[start] == UInt8(ascii: "{") else { return }
        var i = unsafe skipWhitespace(b, start &+ 1)
        while i < b.count, unsafe b[i] == UInt8(ascii: "\"") {
            let (keyEnd, escaped) = unsafe stringEnd(b, i)
            let key = ByteRange(i &+ 1, max(i &+ 1, keyEnd &- 1))
            i = unsafe skipWhitespace(b, keyEnd)
            guard i < b.count, unsafe b[i] == UInt8(ascii: ":") else { return }
            i = unsafe skipWhitespace(b, i &+ 1)
            let end = unsafe valueEnd(b, i)
            guard body(key, escaped, ByteRange(i, end)) else { return }
            i = unsafe skipWhitespace(b, end)
            guard i < b.count, unsafe b[i] == UInt8(ascii: ",") else { return }
            i = unsafe skipWhitespace(b, i &+ 1)
        }
    }

    /// Calls `body` with each element's range of the array starting at `start`, until it returns false.
    static func forEachElement(_ b: UnsafeRawBufferPointer, array start: Int, _ body: (ByteRange) -> Bool) {
        guard start < b.count, unsafe b[start] == UInt8(ascii: "[") else { return }
        var i = unsafe skipWhitespace(b, start &+ 1)
        guard i < b.count, unsafe b[i] != UInt8(ascii: "]") else { return }
        while i < b.count {
            let end = unsafe valueEnd(b, i)
            guard body(ByteRange(i, end)) else { return }
            i = unsafe skipWhitespace(b, end)
            guard i < b.count, unsafe b[i] == UInt8(ascii: ",") else { return }
            i = unsafe skipWhitespace(b, i &+ 1)
        }
    }

    /// The value range of member `name` in the object at `range`, or nil.
    static func member(_ b: UnsafeRawBufferPointer, object range: ByteRange, named name: String) -> ByteRange? {
        guard range.isPresent else { return nil }
        var found: ByteRange?
        var utf8 = Array(name.utf8)
        unsafe utf8.withUnsafeMutableBytes { wanted in
            let wanted = UnsafeRawBufferPointer(wanted)
            unsafe forEachMember(b, object: Int(range.start)) { key, escaped, value in
                if unsafe keyEquals(b, key, escaped, wanted) {
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
        let raw = unsafe b.slice(key)
        if !escaped {
            guard raw.count == wanted.count else { return false }
            guard let p = raw.baseAddress, let q = wanted.baseAddress else { return raw.count == 0 }
            return unsafe memcmpBytes(p, q, raw.count)
        }
        var decoded: [UInt8] = []
        unsafe JSONStringDecoding.unescape(raw, into: &decoded)
        return unsafe decoded.elementsEqual(wanted)
    }
}
