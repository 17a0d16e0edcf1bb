/// What a JSON:API service accepts: body size, extensions and profiles, the negotiation rules,
/// the parsing limits and how responses are written.
///
/// The server adapters (`JSONAPIHummingbird`, `JSONAPIVapor`) share one value between their
/// middleware and their request helpers, so the middleware negotiates with the same extensions
/// the handlers apply. It holds no framework type: one configuration serves either.
///
/// ```swift
/// var configuration = JSONAPIConfiguration()
/// configuration.maximumBodyBytes = 256 * 1024
/// configuration.supportedExtensions = [AtomicOperations.extensionURI]
/// let options = configuration.parsingOptions(kind: .createRequest)
/// // options.kind == .createRequest, options.maximumDocumentBytes <= 256 KiB
/// ```
public struct JSONAPIConfiguration: Sendable {
    /// The largest request body read, in bytes; a longer one is answered with 413. Default 1 MiB:
    /// large enough for any ordinary write request, small enough that a client cannot make the
    /// server hold much memory per request.
    public var maximumBodyBytes: Int = 1 << 20
    /// Extension URIs the service applies (`ext` media type parameter). Default none; add
    /// ``AtomicOperations/extensionURI`` to serve Atomic Operations.
    public var supportedExtensions: Set<String> = []
    /// Profile URIs the service applies (`profile` media type parameter). Default none.
    public var supportedProfiles: Set<String> = []
    /// The content negotiation rules. Default JSON:API 1.1.
    public var specVersion: JSONAPINegotiation.SpecVersion = .v1_1
    /// Limits and strictness for request documents; the document kind is set by each request
    /// helper, and ``maximumBodyBytes`` caps ``ParsingOptions/maximumDocumentBytes``.
    public var parsingOptions = ParsingOptions()
    /// Limits for query strings.
    public var queryOptions = QueryOptions()
    /// How response documents are written (compact by default).
    public var writingOptions = JSONWritingOptions()

    /// Creates the default configuration.
    public init() {}

    /// The parsing options for one kind of request document: ``parsingOptions`` with `kind` set
    /// and ``ParsingOptions/maximumDocumentBytes`` capped by ``maximumBodyBytes``.
    public func parsingOptions(kind: ParsingOptions.Kind) -> ParsingOptions {
        var options = parsingOptions
        options.kind = kind
        options.maximumDocumentBytes = min(options.maximumDocumentBytes, max(maximumBodyBytes, 0))
        return options
    }
}
