import JSONAPI
import Vapor

/// A JSON:API response: a status, a document, and `Content-Type: application/vnd.api+json`
/// (with the `ext` and `profile` parameters of ``mediaType``, never `charset`).
///
/// Vapor's own `HTTPMediaType.jsonAPI` carries `charset=utf-8`, which JSON:API 1.1 forbids; this
/// type writes the header itself.
///
/// ```swift
/// app.get("articles", ":id") { request async throws -> JSONAPIResponse in
///     let article = try store.article(request.parameters.require("id"))
///     return try JSONAPIResponse(encoding: article, encoder: JSONAPIEncoder())
/// }
/// ```
public struct JSONAPIResponse: AsyncResponseEncodable, Sendable {
    /// The HTTP status.
    public var status: HTTPResponseStatus
    /// Further headers (`Location`, ...); `Content-Type` is set from ``mediaType``.
    public var headers: HTTPHeaders
    /// The media type written in `Content-Type`; nil for a response without a body (204).
    public var mediaType: JSONAPIMediaType?
    /// The document's bytes.
    public var body: ByteBuffer
    /// The document as it is written, sent chunk by chunk as they come (``body`` is then
    /// ignored): a document too large to hold, such as a streamed collection of `JSONAPIServer`.
    public var chunks: (any AsyncSequence<[UInt8], any Error> & Sendable)?

    /// A response whose body is `bytes`, already a JSON:API document.
    public init(
        status: HTTPResponseStatus = .ok, bytes: some Sequence<UInt8>,
        mediaType: JSONAPIMediaType = JSONAPIMediaType(), headers: HTTPHeaders = [:]
    ) {
        self.status = status
        self.headers = headers
        self.mediaType = mediaType
        self.body = ByteBuffer(bytes: bytes)
    }

    /// A response writing `document` (a parsed ``JSONAPI/Document``, a
    /// ``JSONAPI/JSONAPIErrorDocument``, an ``JSONAPI/AtomicResultsDocument``, any
    /// ``JSONAPI/JSONWritable``).
    ///
    /// - Throws: ``JSONAPI/JSONAPIError`` when the value holds something JSON cannot represent.
    public init(
        status: HTTPResponseStatus = .ok, document: some JSONWritable,
        mediaType: JSONAPIMediaType = JSONAPIMediaType(), headers: HTTPHeaders = [:],
        options: JSONWritingOptions = JSONWritingOptions()
    ) throws {
        self.init(
            status: status, bytes: try document.jsonBytes(options: options), mediaType: mediaType, headers: headers)
    }

    /// A response whose primary data is `value`, written by `encoder`.
    ///
    /// ```swift
    /// let query = try request.jsonapiQuery(rules: rules)
    /// return try JSONAPIResponse(encoding: page, encoder: JSONAPIEncoder(options: EncodingOptions(query: query)),
    ///                            meta: ["total": 40], links: links)
    /// ```
    public init<Value: Encodable>(
        status: HTTPResponseStatus = .ok, encoding value: Value, encoder: JSONAPIEncoder,
        meta: (any Encodable)? = nil, links: (any Encodable)? = nil,
        mediaType: JSONAPIMediaType = JSONAPIMediaType(), headers: HTTPHeaders = [:]
    ) throws {
        self.init(
            status: status, bytes: try encoder.encode(value, meta: meta, links: links), mediaType: mediaType,
            headers: headers)
    }

    /// An error document, with its status (``JSONAPI/JSONAPIErrorDocument/httpStatus``).
    public init(errors: JSONAPIErrorDocument, mediaType: JSONAPIMediaType = JSONAPIMediaType()) {
        self.init(
            status: HTTPResponseStatus(statusCode: errors.httpStatus), bytes: errors.responseBytes(),
            mediaType: mediaType)
    }

    /// The error document describing `error` (see ``JSONAPIMiddleware/errorObjects(describing:)``),
    /// with the header fields of a ``JSONAPI/JSONAPIHTTPError`` (``JSONAPI/JSONAPIHTTPError/headerFields``:
    /// `Allow` for a 405, `Retry-After` for a 503).
    public init(describing error: any Error) {
        self.init(errors: JSONAPIErrorDocument(errors: JSONAPIMiddleware.errorObjects(describing: error)))
        for field in (error as? JSONAPIHTTPError)?.headerFields ?? [] {
            headers.replaceOrAdd(name: field.name, value: field.value)
        }
    }

    /// 204 No Content: no body and no `Content-Type`.
    public static func noContent(headers: HTTPHeaders = [:]) -> JSONAPIResponse {
        var response = JSONAPIResponse(status: .noContent, bytes: [], headers: headers)
        response.mediaType = nil
        return response
    }

    /// The Vapor response. To `HEAD`, a streamed body is not started: Vapor would frame the
    /// empty body as chunked and send its last chunk after the head.
    public func encodeResponse(for request: Request) async throws -> Response {
        guard request.method == .HEAD, chunks != nil else { return response() }
        var head = self
        head.chunks = nil
        head.body = ByteBuffer()
        return head.response()
    }

    /// The Vapor response, without a request.
    public func response() -> Response {
        var headers = headers
        guard let mediaType else { return Response(status: status, headers: headers) }
        headers.replaceOrAdd(name: .contentType, value: mediaType.description)
        if let chunks {
            return Response(
                status: status, headers: headers,
                body: Response.Body(asyncStream: { writer in
                    do {
                        for try await chunk in chunks { try await writer.writeBuffer(ByteBuffer(bytes: chunk)) }
                        try await writer.write(.end)
                    } catch {
                        try await writer.write(.error(error))
                    }
                }))
        }
        return Response(status: status, headers: headers, body: Response.Body(buffer: body))
    }
}
