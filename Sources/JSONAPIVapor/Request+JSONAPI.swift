import JSONAPI
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
    ///
    /// A body refused before its end is still read off the connection and dropped, up to
    /// ``JSONAPI/JSONAPIConfiguration/maximumBodyBytes`` more, so the connection carries the next
    /// request; past that the adapter stops reading, and ``JSONAPIMiddleware`` answers with
    /// `Connection: close` and closes.
    public func jsonapiDocument(
        kind: ParsingOptions.Kind, configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) async throws -> Document {
        let parser: DocumentParser
        do {
            _ = try jsonapiRequestMediaType(configuration: configuration)
            parser = try configuration.bodyParser(kind: kind, contentLength: headers.first(name: .contentLength))
        } catch {
            // Refused by its headers: the body is still read off the connection (and dropped).
            guard body.data == nil else { throw error }
            return try await BodyFeed(failure: error, drainLimit: configuration.maximumBodyBytes).run(self)
        }
        if let collected = body.data {
            var parser = parser
            try collected.withUnsafeReadableBytes { bytes in try parser.feed(bytes) }
            return try parser.finish()
        }
        return try await BodyFeed(parser: parser, drainLimit: configuration.maximumBodyBytes).run(self)
    }

    /// Reads the body as a document of `kind` and decodes its primary data as `T` with `decoder`,
    /// listing every value that does not fit `T`, not only the first
    /// (``JSONAPI/JSONAPIDecoder/decodeListingProblems(_:from:)-(_,Document)``).
    ///
    /// ```swift
    /// let patch = try await request.jsonapiDecode(ArticlePatch.self, kind: .updateRequest)
    /// ```
    ///
    /// A body with a number for `title` and no `body` is answered (through
    /// ``JSONAPIMiddleware``) with one 422 error object for each, pointing at
    /// `/data/attributes/title` and at `/data`.
    ///
    /// - Throws: As ``jsonapiDocument(kind:configuration:)``; a ``JSONAPI/DecodingFailure`` (422
    ///   per problem, 409 for a primary resource of another type, through
    ///   ``JSONAPIMiddleware``) when the document does not fit `T`.
    public func jsonapiDecode<T: Decodable>(
        _ type: T.Type, kind: ParsingOptions.Kind, decoder: JSONAPIDecoder = JSONAPIDecoder(),
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) async throws -> T {
        let document = try await jsonapiDocument(kind: kind, configuration: configuration)
        return try decoder.decodeListingProblems(T.self, from: document)
    }

    /// The query parameters, read from the raw (percent-encoded) query string
    /// (``jsonapiRawQuery``) and checked against `rules`.
    ///
    /// - Throws: ``JSONAPI/QueryFailure`` (400, every problem at once).
    public func jsonapiQuery(rules: QueryRules, options: QueryOptions = QueryOptions()) throws -> JSONAPIQuery {
        try JSONAPIQuery(parsing: jsonapiRawQuery, rules: rules, options: options)
    }

    /// The request's path and query as the client sent them, for pagination links
    /// (``JSONAPI/JSONAPIQuery/Page/links(forRequest:result:)``).
    public var jsonapiTarget: String {
        let url = url
        let path = RequestTarget.clientSpelling(of: url.path, in: url)
        guard let query = url.query else { return path }
        return "\(path)?\(RequestTarget.clientSpelling(of: query, in: url))"
    }

    /// The query string as the client sent it, percent-encoded, without the `?`; empty when the
    /// target has none.
    ///
    /// Vapor keeps the request target only as `url`, which Foundation re-encodes when the target
    /// holds a character a URL may not (a raw `[` or `]`, a space): `page[size]=5&q=a%20b` becomes
    /// `page%5Bsize%5D=5&q=a%2520b`, one encoding too many. This undoes that, so a query means the
    /// same spelled raw, percent-encoded or mixed. A re-encoded target shows it (an escape other
    /// than `%25`, as of a raw `[`); the one spelling read wrongly is a fully encoded target that
    /// holds both another escape and an escaped `%` followed by two hex digits (`%2541`).
    public var jsonapiRawQuery: String {
        let url = url
        return url.query.map { RequestTarget.clientSpelling(of: $0, in: url) } ?? ""
    }

    /// The JSON:API media type of the request body.
    ///
    /// - Throws: ``JSONAPI/NegotiationFailure`` (415) for forbidden or unsupported parameters,
    ///   ``JSONAPI/JSONAPIHTTPError`` (415) when the body is of another media type or has none.
    public func jsonapiRequestMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try configuration.requestMediaType(contentType: jsonapiFieldValue(.contentType))
    }

    /// The media type to answer with, chosen from `Accept`.
    ///
    /// - Throws: ``JSONAPI/NegotiationFailure`` (406) when `Accept` allows no usable JSON:API
    ///   media type.
    public func jsonapiResponseMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try configuration.responseMediaType(accept: jsonapiFieldValue(.accept))
    }

    /// The value of header field `name` with all its lines combined, as RFC 9110 §5.3 reads
    /// repeated lines: joined by commas in order; nil when the request has none.
    ///
    /// Negotiation reads `Accept` and `Content-Type` through it, so two `Accept` lines are one list
    /// of media ranges, and two `Content-Type` lines (a field that may appear once) are refused by
    /// ``JSONAPI/JSONAPINegotiation`` as one malformed value.
    public func jsonapiFieldValue(_ name: HTTPHeaders.Name) -> String? {
        let lines = headers[name]
        return lines.isEmpty ? nil : lines.joined(separator: ", ")
    }
}
