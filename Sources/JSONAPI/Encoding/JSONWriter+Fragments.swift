// Writing fragments that were formatted elsewhere (by `ResourceStream`) as one value.

extension JSONWriter {
    /// Writes, as one value, an object whose members are the comma-less `"name":value` ranges
    /// `members` of `bytes` (compact output only: the bytes are copied as they are).
    mutating func rawObject(members: [Range<Int>], of bytes: UnsafeRawBufferPointer) {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "{"))
        var first = true
        for range in members {
            if !first { storage.append(UInt8(ascii: ",")) }
            first = false
            storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        storage.append(UInt8(ascii: "}"))
    }
}
