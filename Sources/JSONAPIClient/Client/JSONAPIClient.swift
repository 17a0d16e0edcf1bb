import JSONAPI

/// An async client for a JSON:API server: typed reads and writes, pagination, relationship and
/// Atomic Operations requests, over any HTTP library.
///
/// Response bodies are parsed while they arrive: each chunk the transport hands over goes
/// straight into a `DocumentParser` sized by `Content-Length`, so a large compound document
/// is already parsed when its last byte lands, and a malformed one fails at the chunk that
/// breaks it.
///
/// ```swift
/// let client = JSONAPIClient(baseURL: "https://api.example.com", transport: URLSessionTransport())
/// let articles = client.resources(Article.self)
///
/// let page = try await articles.list(JSONAPIQuery().including("author").sorted(by: "-createdAt"))
/// for article in page.value { print(article.title, article.author.name) }
///
/// let created = try await articles.create(NewArticle(title: "Hello", author: "9"))
/// print(created.status, created.resource?.id ?? "")                     // 201 "13"
/// ```
///
/// Every failure is a ``JSONAPIClientError``. A ``ResourceStore`` given to the client takes in
/// every resource of every successful response.
public final class JSONAPIClient: Sendable {
    /// How the client builds requests and reads responses.
    public struct Configuration: Sendable {
        /// Where endpoints go. Default ``JSONAPIDefaultRouter``.
        public var router: any JSONAPIRouter = JSONAPIDefaultRouter()
        /// Extension URIs sent as the `ext` parameter of `Accept` and `Content-Type`.
        public var extensions: [String] = []
        /// Profile URIs sent as the `profile` parameter of `Accept` and `Content-Type`.
        public var profiles: [String] = []
        /// Header fields added to every request (authorization, tracing); a request's own headers
        /// replace fields of the same name.
        public var headers: JSONAPIHTTPHeaders = [:]
        /// How long a request may take, from sending it to the last byte of the body; nil for no
        /// limit. Default 60 seconds.
        public var timeout: Duration? = .seconds(60)
        /// The longest response body read, in bytes. Default 1 GiB; at most
        /// `ParsingOptions.maximumDocumentBytes`'s ceiling. A longer body (by its `Content-Length`
        /// or as it arrives) is ``JSONAPIClientError/Kind/responseTooLarge``.
        public var maximumResponseBytes: Int = 1 << 30
        /// How documents are decoded into models; its `parsing` options (strictness, depth,
        /// backend) parse every response.
        public var decoding = DecodingOptions()
        /// How models are encoded into request bodies.
        public var encoding = EncodingOptions()
        /// How responses are cached and writes made conditional. Default on, 32 MiB.
        public var caching = Caching()
        /// How long a read's answer is given again from ``JSONAPIClient/store``: a `GET` the
        /// server answered with resources, repeated within this time with the same URL and header
        /// fields, is answered with the store's current copies of those resources, the members
        /// each came with and the same top-level `meta` and `links`, without a request
        /// (``JSONAPIResponseSource/store``). A successful write forgets every such answer, and
        /// one whose resources the store no longer holds all goes to the server. Nil (the
        /// default) sends every read; without a store it has no effect.
        public var queryLifetime: Duration?
        /// When failed requests are sent again; nil (the default) sends each once.
        public var retries: RetryPolicy?
        /// The chain each attempt of a request goes through, first to last, before the transport
        /// (authentication, tracing, logging). Default none.
        public var interceptors: [any JSONAPIInterceptor] = []

        /// The default configuration.
        public init() {}

        /// Throws when an option is out of range.
        public func validate() throws(JSONAPIError) {
            guard maximumResponseBytes > 0 else {
                throw JSONAPIError(.invalidOption, "maximumResponseBytes must be positive")
            }
            if let timeout, timeout <= .zero {
                throw JSONAPIError(.invalidOption, "timeout must be positive")
            }
            guard caching.maximumBytes >= 0 else {
                throw JSONAPIError(.invalidOption, "caching.maximumBytes must not be negative")
            }
            if let queryLifetime, queryLifetime <= .zero {
                throw JSONAPIError(.invalidOption, "queryLifetime must be positive")
            }
            try retries?.validate()
            try decoding.validate()
        }
    }

    /// The URL every endpoint path is appended to, without a trailing `/`.
    public let baseURL: String
    /// The settings.
    public let configuration: Configuration
    /// The identity map every successful response is merged into, when there is one.
    public let store: ResourceStore?
    let transport: any JSONAPITransport
    /// The answers ``Configuration/caching`` keeps.
    let httpCache = HTTPResponseCache()
    /// The reads ``Configuration/queryLifetime`` answers again from the store.
    let rememberedQueries = RememberedQueries()

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: The server's URL up to the endpoint paths, such as `https://api.example.com/v1`.
    ///   - transport: The HTTP library that carries requests.
    ///   - configuration: Routing, headers, timeout, limits, decoding and encoding.
    ///   - store: A store to merge every successful response into.
    public init(
        baseURL: String, transport: some JSONAPITransport, configuration: Configuration = Configuration(),
        store: ResourceStore? = nil
    ) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.transport = transport
        self.configuration = configuration
        self.store = store
    }

    /// The typed requests of one resource type.
    ///
    /// ```swift
    /// let article = try await client.resources(Article.self).get(id: "1").value
    /// ```
    public func resources<Model: JSONAPIResource & Decodable>(_ type: Model.Type) -> JSONAPIResources<Model> {
        JSONAPIResources(client: self)
    }

    /// The URL of `endpoint` with `query`.
    public func url(for endpoint: JSONAPIEndpoint, query: JSONAPIQuery? = nil) -> String {
        let path = configuration.router.path(for: endpoint)
        let queryString = query?.queryString ?? ""
        return baseURL + path + (queryString.isEmpty ? "" : "?" + queryString)
    }

    /// `href` (a `links` member such as `next`) as an absolute URL: as it is when it has a
    /// scheme, otherwise resolved against ``baseURL``'s origin (`/path`) or the base URL itself.
    public func absoluteURL(_ href: String) -> String {
        if href.contains("://") { return href }
        if href.hasPrefix("/") {
            guard let scheme = baseURL.range(of: "://") else { return baseURL + href }
            let afterScheme = baseURL[scheme.upperBound...]
            let origin = afterScheme.firstIndex(of: "/").map { baseURL[..<$0] } ?? baseURL[...]
            return origin + href
        }
        return baseURL + "/" + href
    }

    /// The JSON:API media type with the configured extensions and profiles (and `extraExtensions`).
    func mediaType(extraExtensions: [String] = []) -> String {
        JSONAPIMediaType(extensions: configuration.extensions + extraExtensions, profiles: configuration.profiles)
            .description
    }

    /// A request to `url` with the JSON:API `Accept` (and `Content-Type` when there is a body),
    /// the configured headers, then `headers`.
    public func request(
        _ method: String, _ url: String, body: [UInt8]? = nil, headers: JSONAPIHTTPHeaders = [:],
        extensions: [String] = []
    ) -> JSONAPIHTTPRequest {
        var fields = JSONAPIHTTPHeaders()
        let media = mediaType(extraExtensions: extensions)
        fields.add(name: "Accept", value: media)
        if body != nil { fields.add(name: "Content-Type", value: media) }
        for field in configuration.headers { fields.replaceOrAdd(name: field.name, value: field.value) }
        for field in headers { fields.replaceOrAdd(name: field.name, value: field.value) }
        return JSONAPIHTTPRequest(
            method: method, url: Self.wellFormed(url), headers: fields, body: body, timeout: configuration.timeout)
    }

    /// `url` with every byte RFC 3986 does not allow in a path or query percent-encoded: the
    /// brackets JSON:API's query parameters keep readable (`fields[articles]`), spaces, quotes,
    /// non-ASCII text. An existing `%XX` stays as it is, and so do the brackets of an IPv6 host.
    ///
    /// Servers decode `%5B` and `[` alike; HTTP libraries do not all accept the raw brackets (and
    /// some encode the URL's `%` again when they meet them).
    public static func wellFormed(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var start = 0
        if let scheme = url.range(of: "://") {
            start = url.utf8.distance(from: url.startIndex, to: scheme.upperBound)
            while start < bytes.count, bytes[start] != UInt8(ascii: "/"), bytes[start] != UInt8(ascii: "?") {
                start += 1
            }
        }
        var output = Array(bytes[..<start])
        output.reserveCapacity(bytes.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in bytes[start...] {
            if allowedInURL[Int(byte)] {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters, the sub-delimiters, `:@/?` and `%`.
    private static let allowedInURL: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()
}
