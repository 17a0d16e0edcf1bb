// The document-wide rules (`DocumentWideRules`) in a stream: `(type, id)` uniqueness and full
// linkage, decided with memory proportional to the number of resources, never to bytes.
//
// Every resource's key, and every key its identifiers name, goes into the exact identity index
// (`IdentityIndex`) as it arrives, with two flags: *defined* (a resource with this key was seen:
// a second one is a duplicate) and *reached* (reachable from primary data). Full linkage is
// `FullLinkage` over those flags: the index's handles are its keys, a reached resource marks the
// keys its identifiers name as it inserts them, and one not yet reached is deferred until the
// input ends.
//
// Identifiers with only a `lid` (JSON:API 1.1) name resources by `(type, lid)`, kept in a second
// index of the same kind; a handle from it carries `ResourceStream.localKey`.

extension ResourceStream {
    /// Puts the records `trackedRecords ..< end` into the identity index, in document order.
    mutating func trackIdentity(upTo end: Int, firstError: inout JSONAPIError?) {
        defer { trackedRecords = end }
        guard var index = identity else { return }
        identity = nil
        defer { identity = index }
        let arena = driver.arena
        let bytes = unsafe window.bytes
        let checksLinkage = options.parsing.checksFullLinkage

        // 1. Encode every key of the batch and ask for its slot, so the cache misses overlap.
        keys.removeAll(keepingCapacity: true)
        for r in trackedRecords..<end {
            let record = arena.resources[r]
            guard record.type != .max, record.id.isPresent else { continue }
            let key = unsafe ResourceIndex.withUnescaped(
                record.id, escaped: record.flags.contains(.idHasEscapes), input: bytes, scratch: &scratch
            ) { unsafe index.encode(type: record.type, id: $0) }
            index.prefetch(key)
            keys.append(key)
        }

        // 2. Insert, in document order.
        var k = 0
        // Positions in `included`: the records before, counted as the loop goes (one pass for
        // those before it), and the elements that are not resource objects before.
        var includedRecords = includedRecordCount(before: trackedRecords, arena: arena)
        for r in trackedRecords..<end {
            let record = arena.resources[r]
            let included = record.flags.contains(.isIncluded)
            let position =
                includedRecords &+ arena.skippedElements(isIncluded: true, before: Int(record.object.start))
            if included { includedRecords &+= 1 }
            // The keys this record owns: a key belongs to the first resource that has it (as
            // linkage resolves to the first); a later one with the same key is a duplicate, and
            // no identifier can reach it.
            var handle: UInt64 = 0
            var localHandle: UInt64 = 0
            var keyWasReached = false
            if record.type != .max, record.id.isPresent {
                let old = unsafe ResourceIndex.withUnescaped(
                    record.id, escaped: record.flags.contains(.idHasEscapes), input: bytes, scratch: &scratch
                ) { unsafe index.insert(keys[k], type: record.type, id: $0, setting: IdentityIndex.defined) }
                k &+= 1
                if old & IdentityIndex.defined != 0 {
                    if options.checksUniqueness {
                        unsafe reportDuplicate(record, bytes: bytes, firstError: &firstError)
                    }
                } else {
                    handle = index.lastHandle
                    keyWasReached = old & IdentityIndex.reached != 0
                }
            }
            guard checksLinkage else { continue }
            let lid = arena.lid(ofResource: r)
            var lidWasReached = false
            if lid.isPresent, record.type != .max {
                var local = localIdentity ?? IdentityIndex(expectedKeys: 16)
                let old = unsafe ResourceIndex.withUnescaped(
                    lid, escaped: record.flags.contains(.lidHasEscapes), input: bytes, scratch: &scratch
                ) { unsafe local.insert(type: record.type, id: $0, setting: IdentityIndex.defined) }
                if old & IdentityIndex.defined == 0 {
                    localHandle = local.lastHandle | Self.localKey
                    lidWasReached = old & IdentityIndex.reached != 0
                }
                localIdentity = local
            }
            let wasReached = FullLinkage.isReachedOnArrival(
                isPrimary: !included, keyWasNamedByReached: keyWasReached || lidWasReached)
            if wasReached {
                // A reached record reaches the keys it owns (identifiers naming it by the other).
                if handle != 0 && !keyWasReached { index.set(IdentityIndex.reached, onHandle: handle) }
                if localHandle != 0 && !lidWasReached {
                    localIdentity?.set(IdentityIndex.reached, onHandle: localHandle & ~Self.localKey)
                }
            }
            if included { sawIncluded = true }
            let defers = !wasReached && (handle != 0 || localHandle != 0)
            Self.forEachIdentifier(of: record, arena: arena) { type, id, idEscaped, lid, lidEscaped in
                let setting = wasReached ? IdentityIndex.reached : 0
                var edge: UInt64
                if id.isPresent {
                    _ = unsafe ResourceIndex.withUnescaped(id, escaped: idEscaped, input: bytes, scratch: &scratch) {
                        unsafe index.insert(type: type, id: $0, setting: setting)
                    }
                    edge = index.lastHandle
                } else if lid.isPresent {
                    var local = localIdentity ?? IdentityIndex(expectedKeys: 16)
                    _ = unsafe ResourceIndex.withUnescaped(lid, escaped: lidEscaped, input: bytes, scratch: &scratch) {
                        unsafe local.insert(type: type, id: $0, setting: setting)
                    }
                    edge = local.lastHandle | Self.localKey
                    localIdentity = local
                } else {
                    return
                }
                if defers { linkage.addEdge(edge) }
            }
            if !wasReached {
                let text =
                    record.id.isPresent
                    ? unsafe ResourceIndex.withUnescaped(
                        record.id, escaped: record.flags.contains(.idHasEscapes), input: bytes, scratch: &scratch
                    ) { unsafe Array($0) } : []
                linkage.deferResource(keys: (handle, localHandle))
                deferredResources.append(
                    DeferredResource(
                        offset: origin &+ Int(record.object.start), index: position, type: record.type, id: text))
            }
        }
    }

    /// Marks the keys a relationship document's primary data names reached, once `data` is
    /// complete (it is read whole: see `isBetweenStreamUnits`).
    mutating func trackPrimaryLinkage() {
        let arena = driver.arena
        guard options.parsing.checksFullLinkage, arena.topLevel.primaryIsLinkage, !primaryLinkageTracked,
            arena.topLevel.dataRange.isPresent, var index = identity
        else { return }
        // `data` has begun; it is over once the document's frame no longer has it as its member.
        if let document = driver.documentFrame, document.member == .data { return }
        identity = nil
        defer { identity = index }
        primaryLinkageTracked = true
        let bytes = unsafe window.bytes
        let start = Int(arena.topLevel.primaryStart)
        for l in start..<min(start &+ Int(arena.topLevel.primaryCount), arena.linkages.count) {
            let link = arena.linkages[l]
            guard link.type != .max, link.id.isPresent else { continue }
            _ = unsafe ResourceIndex.withUnescaped(
                link.id, escaped: link.flags.contains(.idHasEscapes), input: bytes, scratch: &scratch
            ) { unsafe index.insert(type: link.type, id: $0, setting: IdentityIndex.reached) }
        }
    }

    /// Calls `body` with each identifier of a resource's relationships: type, id range, whether
    /// the id has escapes, `lid` range, whether the `lid` has escapes.
    private static func forEachIdentifier(
        of record: ResourceRecord, arena: ResourceArena,
        _ body: (UInt32, ByteRange, Bool, ByteRange, Bool) -> Void
    ) {
        let first = Int(record.firstRelationship)
        for r in first..<(first &+ Int(record.relationshipCount)) {
            let relationship = arena.relationships[r]
            let firstLink = Int(relationship.firstLinkage)
            for l in firstLink..<(firstLink &+ Int(relationship.linkageCount)) {
                let link = arena.linkages[l]
                guard link.type != .max else { continue }
                let lid = link.id.isPresent ? ByteRange.absent : arena.lid(ofLinkage: l)
                body(
                    link.type, link.id, link.flags.contains(.idHasEscapes), lid, link.flags.contains(.lidHasEscapes))
            }
        }
    }

    /// The elements of `included` before the arena's records, and its records before `r`.
    private func includedRecordCount(before r: Int, arena: ResourceArena) -> Int {
        var n = arenaSectionBase.included
        for i in 0..<r where arena.resources[i].flags.contains(.isIncluded) { n &+= 1 }
        return n
    }

    private mutating func reportDuplicate(
        _ record: ResourceRecord, bytes: UnsafeRawBufferPointer, firstError: inout JSONAPIError?
    ) {
        let id = unsafe ResourceIndex.withUnescaped(
            record.id, escaped: record.flags.contains(.idHasEscapes), input: bytes, scratch: &scratch
        ) { unsafe String(decoding: $0, as: UTF8.self) }
        let type = driver.arena.types.name(record.type)
        let strict = !options.parsing.isLenient
        let diagnostic = locate(
            Int(record.object.start), severity: strict ? .error : .warning, code: .duplicateResource,
            message: DocumentWideRules.duplicateResourceMessage(type: type, id: id))
        if strict && (firstError == nil || diagnostic.offset < firstError?.offset ?? .max) {
            firstError = JSONAPIError(
                diagnostic.code, diagnostic.message, offset: diagnostic.offset, line: diagnostic.line,
                column: diagnostic.column, pointer: diagnostic.pointer)
        }
        self.record(diagnostic)
    }

    /// Decides full linkage for the deferred resources once the input has ended.
    mutating func finishLinkage() {
        guard options.parsing.checksFullLinkage, sawIncluded, var index = identity else { return }
        identity = nil
        defer { identity = index }
        var local = localIdentity ?? IdentityIndex(expectedKeys: 16)
        let unreached = linkage.unreached { key in
            if key & Self.localKey != 0 {
                return local.set(0, onHandle: key & ~Self.localKey) & IdentityIndex.reached != 0
            }
            return index.set(0, onHandle: key) & IdentityIndex.reached != 0
        }
        for position in unreached {
            let entry = deferredResources[position]
            let type = driver.arena.types.name(entry.type)
            record(
                Diagnostic(
                    severity: .warning, code: .unreachableResource,
                    message: DocumentWideRules.unreachableResourceMessage(
                        type: type, id: String(decoding: entry.id, as: UTF8.self)),
                    offset: entry.offset, pointer: "/included/\(entry.index)"))
        }
    }

    /// Marks a handle from the `(type, lid)` index (bit 61 is never set in a handle).
    static var localKey: UInt64 { 1 << 61 }
}

/// What a stream reports an unreached included resource by: kept for each resource deferred by
/// full linkage, since its bytes are gone by the end.
struct DeferredResource {
    var offset: Int
    var index: Int
    var type: UInt32
    var id: [UInt8]
}
