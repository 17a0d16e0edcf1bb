// Releasing records the caller has used, for a reader (the resource stream) whose bytes move on
// while the arena stays.

extension ResourceArena {
    /// Empties every record table, keeping its capacity. What names records across a release
    /// stays: the type table (type numbers in later records and in the stream's identity index)
    /// and the identifier index (unused by a stream, which keys identities itself). The top-level
    /// record keeps what describes the document as a whole (the shape of `data`, whether primary
    /// data is linkage, the presence of `data`) and drops its positions in the released tables
    /// and its ranges of released members (`data`'s is kept present but outside any window: a
    /// range left behind would name bytes of the window that now hold something else).
    ///
    /// A new record table must be emptied here: `ArenaReleaseTests` checks every stored table.
    mutating func releaseRecords() {
        resources.removeAll(keepingCapacity: true)
        relationships.removeAll(keepingCapacity: true)
        linkages.removeAll(keepingCapacity: true)
        errors.removeAll(keepingCapacity: true)
        foreignMembers.removeAll(keepingCapacity: true)
        ignoredMembers.removeAll(keepingCapacity: true)
        skippedElements.removeAll(keepingCapacity: true)
        resourceLids.entries.removeAll(keepingCapacity: true)
        resourceMeta.entries.removeAll(keepingCapacity: true)
        relationshipLinks.entries.removeAll(keepingCapacity: true)
        relationshipMeta.entries.removeAll(keepingCapacity: true)
        linkageLids.entries.removeAll(keepingCapacity: true)
        linkageMeta.entries.removeAll(keepingCapacity: true)
        topLevel.primaryStart = 0
        topLevel.includedStart = 0
        topLevel.meta = .absent
        topLevel.links = .absent
        topLevel.jsonapi = .absent
        topLevel.errors = .absent
        // That `data` was there stays (the stream asks whether it has begun); its bytes are gone,
        // so its range is moved outside any window (as released frames' starts are).
        if topLevel.dataRange.isPresent { topLevel.dataRange = ByteRange(start: .max - 1, end: .max - 1) }
    }
}
