#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes JSON:API documents into plain `Decodable` Swift types.
///
/// Declare models as ordinary structs with a ``JSONAPIResource`` conformance, then decode a
/// model, an array, an optional, or a whole ``CompoundDocument``:
///
/// ```swift
/// struct Person: Decodable, JSONAPIResource {
///     static let resourceType = "people"
///     var id: String
///     var firstName: String
///     var twitter: String?
/// }
///
/// struct Article: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var title: String
///     var author: Person                     // resolved through `included`
///     var comments: [Identifier<Comment>]    // linkage only
/// }
///
/// let decoder = JSONAPIDecoder()
/// decoder.keyDecodingStrategy = .convertFromKebabCase
/// let articles = try decoder.decode([Article].self, from: data)
/// ```
///
/// What `decode` reads depends on the type:
/// - a ``JSONAPIResource`` or ``ResourceUnion`` (or ``Identifier``, ``Lazy``, `ResourceIdentifier`):
///   the single resource of the primary data;
/// - an array of those: the primary data array; an optional: `nil` for `"data": null`;
/// - ``CompoundDocument`` or any other type: the whole document, whose `data` key is the
///   primary data, `included` the included resources, and other keys the top-level members.
///
/// The decoder parses bytes once into a ``Document`` and projects resources from it directly:
/// no dictionaries, no re-serialisation. It is a class (as `JSONDecoder` is) whose settings are
/// guarded by a lock, so one instance can be configured once and shared between tasks.
///
/// Errors are `DecodingError`s whose ``Swift/DecodingError/jsonapiError`` gives the JSON
/// Pointer, line and column; an error document throws ``DocumentErrors``.
public final class JSONAPIDecoder: Sendable {
    private let state: Locked<DecodingOptions>

    /// Creates a decoder.
    public init(options: DecodingOptions = DecodingOptions()) {
        state = Locked(options)
    }

    /// All the settings at once.
    public var options: DecodingOptions {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// See ``DecodingOptions/keyDecodingStrategy``.
    public var keyDecodingStrategy: DecodingOptions.KeyDecodingStrategy {
        get { options.keyDecodingStrategy }
        set { state.withLock { $0.keyDecodingStrategy = newValue } }
    }

    /// See ``DecodingOptions/dateDecodingStrategy``.
    public var dateDecodingStrategy: DecodingOptions.DateDecodingStrategy {
        get { options.dateDecodingStrategy }
        set { state.withLock { $0.dateDecodingStrategy = newValue } }
    }

    /// See ``DecodingOptions/dataDecodingStrategy``.
    public var dataDecodingStrategy: DecodingOptions.DataDecodingStrategy {
        get { options.dataDecodingStrategy }
        set { state.withLock { $0.dataDecodingStrategy = newValue } }
    }

    /// See ``DecodingOptions/ignoresMissingResources``.
    public var ignoresMissingResources: Bool {
        get { options.ignoresMissingResources }
        set { state.withLock { $0.ignoresMissingResources = newValue } }
    }

    /// See ``DecodingOptions/ignoresUnhandledResourceTypes``.
    public var ignoresUnhandledResourceTypes: Bool {
        get { options.ignoresUnhandledResourceTypes }
        set { state.withLock { $0.ignoresUnhandledResourceTypes = newValue } }
    }

    /// See ``DecodingOptions/tolerance``.
    public var tolerance: DecodingOptions.Tolerance {
        get { options.tolerance }
        set { state.withLock { $0.tolerance = newValue } }
    }

    /// See ``DecodingOptions/maximumRelationshipDepth``.
    public var maximumRelationshipDepth: Int {
        get { options.maximumRelationshipDepth }
        set { state.withLock { $0.maximumRelationshipDepth = newValue } }
    }

    /// See ``DecodingOptions/userInfo``.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { options.userInfo }
        set { state.withLock { $0.userInfo = newValue } }
    }

    /// How bytes are parsed (document kind, strictness, limits, backend).
    public var parsingOptions: ParsingOptions {
        get { options.parsing }
        set { state.withLock { $0.parsing = newValue } }
    }

    /// The tokenizer used to parse bytes; see ``ParsingOptions/Backend``.
    public var backend: ParsingOptions.Backend {
        get { options.parsing.backend }
        set { state.withLock { $0.parsing.backend = newValue } }
    }

    // MARK: Decoding

    /// Decodes `T` from a document's bytes.
    ///
    /// - Throws: `DecodingError` (with the parse error as `underlyingError` when the bytes are
    ///   not a valid JSON:API document), or ``DocumentErrors`` for an error document.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodeReporting(T.self, from: data).value
    }

    /// Decodes `T` from a document's bytes.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decodeReporting(T.self, from: bytes).value
    }

    /// Decodes `T` from a document's text.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decodeReporting(T.self, from: Array(text.utf8)).value
    }

    /// Parses a document with these options, which it keeps as its
    /// ``Document/decodingOptions``: the typed views (``Document/primary(as:options:)``,
    /// ``Document/included(of:options:)``, …) then decode as this decoder does.
    ///
    /// ```swift
    /// let decoder = JSONAPIDecoder()
    /// decoder.keyDecodingStrategy = .convertFromKebabCase
    /// let document = try decoder.document(from: data)
    /// let first = try document.primary(as: Article.self).element(at: 0)
    /// ```
    ///
    /// - Throws: ``JSONAPIError`` when the bytes are not a valid JSON:API document.
    public func document(from bytes: [UInt8]) throws(JSONAPIError) -> Document {
        let options = self.options
        var document = try Document(parsing: bytes, options: options.parsing)
        document.decodingOptions = options
        return document
    }

    /// Parses a document with these options; see ``document(from:)-([UInt8])``.
    public func document(from data: Data) throws(JSONAPIError) -> Document {
        try document(from: [UInt8](data))
    }

    /// Parses a document with these options; see ``document(from:)-([UInt8])``.
    public func document(from text: String) throws(JSONAPIError) -> Document {
        try document(from: Array(text.utf8))
    }

    /// Decodes `T` from a parsed document (which can be decoded any number of times, from any
    /// number of tasks at once).
    public func decode<T: Decodable>(_ type: T.Type, from document: Document) throws -> T {
        try decodeReporting(T.self, from: document).value
    }

    /// Decodes `T` and reports the resources that were skipped.
    ///
    /// ```swift
    /// decoder.ignoresMissingResources = true
    /// let report = try decoder.decodeReporting([Article].self, from: data)
    /// report.value          // the articles
    /// report.skipped        // what was left out, with pointers
    /// ```
    public func decodeReporting<T: Decodable>(_ type: T.Type, from data: Data) throws -> DecodingReport<T> {
        try decodeReporting(T.self, from: [UInt8](data))
    }

    /// Decodes `T` and reports the resources that were skipped.
    public func decodeReporting<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> DecodingReport<T> {
        let options = self.options
        let document = try Self.parse(bytes, options: options)
        return try Self.decode(T.self, session: DecodingSession(storage: document.storage, options: options))
    }

    /// Parses the bytes to decode; a document that is not valid is a `DecodingError` whose
    /// `underlyingError` is the parse error.
    static func parse(_ bytes: [UInt8], options: DecodingOptions) throws -> Document {
        do {
            return try Document(parsing: bytes, options: options.parsing)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The data is not a valid JSON:API document: \(error)",
                    underlyingError: error))
        }
    }

    /// Decodes `T` from a document's text and reports the resources that were skipped.
    ///
    /// ```swift
    /// decoder.tolerance = .lenient
    /// let report = try decoder.decodeReporting([Article].self, from: text)
    /// for problem in report.problems { print(problem) }
    /// ```
    public func decodeReporting<T: Decodable>(_ type: T.Type, from text: String) throws -> DecodingReport<T> {
        try decodeReporting(T.self, from: Array(text.utf8))
    }

    /// Decodes `T` and reports the resources that were skipped.
    ///
    /// The report's ``DecodingReport/document`` is `document` with this decoder's options as its
    /// ``Document/decodingOptions``.
    public func decodeReporting<T: Decodable>(_ type: T.Type, from document: Document) throws -> DecodingReport<T> {
        try Self.decode(T.self, session: DecodingSession(storage: document.storage, options: options))
    }

    // MARK: Listing every problem

    /// Decodes `T` as ``decode(_:from:)-(_,Document)`` does; when a value does not fit the
    /// model, goes on past it to find every other such value, and throws them all.
    ///
    /// A strict decode stops at the first value that does not fit. This one decodes strictly
    /// first (at the same cost); only when that fails does it decode again, giving each failing
    /// non-optional value a placeholder (an empty string, zero, an empty array, a struct of
    /// such, the first case of a `CaseIterable` enum) so that the model's `init(from:)` reaches
    /// its other properties. The placeholders are never returned: a document that does not fit
    /// always throws. A value whose type has no placeholder (an enum that is not
    /// `CaseIterable`, a type whose `init(from:)` refuses empty input) ends the listing there.
    ///
    /// ```swift
    /// let document = try JSONAPIDecoder().document(from: body)
    /// do {
    ///     let article = try JSONAPIDecoder().decodeListingProblems(Article.self, from: document)
    /// } catch let failure as DecodingFailure {
    ///     failure.problems.map(\.pointer)   // ["/data/attributes/title", "/data/attributes/views"]
    /// }
    /// ```
    ///
    /// The server adapters' `jsonapiDecode` helpers decode request bodies this way.
    ///
    /// - Throws: ``DecodingFailure`` when values do not fit the model; the document's own errors
    ///   (``DocumentErrors``) and the errors of invalid options as ``decode(_:from:)-(_,Document)``
    ///   throws them.
    public func decodeListingProblems<T: Decodable>(_ type: T.Type, from document: Document) throws -> T {
        let options = self.options
        do {
            return try Self.decode(T.self, session: DecodingSession(storage: document.storage, options: options)).value
        } catch let error as DecodingError {
            throw Self.listProblems(T.self, storage: document.storage, options: options, strictError: error)
        }
    }

    /// Parses the bytes and decodes `T` listing every problem; see
    /// ``decodeListingProblems(_:from:)-(_,Document)``.
    ///
    /// - Throws: also a `DecodingError` when the bytes are not a valid JSON:API document.
    public func decodeListingProblems<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decodeListingProblems(T.self, from: Self.parse(bytes, options: options))
    }

    /// Parses the bytes and decodes `T` listing every problem; see
    /// ``decodeListingProblems(_:from:)-(_,Document)``.
    public func decodeListingProblems<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decodeListingProblems(T.self, from: [UInt8](data))
    }

    /// Parses the text and decodes `T` listing every problem; see
    /// ``decodeListingProblems(_:from:)-(_,Document)``.
    public func decodeListingProblems<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decodeListingProblems(T.self, from: Array(text.utf8))
    }

    /// Decodes `T` again, recording every value that does not fit, after a strict decode threw
    /// `strictError`: a ``DecodingFailure``, or `strictError` itself should the second decode
    /// record nothing.
    static func listProblems<T: Decodable>(
        _ type: T.Type, storage: DocumentStorage, options: DecodingOptions, strictError: DecodingError
    ) -> any Error {
        let session = DecodingSession(storage: storage, options: options, listsEveryProblem: true)
        let rejections = session.run { decoder in
            // What ends this decode (a value with no placeholder) has been recorded already.
            _ = try? decoder.unbox(T.self, rootNode(for: T.self), key: nil)
            return decoder.rejections()
        }
        guard !rejections.isEmpty else { return strictError }
        return DecodingFailure(problems: rejections.map(\.problem), errors: rejections.map(\.error))
    }

    /// Decodes `T` from the document of the decoding state given; the report's document (and an
    /// error document's) keeps the options that state was made with.
    static func decode<T: Decodable>(_ type: T.Type, session: DecodingSession) throws -> DecodingReport<T> {
        let document = Document(session: session)
        if document.hasErrors { throw DocumentErrors(document: document) }
        return try session.run { decoder in
            let value = try decoder.unbox(T.self, rootNode(for: T.self), key: nil)
            return DecodingReport(
                value: value, skipped: decoder.skippedResources(), problems: decoder.decodingProblems(),
                document: document)
        }
    }

    /// Models, unions, identifiers, arrays and optionals read the primary data; everything else
    /// reads the whole document.
    static func rootNode<T>(for type: T.Type) -> Node {
        if T.self is any DocumentDecodable.Type { return .document }
        if T.self is any JSONAPIResource.Type || T.self is any ResourceUnion.Type || T.self is any LinkageDecodable.Type
            || T.self is any LazyMarker.Type || T.self is any DecodableArrayMarker.Type
            || T.self is any DecodableOptionalMarker.Type
        {
            return .primary
        }
        return .document
    }
}
