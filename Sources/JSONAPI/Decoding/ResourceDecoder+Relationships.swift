extension ResourceDecoder {
    /// The `{...}` range of relationship `index`.
    @inline(__always)
    func relationshipObject(_ index: UInt32) -> ByteRange {
        relationships[Int(index)].object
    }

    /// The byte offset of relationship `index`'s object (for errors).
    func relationshipOffset(_ index: UInt32) -> Int {
        let object = relationshipObject(index)
        if object.isPresent { return Int(object.start) }
        return max(0, Int(relationships[Int(index)].name.start) &- 1)
    }
}
