#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a ``JSONAPIEncoder`` writes models as JSON:API documents: the mirror of
/// ``DecodingOptions``.
///
/// ```swift
/// var options = EncodingOptions()
/// options.keyEncodingStrategy = .convertToKebabCase      // firstName -> "first-name"
/// options.dateEncodingStrategy = .secondsSince1970
/// options.includePaths = ["author", "comments.author"]   // what goes into `included`
/// options.fields = ["people": ["name"]]                  // sparse fieldsets
/// options.prettyPrinted = true
/// let bytes = try JSONAPIEncoder(options: options).encode(articles)
/// ```
public struct EncodingOptions: Sendable {
    /// How `CodingKey`s become member names.
    public enum KeyEncodingStrategy: Sendable {
        /// Member names are `CodingKey.stringValue` as they are (the default).
        case useDefaultKeys
        /// `firstName` becomes `first_name`, as `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`.
        case convertToSnakeCase
        /// `firstName` becomes `first-name`.
        case convertToKebabCase
        /// Your function turns the coding path (the key last) into the key to write.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `Encodable` implementation (seconds since 2001-01-01).
        case deferredToDate
        /// An RFC 3339 date-time in UTC without fractional seconds: `2015-05-22T14:56:29Z` (the default).
        case iso8601
        /// An RFC 3339 date-time in UTC with milliseconds: `2015-05-22T14:56:29.123Z`.
        case iso8601WithFractionalSeconds
        /// A number of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// Your function writes the value to an encoder (use `singleValueContainer()`).
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// A base64 string (the default).
        case base64
        /// `Data`'s own `Encodable` implementation (an array of byte values).
        case deferredToData
        /// Your function writes the value to an encoder.
        case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
    }

    /// How member names are written. Default ``KeyEncodingStrategy/useDefaultKeys``.
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// How dates are written. Default ``DateEncodingStrategy/iso8601``.
    public var dateEncodingStrategy: DateEncodingStrategy = .iso8601
    /// How `Data` is written. Default ``DataEncodingStrategy/base64``.
    public var dataEncodingStrategy: DataEncodingStrategy = .base64

    /// Which relationship paths embed their related models in `included`, as in the `include`
    /// query parameter: `["author", "comments.author"]`. A path also includes its prefixes
    /// (`"comments.author"` includes `comments`), and nothing else is included. A response to a
    /// request with `include` then has `included`, empty when nothing matched (JSON:API 1.1).
    ///
    /// `nil` (the default) stands for no `include` asked: every related model present is
    /// written when ``includesRelatedByDefault`` is set (the default), none otherwise. An empty
    /// set includes nothing.
    /// Relationships given as ``Identifier``s are linkage only whatever this says; models passed
    /// in `included:` are always written.
    public var includePaths: Set<String>? = nil

    /// Whether every related model present goes into `included` when ``includePaths`` is `nil`
    /// (no `include` asked). Default `true`: an encoder with no request writes the whole graph
    /// it is given, so the document decodes back into the same models.
    ///
    /// Options made for a request (``init(query:)``, and the adapters' defaults) set it to
    /// `false`: a response to a request without `include` then has no `included`. An endpoint
    /// that includes related resources by default sets it back to `true`, which JSON:API allows
    /// only when the request has no `include` (with one, ``includePaths`` decides alone).
    public var includesRelatedByDefault: Bool = true

    /// Sparse fieldsets: per resource type, the attributes and relationships to write
    /// (`["articles": ["title", "author"]]`). Types not listed are written whole.
    /// Names are compared after the key strategy.
    public var fields: [String: Set<String>] = [:]

    /// The output format: pretty printing, indentation, sorted keys and escaped slashes.
    /// Sorted keys order the members of attribute values and of `meta`; resource objects always
    /// keep JSON:API's `type`, `id`, `attributes`, `relationships` order. Compact, in the models'
    /// order, by default.
    public var formatting: JSONWritingOptions = JSONWritingOptions()

    /// Shorthand for ``formatting``'s ``JSONWritingOptions/prettyPrinted``.
    public var prettyPrinted: Bool {
        get { formatting.prettyPrinted }
        set { formatting.prettyPrinted = newValue }
    }

    /// Shorthand for ``formatting``'s ``JSONWritingOptions/sortsKeys``.
    public var sortsKeys: Bool {
        get { formatting.sortsKeys }
        set { formatting.sortsKeys = newValue }
    }

    /// Values your `encode(to:)` implementations can read from `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates the default options.
    public init() {}
}
