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
///   - encoder: The encoder, for its options (key strategy, include paths…).
///   - options: How the written bytes are parsed back (strict, response, by default).
/// - Returns: The document.
/// - Throws: What the encoder throws, or `JSONAPIError` when the written document
///   breaks a rule of `options`.
public func makeDocument<Primary: Encodable>(
    _ primary: Primary, included: [any Encodable] = [], meta: (any Encodable)? = nil,
    encoder: JSONAPIEncoder = JSONAPIEncoder(), options: ParsingOptions = ParsingOptions()
) throws -> Document {
    try Document(parsing: encoder.encode(primary, meta: meta, included: included), options: options)
}
