/// An error answered with a JSON:API error document: throw it from a handler for a 404, a 409, a
/// 403, ... with the error objects the client should see.
///
/// It conforms to ``JSONAPIErrorConvertible``, so the status mapping of the core (and of the
/// server adapters' middleware) answers it with its own error objects. The adapters also make it
/// a response of their framework: Hummingbird's `HTTPResponseError` in `JSONAPIHummingbird`,
/// Vapor's `AbortError` in `JSONAPIVapor`.
///
/// ```swift
/// guard let article = store.article(id) else {
///     throw JSONAPIHTTPError.notFound("There is no article with id \(id).")
/// }
/// ```
public struct JSONAPIHTTPError: Error, Sendable, JSONAPIErrorConvertible {
    /// The error objects, at least one.
    public var errors: [JSONAPIErrorObject]
    /// The methods the target serves, for the `Allow` header of a 405 (``methodNotAllowed(_:allowed:)``);
    /// empty for every other error.
    public var allowedMethods: [String] = []
    /// How many seconds to wait before asking again, for the `Retry-After` header of a 503
    /// (``serviceUnavailable(_:retryAfter:)``); nil for every other error.
    public var retryAfterSeconds: Int?

    /// The header fields the error's response carries besides `Content-Type`: `Allow` for a 405,
    /// `Retry-After` for a 503. The adapters write them wherever they answer the error.
    public var headerFields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        if !allowedMethods.isEmpty { fields.append(("Allow", Self.allowHeader(allowedMethods))) }
        if let retryAfterSeconds { fields.append(("Retry-After", String(max(retryAfterSeconds, 0)))) }
        return fields
    }

    /// Creates an error from error objects; an empty list stands for a generic 500.
    public init(_ errors: [JSONAPIErrorObject]) {
        self.errors = errors.isEmpty ? [.internalServerError] : errors
    }

    /// Creates an error with one error object.
    public init(
        status: Int, code: String? = nil, title: String, detail: String? = nil,
        source: JSONAPIErrorObject.Source? = nil
    ) {
        self.init([JSONAPIErrorObject(status: status, code: code, title: title, detail: detail, source: source)])
    }

    /// The error document's error objects.
    public var jsonapiErrors: [JSONAPIErrorObject] { errors }

    /// The status of the error document (see ``JSONAPIErrorDocument/httpStatus``).
    public var httpStatus: Int { JSONAPIErrorDocument(errors: errors).httpStatus }

    /// 400 Bad Request.
    public static func badRequest(_ detail: String? = nil, source: JSONAPIErrorObject.Source? = nil)
        -> JSONAPIHTTPError
    {
        JSONAPIHTTPError(status: 400, code: "bad-request", title: "Bad Request", detail: detail, source: source)
    }

    /// 400 Bad Request for a body the connection did not deliver whole: it ended before its
    /// `Content-Length`, or its chunked encoding was broken. What was received is not parsed as
    /// if it were the whole document.
    public static func incompleteBody() -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 400, code: "incomplete-body", title: "Incomplete request body",
            detail: "the request body ended before it was complete")
    }

    /// 404 Not Found.
    public static func notFound(_ detail: String? = nil) -> JSONAPIHTTPError {
        JSONAPIHTTPError(status: 404, code: "not-found", title: "Not Found", detail: detail)
    }

    /// 403 Forbidden, such as a client-generated id the server does not accept.
    public static func forbidden(_ detail: String? = nil) -> JSONAPIHTTPError {
        JSONAPIHTTPError(status: 403, code: "forbidden", title: "Forbidden", detail: detail)
    }

    /// 409 Conflict: a type that does not match the endpoint, or an id already taken.
    public static func conflict(_ detail: String? = nil, pointer: String? = nil) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 409, code: "conflict", title: "Conflict", detail: detail, source: pointer.map { .pointer($0) })
    }

    /// 405 Method Not Allowed: the path names a resource, but not one the method applies to.
    ///
    /// The response must list the methods that do apply in an `Allow` header
    /// (``allowHeader(_:)``): the error keeps them in ``allowedMethods``, and the adapters write
    /// that header for it wherever they answer it.
    ///
    /// - Parameters:
    ///   - method: The method of the request (`PUT`).
    ///   - allowed: The methods the path serves (`GET`, `PATCH`, `DELETE`).
    public static func methodNotAllowed(_ method: String, allowed: [String]) -> JSONAPIHTTPError {
        var error = JSONAPIHTTPError(
            status: 405, code: "method-not-allowed", title: "Method Not Allowed",
            detail: "\(method) is not allowed here; this resource allows \(allowHeader(allowed))")
        error.allowedMethods = allowed
        return error
    }

    /// 503 Service Unavailable with `Retry-After`: a store the service needs cannot be reached
    /// now (a database that is down or whose connections are all busy past their timeout).
    ///
    /// - Parameters:
    ///   - detail: What is unavailable, for the client: never a driver's message.
    ///   - retryAfter: Seconds to wait before asking again. Default 5.
    public static func serviceUnavailable(_ detail: String, retryAfter: Int = 5) -> JSONAPIHTTPError {
        var error = JSONAPIHTTPError(
            status: 503, code: "service-unavailable", title: "Service Unavailable", detail: detail)
        error.retryAfterSeconds = retryAfter
        return error
    }

    /// The value of an `Allow` header (RFC 9110 §10.2.1) listing `methods`: comma-separated, in
    /// the order given, without repeats.
    public static func allowHeader(_ methods: [String]) -> String {
        var seen = Set<String>()
        return methods.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    /// 413 Content Too Large: the body is longer than the service reads.
    public static func bodyTooLarge(limit: Int) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 413, code: "body-too-large", title: "Request body too large",
            detail: "the request body is longer than \(limit) bytes")
    }

    /// 415 Unsupported Media Type for a body that is not `application/vnd.api+json`.
    public static func unsupportedMediaType(_ detail: String) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 415, code: "unsupported-media-type", title: "Unsupported Media Type", detail: detail,
            source: .header("Content-Type"))
    }

    /// The error objects for an error a server framework raised itself (an unknown route, a
    /// method not allowed, ...), from its status alone.
    ///
    /// A 4xx keeps its status with `reasonPhrase` as title; anything else is the generic 500. The
    /// framework error's message is never used: it can hold internal details.
    public static func errorObjects(frameworkStatus status: Int, reasonPhrase: String) -> [JSONAPIErrorObject] {
        guard (400..<500).contains(status) else { return [.internalServerError] }
        return [JSONAPIErrorObject(status: status, title: reasonPhrase)]
    }
}

extension JSONAPIErrorDocument {
    /// The document's bytes for a response: it cannot fail. An error document holds only strings
    /// and objects built from them; should one ever fail to write, the generic 500 document
    /// stands in, since an error response is the answer of last resort.
    public func responseBytes(options: JSONWritingOptions = JSONWritingOptions()) -> [UInt8] {
        (try? jsonBytes(options: options))
            ?? Array(#"{"errors":[{"status":"500","title":"Internal Server Error"}]}"#.utf8)
    }
}

extension JSONAPIConfiguration {
    /// The JSON:API media type of a request body, from its `Content-Type` header.
    ///
    /// - Throws: ``NegotiationFailure`` (415) for forbidden or unsupported parameters,
    ///   ``JSONAPIHTTPError`` (415) when the body is of another media type or has none.
    public func requestMediaType(contentType header: String?) throws -> JSONAPIMediaType {
        switch JSONAPINegotiation.checkContentType(
            header, supportedExtensions: supportedExtensions, version: specVersion)
        {
        case .failure(let failure): throw failure
        case .success(let type?): return type
        case .success(nil):
            throw JSONAPIHTTPError.unsupportedMediaType(
                "the request body must be sent as \(JSONAPIMediaType.base) (Content-Type is \(header.map { "`\($0)`" } ?? "absent"))"
            )
        }
    }

    /// The media type to answer with, from the request's `Accept` header.
    ///
    /// - Throws: ``NegotiationFailure`` (406) when `Accept` allows no usable JSON:API media type.
    public func responseMediaType(accept header: String?) throws -> JSONAPIMediaType {
        try JSONAPINegotiation.negotiateAccept(
            header, supportedExtensions: supportedExtensions, supportedProfiles: supportedProfiles,
            version: specVersion
        ).get()
    }

    /// The checks a middleware makes before any handler runs: a `Content-Type` of the JSON:API
    /// media type must have no parameter but a supported `ext` or `profile` (415), and `Accept`
    /// must allow a usable JSON:API media type (406). A request of another media type passes: the
    /// handler that reads a body refuses it.
    ///
    /// - Throws: ``NegotiationFailure``.
    public func negotiate(contentType: String?, accept: String?) throws {
        if case .failure(let failure) = JSONAPINegotiation.checkContentType(
            contentType, supportedExtensions: supportedExtensions, version: specVersion)
        {
            throw failure
        }
        _ = try responseMediaType(accept: accept)
    }

    /// Whether an answer of `contentType`, a media type other than JSON:API's, may go to a
    /// request whose `Accept` refused the JSON:API media type (a 406 from
    /// ``negotiate(contentType:accept:)``): `Accept` allows that type
    /// (``JSONAPINegotiation/accepts(_:type:subtype:)``). The middlewares ask it for a safe
    /// request refused by `Accept` after the route answered, so that a route serving another
    /// media type (a service's OpenAPI document, `application/json`) answers a client that asks
    /// for that type. A JSON:API answer, or none, is false: the 406 stands.
    public func allowsAnswer(of contentType: String?, accept: String?) -> Bool {
        guard let contentType, let range = MediaRange(parsing: Array(contentType.utf8)[...], inAccept: false),
            !range.isJSONAPI
        else { return false }
        return JSONAPINegotiation.accepts(accept, type: range.type, subtype: range.subtype)
    }

    /// The body length a request declares in `Content-Length`, checked against
    /// ``maximumBodyBytes``: the size hint for ``DocumentParser``, or 0 when it declares none.
    ///
    /// - Throws: ``JSONAPIHTTPError`` 400 for a value that is not a length, 413 past the limit.
    public func declaredBodyBytes(contentLength header: String?) throws -> Int {
        guard let header else { return 0 }
        guard let count = Int(header), count >= 0 else {
            throw JSONAPIHTTPError.badRequest("invalid Content-Length", source: .header("Content-Length"))
        }
        if count > maximumBodyBytes { throw JSONAPIHTTPError.bodyTooLarge(limit: maximumBodyBytes) }
        return count
    }

    /// A parser for a request body of `kind`: the parsing options of that kind (its size limit
    /// capped by ``maximumBodyBytes``, so a longer body fails with 413 at the chunk that passes
    /// it) and the declared length as the buffer's size hint.
    ///
    /// ```swift
    /// var parser = try configuration.bodyParser(kind: .createRequest, contentLength: "120")
    /// for chunk in chunks { try parser.feed(chunk) }     // as the body arrives
    /// let document = try parser.finish()
    /// ```
    ///
    /// - Throws: As ``declaredBodyBytes(contentLength:)``.
    public func bodyParser(kind: ParsingOptions.Kind, contentLength: String?) throws -> DocumentParser {
        DocumentParser(
            options: parsingOptions(kind: kind), expectedByteCount: try declaredBodyBytes(contentLength: contentLength))
    }
}
