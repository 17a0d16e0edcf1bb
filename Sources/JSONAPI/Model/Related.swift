#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
public struct Related<Value: Decodable, Meta: Decodable, Links: Decodable> {
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
