// Works around a builder gap: `RelationshipRecord.object.start` is never assigned (the builder
// sets only `object.end` when the relationship object closes), so the start of a relationship
// object is found again from its member name: the name's closing quote, `:`, whitespace.

extension ResourceDecoder {
    /// The `{...}` range of relationship `index`.
    func relationshipObject(_ index: UInt32) -> ByteRange {
        let relationship = relationships[Int(index)]
        if relationship.object.start != .max { return relationship.object }
        var i = Int(relationship.name.end) &+ 1
        i = ValueReader.skipWhitespace(bytes, i)
        if i < bytes.count, bytes[i] == UInt8(ascii: ":") { i = ValueReader.skipWhitespace(bytes, i &+ 1) }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return .absent }
        let end = relationship.object.end != .max ? Int(relationship.object.end) : ValueReader.valueEnd(bytes, i)
        return ByteRange(i, end)
    }

    /// The byte offset of relationship `index`'s object (for errors).
    func relationshipOffset(_ index: UInt32) -> Int {
        let object = relationshipObject(index)
        if object.isPresent { return Int(object.start) }
        return max(0, Int(relationships[Int(index)].name.start) &- 1)
    }
}
