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

// Members kept out of line (see `SparseRanges`): the decoder's own copy of the record says
// whether there is one, so the common case never reaches into the document's tables.
extension ResourceDecoder {
    @inline(__always)
    func lid(ofResource i: Int) -> ByteRange {
        resources[i].flags.contains(.hasLid) ? storage.arena.resourceLids[record: i] : .absent
    }

    @inline(__always)
    func meta(ofResource i: Int) -> ByteRange {
        resources[i].flags.contains(.hasMeta) ? storage.arena.resourceMeta[record: i] : .absent
    }

    @inline(__always)
    func links(ofRelationship i: Int) -> ByteRange {
        relationships[i].flags.contains(.hasLinks) ? storage.arena.relationshipLinks[record: i] : .absent
    }

    @inline(__always)
    func meta(ofRelationship i: Int) -> ByteRange {
        relationships[i].flags.contains(.hasMeta) ? storage.arena.relationshipMeta[record: i] : .absent
    }

    @inline(__always)
    func lid(ofLinkage i: Int) -> ByteRange {
        linkages[i].flags.contains(.hasLid) ? storage.arena.linkageLids[record: i] : .absent
    }

    @inline(__always)
    func meta(ofLinkage i: Int) -> ByteRange {
        linkages[i].flags.contains(.hasMeta) ? storage.arena.linkageMeta[record: i] : .absent
    }
}
