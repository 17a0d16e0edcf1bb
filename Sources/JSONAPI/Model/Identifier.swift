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

/// The members of a resource identifier object, as identifiers of every kind read and write them.
enum IdentifierKeys: String, CodingKey {
    case type, id, lid, meta
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
