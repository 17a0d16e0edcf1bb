import Hummingbird
import JSONAPI

extension Request {
    /// Reads the body as a JSON:API document of `kind`, streaming it into ``DocumentParser``
    /// buffer by buffer as it arrives.
    ///
    /// ```swift
    /// router.post("articles") { request, context in
    ///     let document = try await request.jsonapiDocument(kind: .createRequest, configuration: configuration)
    ///     ...
    /// }
    /// ```
    ///
    /// - Throws: ``JSONAPIHTTPError`` 415 when `Content-Type` is not the JSON:API media type (or
    ///   has parameters ``JSONAPINegotiation/checkContentType(_:supportedExtensions:version:)``
    ///   refuses) or 413 when `Content-Length` exceeds
    ///   ``JSONAPI/JSONAPIConfiguration/maximumBodyBytes``; ``JSONAPI/JSONAPIError`` 413 when the
    ///   bytes received exceed it, 400 when the body is not a valid document of that kind;
    ///   ``JSONAPI/JSONAPIHTTPError/incompleteBody()`` (400) when the connection does not deliver
    ///   the whole body.
    public func jsonapiDocument(
        kind: ParsingOptions.Kind, configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) async throws -> Document {
        _ = try jsonapiRequestMediaType(configuration: configuration)
        var parser = try configuration.bodyParser(kind: kind, contentLength: headers[.contentLength])
        var buffers = body.makeAsyncIterator()
        while true {
            let next: ByteBuffer?
            do {
                next = try await buffers.next()
            } catch {
                throw JSONAPIHTTPError.incompleteBody()
            }
            guard let buffer = next else { break }
            try buffer.withUnsafeReadableBytes { bytes in try parser.feed(bytes) }
        }
        return try parser.finish()
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

    /// The query parameters, read from the raw query string and checked against `rules`.
    ///
    /// Hummingbird's `uri.queryParameters` decodes values but not names, while JSON:API decodes
    /// both (`fields%5Bpeople%5D` is `fields[people]`), so this parses `uri.query` itself.
    ///
    /// - Throws: ``QueryFailure`` (400, every problem at once).
    public func jsonapiQuery(rules: QueryRules, options: QueryOptions = QueryOptions()) throws -> JSONAPIQuery {
        try JSONAPIQuery(parsing: uri.query ?? "", rules: rules, options: options)
    }

    /// The request's path and query as the client sent them, for pagination links
    /// (``JSONAPIQuery/Page/links(forRequest:result:)``).
    public var jsonapiTarget: String { uri.string }

    /// The query string as the client sent it, percent-encoded, without the `?`; empty when the
    /// target has none. Hummingbird keeps the request target as sent, so this is `uri.query`.
    public var jsonapiRawQuery: String { uri.query ?? "" }

    /// The JSON:API media type of the request body.
    ///
    /// - Throws: ``NegotiationFailure`` (415) for forbidden or unsupported parameters,
    ///   ``JSONAPIHTTPError`` (415) when the body is of another media type or has none.
    public func jsonapiRequestMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try configuration.requestMediaType(contentType: headers[.contentType])
    }

    /// The media type to answer with, chosen from `Accept`.
    ///
    /// - Throws: ``NegotiationFailure`` (406) when `Accept` allows no usable JSON:API media type.
    public func jsonapiResponseMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try configuration.responseMediaType(accept: headers[.accept])
    }
}
