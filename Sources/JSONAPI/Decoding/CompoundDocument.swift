/// A whole JSON:API document with typed primary data, top-level `meta` and `links`.
///
/// `Primary` says what `data` holds: a model (`Article`), an optional one (`Article?`, for
/// `"data": null`), an array (`[Article]`), a ``ResourceUnion`` or an array of one, or
/// identifiers for relationship documents (`[Identifier<Tag>]`). Use ``NoMeta`` / ``NoLinks``
/// for parts you do not read, or the views ``JSONObject`` / ``Links`` to read them untyped.
///
/// ```swift
/// struct PageMeta: Decodable { var totalPages: Int }
///
/// let page = try JSONAPIDecoder().decode(
///     CompoundDocument<[Article], PageMeta, Links>.self, from: data)
/// page.data.count                      // the articles
/// page.meta?.totalPages
/// page.links?["next"]?.href
/// page.document.included(of: Person.self)   // everything else, lazily
/// ```
///
/// A document that carries `errors` throws ``DocumentErrors`` (with the parsed error objects)
/// instead of decoding.
public struct CompoundDocument<Primary: Decodable, Meta: Decodable, Links: Decodable>: Decodable {
    /// The primary data.
    public var data: Primary
    /// The top-level `meta`, nil when absent.
    public var meta: Meta?
    /// The top-level `links`, nil when absent.
    public var links: Links?
    /// The `jsonapi` object, nil when absent.
    public var jsonapi: ImplementationInfo?
    /// The parsed document, for `included` resources, extension members and diagnostics; its
    /// typed views decode with the decoder's options (``Document/decodingOptions``).
    public var document: Document
    /// Resources left out of ``data`` (see ``DecodingOptions/ignoresMissingResources`` and
    /// ``DecodingOptions/ignoresUnhandledResourceTypes``).
    public var skipped: [SkippedResource]
    /// Everything in ``data`` that did not fit the models and what was done about it (see
    /// ``DecodingReport/problems`` and ``DecodingOptions/Tolerance/lenient``).
    public var problems: [DecodingProblem]

    private enum CodingKeys: String, CodingKey {
        case data, meta, links, jsonapi
    }

    /// Decodes the document; only ``JSONAPIDecoder`` (or ``Document/decode(_:options:)``) can.
    ///
    /// - Throws: ``DocumentErrors`` for an error document; `DecodingError` otherwise.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "CompoundDocument can only be decoded by JSONAPIDecoder"))
        }
        let document = unsafe Document(session: decoder.session)
        if document.hasErrors { throw DocumentErrors(document: document) }
        let top = unsafe decoder.topLevel
        data = try decoder.withKeyRef(CodingKeys.data) { key in try decoder.unbox(Primary.self, .primary, key: key) }
        meta =
            top.meta.isPresent
            ? try decoder.withKeyRef(CodingKeys.meta) { key in try decoder.unbox(Meta.self, .value(top.meta), key: key)
            } : nil
        links =
            top.links.isPresent
            ? try decoder.withKeyRef(CodingKeys.links) { key in
                try decoder.unbox(Links.self, .value(top.links), key: key)
            }
            : nil
        jsonapi = document.jsonapi
        self.document = document
        skipped = decoder.skippedResources()
        problems = decoder.decodingProblems()
    }
}

extension CompoundDocument: Sendable where Primary: Sendable, Meta: Sendable, Links: Sendable {}

/// Marks types decoded from the whole document rather than from its primary data.
protocol DocumentDecodable {}
extension CompoundDocument: DocumentDecodable {}

/// Thrown when the document to decode is an error document: it carries the parsed `errors`.
///
/// ```swift
/// do {
///     let article = try JSONAPIDecoder().decode(Article.self, from: data)
/// } catch let failure as DocumentErrors {
///     for error in failure.errors {
///         print(error.status ?? "", error.title ?? "", error.source?.pointer ?? "")
///     }
/// }
/// ```
public struct DocumentErrors: Error, Sendable, CustomStringConvertible {
    /// The error objects, in document order.
    public var errors: [ErrorObject]
    /// The document's top-level `meta`.
    public var meta: JSONObject?
    /// The document's top-level `links`.
    public var links: Links?
    /// The `jsonapi` object.
    public var jsonapi: ImplementationInfo?
    /// The parsed error document.
    public var document: Document

    /// Reads the errors of a parsed document.
    public init(document: Document) {
        self.document = document
        errors = document.errors
        meta = document.meta
        links = document.links
        jsonapi = document.jsonapi
    }

    /// The first HTTP status among the errors, as an integer.
    public var status: Int? { errors.lazy.compactMap { $0.status.flatMap(Int.init) }.first }

    public var description: String {
        let count = errors.count == 1 ? "1 error" : "\(errors.count) errors"
        return "the document reports \(count): " + errors.map(\.description).joined(separator: "; ")
    }
}
