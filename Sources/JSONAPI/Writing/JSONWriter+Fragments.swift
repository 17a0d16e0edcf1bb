// Writing fragments that were formatted elsewhere (by `ResourceStream`) as one value.

extension JSONWriter {
    /// Writes the member `name` whose value is the JSON text at `range` of `bytes`, when there is
    /// one (compact output only: the bytes are copied as they are).
    mutating func rawMember(_ name: String, _ range: Range<Int>?, of bytes: UnsafeRawBufferPointer) {
        guard let range else { return }
        key(name)
        // SAFETY: callers pass a range recorded inside `bytes`.
        unsafe rawValue(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// Writes, as one value, an object whose members are the comma-less `"name":value` ranges
    /// `members` of `bytes` (compact output only: the bytes are copied as they are).
    mutating func rawObject(members: [Range<Int>], of bytes: UnsafeRawBufferPointer) {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "{"))
        var first = true
        for range in members {
            if !first { storage.append(UInt8(ascii: ",")) }
            first = false
            // SAFETY: callers pass a range recorded inside `bytes`.
            unsafe storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        storage.append(UInt8(ascii: "}"))
    }
}
