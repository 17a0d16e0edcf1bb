/// A resource's identity: `type` plus `id` (or, in a 1.1 create request, a local `lid`).
public struct ResourceIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The resource type, such as `articles`.
    public var type: String
    /// The server-assigned id; nil for a new resource that only has a `lid`.
    public var id: String?
    /// The 1.1 local id, unique within one request document.
    public var lid: String?

    /// Creates an identifier.
    public init(type: String, id: String? = nil, lid: String? = nil) {
        self.type = type
        self.id = id
        self.lid = lid
    }

    public var description: String { "\(type)/\(id ?? lid.map { "lid:\($0)" } ?? "?")" }
}

/// A resource object in a parsed ``Document``: a view onto its arena record.
///
/// ```swift
/// for article in document.primaryResources {
///     print(article.type, article.id ?? "", article.attributes["title"]?.stringValue ?? "")
///     for comment in article.relationship("comments")?.resolvedResources ?? [] { ... }
/// }
/// ```
public struct ResourceObject: Sendable, CustomStringConvertible {
    @usableFromInline let storage: DocumentStorage
    /// Position of the record in the document's resource table.
    public let recordIndex: Int

    init(storage: DocumentStorage, recordIndex: Int) {
        self.storage = storage
        self.recordIndex = recordIndex
    }

    @inline(__always) var record: ResourceRecord { storage.arena.resources[recordIndex] }

    /// The resource type.
    public var type: String { storage.arena.types.name(record.type) }

    /// The id; nil only for a new resource in a create request.
    public var id: String? { storage.optionalString(record.id, escaped: record.flags.contains(.idHasEscapes)) }

    /// The 1.1 local id, if present.
    public var lid: String? {
        storage.optionalString(
            storage.arena.lid(ofResource: recordIndex), escaped: record.flags.contains(.lidHasEscapes))
    }

    /// `type`, `id` and `lid` together.
    public var identifier: ResourceIdentifier { ResourceIdentifier(type: type, id: id, lid: lid) }

    /// Whether this resource is in `included` (rather than primary data).
    public var isIncluded: Bool { record.flags.contains(.isIncluded) }

    /// The `attributes` object (empty when absent).
    public var attributes: JSONObject { JSONObject(storage: storage, range: record.attributes) }

    /// The relationships, in document order.
    public var relationships: [Relationship] {
        let r = record
        let first = Int(r.firstRelationship)
        return (first..<(first + Int(r.relationshipCount))).map { Relationship(storage: storage, recordIndex: $0) }
    }

    /// The relationship named `name`, or nil.
    public func relationship(_ name: String) -> Relationship? {
        let r = record
        let first = Int(r.firstRelationship)
        let wanted = Array(name.utf8)
        // SAFETY: both views are used only inside the scopes that lend their bytes.
        return unsafe wanted.withUnsafeBytes { wanted in
            unsafe storage.withBytes { b in
                let b = unsafe ByteView(unsafeBytes: b)
                let wanted = unsafe ByteView(unsafeBytes: wanted)
                for i in first..<(first + Int(r.relationshipCount)) {
                    let rel = storage.arena.relationships[i]
                    if ValueReader.keyEquals(b, rel.name, rel.flags.contains(.nameHasEscapes), wanted) {
                        return Relationship(storage: storage, recordIndex: i)
                    }
                }
                return nil
            }
        }
    }

    /// The resource's `links` (nil when absent).
    public var links: Links? { Links(storage: storage, range: record.links) }

    /// The resource's `meta` (nil when absent).
    public var meta: JSONObject? {
        let m = storage.arena.meta(ofResource: recordIndex)
        return m.isPresent ? JSONObject(storage: storage, range: m) : nil
    }

    /// The resource object exactly as it appeared in the input.
    public var rawJSON: JSONValue { JSONValue(storage: storage, range: record.object) }

    /// The byte offset of the resource object in the input.
    public var byteOffset: Int { storage.absolute(Int(record.object.start)) }

    public var description: String { "ResourceObject(\(identifier))" }
}

/// A relationship of a resource: its linkage, links and meta, and the related resources.
public struct Relationship: Sendable, CustomStringConvertible {
    @usableFromInline let storage: DocumentStorage
    let recordIndex: Int

    init(storage: DocumentStorage, recordIndex: Int) {
        self.storage = storage
        self.recordIndex = recordIndex
    }

    @inline(__always) var record: RelationshipRecord { storage.arena.relationships[recordIndex] }

    /// What the relationship's `data` member held.
    public enum Linkage: Sendable {
        /// No `data` member (only links or meta).
        case absent
        /// `"data": null`: an empty to-one relationship.
        case null
        /// A to-one relationship.
        case one(ResourceIdentifierObject)
        /// A to-many relationship (possibly empty).
        case many([ResourceIdentifierObject])
    }

    /// The relationship's name.
    public var name: String { storage.string(record.name, escaped: record.flags.contains(.nameHasEscapes)) }

    /// The linkage.
    public var linkage: Linkage {
        let r = record
        switch r.data {
        case .absent: return .absent
        case .null: return .null
        case .one:
            return r.linkageCount > 0
                ? .one(ResourceIdentifierObject(storage: storage, recordIndex: Int(r.firstLinkage))) : .null
        case .many: return .many(identifiers)
        }
    }

    /// True for an array linkage.
    public var isToMany: Bool { record.data == .many }

    /// The resource identifiers (none, one or many).
    public var identifiers: [ResourceIdentifierObject] {
        let r = record
        let first = Int(r.firstLinkage)
        return (first..<(first + Int(r.linkageCount))).map {
            ResourceIdentifierObject(storage: storage, recordIndex: $0)
        }
    }

    /// The related resources found in the document (primary or included), in linkage order;
    /// identifiers of resources the document does not contain are skipped.
    public var resolvedResources: [ResourceObject] { identifiers.compactMap(\.resource) }

    /// For a to-one relationship, the related resource when the document contains it.
    public var resolvedResource: ResourceObject? {
        guard record.data == .one else { return nil }
        return identifiers.first?.resource
    }

    /// The relationship's `links` (nil when absent).
    public var links: Links? { Links(storage: storage, range: storage.arena.links(ofRelationship: recordIndex)) }

    /// The relationship's `meta` (nil when absent).
    public var meta: JSONObject? {
        let m = storage.arena.meta(ofRelationship: recordIndex)
        return m.isPresent ? JSONObject(storage: storage, range: m) : nil
    }

    public var description: String { "Relationship(\(name))" }
}

/// A resource identifier object (`{"type": ..., "id": ...}`) in a relationship or in the
/// primary data of a relationship document, resolved to its resource in O(1).
public struct ResourceIdentifierObject: Sendable, CustomStringConvertible {
    @usableFromInline let storage: DocumentStorage
    let recordIndex: Int

    init(storage: DocumentStorage, recordIndex: Int) {
        self.storage = storage
        self.recordIndex = recordIndex
    }

    @inline(__always) var record: LinkageRecord { storage.arena.linkages[recordIndex] }

    /// The type.
    public var type: String { storage.arena.types.name(record.type) }

    /// The id (nil when the identifier uses only a `lid`).
    public var id: String? { storage.optionalString(record.id, escaped: record.flags.contains(.idHasEscapes)) }

    /// The 1.1 local id, if present.
    public var lid: String? {
        storage.optionalString(
            storage.arena.lid(ofLinkage: recordIndex), escaped: record.flags.contains(.lidHasEscapes))
    }

    /// `type`, `id` and `lid` as a value.
    public var identifier: ResourceIdentifier { ResourceIdentifier(type: type, id: id, lid: lid) }

    /// The identifier's `meta` (nil when absent).
    public var meta: JSONObject? {
        let m = storage.arena.meta(ofLinkage: recordIndex)
        return m.isPresent ? JSONObject(storage: storage, range: m) : nil
    }

    /// The resource this identifier names, when the document contains it.
    public var resource: ResourceObject? {
        let target = record.target
        return target == .max ? nil : ResourceObject(storage: storage, recordIndex: Int(target))
    }

    public var description: String { "ResourceIdentifierObject(\(identifier))" }
}

/// The resources of one section of a document, indexable without materialising anything.
public struct ResourceCollection: RandomAccessCollection, Sendable {
    let storage: DocumentStorage?
    let first: Int

    /// The position of the first resource (always 0).
    public var startIndex: Int { 0 }
    /// One past the last position.
    public let endIndex: Int

    init(storage: DocumentStorage?, first: Int, count: Int) {
        self.storage = storage
        self.first = first
        self.endIndex = count
    }

    public subscript(position: Int) -> ResourceObject {
        // SAFETY: out-of-range positions are a programming error, as for Array; no input controls them.
        precondition(position >= 0 && position < endIndex, "ResourceCollection index out of range")
        guard let storage else { preconditionFailure("empty ResourceCollection") }
        return ResourceObject(storage: storage, recordIndex: first + position)
    }
}

extension DocumentStorage {
    /// The decoded string whose raw contents are at `range`.
    func string(_ range: ByteRange, escaped: Bool) -> String {
        unsafe withBytes { unsafe JSONStringDecoding.decode(validUTF8: $0.slice(range), hasEscapes: escaped) }
    }

    /// The decoded string at `range`, or nil when the member was absent.
    func optionalString(_ range: ByteRange, escaped: Bool) -> String? {
        range.isPresent ? string(range, escaped: escaped) : nil
    }
}
