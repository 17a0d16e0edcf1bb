#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a ``JSONAPIDecoder`` (and the typed views of a ``Document``) project resources onto
/// Swift types.
///
/// ```swift
/// var options = DecodingOptions()
/// options.keyDecodingStrategy = .convertFromKebabCase   // "first-name" -> firstName
/// options.dateDecodingStrategy = .iso8601
/// options.ignoresMissingResources = true
/// let articles = try document.primary(as: Article.self, options: options).decodeAll()
/// ```
public struct DecodingOptions: Sendable {
    /// How JSON member names are matched against `CodingKey`s.
    ///
    /// The decoder never builds converted strings on the hot path: it compares each
    /// `CodingKey.stringValue` with the raw member name as the strategy would convert it.
    public enum KeyDecodingStrategy: Sendable {
        /// Member names must equal `CodingKey.stringValue` (the default, and JSON:API's
        /// recommended camelCase).
        case useDefaultKeys
        /// `first_name` matches `firstName`, exactly as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`:
        /// leading and trailing underscores are kept, the first word is lowercased, later words
        /// capitalized, and a name without inner underscores is compared as is.
        case convertFromSnakeCase
        /// `first-name` matches `firstName` (the convention of many Rails and Ember servers), with
        /// the same rules as ``convertFromSnakeCase`` using `-`.
        case convertFromKebabCase
        /// Your function converts each member name, given the coding path with the name as
        /// the last key, into the key to compare. Slower: it runs for every comparison.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How `Date` values are read.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` implementation (a number of seconds since 2001-01-01).
        case deferredToDate
        /// An RFC 3339 / ISO 8601 date-time string, with or without fractional seconds, with `Z`
        /// or a numeric offset: `2015-05-22T14:56:29Z`, `2015-05-22T14:56:29.123+02:00`.
        /// The default, because JSON:API servers almost always send this.
        case iso8601
        /// A number of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// Your function reads the value from a decoder (use `singleValueContainer()`).
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
    }

    /// How `Data` values are read.
    public enum DataDecodingStrategy: Sendable {
        /// A base64 string (the default, as in `JSONDecoder`).
        case base64
        /// `Data`'s own `Decodable` implementation (an array of byte values).
        case deferredToData
        /// Your function reads the value from a decoder.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How member names match `CodingKey`s. Default ``KeyDecodingStrategy/useDefaultKeys``.
    public var keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys

    /// How dates are read. Default ``DateDecodingStrategy/iso8601`` (unlike `JSONDecoder`,
    /// whose default `deferredToDate` no JSON:API server produces).
    public var dateDecodingStrategy: DateDecodingStrategy = .iso8601

    /// How `Data` is read. Default ``DataDecodingStrategy/base64``.
    public var dataDecodingStrategy: DataDecodingStrategy = .base64

    /// When `true`, an element of a to-many relationship (or of primary data) whose resource is
    /// not in the document is left out of the array instead of failing the decode, and is
    /// listed in the skipped resources. Default `false`.
    ///
    /// An optional to-one relationship (`var author: Person?`) whose resource is missing is
    /// always `nil` (and listed as skipped); a non-optional one always fails, naming the type,
    /// the id and the JSON Pointer of the linkage. Properties typed as identifiers
    /// (``Identifier``, ``ResourceIdentifier``) never need the resource.
    public var ignoresMissingResources: Bool = false

    /// When `true`, a resource whose type is not a member of a ``ResourceUnion`` is left out of
    /// an array, or makes an optional to-one relationship `nil`, and is listed in the skipped
    /// resources, instead of failing the decode. Default `false`.
    public var ignoresUnhandledResourceTypes: Bool = false

    /// What a decode does with a problem that leaves the rest of the document usable.
    public enum Tolerance: Sendable, Hashable {
        /// The first problem fails the decode, with its JSON Pointer, line and column (the
        /// default). ``ignoresMissingResources`` and ``ignoresUnhandledResourceTypes`` still
        /// apply.
        case strict
        /// Everything that can be decoded is decoded, and every problem is reported in
        /// ``DecodingReport/problems`` with what was done about it:
        ///
        /// - a resource in an array (primary data, `included`, a to-many relationship) that
        ///   cannot be decoded (its linkage names a missing resource or another type, a union
        ///   does not handle its type, or one of its values does not fit) is left out;
        /// - an optional value that cannot be decoded (a to-one relationship to a missing or
        ///   wrongly typed resource, an attribute of the wrong JSON type, an unparsable date)
        ///   is read as absent: `decodeIfPresent` returns `nil`
        ///   (``DecodingProblem/Action/setToNil``; what the model makes of that `nil`, such as
        ///   `?? fallback`, the decoder does not see);
        /// - a property declared with a default value (`var views: Int = 0`) of a model read
        ///   through its `@ResourceReadable` initializer keeps the default when its member is
        ///   missing or cannot be decoded (``DecodingProblem/Action/defaultKept``).
        ///
        /// A problem with no such place to recover (a non-optional property of the single
        /// primary resource) still fails the decode. Implies ``ignoresMissingResources`` and
        /// ``ignoresUnhandledResourceTypes``.
        case lenient
    }

    /// ``Tolerance/strict`` (the default) or ``Tolerance/lenient``.
    ///
    /// ```swift
    /// var options = DecodingOptions()
    /// options.tolerance = .lenient
    /// let report = try JSONAPIDecoder(options: options).decodeReporting([Article].self, from: data)
    /// for problem in report.problems {
    ///     print(problem)   // each with its pointer, line, column, coding path and what was done
    /// }
    /// ```
    public var tolerance: Tolerance = .strict

    /// How many resources may be decoded inside one another through relationships (article →
    /// author → articles → …) before decoding fails. A repeated resource in that chain is a
    /// cycle and fails at once whatever this limit; ``Lazy`` and ``Identifier`` properties end
    /// the chain. Default 32.
    public var maximumRelationshipDepth: Int = 32

    /// How deeply values may nest while decoding (structs in structs, arrays in arrays, resources
    /// through relationships, and the levels of a ``JSON`` property), so that input can never
    /// exhaust the stack. Default 256; at most ``ParsingOptions/depthCeiling``.
    public var maximumDepth: Int = 256

    /// When `true` (the default), a type that is ``ResourceReadable`` (the `@ResourceReadable`
    /// macro of `JSONAPIMacros` makes one) is decoded through its `init(from: ResourceReader)`,
    /// which skips the `Decoder` protocol's containers: no container box, coding key or generic
    /// call per property, and each value built by one call of the memberwise initializer.
    /// `false` uses `init(from: any Decoder)` for every type, for comparing the two (they give
    /// the same values and the same errors).
    public var usesResourceReaders: Bool = true

    /// Values your `init(from:)` implementations can read from `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// How the bytes are parsed when the decoder is given bytes rather than a ``Document``.
    public var parsing: ParsingOptions = ParsingOptions()

    /// The tokenizer used to parse bytes: shorthand for `parsing.backend`.
    public var backend: ParsingOptions.Backend {
        get { parsing.backend }
        set { parsing.backend = newValue }
    }

    /// Creates the default options.
    public init() {}

    /// Checks that the decoding limits are in their documented ranges: ``maximumDepth`` from 1
    /// to ``ParsingOptions/depthCeiling``, ``maximumRelationshipDepth`` at least 0. (``parsing``
    /// is checked when bytes are parsed, by ``ParsingOptions/validate()``.)
    ///
    /// Every decode calls this first and throws its error.
    ///
    /// - Throws: ``JSONAPIError`` with code ``JSONAPIError/Code/invalidOption``.
    public func validate() throws(JSONAPIError) {
        try ParsingOptions.check(
            "maximumDepth", maximumDepth, in: 1...ParsingOptions.depthCeiling, of: "DecodingOptions")
        try ParsingOptions.check(
            "maximumRelationshipDepth", maximumRelationshipDepth, in: 0...Int.max, of: "DecodingOptions")
    }
}
