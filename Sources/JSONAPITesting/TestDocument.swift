import JSONAPI

/// A parsed document whose primary data is `primary`, written by `JSONAPIEncoder`: the
/// quickest way to get a `Document` (or bytes for the code under test) from models.
///
/// ```swift
/// let document = try makeDocument(article, included: [author])
/// let decoded = try JSONAPIDecoder().decode(Article.self, from: document)
/// ```
///
/// - Parameters:
///   - primary: A model, an array of models, an optional model (`nil` writes `"data": null`), a
///     union, or identifiers.
///   - included: Further models for `included`, after those found through relationships.
///   - meta: The top-level `meta`.
///   - encoder: The encoder, for its options (key strategy, include paths…). `nil` (the default)
///     is one that writes every related model present into `included`
///     (`EncodingOptions.includesRelatedByDefault`), so the document is the whole graph;
///     a server's encoder includes only what the request asked for.
///   - options: How the written bytes are parsed back (strict, response, by default).
/// - Returns: The document.
/// - Throws: What the encoder throws, or `JSONAPIError` when the written document
///   breaks a rule of `options`.
public func makeDocument<Primary: Encodable>(
    _ primary: Primary, included: [any Encodable] = [], meta: (any Encodable)? = nil,
    encoder: JSONAPIEncoder? = nil, options: ParsingOptions = ParsingOptions()
) throws -> Document {
    let encoder =
        encoder
        ?? {
            var whole = EncodingOptions()
            whole.includesRelatedByDefault = true
            return JSONAPIEncoder(options: whole)
        }()
    return try Document(parsing: encoder.encode(primary, meta: meta, included: included), options: options)
}
