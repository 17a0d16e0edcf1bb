#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

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
///
/// This is the only unescaper of the library: the views and the typed views make their strings
/// with ``decode(validUTF8:hasEscapes:)``, which skips the UTF-8 validation that bytes of a parsed
/// document have already passed, and everything else goes through the same walk over the escapes,
/// `forEachPiece(of:run:escape:)`.
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
        guard hasEscapes else { return unsafe String(decoding: raw, as: UTF8.self) }
        return unsafe withUnescaped(raw, validUTF8: false) ?? decodeMalformed(raw)
    }

    /// Appends the UTF-8 of a string's value to `out`.
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes.
    ///   - out: Receives the value's bytes; existing contents are kept.
    /// - Complexity: O(`raw.count`).
    public static func unescape(_ raw: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.reserveCapacity(out.count &+ raw.count)
        _ = unsafe forEachPiece(of: raw) { run in
            unsafe out.append(contentsOf: run)
            return true
        } escape: { utf8, count in
            for k in 0..<count { out.append(byte(k, of: utf8)) }
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
        expected.withUTF8Buffer { unsafe equals(raw, hasEscapes: hasEscapes, UnsafeRawBufferPointer($0)) }
    }

    /// Whether a string's value equals `expected`, without allocating.
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes.
    ///   - hasEscapes: The token's flag; when false this is a plain byte comparison.
    ///   - expected: The value to compare with, as UTF-8.
    public static func equals(_ raw: UnsafeRawBufferPointer, hasEscapes: Bool, _ expected: [UInt8]) -> Bool {
        unsafe expected.withUnsafeBytes { unsafe equals(raw, hasEscapes: hasEscapes, $0) }
    }

    /// Whether a string's value equals the UTF-8 bytes `expected`, without allocating.
    public static func equals(
        _ raw: UnsafeRawBufferPointer, hasEscapes: Bool, _ expected: UnsafeRawBufferPointer
    ) -> Bool {
        guard hasEscapes else { return unsafe raw.elementsEqual(expected) }
        var matched = 0
        let complete = unsafe forEachPiece(of: raw) { run in
            guard run.count <= expected.count &- matched else { return false }
            for index in run.indices {
                guard unsafe expected[matched] == run[index] else { return false }
                matched &+= 1
            }
            return true
        } escape: { utf8, count in
            guard count <= expected.count &- matched else { return false }
            for k in 0..<count {
                guard unsafe expected[matched] == byte(k, of: utf8) else { return false }
                matched &+= 1
            }
            return true
        }
        return complete && matched == expected.count
    }
}

// MARK: - Strings of a parsed document

extension JSONStringDecoding {
    /// The value of a string's raw contents, when those are valid UTF-8: the contents of a string
    /// of a parsed ``Document``.
    ///
    /// Every string of a document has been checked to be valid UTF-8 by the scanner or the yajl
    /// backend (both reject invalid UTF-8 in every parsing mode; `StringMakingTests` holds them to
    /// it), and decoding an escape always gives a valid scalar (an unpaired surrogate becomes
    /// U+FFFD). So the string is made without the standard library validating it again, which
    /// is a byte-at-a-time loop over the whole string as soon as it holds one non-ASCII byte:
    /// a long text with a single accented letter or emoji would pay for every byte twice.
    ///
    /// ```swift
    /// let title = JSONStringDecoding.decode(validUTF8: bytes.slice(range), hasEscapes: escaped)
    /// ```
    ///
    /// - Parameters:
    ///   - raw: The bytes between the quotes; valid UTF-8.
    ///   - hasEscapes: Whether `raw` holds a backslash; when false the bytes are taken as they are.
    /// - Returns: The same string as ``decode(_:hasEscapes:)``.
    /// - Complexity: O(`raw.count`).
    @inline(__always)
    static func decode(validUTF8 raw: UnsafeRawBufferPointer, hasEscapes: Bool) -> String {
        guard hasEscapes else { return unsafe fromValidUTF8(raw) }
        return unsafe decodeEscaped(validUTF8: raw)
    }

    /// The value of a string's raw contents (valid UTF-8, as for
    /// ``decode(validUTF8:hasEscapes:)``) when whether they hold an escape is not known.
    @inline(__always)
    static func decode(validUTF8 raw: UnsafeRawBufferPointer) -> String {
        unsafe decode(validUTF8: raw, hasEscapes: firstBackslash(in: raw, from: 0) < raw.count)
    }

    @inline(never)
    static func decodeEscaped(validUTF8 raw: UnsafeRawBufferPointer) -> String {
        unsafe withUnescaped(raw, validUTF8: true) ?? decodeMalformed(raw)
    }

    /// A string from bytes that are valid UTF-8: the contents of a parsed document's string
    /// without escapes, or what `forEachPiece(of:run:escape:)` decoded from one.
    ///
    /// The string is told whether it is ASCII, as a validating initializer would find out: a
    /// string not known to be ASCII is not known to be in normal form C either, and comparing or
    /// hashing it then goes through Unicode normalization, which costs far more than a byte
    /// comparison, even for plain ASCII such as a URL. The check is O(n), sixteen bytes at a
    /// step. Strings of at most 15 bytes are stored inline and work this out themselves.
    @inline(__always)
    static func fromValidUTF8(_ bytes: UnsafeRawBufferPointer) -> String {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            // SAFETY: `bytes` is valid UTF-8 (see `decode(validUTF8:hasEscapes:)`) and outlives
            // the span, which `String(copying:)` copies from before returning; `isKnownASCII` is
            // true only when no byte has its high bit set.
            let span = unsafe bytes.assumingMemoryBound(to: UInt8.self).span
            return unsafe String(copying: UTF8Span(unchecked: span, isKnownASCII: bytes.count > 15 && isASCII(bytes)))
        }
        return unsafe String(decoding: bytes, as: UTF8.self)
    }

    /// Whether no byte of `bytes` has its high bit set: 16 bytes per step, the last step
    /// overlapping the one before it rather than going byte by byte.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        guard n >= 16 else { return unsafe bytes.allSatisfy { $0 < 0x80 } }
        var any = SIMD16<UInt8>()
        var i = 0
        // SAFETY: every load lies inside `bytes`: `i + 16 <= n`, and the last starts at
        // `n - 16 >= 0`.
        while i &+ 16 <= n {
            unsafe any |= base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            i &+= 16
        }
        unsafe any |= base.loadUnaligned(fromByteOffset: n &- 16, as: SIMD16<UInt8>.self)
        let words = unsafe unsafeBitCast(any, to: SIMD2<UInt64>.self)
        return (words[0] | words[1]) & 0x8080_8080_8080_8080 == 0
    }
}

// MARK: - Decoding

extension JSONStringDecoding {
    /// Decodes `raw` into a temporary buffer of `raw.count` bytes and makes the string of the
    /// decoded bytes, without validating them again when `raw` is `validUTF8`; nil when they do
    /// not fit.
    ///
    /// Decoded text is never longer than its escaped form when the escapes are well-formed
    /// (`\n` is 2 bytes for 1, `\uXXXX` 6 for at most 3, a surrogate pair 12 for 4); only a
    /// malformed escape (2 bytes becoming the 3 of U+FFFD) can need more.
    @inline(__always)
    static func withUnescaped(_ raw: UnsafeRawBufferPointer, validUTF8: Bool) -> String? {
        unsafe withUnsafeTemporaryAllocation(byteCount: raw.count, alignment: 1) { buffer -> String? in
            guard let out = buffer.baseAddress else { return unsafe raw.isEmpty ? "" : nil }
            let capacity = buffer.count
            var written = 0
            let fits = unsafe forEachPiece(of: raw) { run in
                guard let from = run.baseAddress, run.count <= capacity &- written else { return false }
                // SAFETY: `out + written ..< out + written + run.count` lies inside `buffer`
                // (checked above), and `run` inside `raw`, which does not overlap it.
                unsafe (out + written).copyMemory(from: from, byteCount: run.count)
                written &+= run.count
                return true
            } escape: { utf8, count in
                // One 4-byte store rather than a copy of `count` bytes, where there is room.
                let room = capacity &- written
                if room >= 4 {
                    // SAFETY: `out + written ..< out + written + 4` lies inside `buffer`; the bytes
                    // past `count` are overwritten by what follows or left past `written`.
                    unsafe (out + written).storeBytes(of: utf8.littleEndian, as: UInt32.self)
                } else {
                    guard count <= room else { return false }
                    for k in 0..<count {
                        // SAFETY: `written + k < capacity` (checked above).
                        unsafe out.storeBytes(of: byte(k, of: utf8), toByteOffset: written &+ k, as: UInt8.self)
                    }
                }
                written &+= count
                return true
            }
            guard fits else { return nil }
            let bytes = unsafe UnsafeRawBufferPointer(start: out, count: written)
            return unsafe validUTF8 ? fromValidUTF8(bytes) : String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value of contents whose decoded bytes do not fit in `raw.count` bytes: a malformed
    /// escape, which the scanner never lets through.
    @inline(never)
    static func decodeMalformed(_ raw: UnsafeRawBufferPointer) -> String {
        var bytes: [UInt8] = []
        unsafe unescape(raw, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Walks the value of `raw` in order: `run` gets each run of raw bytes between escapes (never
    /// empty), `escape` the UTF-8 of each escape's scalar, packed first byte lowest (see
    /// `byte(_:of:)`), and its length, 1 to 4. Stops as soon as either returns false, and then
    /// returns false.
    ///
    /// The one walk over escapes every function of the type makes: runs are found with `memchr`,
    /// so a run costs one call rather than a comparison per byte, and is handed over whole (for a
    /// `memcpy`, an `append(contentsOf:)`); an escape's bytes are handed over in a register.
    @inline(__always)
    static func forEachPiece(
        of raw: UnsafeRawBufferPointer, run: (UnsafeRawBufferPointer) -> Bool,
        escape: (_ utf8: UInt32, _ count: Int) -> Bool
    ) -> Bool {
        guard let base = raw.baseAddress else { return true }
        let n = raw.count
        var i = 0
        while i < n {
            let stop = unsafe firstBackslash(in: raw, from: i)
            // SAFETY: `i < stop <= n`: the run lies inside `raw`.
            if stop > i, unsafe !run(UnsafeRawBufferPointer(start: base + i, count: stop &- i)) { return false }
            guard stop < n else { return true }
            let (scalar, next) = unsafe decodeEscape(raw, at: stop)
            var encoded: UInt32 = 0
            let count = utf8(scalar, into: &encoded)
            guard escape(encoded, count) else { return false }
            i = next
        }
        return true
    }

    /// Byte `k` of UTF-8 packed by `utf8(_:into:)`.
    @inline(__always)
    static func byte(_ k: Int, of utf8: UInt32) -> UInt8 {
        UInt8(truncatingIfNeeded: utf8 &>> (UInt32(truncatingIfNeeded: k) &* 8))
    }

    /// The index of the first `\` of `raw` at or after `i` (`0 <= i <= raw.count`), or
    /// `raw.count` when there is none.
    @inline(__always)
    static func firstBackslash(in raw: UnsafeRawBufferPointer, from i: Int) -> Int {
        guard let base = raw.baseAddress, i < raw.count else { return raw.count }
        // Escapes often follow one another (`\"\n`, a surrogate pair): no call for those.
        if unsafe raw[i] == UInt8(ascii: "\\") { return i }
        // SAFETY: `base + i ..< base + raw.count` lies inside `raw`, and a match is in it.
        guard let found = unsafe memchr(base + i, Int32(UInt8(ascii: "\\")), raw.count &- i) else { return raw.count }
        return unsafe UnsafeRawPointer(found) - base
    }

    /// Decodes the escape whose `\` is at `i`: its scalar value (U+FFFD when malformed or an
    /// unpaired surrogate) and the index after it.
    static func decodeEscape(_ raw: UnsafeRawBufferPointer, at i: Int) -> (scalar: UInt32, next: Int) {
        let replacement: UInt32 = 0xFFFD
        guard i &+ 1 < raw.count else { return (replacement, raw.count) }
        switch unsafe raw[i &+ 1] {
        case UInt8(ascii: "\""): return (0x22, i &+ 2)
        case UInt8(ascii: "\\"): return (0x5C, i &+ 2)
        case UInt8(ascii: "/"): return (0x2F, i &+ 2)
        case UInt8(ascii: "b"): return (0x08, i &+ 2)
        case UInt8(ascii: "f"): return (0x0C, i &+ 2)
        case UInt8(ascii: "n"): return (0x0A, i &+ 2)
        case UInt8(ascii: "r"): return (0x0D, i &+ 2)
        case UInt8(ascii: "t"): return (0x09, i &+ 2)
        case UInt8(ascii: "u"):
            guard let first = unsafe hex4(raw, at: i &+ 2) else { return (replacement, i &+ 2) }
            switch first {
            case 0xD800...0xDBFF:
                if i &+ 12 <= raw.count, unsafe raw[i &+ 6] == UInt8(ascii: "\\"),
                    unsafe raw[i &+ 7] == UInt8(ascii: "u"),
                    let second = unsafe hex4(raw, at: i &+ 8), (0xDC00...0xDFFF).contains(second)
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
    ///
    /// Inlined into `decodeEscape(_:at:)`: a call per `\u` escape (two for a surrogate pair)
    /// costs more than the check, which reads the four bytes as one word (the scanner's).
    @inline(__always)
    static func hex4(_ raw: UnsafeRawBufferPointer, at i: Int) -> UInt32? {
        guard i >= 0, i &+ 4 <= raw.count else { return nil }
        // SAFETY: the four bytes at `i` lie inside `raw` (checked just above).
        let word = unsafe UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt32.self))
        return JSONScanner.hex4(word: word)
    }

    /// Writes the UTF-8 of `scalar` (a valid scalar value) into `out`, first byte lowest (byte `k`
    /// is `out >> (8 * k)`); returns the length.
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
