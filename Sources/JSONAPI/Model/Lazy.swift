#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
