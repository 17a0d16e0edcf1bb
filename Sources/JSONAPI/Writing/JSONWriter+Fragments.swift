// Writing fragments that were formatted elsewhere (by `StreamingEncoder`) as one value.

extension JSONWriter {
    /// Writes the member `name` whose value is the JSON text at `range` of `bytes`, when there is
    /// one (compact output only: the bytes are copied as they are). Inlined into the streamed
    /// resource's relationship loop, which otherwise copies each relationship out of its array.
    @inline(__always)
    mutating func rawMember(_ name: StaticString, _ range: Range<Int>?, of bytes: UnsafeRawBufferPointer) {
        guard let range else { return }
        key(literal: name)
        // SAFETY: `bytes` outlives this call, and so the view; the range is checked against it.
        let value = unsafe ByteView(unsafeBytes: bytes).subview(range)
        unsafe value.withUnsafeBytes { json in unsafe rawValue(json) }
    }

    /// Writes, as one value, an object whose members are the comma-less `"name":value` ranges
    /// `members` of `bytes` (compact output only: the bytes are copied as they are).
    mutating func rawObject(members: [Range<Int>], of bytes: UnsafeRawBufferPointer) {
        guard beforeValue() else { return }
        // SAFETY: `bytes` outlives this call, and so the view; each range is checked against it.
        let view = unsafe ByteView(unsafeBytes: bytes)
        storage.append(UInt8(ascii: "{"))
        var first = true
        for range in members {
            if !first { storage.append(UInt8(ascii: ",")) }
            first = false
            view.append(range, to: &storage)
        }
        storage.append(UInt8(ascii: "}"))
    }
}
