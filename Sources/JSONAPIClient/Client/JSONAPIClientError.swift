import JSONAPI

/// Why a request through ``JSONAPIClient`` failed: one error type, with a ``kind`` for each
/// distinct failure, the request it belongs to, and what the server said.
///
/// The client's methods throw only this type, yet are declared `throws` rather than
/// `throws(JSONAPIClientError)`: Swift 6.3's compiler crashes compiling a `catch let error as T
/// where …` (or any catch that does not catch everything) around a call with a typed throw of a
/// struct that holds references, which is how callers usually catch this error.
///
/// ```swift
/// do {
///     _ = try await client.resources(Article.self).get(id: "1")
/// } catch let error as JSONAPIClientError where error.kind == .errorResponse {
///     print(error.status ?? 0, error.errors.map(\.detail))   // 404 ["no articles `1`"]
/// }
/// ```
public struct JSONAPIClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String {
            case errorResponse = "error response"
            case preconditionFailed = "precondition failed"
            case unexpectedStatus = "unexpected status"
            case unsupportedMediaType = "unsupported media type"
            case invalidDocument = "invalid document"
            case unexpectedDocument = "unexpected document"
            case truncatedBody = "truncated body"
            case responseTooLarge = "response too large"
            case timeout
            case cancelled
            case transport
            case invalidRequest = "invalid request"
            case decoding
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A status of 400 or more with a JSON:API error document; ``errors`` holds its error objects.
        public static let errorResponse = Kind(.errorResponse)
        /// `412 Precondition Failed`: the request's `If-Match` names a representation that is no
        /// longer current (someone changed the resource since it was read); ``errors`` holds the
        /// error objects when the body is an error document. Read the resource again before
        /// writing it.
        public static let preconditionFailed = Kind(.preconditionFailed)
        /// A status the request does not expect (a 3xx, or a 4xx/5xx whose body is no error document).
        public static let unexpectedStatus = Kind(.unexpectedStatus)
        /// A body whose `Content-Type` is not `application/vnd.api+json` (or has parameters JSON:API forbids).
        public static let unsupportedMediaType = Kind(.unsupportedMediaType)
        /// A body that is not a valid JSON:API document; ``parsingError`` says where.
        public static let invalidDocument = Kind(.invalidDocument)
        /// A valid document of the wrong shape for the request, such as no primary resource.
        public static let unexpectedDocument = Kind(.unexpectedDocument)
        /// The body ended before its `Content-Length`, or the connection failed while it arrived.
        public static let truncatedBody = Kind(.truncatedBody)
        /// The body is longer than ``JSONAPIClient/Configuration/maximumResponseBytes``.
        public static let responseTooLarge = Kind(.responseTooLarge)
        /// The request took longer than its timeout.
        public static let timeout = Kind(.timeout)
        /// The task making the request was cancelled.
        public static let cancelled = Kind(.cancelled)
        /// The transport could not send the request or receive the response head.
        public static let transport = Kind(.transport)
        /// The request could not be made: an unusable base URL, an empty id, a body that cannot be encoded.
        public static let invalidRequest = Kind(.invalidRequest)
        /// The document is valid but does not decode into the requested model.
        public static let decoding = Kind(.decoding)

        /// The kind's name.
        public var description: String { value.rawValue }
    }

    /// What went wrong.
    public var kind: Kind
    /// The request's method.
    public var method: String
    /// The request's URL.
    public var url: String
    /// The response status, when a response head arrived.
    public var status: Int?
    /// The response's header fields, when a response head arrived (`Retry-After`, rate limits).
    public var headers: JSONAPIHTTPHeaders = [:]
    /// The error objects of an error document (``Kind/errorResponse``).
    public var errors: [JSONAPIErrorObject]
    /// The parser's error, for ``Kind/invalidDocument`` (with its byte offset and JSON Pointer).
    public var parsingError: JSONAPIError?
    /// What the transport, the decoder or the encoder threw, when the failure started there.
    public var underlying: (any Error)?
    /// A sentence saying what happened.
    public var message: String

    /// Creates an error.
    public init(
        _ kind: Kind, method: String, url: String, status: Int? = nil, errors: [JSONAPIErrorObject] = [],
        parsingError: JSONAPIError? = nil, underlying: (any Error)? = nil, message: String
    ) {
        self.kind = kind
        self.method = method
        self.url = url
        self.status = status
        self.errors = errors
        self.parsingError = parsingError
        self.underlying = underlying
        self.message = message
    }

    /// `METHOD URL: kind (status): message`, then one line per error object.
    public var description: String {
        var text = "\(method) \(url): \(kind)"
        if let status { text += " (\(status))" }
        text += ": " + message
        for error in errors {
            let parts = [error.status, error.code, error.title, error.detail, error.source?.pointer.map { "at " + $0 }]
            text += "\n  - " + parts.compactMap { $0 }.joined(separator: " ")
        }
        return text
    }
}

extension JSONAPIClientError {
    /// The error objects about one property of the model a request sent: those whose
    /// `source.pointer` is the member the property is written as, or a place inside it, in the
    /// order the server listed them. For a form, each field shows the problems of its property.
    ///
    /// The member is found as `JSONAPIErrorObject.pointer(to:keys:resourcePointer:)` finds it:
    /// `\Article.title` is `/data/attributes/title`, `\Article.author` is
    /// `/data/relationships/author`, and the name goes through `keys`, the key strategy the
    /// request's body was written with (the client's `configuration.encoding`).
    ///
    /// ```swift
    /// do {
    ///     _ = try await client.resources(Article.self).create(draft)
    /// } catch let error as JSONAPIClientError where error.kind == .errorResponse {
    ///     let titleProblems = error.problems(for: \Article.title).compactMap(\.detail)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A stored property of the model (or a path into one).
    ///   - keys: How the request wrote member names.
    ///   - resourcePointer: Where the resource object was in the request: `/data`, or
    ///     `/atomic:operations/2/data` for the third operation of an Atomic Operations request.
    /// - Returns: The matching error objects; none for a key path that names no member.
    public func problems<Model: JSONAPIResource>(
        for keyPath: PartialKeyPath<Model>, keys: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        resourcePointer: String = "/data"
    ) -> [JSONAPIErrorObject] {
        let pointer = JSONAPIErrorObject.pointer(to: keyPath, keys: keys, resourcePointer: resourcePointer)
        guard pointer != resourcePointer else { return [] }
        return errors.filter { error in
            guard let found = error.source?.pointer else { return false }
            return found == pointer || found.hasPrefix(pointer + "/")
        }
    }
}
