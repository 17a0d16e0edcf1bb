/// The parser's sixteen-byte member-name test, which reads past the name into the input around
/// it: a hot byte loop of the parser (every attribute and meta key goes through it), beside the
/// rules it applies, and one of the raw memory owners because it compares addresses and loads
/// from them.
extension MemberNameRules {
    /// ``isPlainFast(_:)`` for a name lying inside `buffer`: sixteen bytes tested at once when
    /// the buffer holds sixteen from the name's start (the bytes past the name are ignored).
    @inline(__always)
    static func isPlainFast(_ name: UnsafeRawBufferPointer, in buffer: UnsafeRawBufferPointer) -> Bool {
        let count = name.count
        guard count > 0, count <= 16, let start = name.baseAddress, let bufferStart = buffer.baseAddress,
            unsafe start >= bufferStart, unsafe start + 16 <= bufferStart + buffer.count
        else { return unsafe isPlainFast(name) }
        // SAFETY: the sixteen bytes at `start` lie inside `buffer`.
        let chunk = unsafe start.loadUnaligned(as: SIMD16<UInt8>.self)
        let lowerA = SIMD16<UInt8>(repeating: UInt8(ascii: "a"))
        let zero = SIMD16<UInt8>(repeating: UInt8(ascii: "0"))
        let caseBit = SIMD16<UInt8>(repeating: 0x20)
        let letters = SIMD16<UInt8>(repeating: 26)
        let digits = SIMD16<UInt8>(repeating: 10)
        let ok = (((chunk | caseBit) &- lowerA) .< letters) .| ((chunk &- zero) .< digits)
        let words = unsafe unsafeBitCast(ok, to: SIMD2<UInt64>.self)
        if count <= 8 {
            let mask: UInt64 = count == 8 ? ~0 : (1 &<< UInt64(count &* 8)) &- 1
            return words[0] & mask == mask
        }
        let mask: UInt64 = count == 16 ? ~0 : (1 &<< UInt64((count &- 8) &* 8)) &- 1
        return words[0] == ~0 && words[1] & mask == mask
    }
}
