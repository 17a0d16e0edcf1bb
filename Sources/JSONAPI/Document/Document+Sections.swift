extension Document {
    /// The document's primary data, by shape.
    public enum PrimaryData: Sendable {
        /// No `data` member (an error document, or meta only).
        case absent
        /// `"data": null`.
        case null
        /// A single resource object.
        case one(ResourceObject)
        /// An array of resource objects (possibly empty).
        case many(ResourceCollection)
        /// A single resource identifier (relationship documents).
        case identifier(ResourceIdentifierObject)
        /// An array of resource identifiers (relationship documents).
        case identifiers([ResourceIdentifierObject])
    }

    /// The primary data.
    public var primary: PrimaryData {
        let top = storage.arena.topLevel
        switch top.data {
        case .absent: return .absent
        case .null: return .null
        case .one:
            if top.primaryIsLinkage {
                return top.primaryCount > 0
                    ? .identifier(ResourceIdentifierObject(storage: storage, recordIndex: Int(top.primaryStart)))
                    : .null
            }
            return top.primaryCount > 0
                ? .one(ResourceObject(storage: storage, recordIndex: Int(top.primaryStart))) : .null
        case .many:
            if top.primaryIsLinkage { return .identifiers(primaryIdentifiers) }
            return .many(primaryResources)
        }
    }

    /// The primary resources: none, one or many, without caring which shape `data` had.
    public var primaryResources: ResourceCollection {
        let top = storage.arena.topLevel
        guard !top.primaryIsLinkage else { return ResourceCollection(storage: storage, first: 0, count: 0) }
        return ResourceCollection(storage: storage, first: Int(top.primaryStart), count: Int(top.primaryCount))
    }

    /// The primary resource identifiers of a relationship document (kind `relationshipUpdate`).
    public var primaryIdentifiers: [ResourceIdentifierObject] {
        let top = storage.arena.topLevel
        guard top.primaryIsLinkage else { return [] }
        let first = Int(top.primaryStart)
        return (first..<(first + Int(top.primaryCount))).map {
            ResourceIdentifierObject(storage: storage, recordIndex: $0)
        }
    }

    /// The `included` resources, in document order.
    public var included: ResourceCollection {
        let top = storage.arena.topLevel
        return ResourceCollection(storage: storage, first: Int(top.includedStart), count: Int(top.includedCount))
    }

    /// Whether the document has an `included` member.
    public var hasIncluded: Bool { storage.arena.topLevel.hasIncluded }

    /// Every resource of the document (primary and included) in record order.
    public var allResources: ResourceCollection {
        ResourceCollection(storage: storage, first: 0, count: storage.arena.resources.count)
    }

    /// The resource with this type and id, from primary data or `included`.
    ///
    /// - Complexity: O(1) on average (one hash, usually one probe).
    public func resource(type: String, id: String) -> ResourceObject? {
        let arena = storage.arena
        guard let typeIndex = arena.types.index(of: type) else { return nil }
        var idBytes = Array(id.utf8)
        return unsafe idBytes.withUnsafeMutableBytes { idBuffer in
            unsafe storage.withBytes { input in
                unsafe arena.index.find(
                    type: typeIndex, id: UnsafeRawBufferPointer(idBuffer), resources: arena.resources, input: input)
            }
        }.map { ResourceObject(storage: storage, recordIndex: Int($0)) }
    }

    /// The resource named by `identifier`, if the document contains it.
    public func resource(_ identifier: ResourceIdentifier) -> ResourceObject? {
        guard let id = identifier.id else {
            guard let lid = identifier.lid else { return nil }
            return allResources.first { $0.type == identifier.type && $0.lid == lid }
        }
        return resource(type: identifier.type, id: id)
    }

    /// The resources of one type, in record order.
    public func resources(ofType type: String) -> [ResourceObject] {
        guard let typeIndex = storage.arena.types.index(of: type) else { return [] }
        return storage.arena.resources.indices.lazy.filter { self.storage.arena.resources[$0].type == typeIndex }
            .map { ResourceObject(storage: self.storage, recordIndex: $0) }
    }

    /// The distinct resource types seen (in resources and linkage), in order of first appearance.
    public var types: [String] { (0..<storage.arena.types.count).map { storage.arena.types.name(UInt32($0)) } }

    /// The error objects of an error document.
    public var errors: [ErrorObject] {
        storage.arena.errors.map { ErrorObject(JSONValue(storage: storage, range: $0)) }
    }

    /// Whether the document has an `errors` member.
    public var hasErrors: Bool { storage.arena.topLevel.errors.isPresent }

    /// The top-level `meta` (nil when absent).
    public var meta: JSONObject? {
        let m = storage.arena.topLevel.meta
        return m.isPresent ? JSONObject(storage: storage, range: m) : nil
    }

    /// The top-level `links` (nil when absent).
    public var links: Links? { Links(storage: storage, range: storage.arena.topLevel.links) }

    /// The `jsonapi` object (nil when absent).
    public var jsonapi: ImplementationInfo? {
        let j = storage.arena.topLevel.jsonapi
        return j.isPresent ? ImplementationInfo(value: JSONValue(storage: storage, range: j)) : nil
    }

    /// Top-level members the base specification does not define: extension members such as
    /// `atomic:operations`, @-members, and (lenient mode) unknown members, in document order.
    public var extensionMembers: [(name: String, value: JSONValue)] {
        storage.arena.foreignMembers.map { member in
            (
                storage.string(member.name, escaped: member.nameHasEscapes),
                JSONValue(storage: storage, range: member.value)
            )
        }
    }

    /// The whole document as a plain JSON value.
    public var jsonValue: JSONValue {
        let object = storage.arena.topLevel.object
        if object.isPresent { return JSONValue(storage: storage, range: object) }
        return storage.withView { b in
            let start = ValueReader.skipWhitespace(b, 0)
            return JSONValue(storage: storage, range: ByteRange(start, ValueReader.valueEnd(b, start)))
        }
    }

    /// Counts of the arena's records, for reports.
    public var statistics: Statistics {
        let arena = storage.arena
        var resolved = 0
        for link in arena.linkages where link.target != .max { resolved += 1 }
        return unsafe Statistics(
            resourceCount: arena.resources.count, primaryCount: Int(arena.topLevel.primaryCount),
            includedCount: Int(arena.topLevel.includedCount), relationshipCount: arena.relationships.count,
            linkageCount: arena.linkages.count, resolvedLinkageCount: resolved, errorCount: arena.errors.count,
            inputByteCount: storage.withBytes(unsafe \.count), arenaByteCount: arena.footprint)
    }

    /// Record counts of a parsed document.
    public struct Statistics: Sendable, Hashable {
        /// Resource objects (primary and included).
        public var resourceCount: Int
        /// Primary resources, or primary identifiers in a relationship document.
        public var primaryCount: Int
        /// Included resources.
        public var includedCount: Int
        /// Relationship objects across all resources.
        public var relationshipCount: Int
        /// Resource identifier objects (relationship linkage and identifier primary data).
        public var linkageCount: Int
        /// Identifiers whose resource is in the document.
        public var resolvedLinkageCount: Int
        /// Error objects.
        public var errorCount: Int
        /// Input size in bytes.
        public var inputByteCount: Int
        /// Arena size in bytes (records, index, type table).
        public var arenaByteCount: Int
    }
}
