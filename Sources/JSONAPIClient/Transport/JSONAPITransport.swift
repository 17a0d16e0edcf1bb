import JSONAPI

/// Sends one HTTP request and hands back the response head and a stream of body chunks.
///
/// The client's logic (routing, headers, status handling, parsing while the body arrives,
/// errors) is written once against this protocol, so any HTTP library can carry it: the package
/// ships ``URLSessionTransport`` here and `AsyncHTTPClientTransport` in the
/// `JSONAPIAsyncHTTPClient` product. A transport of your own needs one method:
///
/// ```swift
/// struct RecordingTransport<Base: JSONAPITransport>: JSONAPITransport {
///     var base: Base
///     func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<Base.Body> {
///         print(request.method, request.url)
///         return try await base.send(request)
///     }
/// }
/// ```
///
/// The body's chunks may be any byte collection with contiguous storage (`[UInt8]`, `Data`,
/// NIO's `ByteBufferView`): the client feeds each straight into a `DocumentParser` without
/// copying it first.
///
/// A transport reports what went wrong in its own error type; it should throw
/// `CancellationError` when its task is cancelled, and may map its own timeouts to
/// ``JSONAPIClientError/Kind/timeout`` so that the client tells them apart from other failures.
public protocol JSONAPITransport: Sendable {
    /// The response body: byte chunks in the order they arrive.
    associatedtype Body: AsyncSequence, Sendable where Body.Element: Collection, Body.Element.Element == UInt8

    /// Sends `request`; returns once the response head has arrived, with the body still to read.
    func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<Body>
}

/// One HTTP request, as the client hands it to a ``JSONAPITransport``.
public struct JSONAPIHTTPRequest: Sendable, Hashable {
    /// The method: `GET`, `POST`, `PATCH` or `DELETE`.
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// The header fields, in order.
    public var headers: JSONAPIHTTPHeaders
    /// The body, when there is one.
    public var body: [UInt8]?
    /// How long the whole exchange may take, when the caller set a limit; a transport may use it
    /// for its own deadline (the client enforces it as well).
    public var timeout: Duration?
    /// Whether a ``JSONAPIClient/RetryPolicy`` may send the request again: nil (the default)
    /// decides by the method (never a `POST`); true for a `POST` that is safe to repeat (one
    /// with a client-chosen id, which the server refuses as a duplicate), false for a request
    /// that must go once.
    public var isRetryable: Bool?

    /// Creates a request.
    public init(
        method: String, url: String, headers: JSONAPIHTTPHeaders = [:], body: [UInt8]? = nil, timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A response head with its body still streaming, as a ``JSONAPITransport`` returns it.
public struct JSONAPITransportResponse<Body: AsyncSequence & Sendable>: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: JSONAPIHTTPHeaders
    /// The body chunks.
    public var body: Body

    /// Creates a response.
    public init(status: Int, headers: JSONAPIHTTPHeaders, body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// HTTP header fields in order, looked up by case-insensitive name.
public struct JSONAPIHTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// The name as it was given.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public var fields: [Field]

    /// Creates headers from fields.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates headers from `name: value` pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field called `name` (any case), or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// Every value of the field called `name` (any case), in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Adds a field after the others.
    public mutating func add(name: String, value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces every field called `name` (any case) with one holding `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        fields.removeAll { Self.same($0.name, name) }
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field called `name` (any case).
    public mutating func remove(name: String) { fields.removeAll { Self.same($0.name, name) } }

    /// The fields, in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
    }
}
