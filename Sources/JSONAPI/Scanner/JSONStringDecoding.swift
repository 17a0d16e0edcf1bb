/// Turns the raw contents of a string token into its value.
///
/// The scanner reports strings as positions; a consumer that needs a value passes the bytes
/// between the quotes (`input[token.start ..< token.end]`) here, when it needs them.
///
/// ```swift
/// let value = JSONStringDecoding.decode(raw, hasEscapes: token.hasEscapes)
/// if JSONStringDecoding.equals(raw, hasEscapes: token.hasEscapes, "type") { ... }
/// ```
///
/// Every function is total: given bytes the scanner never validated (a stray or truncated escape,
/// an unpaired surrogate, invalid UTF-8) it still returns, putting U+FFFD where a value cannot be
/// read, and never traps.
@_spi(Backend)
public enum JSONStringDecoding {
    /// The value of a string's raw contents.
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes.
    ///   - hasEscapes: The token's flag; when false the bytes are taken as they are.
    /// - Returns: The string, with escapes decoded; malformed parts become U+FFFD.
    /// - Complexity: O(`raw.count`), one allocation (none for short strings).
    public static func decode(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool) -> String {
        guard hasEscapes else { return String(decoding: raw, as: UTF8.self) }
        // Decoded text is never longer than its escaped form when the escapes are well-formed
        // (`\n` is 2 bytes for 1, `\uXXXX` 6 for at most 3, a surrogate pair 12 for 4); only
        // malformed input can need more, and takes the slower path.
        var fits = true
        let string = String(unsafeUninitializedCapacity: raw.count) { buffer in
            var written = 0
            fits = forEachPiece(of: raw) { piece in
                guard written &+ piece.count <= buffer.count else { return false }
                for byte in piece {
                    buffer[written] = byte
                    written &+= 1
                }
                return true
            }
            return fits ? written : 0
        }
        if fits { return string }
        var bytes: [UInt8] = []
        unescape(raw, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of a string's value to `out`.
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes.
    ///   - out: Receives the value's bytes; existing contents are kept.
    /// - Complexity: O(`raw.count`).
    public static func unescape(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.reserveCapacity(out.count &+ raw.count)
        _ = forEachPiece(of: raw) { piece in
            out.append(contentsOf: piece)
            return true
        }
    }

    /// Whether a string's value equals `expected`, without allocating.
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes.
    ///   - hasEscapes: The token's flag; when false this is a plain byte comparison.
    ///   - expected: The value to compare with, as UTF-8.
    public static func equals(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool, _ expected: StaticString) -> Bool {
        expected.withUTF8Buffer { equals(raw, hasEscapes: hasEscapes, UnsafeRawBufferPointer($0)) }
    }

    /// Whether a string's value equals `expected`, without allocating.
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes.
    ///   - hasEscapes: The token's flag; when false this is a plain byte comparison.
    ///   - expected: The value to compare with, as UTF-8.
    public static func equals(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool, _ expected: [UInt8]) -> Bool {
        expected.withUnsafeBytes { equals(raw, hasEscapes: hasEscapes, $0) }
    }

    /// Whether a string's value equals the UTF-8 bytes `expected`, without allocating.
    public static func equals(
        _ raw: UnsafeRawBufferPointer, hasEscapes: Bool, _ expected: UnsafeRawBufferPointer
    ) -> Bool {
        guard hasEscapes else { return raw.elementsEqual(expected) }
        var matched = 0
        let complete = forEachPiece(of: raw) { piece in
            guard matched &+ piece.count <= expected.count else { return false }
            for byte in piece {
                guard expected[matched] == byte else { return false }
                matched &+= 1
            }
            return true
        }
        return complete && matched == expected.count
    }

    // MARK: Decoding

    /// Calls `body` with the value's bytes in order: runs of raw bytes between escapes, and each
    /// escape's UTF-8. Stops as soon as `body` returns false, and then returns false.
    @inline(__always)
    static func forEachPiece(
        of raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool
    ) -> Bool {
        var i = 0
        var runStart = 0
        let n = raw.count
        while i < n {
            guard raw[i] == UInt8(ascii: "\\") else {
                i &+= 1
                continue
            }
            if runStart < i, !body(UnsafeRawBufferPointer(rebasing: raw[runStart..<i])) { return false }
            let (scalar, next) = decodeEscape(raw, at: i)
            var encoded: UInt32 = 0
            let length = utf8(scalar, into: &encoded)
            let ok = withUnsafeBytes(of: encoded.littleEndian) {
                body(UnsafeRawBufferPointer(rebasing: $0[0..<length]))
            }
            guard ok else { return false }
            i = next
            runStart = next
        }
        if runStart < n { return body(UnsafeRawBufferPointer(rebasing: raw[runStart..<n])) }
        return true
    }

    /// Decodes the escape whose `\` is at `i`: its scalar value (U+FFFD when malformed or an
    /// unpaired surrogate) and the index after it.
    static func decodeEscape(_ raw: UnsafeRawBufferPointer, at i: Int) -> (scalar: UInt32, next: Int) {
        let replacement: UInt32 = 0xFFFD
        guard i &+ 1 < raw.count else { return (replacement, raw.count) }
        switch raw[i &+ 1] {
        case UInt8(ascii: "\""): return (0x22, i &+ 2)
        case UInt8(ascii: "\\"): return (0x5C, i &+ 2)
        case UInt8(ascii: "/"): return (0x2F, i &+ 2)
        case UInt8(ascii: "b"): return (0x08, i &+ 2)
        case UInt8(ascii: "f"): return (0x0C, i &+ 2)
        case UInt8(ascii: "n"): return (0x0A, i &+ 2)
        case UInt8(ascii: "r"): return (0x0D, i &+ 2)
        case UInt8(ascii: "t"): return (0x09, i &+ 2)
        case UInt8(ascii: "u"):
            guard let first = hex4(raw, at: i &+ 2) else { return (replacement, i &+ 2) }
            switch first {
            case 0xD800...0xDBFF:
                if i &+ 12 <= raw.count, raw[i &+ 6] == UInt8(ascii: "\\"), raw[i &+ 7] == UInt8(ascii: "u"),
                    let second = hex4(raw, at: i &+ 8), (0xDC00...0xDFFF).contains(second)
                {
                    return (0x10000 &+ ((first &- 0xD800) &<< 10) &+ (second &- 0xDC00), i &+ 12)
                }
                return (replacement, i &+ 6)
            case 0xDC00...0xDFFF:
                return (replacement, i &+ 6)
            default:
                return (first, i &+ 6)
            }
        default:
            return (replacement, i &+ 2)
        }
    }

    /// The value of the four hex digits at `i`, or nil when they are not all there.
    static func hex4(_ raw: UnsafeRawBufferPointer, at i: Int) -> UInt32? {
        guard i >= 0, i &+ 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for k in i..<(i &+ 4) {
            guard let digit = JSONScanner.hexValue(raw[k]) else { return nil }
            value = value &<< 4 | digit
        }
        return value
    }

    /// Writes the UTF-8 of `scalar` (a valid scalar value) into `out`, first byte lowest (so the
    /// bytes are in order in `out.littleEndian`); returns the length.
    static func utf8(_ scalar: UInt32, into out: inout UInt32) -> Int {
        switch scalar {
        case 0..<0x80:
            out = scalar
            return 1
        case 0x80..<0x800:
            out = (0xC0 | scalar &>> 6) | (0x80 | scalar & 0x3F) &<< 8
            return 2
        case 0x800..<0x10000:
            out = (0xE0 | scalar &>> 12) | (0x80 | scalar &>> 6 & 0x3F) &<< 8 | (0x80 | scalar & 0x3F) &<< 16
            return 3
        default:
            out =
                (0xF0 | scalar &>> 18) | (0x80 | scalar &>> 12 & 0x3F) &<< 8 | (0x80 | scalar &>> 6 & 0x3F) &<< 16
                | (0x80 | scalar & 0x3F) &<< 24
            return 4
        }
    }
}
