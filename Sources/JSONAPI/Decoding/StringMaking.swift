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
/// with `memchr` and copied with `memcpy`, straight into the new string's storage.
enum StringMaking {
    /// The value of a string's raw contents (the bytes between the quotes).
    @inline(__always)
    static func make(_ raw: UnsafeRawBufferPointer, escaped: Bool) -> String {
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        return makeEscaped(raw)
    }

    @inline(never)
    static func makeEscaped(_ raw: UnsafeRawBufferPointer) -> String {
        guard let base = raw.baseAddress, raw.count > 0 else { return "" }
        let n = raw.count
        // Well-formed escapes never decode longer than they are written; anything that does
        // (a malformed escape becoming U+FFFD) takes the general path.
        var fits = true
        let string = String(unsafeUninitializedCapacity: n) { buffer in
            guard let out = buffer.baseAddress else {
                fits = false
                return 0
            }
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
                guard written &+ run <= capacity else {
                    fits = false
                    return 0
                }
                // SAFETY: `run` bytes from `base + i` are in `raw`, and `out + written` has room
                // for them (checked above).
                if run > 0 { memcpy(out + written, base + i, run) }
                written &+= run
                guard stop < n else { break }
                let (scalar, next) = JSONStringDecoding.decodeEscape(raw, at: stop)
                var encoded: UInt32 = 0
                let length = JSONStringDecoding.utf8(scalar, into: &encoded)
                guard written &+ length <= capacity else {
                    fits = false
                    return 0
                }
                var bytes = encoded.littleEndian
                withUnsafeBytes(of: &bytes) { encodedBytes in
                    for k in 0..<length { out[written &+ k] = encodedBytes[k] }
                }
                written &+= length
                i = next
            }
            return written
        }
        if fits { return string }
        return JSONStringDecoding.decode(raw, hasEscapes: true)
    }
}
