#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Relationship-typed properties
// ------------------------------
// How a relationship is read depends only on the property's type:
//
//   var author: Person                 to-one, resolved through `included` (error if missing)
//   var editor: Person?                nullable to-one; nil for null or a missing resource
//   var comments: [Comment]            to-many, resolved
//   var contributors: [Contributor]    polymorphic to-many (a `ResourceUnion`)
//   var author: Identifier<Person>     linkage only: type-checked id, never needs `included`
//   var tags: [ResourceIdentifier]     untyped linkage
//   var author: Lazy<Person>           resolved when you call `resolve()` (cycles, large graphs)
//   var comments: Related<[Comment], CountMeta, Links>   plus the relationship's meta and links

/// A typed resource identifier: the linkage of a relationship, without the related resource.
///
/// Decoding checks that the identifier's `type` is `Model.resourceType`; the related resource
/// need not be in the document, so this is what to use when `included` is not requested.
///
/// ```swift
/// struct Article: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var author: Identifier<Person>        // {"type": "people", "id": "9"}
///     var tags: [Identifier<Tag>]
/// }
/// article.author.id                          // "9"
/// article.author == "9"                      // true
/// ```
///
/// An identifier that has only a 1.1 `lid` (in a create request) has an empty ``id``.
public struct Identifier<Model: JSONAPIResource>: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id.
    public var id: String
    /// The 1.1 local id, if the identifier has one.
    public var lid: String?
    /// The resource identifier object's `meta` (not part of equality).
    public var meta: JSONObject?

    /// Creates an identifier.
    public init(id: String, lid: String? = nil) {
        self.id = id
        self.lid = lid
        self.meta = nil
    }

    @inline(__always)
    init(id: String, lid: String?, meta: JSONObject?) {
        self.id = id
        self.lid = lid
        self.meta = meta
    }

    /// Creates an identifier from its id.
    public init(_ id: String) {
        self.init(id: id)
    }

    public init(stringLiteral value: String) {
        self.init(id: value)
    }

    /// `Model.resourceType`.
    public var type: String { Model.resourceType }

    /// The untyped identifier.
    public var resourceIdentifier: ResourceIdentifier {
        ResourceIdentifier(type: Model.resourceType, id: id.isEmpty && lid != nil ? nil : id, lid: lid)
    }

    public static func == (lhs: Identifier, rhs: Identifier) -> Bool { lhs.id == rhs.id && lhs.lid == rhs.lid }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(lid)
    }

    public var description: String { "\(Model.resourceType)/\(id.isEmpty ? "lid:" + (lid ?? "") : id)" }
}

private enum IdentifierKeys: String, CodingKey {
    case type, id, lid, meta
}

extension Identifier: Decodable, LinkageDecodable, DirectDecodable {
    /// Reads the identifier: from linkage or a resource when decoded by ``JSONAPIDecoder``,
    /// else from an object with `type` (which must be `Model.resourceType`), `id` and `lid`.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = try Self.decodeDirect(from: decoder, decoder.node, key: nil)
            return
        }
        self = try Self.decodePortable(from: decoder)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> Identifier {
        if let identifier = plain(decoder, node) { return identifier }
        guard let identity = try decoder.identity(of: node, key: key) else {
            return try decoder.descend(into: node, key: key) { try decodePortable(from: decoder) }
        }
        try decoder.checkType(identity, against: Model.self, identifier: true, key: key)
        var identifier = Identifier(
            id: identity.id.isPresent ? decoder.string(identity.id, escaped: identity.idEscaped) : "",
            lid: identity.lid.isPresent ? decoder.string(identity.lid, escaped: identity.lidEscaped) : nil)
        if identity.meta.isPresent { identifier.meta = JSONObject(storage: decoder.storage, range: identity.meta) }
        return identifier
    }

    /// The common case, an identifier with an id of the right type and nothing else, straight
    /// from the linkage record of `node` (a linkage, or a to-one relationship); nil for
    /// anything else, which takes the general path (with every error).
    @inline(__always)
    static func plain(_ decoder: ResourceDecoder, _ node: Node) -> Identifier? {
        let linkage: UInt32
        switch node {
        case .linkage(let index):
            linkage = index
        case .relationship(let index):
            let relationship = decoder.relationships[Int(index)]
            guard relationship.data == .one && relationship.linkageCount > 0 else { return nil }
            linkage = relationship.firstLinkage
        default:
            return nil
        }
        return plain(decoder, linkage, type: decoder.typeInfo(Model.self).resourceType)
    }

    /// The identifier of linkage `index` when it has an id, no lid or meta, and `type`.
    @inline(__always)
    static func plain(_ decoder: ResourceDecoder, _ index: UInt32, type: UInt32) -> Identifier? {
        let link = decoder.linkages[Int(index)]
        guard link.id.isPresent && link.flags.isDisjoint(with: [.hasLid, .hasMeta]) && link.type == type else {
            return nil
        }
        return Identifier(id: decoder.linkedID(link), lid: nil, meta: nil)
    }

    private static func decodePortable(from decoder: any Decoder) throws -> Identifier {
        let container = try decoder.container(keyedBy: IdentifierKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == Model.resourceType else {
            throw DecodingError.typeMismatch(
                Identifier.self,
                DecodingError.Context(
                    codingPath: container.codingPath + [IdentifierKeys.type],
                    debugDescription: "expected an identifier of type `\(Model.resourceType)`, found `\(type)`"))
        }
        return Identifier(
            id: try container.decodeIfPresent(String.self, forKey: .id) ?? "",
            lid: try container.decodeIfPresent(String.self, forKey: .lid))
    }
}

extension Identifier: LinkageArrayDecodable {
    static func appendLinkages<R>(
        from decoder: ResourceDecoder, first: UInt32, count: Int, into result: inout [R],
        append: (inout [R], R) -> Void
    ) throws {
        let expected = decoder.typeInfo(Model.self).resourceType
        for position in 0..<count {
            let index = first &+ UInt32(position)
            if let identifier = plain(decoder, index, type: expected) {
                append(&result, sameType(identifier, as: R.self))
            } else {
                append(
                    &result,
                    sameType(try decodeDirect(from: decoder, .linkage(index), key: .index(position)), as: R.self))
            }
        }
    }
}

extension Identifier: Encodable {
    /// Encodes the resource identifier object: `type`, `id` and (if any) `lid`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IdentifierKeys.self)
        try container.encode(Model.resourceType, forKey: .type)
        if !id.isEmpty || lid == nil { try container.encode(id, forKey: .id) }
        try container.encodeIfPresent(lid, forKey: .lid)
    }
}

extension ResourceIdentifier: Decodable, LinkageDecodable, DirectDecodable {
    /// Reads a resource identifier: from linkage or a resource when decoded by
    /// ``JSONAPIDecoder``, else from an object with `type`, `id` and `lid`.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = try Self.decodeDirect(from: decoder, decoder.node, key: nil)
            return
        }
        self = try Self.decodePortable(from: decoder)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws
        -> ResourceIdentifier
    {
        guard let identity = try decoder.identity(of: node, key: key) else {
            return try decoder.descend(into: node, key: key) { try decodePortable(from: decoder) }
        }
        return decoder.resourceIdentifier(identity)
    }

    private static func decodePortable(from decoder: any Decoder) throws -> ResourceIdentifier {
        let container = try decoder.container(keyedBy: IdentifierKeys.self)
        return ResourceIdentifier(
            type: try container.decode(String.self, forKey: .type),
            id: try container.decodeIfPresent(String.self, forKey: .id),
            lid: try container.decodeIfPresent(String.self, forKey: .lid))
    }
}

/// A to-one reference that is resolved only when asked: `resolve()` decodes the related
/// resource then, from the document the reference keeps alive.
///
/// Use it to decode cyclic graphs (an article's author whose articles include the article) and
/// to pay only for what you read. Decoding a `Lazy` checks that the related resource is in the
/// document (and, for a ``JSONAPIResource``, that its type is right), so `resolve()` fails only
/// when the resource itself does not fit `Model`.
///
/// ```swift
/// struct Person: Decodable, JSONAPIResource {
///     static let resourceType = "people"
///     var id: String
///     var name: String
///     var articles: [Lazy<Article>]     // article -> author -> articles: no cycle error
/// }
/// let author = try article.author.resolve()
/// let first = try author.articles.first?.resolve()
/// ```
///
/// Each `resolve()` decodes afresh with the options of the original decode; it is cheap (the
/// resource is found in O(1)) but not cached.
public struct Lazy<Model: Decodable>: Sendable, CustomStringConvertible, LazyMarker {
    let session: DecodingSession
    let record: UInt32
    /// The identifier that named the resource, or `UInt32.max` when made from a resource.
    let linkage: UInt32

    init(session: DecodingSession, record: UInt32, linkage: UInt32) {
        self.session = session
        self.record = record
        self.linkage = linkage
    }

    static var model: Any.Type { Model.self }

    /// The related resource as a document view (type, id, attributes, relationships…).
    public var resource: ResourceObject { ResourceObject(storage: session.storage, recordIndex: Int(record)) }

    /// The related resource's type and id.
    public var identifier: ResourceIdentifier { resource.identifier }

    /// The resource identifier object's `meta` (nil when absent, or when made from a resource).
    public var identifierMeta: JSONObject? {
        guard linkage != .max else { return nil }
        return ResourceIdentifierObject(storage: session.storage, recordIndex: Int(linkage)).meta
    }

    /// Decodes the related resource.
    ///
    /// - Throws: `DecodingError`, located in the document, when the resource does not fit `Model`.
    public func resolve() throws -> Model {
        try session.run { decoder in try decoder.unbox(Model.self, .resource(record), key: nil) }
    }

    public var description: String { "Lazy<\(Model.self)>(\(identifier))" }
}

extension Lazy: Decodable, DirectDecodable {
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "Lazy<\(Model.self)> can only be decoded by JSONAPIDecoder or a Document's typed views"
                ))
        }
        self = try Self.decodeDirect(from: decoder, decoder.node, key: nil)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> Lazy {
        let record: UInt32
        do {
            record = try decoder.singleResource(of: node, for: Lazy.self)
        } catch {
            throw decoder.adding(key, to: error)
        }
        let info = decoder.typeInfo(Model.self)
        let type = decoder.resources[Int(record)].type
        if info.resourceType != .max && type != info.resourceType {
            throw decoder.failure(
                .typeMismatch(Model.self), at: Int(decoder.resources[Int(record)].object.start), code: .typeMismatch,
                path: decoder.path(key),
                "expected a `\(info.model?.resourceType ?? "?")` resource (\(Model.self)), found a `\(decoder.types.name(type))` resource (\(decoder.identity(record: record)))"
            )
        }
        if let union = decoder.union(info), !union.handles(type) {
            throw decoder.adding(
                key,
                to: decoder.unhandledType(
                    union.name, type: Model.self, typeIndex: type, at: decoder.offset(of: node),
                    identity: decoder.identity(record: record), members: union.memberNames))
        }
        var linkage = UInt32.max
        switch node {
        case .linkage(let index): linkage = index
        case .relationship(let index): linkage = decoder.relationships[Int(index)].firstLinkage
        case .primary where decoder.topLevel.primaryIsLinkage: linkage = decoder.topLevel.primaryStart
        default: break
        }
        return Lazy(session: decoder.session, record: record, linkage: linkage)
    }
}

/// A relationship's value together with the relationship object's `meta` and `links`.
///
/// `Value` is any relationship-typed property: a model, an optional model, an array, a union,
/// ``Identifier``, ``Lazy``. Use ``NoMeta`` or ``NoLinks`` for parts you do not need, or the
/// document views ``JSONObject`` and ``Links`` to read them untyped.
///
/// ```swift
/// struct CommentsMeta: Decodable { var count: Int }
///
/// struct Article: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var comments: Related<[Comment], CommentsMeta, Links>
/// }
/// article.comments.value.count            // the comments
/// article.comments.meta?.count            // the relationship's meta
/// article.comments.links?["related"]?.href
/// ```
public struct Related<Value: Decodable, Meta: Decodable, Links: Decodable>: Decodable, LinkageDecodable,
    RelationshipObjectDecodable
{
    /// The related resources (or identifiers), as the relationship's `data` decoded as `Value`.
    public var value: Value
    /// The relationship object's `meta`, nil when absent.
    public var meta: Meta?
    /// The relationship object's `links`, nil when absent.
    public var links: Links?

    /// Creates a value.
    public init(value: Value, meta: Meta? = nil, links: Links? = nil) {
        self.value = value
        self.meta = meta
        self.links = links
    }

    private enum CodingKeys: String, CodingKey {
        case data, meta, links
    }

    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder, case .relationship(let index) = decoder.node {
            let relationshipMeta = decoder.storage.arena.meta(ofRelationship: Int(index))
            let relationshipLinks = decoder.storage.arena.links(ofRelationship: Int(index))
            value = try decoder.unbox(Value.self, .relationship(index), key: nil)
            meta =
                relationshipMeta.isPresent
                ? try withKeyRef(CodingKeys.meta) { key in
                    try decoder.unbox(Meta.self, .value(relationshipMeta), key: key)
                } : nil
            links =
                relationshipLinks.isPresent
                ? try withKeyRef(CodingKeys.links) { key in
                    try decoder.unbox(Links.self, .value(relationshipLinks), key: key)
                } : nil
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(Value.self, forKey: .data)
        meta = try container.decodeIfPresent(Meta.self, forKey: .meta)
        links = try container.decodeIfPresent(Links.self, forKey: .links)
    }
}

extension Related: Sendable where Value: Sendable, Meta: Sendable, Links: Sendable {}
extension Related: Equatable where Value: Equatable, Meta: Equatable, Links: Equatable {}

/// Decodes from anything and keeps nothing: for `meta` or `links` you do not need.
public struct NoMeta: Decodable, Sendable, Hashable, DirectDecodable {
    /// Creates a value.
    public init() {}
    public init(from decoder: any Decoder) throws {}
    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) -> NoMeta { NoMeta() }
}

/// Decodes from anything and keeps nothing: for `links` you do not need.
public struct NoLinks: Decodable, Sendable, Hashable, DirectDecodable {
    /// Creates a value.
    public init() {}
    public init(from decoder: any Decoder) throws {}
    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) -> NoLinks {
        NoLinks()
    }
}

/// A resource that was left out of a decoded result, and why.
///
/// ```swift
/// let decoder = JSONAPIDecoder()
/// decoder.ignoresMissingResources = true
/// let report = try decoder.decodeReporting([Article].self, from: data)
/// for skipped in report.skipped {
///     print(skipped)   // comments/5 at /data/0/relationships/comments/data/1 ([0].comments[1]): not in the document
/// }
/// ```
public struct SkippedResource: Sendable, Hashable, CustomStringConvertible {
    /// Why a resource was skipped.
    public enum Reason: Sendable, Hashable {
        /// The linkage names a resource the document does not contain.
        case missing
        /// The resource's type is not a member of the named ``ResourceUnion``.
        case unhandledType(union: String)
    }

    /// The skipped resource's type and id.
    public var identifier: ResourceIdentifier
    /// Why it was skipped.
    public var reason: Reason
    /// The Swift coding path of the value it would have been, such as `[0].comments[1]`.
    public var codingPath: String
    /// The JSON Pointer of the resource identifier (or resource) in the document.
    public var pointer: String
    /// Line of ``pointer``'s value (1-based; 0 when unknown).
    public var line: Int
    /// Column of ``pointer``'s value (1-based; 0 when unknown).
    public var column: Int

    /// Creates a value.
    public init(
        identifier: ResourceIdentifier, reason: Reason, codingPath: String, pointer: String, line: Int = 0,
        column: Int = 0
    ) {
        self.identifier = identifier
        self.reason = reason
        self.codingPath = codingPath
        self.pointer = pointer
        self.line = line
        self.column = column
    }

    public var description: String {
        let why: String
        switch reason {
        case .missing: why = "not in the document"
        case .unhandledType(let union): why = "type not handled by \(union)"
        }
        return "\(identifier) at \(pointer) (\(codingPath)): \(why)"
    }
}

// MARK: - Decoder support

extension ResourceDecoder {
    /// Type, id, lid and meta of the identifier or resource a node stands for.
    struct Identity {
        var type: UInt32
        var id: ByteRange
        var idEscaped: Bool
        var lid: ByteRange
        var lidEscaped: Bool
        var meta: ByteRange
        var offset: Int
        /// The record of a resource, or the linkage of an identifier (for messages).
        var node: Node
    }

    /// The identity of a resource-like node; nil for nodes that are not (plain JSON values).
    func identity(of node: Node, key: KeyRef = .none) throws -> Identity? {
        switch node {
        case .linkage(let index):
            let l = linkages[Int(index)]
            return Identity(
                type: l.type, id: l.id, idEscaped: l.flags.contains(.idHasEscapes),
                lid: storage.arena.linkageLids.range(of: Int(index), flags: l.flags),
                lidEscaped: l.flags.contains(.lidHasEscapes),
                meta: storage.arena.linkageMeta.range(of: Int(index), flags: l.flags), offset: Int(l.object.start),
                node: node)
        case .resource(let record):
            let r = resources[Int(record)]
            return Identity(
                type: r.type, id: r.id, idEscaped: r.flags.contains(.idHasEscapes),
                lid: storage.arena.resourceLids.range(of: Int(record), flags: r.flags),
                lidEscaped: r.flags.contains(.lidHasEscapes),
                meta: .absent, offset: Int(r.object.start),
                node: node)
        case .relationship(let index):
            let relationship = relationships[Int(index)]
            guard relationship.data == .one, relationship.linkageCount > 0 else {
                do {
                    _ = try singleResource(of: node, for: ResourceIdentifier.self)
                } catch {
                    throw adding(key, to: error)
                }
                return nil
            }
            return try identity(of: .linkage(relationship.firstLinkage))
        case .primary:
            let top = topLevel
            guard top.data == .one, top.primaryCount > 0 else {
                do {
                    _ = try singleResource(of: node, for: ResourceIdentifier.self)
                } catch {
                    throw adding(key, to: error)
                }
                return nil
            }
            return try identity(of: top.primaryIsLinkage ? .linkage(top.primaryStart) : .resource(top.primaryStart))
        default:
            return nil
        }
    }

    /// `type/id` of an identity, for messages.
    func describe(_ identity: Identity) -> String {
        switch identity.node {
        case .linkage(let index): return self.identity(linkage: index)
        case .resource(let record): return self.identity(record: record)
        default: return describe(identity.node)
        }
    }

    func resourceIdentifier(_ identity: Identity) -> ResourceIdentifier {
        ResourceIdentifier(
            type: types.name(identity.type),
            id: identity.id.isPresent ? string(identity.id, escaped: identity.idEscaped) : nil,
            lid: identity.lid.isPresent ? string(identity.lid, escaped: identity.lidEscaped) : nil)
    }

    /// Checks an identity's type against a model's.
    func checkType<Model: JSONAPIResource>(
        _ identity: Identity, against model: Model.Type, identifier: Bool, key: KeyRef
    ) throws {
        let info = typeInfo(Model.self)
        guard info.resourceType != identity.type else { return }
        throw failure(
            .typeMismatch(Model.self), at: identity.offset, code: .typeMismatch, path: path(key),
            "expected \(identifier ? "an identifier" : "a resource") of type `\(Model.resourceType)` (\(Model.self)), found `\(types.name(identity.type))` (\(describe(identity)))"
        )
    }
}
