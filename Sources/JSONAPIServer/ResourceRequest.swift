import JSONAPI

/// One request to a ``ResourceService``, in JSON:API's terms rather than a framework's: the
/// adapters (`JSONAPIHummingbird`, `JSONAPIVapor`) build it from theirs.
///
/// ```swift
/// let request = ResourceRequest(
///     method: "GET", type: "books", endpoint: .resource(id: "1"), query: "include=author",
///     target: "/books/1?include=author")
/// let response = try await service.respond(to: request)
/// ```
public struct ResourceRequest: Sendable {
    /// Which of a type's endpoints the request is for.
    public enum Endpoint: Sendable, Hashable {
        /// `/TYPE`.
        case collection
        /// `/TYPE/ID`.
        case resource(id: String)
        /// `/TYPE/ID/NAME`: the related resource or resources.
        case related(id: String, relationship: String)
        /// `/TYPE/ID/relationships/NAME`: the linkage.
        case relationship(id: String, relationship: String)
    }

    /// The method, upper case (`GET`, `HEAD`, `POST`, `PATCH`, `DELETE`).
    public var method: String
    /// The resource type of the path.
    public var type: String
    /// The endpoint.
    public var endpoint: Endpoint
    /// The query string as sent, without `?` (percent-encoded or raw).
    public var query: String
    /// The request target as the client sent it (path and query), for `self` and pagination links.
    public var target: String
    /// `If-Match`, when sent.
    public var ifMatch: String?
    /// `If-None-Match`, when sent.
    public var ifNoneMatch: String?
    /// Values the application attaches for its hooks and rules (the authenticated user, ...).
    public var userInfo: [String: any Sendable]
    /// Reads the body as a document of the given kind; the adapters parse it as it arrives,
    /// under the configuration's limits. The default has no body (a 400 when one is needed).
    public var body: @Sendable (ParsingOptions.Kind) async throws -> Document

    /// Creates a request.
    public init(
        method: String, type: String, endpoint: Endpoint, query: String = "", target: String? = nil,
        ifMatch: String? = nil, ifNoneMatch: String? = nil, userInfo: [String: any Sendable] = [:],
        body: @escaping @Sendable (ParsingOptions.Kind) async throws -> Document = { _ in
            throw JSONAPIHTTPError.badRequest("the request has no body")
        }
    ) {
        self.method = method.uppercased()
        self.type = type
        self.endpoint = endpoint
        self.query = query
        self.target =
            target ?? ResourceRequest.path(type: type, endpoint: endpoint) + (query.isEmpty ? "" : "?" + query)
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
        self.userInfo = userInfo
        self.body = body
    }

    /// A request whose body is `bytes`, parsed with the default options.
    public init(
        method: String, type: String, endpoint: Endpoint, query: String = "", target: String? = nil,
        ifMatch: String? = nil, ifNoneMatch: String? = nil, userInfo: [String: any Sendable] = [:],
        body bytes: [UInt8]
    ) {
        self.init(
            method: method, type: type, endpoint: endpoint, query: query, target: target, ifMatch: ifMatch,
            ifNoneMatch: ifNoneMatch, userInfo: userInfo,
            body: { kind in try Document(parsing: bytes, options: JSONAPIConfiguration().parsingOptions(kind: kind)) })
    }

    /// The path of an endpoint below the service's root: `/books/1/relationships/author`.
    static func path(type: String, endpoint: Endpoint) -> String {
        switch endpoint {
        case .collection: "/" + type
        case .resource(let id): "/\(type)/\(PathSegment.encode(id))"
        case .related(let id, let name): "/\(type)/\(PathSegment.encode(id))/\(name)"
        case .relationship(let id, let name): "/\(type)/\(PathSegment.encode(id))/relationships/\(name)"
        }
    }
}

/// A ``ResourceService``'s answer: the status, the document (nil for 204 and 304), and the
/// headers it sets.
public struct ResourceResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The document's bytes; nil when the response has no body.
    public var body: [UInt8]?
    /// `Location` of a created resource.
    public var location: String?
    /// The strong `ETag` of the representation (quoted), on reads.
    public var etag: String?
    /// The document as it is written, when it is streamed (``body`` is then nil): a collection
    /// whose declaration has ``ResourceDeclaration/streamsCollections``.
    public var chunks: ResourceBodyChunks?
    /// The URIs of the JSON:API profiles the document applies, for the `profile` parameter of its
    /// `Content-Type` (``ResourceService/filterProfile`` when a `filter` was applied).
    public var profiles: [String] = []

    /// Creates a response.
    public init(status: Int, body: [UInt8]? = nil, location: String? = nil, etag: String? = nil) {
        self.status = status
        self.body = body
        self.location = location
        self.etag = etag
    }
}

/// Percent-encoding of an id inside a path segment.
enum PathSegment {
    static func encode(_ value: String) -> String {
        // Most ids need no escape: the value itself, without building a copy.
        guard value.utf8.contains(where: { !isUnreserved($0) }) else { return value }
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 15))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The uppercase hexadecimal digit of `value` (0...15).
    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// RFC 3986's unreserved characters: the only bytes a segment keeps as they are.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
