extension JSONWriter {
    /// Writes a string value, escaped as described in "Output format".
    @inlinable
    public mutating func string(_ value: String) {
        guard beforeValue() else { return }
        writeQuoted(value, suffix: 0, suffixCount: 0)
    }

    /// Writes a string value from a substring.
    @inlinable
    public mutating func string(_ value: Substring) {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "\""))
        let done: Void? = unsafe value.utf8.withContiguousStorageIfAvailable { buffer in
            unsafe writeEscaped(UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            var copy = String(value)
            copy.withUTF8 { unsafe writeEscaped(UnsafeRawBufferPointer($0)) }
        }
        storage.append(UInt8(ascii: "\""))
    }

    /// Writes a string value whose bytes are already escaped JSON string contents (what goes
    /// between the quotes), copied verbatim. The writer does not check them.
    @inlinable
    public mutating func string(rawEscaped contents: UnsafeRawBufferPointer) {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "\""))
        unsafe storage.append(contentsOf: contents)
        storage.append(UInt8(ascii: "\""))
    }

    /// Writes a string value made of three parts, each escaped, without joining them into a
    /// `String` first: a link is a path, a literal and a member name.
    package mutating func string(_ first: String, _ second: StaticString, _ third: String) {
        guard beforeValue() else { return }
        if writeJoinedPlain(first, second, third) { return }
        storage.append(UInt8(ascii: "\""))
        var first = first
        first.withUTF8 { unsafe writeEscaped(UnsafeRawBufferPointer($0)) }
        second.withUTF8Buffer { unsafe writeEscaped(UnsafeRawBufferPointer($0)) }
        var third = third
        third.withUTF8 { unsafe writeEscaped(UnsafeRawBufferPointer($0)) }
        storage.append(UInt8(ascii: "\""))
    }

    /// Appends `"first second third"` with a single append when the three together are short
    /// and need no escape; false (nothing written) otherwise.
    private mutating func writeJoinedPlain(_ first: String, _ second: StaticString, _ third: String) -> Bool {
        var first = first
        var third = third
        return first.withUTF8 { a in
            third.withUTF8 { c in
                second.withUTF8Buffer { b in
                    let count = a.count &+ b.count &+ c.count
                    guard count <= 112 else { return false }
                    return unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
                        guard let out = buffer.baseAddress else { return false }
                        // SAFETY: `count <= 112`: the quote, the three parts padded to whole 16-byte
                        // chunks (`padded <= 112`) and the closing quote fit in the 128-byte buffer;
                        // the chunks checked lie in the padded copy.
                        unsafe out[0] = UInt8(ascii: "\"")
                        var end = out + 1
                        if let base = a.baseAddress { unsafe end.initialize(from: base, count: a.count) }
                        unsafe end += a.count
                        if let base = b.baseAddress { unsafe end.initialize(from: base, count: b.count) }
                        unsafe end += b.count
                        if let base = c.baseAddress { unsafe end.initialize(from: base, count: c.count) }
                        unsafe end += c.count
                        let padded = (count &+ 15) & ~15
                        unsafe end.initialize(repeating: UInt8(ascii: " "), count: padded &- count)
                        if unsafe Self.chunksNeedEscape(
                            UnsafeRawPointer(out + 1), count: padded, slashes: escapeSlashes)
                        {
                            return false
                        }
                        unsafe out[count &+ 1] = UInt8(ascii: "\"")
                        unsafe storage.append(contentsOf: UnsafeBufferPointer(start: out, count: count &+ 2))
                        return true
                    }
                }
            }
        }
    }

    /// Writes an object member name that needs no escape: an ASCII literal of the format
    /// (`type`, `attributes`, ...), copied without the scan ``key(_:)`` makes, with the quotes
    /// and the colon in a single append.
    package mutating func key(literal name: StaticString) {
        guard beforeKey() else { return }
        let suffixCount = pretty ? 2 : 1
        name.withUTF8Buffer { utf8 in
            let count = utf8.count
            guard count <= 60, let base = utf8.baseAddress else {
                storage.append(UInt8(ascii: "\""))
                unsafe storage.append(contentsOf: utf8)
                storage.append(UInt8(ascii: "\""))
                writeColon()
                return
            }
            unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                guard let out = buffer.baseAddress else { return }
                // SAFETY: `count <= 60`: the quote, the name, the quote and at most two suffix
                // bytes fit in the 64-byte buffer.
                unsafe out[0] = UInt8(ascii: "\"")
                unsafe (out + 1).initialize(from: base, count: count)
                unsafe out[count &+ 1] = UInt8(ascii: "\"")
                unsafe out[count &+ 2] = UInt8(ascii: ":")
                unsafe out[count &+ 3] = UInt8(ascii: " ")
                unsafe storage.append(contentsOf: UnsafeBufferPointer(start: out, count: count &+ 2 &+ suffixCount))
            }
        }
    }

    /// Appends `"`, the escaped UTF-8 of `value`, `"`, then `suffix` (0, 1 or 2 bytes:
    /// `:` or `: ` after a key), with a single append when the string is short and plain.
    @inlinable
    mutating func writeQuoted(_ value: String, suffix: UInt16, suffixCount: Int) {
        let handled: Bool? = unsafe value.utf8.withContiguousStorageIfAvailable { utf8 in
            let count = utf8.count
            guard count <= 48, let base = utf8.baseAddress else { return false }
            return unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                guard let out = buffer.baseAddress else { return false }
                // Copy first, pad with spaces (never escaped) to whole 16-byte chunks, then
                // check the copy: no partial loads, no tail loop.
                // SAFETY: `count <= 48`, so the quote, the copy padded to `padded <= 48` bytes and the quote and two
                // suffix bytes after it all fit in the 64-byte buffer; the chunks checked lie in the padded copy.
                unsafe out[0] = UInt8(ascii: "\"")
                unsafe (out + 1).initialize(from: base, count: count)
                let padded = (count &+ 15) & ~15
                unsafe (out + 1 + count).initialize(repeating: UInt8(ascii: " "), count: padded &- count)
                if unsafe Self.chunksNeedEscape(UnsafeRawPointer(out + 1), count: padded, slashes: escapeSlashes) {
                    return false
                }
                unsafe out[count &+ 1] = UInt8(ascii: "\"")
                unsafe out[count &+ 2] = UInt8(truncatingIfNeeded: suffix)
                unsafe out[count &+ 3] = UInt8(truncatingIfNeeded: suffix >> 8)
                // SAFETY: `out` holds the quote, the `count` bytes, the closing quote and the suffix written above.
                unsafe storage.append(contentsOf: UnsafeBufferPointer(start: out, count: count &+ 2 &+ suffixCount))
                return true
            }
        }
        if handled == true { return }
        writeQuoted(value)
        if suffixCount > 0 { storage.append(UInt8(truncatingIfNeeded: suffix)) }
        if suffixCount > 1 { storage.append(UInt8(truncatingIfNeeded: suffix >> 8)) }
    }

    /// True when some byte of the `count` (a multiple of 16) at `pointer` needs an escape: the
    /// check of a copy padded with spaces, which never do.
    @inlinable @inline(__always)
    static func chunksNeedEscape(_ pointer: UnsafeRawPointer, count: Int, slashes: Bool) -> Bool {
        var offset = 0
        while offset < count {
            // SAFETY: callers guarantee `count` readable bytes at `pointer`.
            if unsafe chunkNeedsEscape(pointer + offset, slashes: slashes) { return true }
            offset &+= 16
        }
        return false
    }

    /// True when some byte of the 16 at `pointer` is below 0x20, `"`, `\`, or (with `slashes`) `/`.
    @inlinable @inline(__always)
    static func chunkNeedsEscape(_ pointer: UnsafeRawPointer, slashes: Bool) -> Bool {
        // SAFETY: callers guarantee 16 readable bytes at `pointer`.
        // Two words' flags combined before the one branch.
        unsafe wordEscapeFlags(pointer.loadUnaligned(as: UInt64.self), slashes: slashes)
            | wordEscapeFlags(pointer.loadUnaligned(fromByteOffset: 8, as: UInt64.self), slashes: slashes) != 0
    }

    /// Whether any byte of `utf8` needs an escape.
    @inlinable
    static func containsEscapable(_ utf8: UnsafeRawBufferPointer, slashes: Bool) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let count = utf8.count
        var index = 0
        // SAFETY: each word read ends at `index + 8 <= count`; the tail copy moves the `count - index < 8`
        // remaining bytes into an 8-byte word.
        while index &+ 8 <= count {
            if unsafe wordNeedsEscape(base.loadUnaligned(fromByteOffset: index, as: UInt64.self), slashes: slashes) {
                return true
            }
            index &+= 8
        }
        if index < count {
            // Pad the tail with spaces, which never need escaping.
            var word: UInt64 = 0x2020_2020_2020_2020
            unsafe withUnsafeMutableBytes(of: &word) {
                // SAFETY: `count - index < 8` bytes, from inside `utf8`, into the 8-byte word.
                unsafe $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: utf8[index...]))
            }
            return wordNeedsEscape(word, slashes: slashes)
        }
        return false
    }

    /// Appends `"`, the escaped UTF-8 of `value`, `"`.
    @inlinable
    mutating func writeQuoted(_ value: String) {
        storage.append(UInt8(ascii: "\""))
        // Native and small strings are contiguous; bridged ones are copied once.
        let done: Void? = unsafe value.utf8.withContiguousStorageIfAvailable {
            unsafe writeEscaped(UnsafeRawBufferPointer($0))
        }
        if done == nil {
            var copy = value
            copy.withUTF8 { unsafe writeEscaped(UnsafeRawBufferPointer($0)) }
        }
        storage.append(UInt8(ascii: "\""))
    }

    /// Appends `utf8` with the bytes JSON requires escaped (and `/` when asked).
    ///
    /// Scans sixteen bytes at a time (then eight, then one near the end and after a hit) for a
    /// byte that needs an escape and copies each run of plain bytes with one append.
    @usableFromInline
    mutating func writeEscaped(_ utf8: UnsafeRawBufferPointer) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        let slashes = escapeSlashes
        var index = 0
        var runStart = 0
        // SAFETY: every read is guarded by its length check (`index + 16 <= count`, `index + 8 <= count`,
        // `index < count`), and the runs appended lie in `0..<count`.
        while index < count {
            while index &+ 16 <= count,
                unsafe !Self.chunkNeedsEscape(base + index, slashes: slashes)
            {
                index &+= 16
            }
            while index &+ 8 <= count,
                unsafe !Self.wordNeedsEscape(
                    base.loadUnaligned(fromByteOffset: index, as: UInt64.self), slashes: slashes)
            {
                index &+= 8
            }
            let chunkEnd = min(index &+ 8, count)
            while index < chunkEnd {
                // SAFETY: `index < chunkEnd <= count`; the runs appended below lie in `0..<count`.
                let byte = unsafe base.load(fromByteOffset: index, as: UInt8.self)
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    || (slashes && byte == UInt8(ascii: "/"))
                {
                    if runStart < index {
                        unsafe storage.append(
                            contentsOf: UnsafeRawBufferPointer(start: base + runStart, count: index &- runStart))
                    }
                    appendEscape(byte)
                    runStart = index &+ 1
                }
                index &+= 1
            }
        }
        if runStart < count {
            // SAFETY: `runStart < count`: the tail lies inside the string's bytes.
            unsafe storage.append(contentsOf: UnsafeRawBufferPointer(start: base + runStart, count: count &- runStart))
        }
    }

    /// True when some byte of `word` is below 0x20, `"`, `\`, or (with `slashes`) `/`.
    ///
    /// Classic SWAR tests: `(x - 0x01…) & ~x & 0x80…` is nonzero exactly when some byte of `x`
    /// is zero, and `(x - n…) & ~x & 0x80…` exactly when some byte is below `n` (n ≤ 0x80).
    @inlinable @inline(__always)
    static func wordNeedsEscape(_ word: UInt64, slashes: Bool) -> Bool {
        wordEscapeFlags(word, slashes: slashes) != 0
    }

    /// The high bit of each byte of `word` that may need an escape (nonzero exactly when
    /// ``wordNeedsEscape(_:slashes:)``).
    @inlinable @inline(__always)
    static func wordEscapeFlags(_ word: UInt64, slashes: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        var found = control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        if slashes {
            let slash = word ^ (ones &* 0x2F)
            found |= (slash &- ones) & ~slash
        }
        return found & high
    }

    /// The escape sequence of one byte that needs escaping, its bytes packed little-endian
    /// (first byte lowest), as ``appendEscape(_:)`` writes it.
    static func escapeSequence(_ byte: UInt8) -> (word: UInt64, count: Int) {
        let backslash = UInt64(UInt8(ascii: "\\"))
        func pair(_ second: UInt8) -> (word: UInt64, count: Int) { (backslash | UInt64(second) << 8, 2) }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return pair(byte)
        case 0x08: return pair(UInt8(ascii: "b"))
        case 0x0C: return pair(UInt8(ascii: "f"))
        case 0x0A: return pair(UInt8(ascii: "n"))
        case 0x0D: return pair(UInt8(ascii: "r"))
        case 0x09: return pair(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            let high = unsafe UInt64(hex.utf8Start[Int(byte >> 4)])
            let low = unsafe UInt64(hex.utf8Start[Int(byte & 0x0F)])
            // \u00XX
            let prefix = backslash | UInt64(UInt8(ascii: "u")) << 8 | 0x3030 << 16
            return (prefix | high << 32 | low << 40, 6)
        }
    }

    /// Appends the escape sequence of one byte that needs escaping.
    @usableFromInline
    mutating func appendEscape(_ byte: UInt8) {
        storage.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            storage.append(byte)
        case 0x08:
            storage.append(UInt8(ascii: "b"))
        case 0x0C:
            storage.append(UInt8(ascii: "f"))
        case 0x0A:
            storage.append(UInt8(ascii: "n"))
        case 0x0D:
            storage.append(UInt8(ascii: "r"))
        case 0x09:
            storage.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            storage.append(UInt8(ascii: "u"))
            storage.append(UInt8(ascii: "0"))
            storage.append(UInt8(ascii: "0"))
            unsafe storage.append(hex.utf8Start[Int(byte >> 4)])
            unsafe storage.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}
