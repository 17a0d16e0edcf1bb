import JSONAPI

/// What the generated schemas assume about how resources are written and what a server
/// promises.
///
/// ```swift
/// var options = JSONAPISchemaOptions()
/// options.encoding.keyEncodingStrategy = .convertToKebabCase   // firstName -> "first-name"
/// options.encoding.dateEncodingStrategy = .secondsSince1970    // dates are numbers
/// options.requiresFieldsInResponses = true                     // every non-optional field, always
/// let components = JSONAPIComponents(models: [Article.self, Person.self], options: options)
/// ```
public struct JSONAPISchemaOptions: Sendable {
    /// How resources are encoded: the member names come from its key strategy (the names
    /// `JSONAPIEncoder` writes), and the JSON of dates and `Data` from its date and data
    /// strategies. Default: `EncodingOptions()` (names as declared, ISO 8601 dates, base64 data).
    public var encoding: EncodingOptions

    /// Whether a resource object in a response must carry every attribute and relationship its
    /// model does not declare optional. Default false: JSON:API lets a server send any subset of
    /// the fields of a type when the request names no sparse fieldset for it, and only the fields
    /// asked for when it does, so a response schema that required fields would reject valid
    /// responses. Set it for a server that always sends every field and never supports
    /// `fields[TYPE]`. Create bodies require the non-optional attributes whatever this says.
    public var requiresFieldsInResponses: Bool

    /// Whether request bodies may identify a new resource, or link to one, by a 1.1 local id
    /// (`lid`) instead of an `id`. Default true.
    public var allowsLocalIdentifiers: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - encoding: How resources are encoded (key, date and data strategies).
    ///   - requiresFieldsInResponses: Whether responses must carry every non-optional field.
    ///   - allowsLocalIdentifiers: Whether request bodies may use `lid`.
    public init(
        encoding: EncodingOptions = EncodingOptions(), requiresFieldsInResponses: Bool = false,
        allowsLocalIdentifiers: Bool = true
    ) {
        self.encoding = encoding
        self.requiresFieldsInResponses = requiresFieldsInResponses
        self.allowsLocalIdentifiers = allowsLocalIdentifiers
    }
}
