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
    ///   refuses), 413 when `Content-Length` or the bytes received exceed
    ///   ``JSONAPIConfiguration/maximumBodyBytes``; ``JSONAPIError`` (400, 413) when the body is
    ///   not a valid document of that kind.
    public func jsonapiDocument(
        kind: ParsingOptions.Kind, configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) async throws -> Document {
        _ = try jsonapiRequestMediaType(configuration: configuration)
        var expected = 0
        if let declared = headers[.contentLength] {
            guard let count = Int(declared), count >= 0 else {
                throw JSONAPIHTTPError(status: 400, title: "Bad Request", detail: "invalid Content-Length")
            }
            if count > configuration.maximumBodyBytes {
                throw JSONAPIHTTPError.bodyTooLarge(limit: configuration.maximumBodyBytes)
            }
            expected = count
        }
        return try await JSONAPIBodyReader.parse(
            body, options: configuration.parsingOptions(kind: kind), expectedByteCount: expected,
            limit: configuration.maximumBodyBytes)
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

    /// The JSON:API media type of the request body.
    ///
    /// - Throws: ``NegotiationFailure`` (415) for forbidden or unsupported parameters,
    ///   ``JSONAPIHTTPError`` (415) when the body is of another media type or has none.
    public func jsonapiRequestMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        let header = headers[.contentType]
        let checked = JSONAPINegotiation.checkContentType(
            header, supportedExtensions: configuration.supportedExtensions, version: configuration.specVersion)
        switch checked {
        case .failure(let failure): throw failure
        case .success(let type?): return type
        case .success(nil):
            throw JSONAPIHTTPError.unsupportedMediaType(
                "the request body must be sent as \(JSONAPIMediaType.base) (Content-Type is \(header.map { "`\($0)`" } ?? "absent"))"
            )
        }
    }

    /// The media type to answer with, chosen from `Accept`.
    ///
    /// - Throws: ``NegotiationFailure`` (406) when `Accept` allows no usable JSON:API media type.
    public func jsonapiResponseMediaType(
        configuration: JSONAPIConfiguration = JSONAPIConfiguration()
    ) throws -> JSONAPIMediaType {
        try JSONAPINegotiation.negotiateAccept(
            headers[.accept], supportedExtensions: configuration.supportedExtensions,
            supportedProfiles: configuration.supportedProfiles, version: configuration.specVersion
        ).get()
    }
}

/// Feeds a body into ``DocumentParser`` as it arrives, counting bytes against a limit.
enum JSONAPIBodyReader {
    /// Parses a sequence of buffers; generic so the limit and streaming can be tested without a
    /// server (a chunked request has no `Content-Length`, so the count is the only bound).
    static func parse<Body: AsyncSequence>(
        _ body: Body, options: ParsingOptions, expectedByteCount: Int, limit: Int
    ) async throws -> Document where Body.Element == ByteBuffer {
        var parser = DocumentParser(options: options, expectedByteCount: expectedByteCount)
        var received = 0
        for try await buffer in body {
            received += buffer.readableBytes
            if received > limit { throw JSONAPIHTTPError.bodyTooLarge(limit: limit) }
            try buffer.withUnsafeReadableBytes { bytes in try parser.feed(bytes) }
        }
        return try parser.finish()
    }
}
