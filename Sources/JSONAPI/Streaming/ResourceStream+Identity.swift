// The document-wide rules of a stream: `(type, id)` uniqueness and full linkage, decided with
// memory proportional to the number of resources, never to bytes.
//
// Every resource's key, and every key its identifiers name, goes into the exact identity index
// (`IdentityIndex`) as it arrives, with two flags: *defined* (a resource with this key was seen:
// a second one is a duplicate) and *reached* (reachable from primary data). A primary resource
// is reached; an included resource that is already reached when it arrives marks the keys its
// identifiers name reached at once, which in the usual layout (`data` first, `included` after,
// each resource linked from something before it) is every resource. An included resource not
// yet reached is *deferred*: its key and its identifiers' keys go to a log, and when the input
// ends the log is walked until nothing changes; what is still unreached is reported.
//
// Identifiers with only a `lid` (JSON:API 1.1) name resources by `(type, lid)`, kept in a second
// index of the same kind; a handle from it carries `DeferredLinkage.localKey`.

extension ResourceStream {
    /// Puts the records `trackedRecords ..< end` into the identity index, in document order.
    mutating func trackIdentity(upTo end: Int, firstError: inout JSONAPIError?) {
        defer { trackedRecords = end }
        guard var index = identity else { return }
        identity = nil
        defer { identity = index }
        let arena = driver.builder.arena
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
        // Positions in `included`, counted as the loop goes (one pass for those before it).
        var includedPosition = includedOrdinal(of: trackedRecords, arena: arena)
        for r in trackedRecords..<end {
            let record = arena.resources[r]
            let included = record.flags.contains(.isIncluded)
            let position = includedPosition
            if included { includedPosition &+= 1 }
            // The keys this record owns: a key belongs to the first resource that has it (as
            // linkage resolves to the first); a later one with the same key is a duplicate, and
            // no identifier can reach it.
            var handle: UInt64 = 0
            var localHandle: UInt64 = 0
            var wasReached = !included
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
                    if keyWasReached { wasReached = true }
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
                    localHandle = local.lastHandle | DeferredLinkage.localKey
                    lidWasReached = old & IdentityIndex.reached != 0
                    if lidWasReached { wasReached = true }
                }
                localIdentity = local
            }
            if wasReached {
                // A reached record reaches the keys it owns (identifiers naming it by the other).
                if handle != 0 && !keyWasReached { index.set(IdentityIndex.reached, onHandle: handle) }
                if localHandle != 0 && !lidWasReached {
                    localIdentity?.set(IdentityIndex.reached, onHandle: localHandle & ~DeferredLinkage.localKey)
                }
            }
            if included { sawIncluded = true }
            let firstEdge = deferred.edges.count
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
                    edge = local.lastHandle | DeferredLinkage.localKey
                    localIdentity = local
                } else {
                    return
                }
                if !wasReached && (handle != 0 || localHandle != 0) { deferred.edges.append(edge) }
            }
            if !wasReached {
                let text =
                    record.id.isPresent
                    ? unsafe ResourceIndex.withUnescaped(
                        record.id, escaped: record.flags.contains(.idHasEscapes), input: bytes, scratch: &scratch
                    ) { unsafe Array($0) } : []
                deferred.entries.append(
                    DeferredLinkage.Entry(
                        key: handle, localKey: localHandle, offset: origin &+ Int(record.object.start),
                        index: position, type: record.type, id: text,
                        edges: firstEdge..<deferred.edges.count))
            }
        }
    }

    /// Marks the keys a relationship document's primary data names reached, once `data` is
    /// complete (it is read whole: see `isBetweenStreamUnits`).
    mutating func trackPrimaryLinkage() {
        let arena = driver.builder.arena
        guard options.parsing.checksFullLinkage, arena.topLevel.primaryIsLinkage, !primaryLinkageTracked,
            arena.topLevel.dataRange.isPresent, var index = identity
        else { return }
        // `data` has begun; it is over once the document's frame no longer has it as its member.
        let builder = driver.builder
        if builder.hasTop {
            let document = builder.below.first ?? builder.top
            guard document.kind == .topLevel, document.member != .data else { return }
        }
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

    /// The position in `included` of record `r` of the arena.
    private func includedOrdinal(of r: Int, arena: ResourceArena) -> Int {
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
        let type = driver.builder.arena.types.name(record.type)
        let strict = !options.parsing.isLenient
        let diagnostic = locate(
            Int(record.object.start), severity: strict ? .error : .warning, code: .duplicateResource,
            message:
                "resource with type `\(type)` and id `\(id)` appears more than once; (type, id) pairs must be unique")
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
        defer { if localIdentity != nil { localIdentity = local } }
        var done = [Bool](repeating: false, count: deferred.entries.count)
        func isReached(_ handle: UInt64) -> Bool {
            guard handle != 0 else { return false }
            if handle & DeferredLinkage.localKey != 0 {
                return local.set(0, onHandle: handle & ~DeferredLinkage.localKey) & IdentityIndex.reached != 0
            }
            return index.set(0, onHandle: handle) & IdentityIndex.reached != 0
        }
        func reach(_ handle: UInt64) {
            if handle & DeferredLinkage.localKey != 0 {
                local.set(IdentityIndex.reached, onHandle: handle & ~DeferredLinkage.localKey)
            } else {
                index.set(IdentityIndex.reached, onHandle: handle)
            }
        }
        var changed = true
        while changed {
            changed = false
            for (i, entry) in deferred.entries.enumerated() where !done[i] {
                guard isReached(entry.key) || isReached(entry.localKey) else { continue }
                done[i] = true
                changed = true
                for e in entry.edges { reach(deferred.edges[e]) }
            }
        }
        for (i, entry) in deferred.entries.enumerated() where !done[i] {
            let type = driver.builder.arena.types.name(entry.type)
            record(
                Diagnostic(
                    severity: .warning, code: .unreachableResource,
                    message:
                        "included resource with type `\(type)` and id `\(String(decoding: entry.id, as: UTF8.self))` is not reachable from primary data through relationships (full linkage)",
                    offset: entry.offset, pointer: "/included/\(entry.index)"))
        }
    }
}

/// Included resources that arrived before anything linked to them, and the keys their
/// identifiers name: what full linkage needs at the end.
struct DeferredLinkage {
    /// Marks a handle from the `(type, lid)` index.
    static let localKey: UInt64 = 1 << 61

    struct Entry {
        var key: UInt64
        var localKey: UInt64
        var offset: Int
        var index: Int
        var type: UInt32
        var id: [UInt8]
        var edges: Range<Int>
    }

    var entries: [Entry] = []
    var edges: [UInt64] = []

    var footprint: Int {
        entries.count * MemoryLayout<Entry>.stride + entries.reduce(0) { $0 + $1.id.count } + edges.count * 8
    }
}
