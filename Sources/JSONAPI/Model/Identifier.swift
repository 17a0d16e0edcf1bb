#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

enum IdentifierKeys: String, CodingKey {
    case type, id, lid, meta
}

extension Identifier: Decodable, LinkageDecodable, DirectDecodable {
    /// Reads the identifier: from linkage or a resource when decoded by ``JSONAPIDecoder``,
    /// else from an object with `type` (which must be `Model.resourceType`), `id` and `lid`.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = unsafe try Self.decodeDirect(from: decoder, decoder.node, key: nil)
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
        if identity.meta.isPresent {
            identifier.meta = unsafe JSONObject(storage: decoder.storage, range: identity.meta)
        }
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
            let relationship = unsafe decoder.relationships[Int(index)]
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
        let link = unsafe decoder.linkages[Int(index)]
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
    static func appendLinkages<R, Result>(
        from decoder: ResourceDecoder, first: UInt32, count: Int, into result: inout Result,
        append: (inout Result, R) -> Void
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
    /// Encodes the resource identifier object: `type`, `id` and (if any) `lid` and `meta`, as
    /// ``JSONAPIEncoder`` writes it in linkage.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IdentifierKeys.self)
        try container.encode(Model.resourceType, forKey: .type)
        if !id.isEmpty || lid == nil { try container.encode(id, forKey: .id) }
        try container.encodeIfPresent(lid, forKey: .lid)
        if let meta, !meta.isAbsent { try container.encode(JSON(meta), forKey: .meta) }
    }
}
