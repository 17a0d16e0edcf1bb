#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Swift strings from the raw contents of JSON strings, for the typed views.
///
/// `JSONStringDecoding.decode` copies a string with escapes byte by byte through a closure per
/// run; the typed views make every attribute string, so here the runs between escapes are found
/// with `memchr` and copied with `memcpy`.
///
/// The bytes come from a parsed ``Document``, whose every string the scanner (or the yajl
/// backend) has checked to be valid UTF-8 (both reject invalid UTF-8 in every parsing mode;
/// `StringMakingTests` holds them to it), and decoding an escape always gives a valid scalar
/// (an unpaired surrogate becomes U+FFFD). So strings are made without the standard library
/// validating them again: where `UTF8Span` exists, through `UTF8Span(unchecked:)`. Validation is
/// a byte-at-a-time loop over the whole string as soon as it holds one non-ASCII byte, so a long
/// text with a single accented letter or emoji would pay for every byte a second time.
enum StringMaking {
    /// The value of a string's raw contents (the bytes between the quotes).
    @inline(__always)
    static func make(_ raw: UnsafeRawBufferPointer, escaped: Bool) -> String {
        guard escaped else { return fromValidUTF8(raw) }
        return makeEscaped(raw)
    }

    /// A string from bytes that are valid UTF-8: the contents of a parsed document's string
    /// without escapes, or what ``makeEscaped(_:)`` decoded from one.
    ///
    /// The string is told whether it is ASCII, as a validating initializer would find out: a
    /// string not known to be ASCII is not known to be in normal form C either, and comparing or
    /// hashing it then goes through Unicode normalization, which costs far more than a byte
    /// comparison, even for plain ASCII such as a URL. The check is O(n), sixteen bytes at a
    /// step. Strings of at most 15 bytes are stored inline and work this out themselves.
    @inline(__always)
    static func fromValidUTF8(_ bytes: UnsafeRawBufferPointer) -> String {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            // SAFETY: `bytes` is valid UTF-8 (see the type's documentation) and outlives the
            // span, which `String(copying:)` copies from before returning; `isKnownASCII` is
            // true only when no byte has its high bit set.
            let span = bytes.assumingMemoryBound(to: UInt8.self).span
            return String(copying: UTF8Span(unchecked: span, isKnownASCII: bytes.count > 15 && isASCII(bytes)))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether no byte of `bytes` has its high bit set: 16 bytes per step, the last step
    /// overlapping the one before it rather than going byte by byte.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        guard n >= 16 else { return bytes.allSatisfy { $0 < 0x80 } }
        var any = SIMD16<UInt8>()
        var i = 0
        // SAFETY: every load lies inside `bytes`: `i + 16 <= n`, and the last starts at
        // `n - 16 >= 0`.
        while i &+ 16 <= n {
            any |= base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            i &+= 16
        }
        any |= base.loadUnaligned(fromByteOffset: n &- 16, as: SIMD16<UInt8>.self)
        let words = unsafeBitCast(any, to: SIMD2<UInt64>.self)
        return (words[0] | words[1]) & 0x8080_8080_8080_8080 == 0
    }

    @inline(never)
    static func makeEscaped(_ raw: UnsafeRawBufferPointer) -> String {
        guard let base = raw.baseAddress, raw.count > 0 else { return "" }
        let n = raw.count
        // Well-formed escapes never decode longer than they are written; anything that does
        // (a malformed escape becoming U+FFFD) takes the general path.
        return withUnsafeTemporaryAllocation(byteCount: n, alignment: 1) { buffer -> String in
            guard let out = buffer.baseAddress else { return JSONStringDecoding.decode(raw, hasEscapes: true) }
            let capacity = buffer.count
            var written = 0
            var i = 0
            while i < n {
                // SAFETY: `base + i ..< base + n` lies inside `raw`.
                let stop: Int
                if let found = memchr(base + i, Int32(UInt8(ascii: "\\")), n &- i) {
                    stop = UnsafeRawPointer(found) - base
                } else {
                    stop = n
                }
                let run = stop &- i
                guard written &+ run <= capacity else { return JSONStringDecoding.decode(raw, hasEscapes: true) }
                // SAFETY: `run` bytes from `base + i` are in `raw`, and `out + written` has room
                // for them (checked above).
                if run > 0 { memcpy(out + written, base + i, run) }
                written &+= run
                guard stop < n else { break }
                let (scalar, next) = JSONStringDecoding.decodeEscape(raw, at: stop)
                var encoded: UInt32 = 0
                let length = JSONStringDecoding.utf8(scalar, into: &encoded)
                guard written &+ length <= capacity else { return JSONStringDecoding.decode(raw, hasEscapes: true) }
                var bytes = encoded.littleEndian
                withUnsafeBytes(of: &bytes) { encodedBytes in
                    for k in 0..<length {
                        out.storeBytes(of: encodedBytes[k], toByteOffset: written &+ k, as: UInt8.self)
                    }
                }
                written &+= length
                i = next
            }
            // SAFETY: runs of a valid string cut at backslashes (ASCII, never inside a sequence)
            // and the UTF-8 of valid scalars: valid UTF-8.
            return fromValidUTF8(UnsafeRawBufferPointer(start: out, count: written))
        }
    }
}
