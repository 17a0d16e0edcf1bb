/// The whole-object readers' key matching, which loads the sixteen bytes at a key's opening quote
/// from the scanner's chunk: a hot byte loop of the parser (every member of every identifier,
/// relationship and resource taken whole goes through it), beside the rules it applies, and one
/// of the raw memory owners because it loads from the chunk's address. The event path matches
/// through a view instead
/// (``JSONAPIRules/quotedKey(_:at:in:)``, ``JSONAPIRules/QuotedName/matches(_:_:)``).
extension JSONAPIRules.QuotedName {
    /// Whether the key at `p[j]` (its opening quote), wholly before `n`, is this name.
    /// False near the end of the buffer, where the eight (or sixteen) bytes do not fit.
    @inline(__always)
    func matches(_ p: UnsafeRawPointer, _ j: Int, _ n: Int) -> Bool {
        if maskHigh == 0 {
            guard j &+ 8 <= n else { return false }
            // SAFETY: the eight bytes at `j` end at or before `n`.
            return unsafe UInt64(littleEndian: p.loadUnaligned(fromByteOffset: j, as: UInt64.self)) & maskLow == low
        }
        guard j &+ 16 <= n else { return false }
        // SAFETY: the sixteen bytes at `j` end at or before `n`.
        return unsafe matches(
            low: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: j, as: UInt64.self)),
            high: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: j &+ 8, as: UInt64.self)))
    }
}

extension JSONAPIRules {
    /// The entry of `set` whose quoted name is at `p[j]` (the key's opening quote), or nil.
    /// Reads the sixteen bytes from `j`, which must lie before `n`; nil when they do not, so a
    /// key near the end of a chunk is left to the event path.
    @inline(__always)
    func quotedKey(_ p: UnsafeRawPointer, at j: Int, count n: Int, in set: Names) -> Entry? {
        guard j &+ 16 <= n else { return nil }
        // SAFETY: the sixteen bytes at `j` end at or before `n`.
        var k = unsafe head(set, p.load(fromByteOffset: j &+ 1, as: UInt8.self))
        guard k != 0 else { return nil }
        let low = unsafe UInt64(littleEndian: p.loadUnaligned(fromByteOffset: j, as: UInt64.self))
        let high = unsafe UInt64(littleEndian: p.loadUnaligned(fromByteOffset: j &+ 8, as: UInt64.self))
        while k != 0 {
            let entry = entries[k &- 1]
            if entry.quoted.matches(low: low, high: high) { return entry }
            k = Int(entry.next)
        }
        return nil
    }
}
