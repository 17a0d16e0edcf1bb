import JSONAPI
import NIOConcurrencyHelpers
import Vapor

extension Request {
    /// Reads the body as a JSON:API document of `kind`, feeding it to ``JSONAPI/DocumentParser``
    /// buffer by buffer as it arrives.
    ///
    /// On a route registered with `body: .stream` (as ``Vapor/RoutesBuilder/jsonapiResource(_:_:)``
    /// does for its write endpoints) the body is never collected: each buffer is parsed as it
    /// comes off the socket, and a body past ``JSONAPI/JSONAPIConfiguration/maximumBodyBytes``
    /// fails at the buffer that crosses it. On a collecting route the collected buffer is parsed
    /// (Vapor's own limit for collected bodies, 16 KiB unless configured, applies first).
    ///
    /// ```swift
    /// app.on(.POST, "articles", body: .stream) { request async throws -> JSONAPIResponse in
    ///     let document = try await request.jsonapiDocument(kind: .createRequest, configuration: configuration)
    ///     ...
    /// }
    /// ```
    ///
    /// - Throws: ``JSONAPI/JSONAPIHTTPError`` 415 when `Content-Type` is not the JSON:API media type
    ///   (or has parameters ``JSONAPI/JSONAPINegotiation`` refuses) or 413 when `Content-Length`
    ///   exceeds ``JSONAPI/JSONAPIConfiguration/maximumBodyBytes``; ``JSONAPI/JSONAPIError`` 413
    ///   when the bytes received exceed it, 400 when the body is not a valid document of that kind;
    ///   ``JSONAPI/JSONAPIHTTPError/incompleteBody()`` (400) when the connection does not deliver
    ///   the whole body.
    public func jsonapiDocument(
        kind: ParsingOptions.Kind, configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) async throws -> Document {
        _ = try jsonapiRequestMediaType(configuration: configuration)
        let parser = try configuration.bodyParser(kind: kind, contentLength: headers.first(name: .contentLength))
        if let collected = body.data {
            var parser = parser
            try collected.withUnsafeReadableBytes { bytes in try parser.feed(bytes) }
            return try parser.finish()
        }
        return try await BodyFeed(parser: parser).run(body, on: eventLoop)
    }

    /// Reads the body as a document of `kind` and decodes its primary data as `T` with `decoder`.
    ///
    /// ```swift
    /// let patch = try await request.jsonapiDecode(ArticlePatch.self, kind: .updateRequest)
    /// ```
    ///
    /// - Throws: As ``jsonapiDocument(kind:configuration:)``; a `DecodingError` (422 through
    ///   ``JSONAPIMiddleware``) when the document does not fit `T`.
    public func jsonapiDecode<T: Decodable>(
        _ type: T.Type, kind: ParsingOptions.Kind, decoder: JSONAPIDecoder = JSONAPIDecoder(),
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) async throws -> T {
        let document = try await jsonapiDocument(kind: kind, configuration: configuration)
        return try decoder.decode(T.self, from: document)
    }

    /// The query parameters, read from the raw (percent-encoded) query string and checked against
    /// `rules`.
    ///
    /// - Throws: ``JSONAPI/QueryFailure`` (400, every problem at once).
    public func jsonapiQuery(rules: QueryRules, options: QueryOptions = QueryOptions()) throws -> JSONAPIQuery {
        try JSONAPIQuery(parsing: url.query ?? "", rules: rules, options: options)
    }

    /// The request's path and query as the client sent them, for pagination links
    /// (``JSONAPI/JSONAPIQuery/Page/links(forRequest:result:)``).
    public var jsonapiTarget: String { url.query.map { "\(url.path)?\($0)" } ?? url.path }

    /// The JSON:API media type of the request body.
    ///
    /// - Throws: ``JSONAPI/NegotiationFailure`` (415) for forbidden or unsupported parameters,
    ///   ``JSONAPI/JSONAPIHTTPError`` (415) when the body is of another media type or has none.
    public func jsonapiRequestMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try configuration.requestMediaType(contentType: headers.first(name: .contentType))
    }

    /// The media type to answer with, chosen from `Accept`.
    ///
    /// - Throws: ``JSONAPI/NegotiationFailure`` (406) when `Accept` allows no usable JSON:API
    ///   media type.
    public func jsonapiResponseMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try configuration.responseMediaType(accept: headers.first(name: .accept))
    }
}

/// Feeds a streamed body to a parser through `drain`, which serves every body storage Vapor has
/// (streamed, collected, none); the next buffer is read only once the previous one is parsed.
///
/// `@unchecked Sendable`: the parser (not `Sendable`: it owns a mutable buffer) is reached only
/// inside the lock, from the event loop's drain callbacks one at a time.
final class BodyFeed: @unchecked Sendable {
    private struct State {
        var parser: DocumentParser
        var done = false
    }
    private let state: NIOLockedValueBox<State>

    init(parser: DocumentParser) {
        state = NIOLockedValueBox(State(parser: parser))
    }

    func run(_ body: Request.Body, on eventLoop: any EventLoop) async throws -> Document {
        let promise = eventLoop.makePromise(of: Document.self)
        body.drain { result in
            let outcome: Result<Document, any Error>? = self.state.withLockedValue { state in
                guard !state.done else { return nil }
                do {
                    switch result {
                    case .buffer(let buffer):
                        try buffer.withUnsafeReadableBytes { bytes in try state.parser.feed(bytes) }
                        return nil
                    case .error:
                        throw JSONAPIHTTPError.incompleteBody()
                    case .end:
                        state.done = true
                        return .success(try state.parser.finish())
                    }
                } catch {
                    state.done = true
                    return .failure(error)
                }
            }
            switch outcome {
            case nil: return eventLoop.makeSucceededVoidFuture()
            case .success(let document):
                promise.succeed(document)
                return eventLoop.makeSucceededVoidFuture()
            case .failure(let error):
                promise.fail(error)
                // Stops the stream: the rest of the body is not read.
                return eventLoop.makeFailedFuture(error)
            }
        }
        return try await promise.futureResult.get()
    }
}
