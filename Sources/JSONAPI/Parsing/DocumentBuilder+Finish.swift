/// The end of a build: the identifier index, linkage resolution and full linkage, each one pass.
extension DocumentBuilder {
    /// What a finished build hands to ``Document``.
    struct Output {
        var arena: ResourceArena
        var pending: [PendingDiagnostic]
        var errorCount: Int
        var uncounted: Int
        /// Whether the arena's arrays may go to ``ArenaShelf`` when the document is released:
        /// only a build that could take them (a large one of known size) leaves them, so
        /// unsized chunked parses, which never take, do not fill the shelf either.
        var recyclesArena: Bool
    }

    /// Finishes the build. The input must be complete (the tokenizer accepted its last byte).
    mutating func finish() -> Output {
        let input = unsafe self.input
        // 1. The (type, id) index, reporting repeated pairs.
        var duplicates: [(Int, Int)] = []
        unsafe arena.index.build(resources: arena.resources, input: input, digests: resourceDigests) { first, second in
            duplicates.append((first, second))
        }
        for (_, second) in duplicates {
            let record = arena.resources[second]
            problem(
                Int(record.object.start), .duplicateResource,
                DocumentWideRules.duplicateResourceMessage(type: arena.types.name(record.type), id: text(record.id)))
        }

        // 2. Linkage resolution: every identifier to a resource position, once.
        // With digests, the slots and id bytes of later identifiers are asked for ahead of time
        // (see `ResourceIndex.prefetchDistance`).
        var scratch: [UInt8] = []
        let resources = arena.resources
        let index = arena.index
        let digests = linkageDigests.count == arena.linkages.count ? linkageDigests : nil
        let ahead = ResourceIndex.prefetchDistance
        var linkages = arena.linkages
        arena.linkages = []
        unsafe linkages.withUnsafeMutableBufferPointer { linkages in
            for i in linkages.indices {
                if let digests {
                    if i &+ ahead < digests.count { index.prefetchSlot(digest: digests[i &+ ahead]) }
                    let near = i &+ ahead / 2
                    if near < digests.count, digests[near] >> 63 == 0 {
                        unsafe input.prefetch(linkages[near].id)
                        unsafe index.prefetchStoredID(digest: digests[near], input: input)
                    }
                }
                let link = unsafe linkages[i]
                guard link.type != .max, link.id.isPresent else { continue }
                let target = unsafe ResourceIndex.withUnescaped(
                    link.id, escaped: link.flags.contains(.idHasEscapes), input: input, scratch: &scratch
                ) { id in
                    unsafe index.find(type: link.type, id: id, digest: digests?[i], resources: resources, input: input)
                }
                if let target { unsafe linkages[i].target = target }
            }
        }
        arena.linkages = linkages

        // 2b. Local ids (1.1): an identifier with a `lid` and no `id` names a resource of the
        // same document by its `lid`. Rare, so a dictionary built only when needed.
        if arena.linkageLids.count > 0 {
            resolveLocalIdentifiers()
        }

        // 3. Full linkage: every included resource reachable from primary data.
        if options.checksFullLinkage && arena.topLevel.includedCount > 0 {
            checkFullLinkage()
        }
        if recyclesMemory {
            ArenaShelf.active.put(resourceDigests: &resourceDigests, linkageDigests: &linkageDigests)
        }
        return Output(
            arena: arena, pending: pending, errorCount: errorCount, uncounted: uncountedDiagnostics,
            recyclesArena: recyclesMemory)
    }

    /// Resolves identifiers that carry only a `lid` to the resource with that type and `lid`.
    private mutating func resolveLocalIdentifiers() {
        struct Key: Hashable {
            var type: UInt32
            var lid: [UInt8]
        }
        let input = unsafe self.input
        func lid(_ range: ByteRange, escaped: Bool) -> [UInt8] {
            let raw = unsafe input.slice(range)
            guard escaped else { return unsafe [UInt8](raw) }
            var out: [UInt8] = []
            unsafe JSONStringDecoding.unescape(raw, into: &out)
            return out
        }
        var byLocalID: [Key: UInt32] = [:]
        // The tables of `lid`s list exactly the records that have one, in record order.
        for entry in arena.resourceLids.entries {
            let record = arena.resources[Int(entry.record)]
            guard record.type != .max else { continue }
            let key = Key(type: record.type, lid: lid(entry.range, escaped: record.flags.contains(.lidHasEscapes)))
            if byLocalID[key] == nil { byLocalID[key] = entry.record }
        }
        for entry in arena.linkageLids.entries {
            let i = Int(entry.record)
            let link = arena.linkages[i]
            guard link.id.isAbsent, link.type != .max else { continue }
            let key = Key(type: link.type, lid: lid(entry.range, escaped: link.flags.contains(.lidHasEscapes)))
            if let target = byLocalID[key] { arena.linkages[i].target = target }
        }
    }

    /// Full linkage (`DocumentWideRules`): the closure from primary data over the records'
    /// resolved identifiers; warns for each included resource it does not reach.
    private mutating func checkFullLinkage() {
        let top = arena.topLevel
        let graph = RecordGraph(arena: arena)
        let reached: [Bool]
        if top.primaryIsLinkage {
            let start = Int(top.primaryStart)
            var roots: [Int] = []
            for l in start..<min(start + Int(top.primaryCount), arena.linkages.count) {
                let target = arena.linkages[l].target
                if target != .max { roots.append(Int(target)) }
            }
            reached = FullLinkage.reached(in: graph, from: roots)
        } else {
            let start = min(Int(top.primaryStart), arena.resources.count)
            reached = FullLinkage.reached(
                in: graph, from: start..<min(start + Int(top.primaryCount), arena.resources.count))
        }
        let start = Int(top.includedStart)
        for i in start..<min(start + Int(top.includedCount), arena.resources.count) where !reached[i] {
            let record = arena.resources[i]
            warning(
                Int(record.object.start), .unreachableResource,
                DocumentWideRules.unreachableResourceMessage(type: arena.types.name(record.type), id: text(record.id)))
        }
    }
}

/// A document's records as full linkage sees them: each names the records its identifiers
/// resolved to.
private struct RecordGraph: LinkageGraph {
    let arena: ResourceArena

    var nodeCount: Int { arena.resources.count }

    func forEachNamed(by node: Int, _ body: (Int) -> Void) {
        let record = arena.resources[node]
        let first = Int(record.firstRelationship)
        for r in first..<(first &+ Int(record.relationshipCount)) {
            let relationship = arena.relationships[r]
            let firstLink = Int(relationship.firstLinkage)
            for l in firstLink..<(firstLink &+ Int(relationship.linkageCount)) {
                let target = arena.linkages[l].target
                if target != .max { body(Int(target)) }
            }
        }
    }
}
