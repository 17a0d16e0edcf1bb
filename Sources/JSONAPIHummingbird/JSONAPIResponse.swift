import Hummingbird
import JSONAPI

/// A JSON:API response: a status, a document, and `Content-Type: application/vnd.api+json`
/// (with the `ext` and `profile` parameters of ``mediaType``, never `charset`).
///
/// ```swift
/// router.get("articles/:id") { request, context in
///     let article = try store.article(context.jsonapiParameter("id"))
///     return try JSONAPIResponse(encoding: article, encoder: JSONAPIEncoder())
/// }
/// ```
public struct JSONAPIResponse: ResponseGenerator, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// Further headers (`Location`, ...); `Content-Type` is set from ``mediaType``.
    public var headers: HTTPFields
    /// The media type written in `Content-Type`; nil for a response without a body (204).
    public var mediaType: JSONAPIMediaType?
    /// The document's bytes.
    public var body: ByteBuffer
    /// The document as it is written, sent chunk by chunk as they come (``body`` is then
    /// ignored): a document too large to hold, such as a streamed collection of `JSONAPIServer`.
    public var chunks: (any AsyncSequence<[UInt8], any Error> & Sendable)?

    /// A response whose body is `bytes`, already a JSON:API document.
    public init(
        status: HTTPResponse.Status = .ok, bytes: some Sequence<UInt8>,
        mediaType: JSONAPIMediaType = JSONAPIMediaType(), headers: HTTPFields = [:]
    ) {
        self.status = status
        self.headers = headers
        self.mediaType = mediaType
        self.body = ByteBuffer(bytes: bytes)
    }

    /// A response writing `document` (a parsed ``Document``, a ``JSONAPIErrorDocument``, an
    /// ``AtomicResultsDocument``, any ``JSONWritable``).
    ///
    /// - Throws: ``JSONAPIError`` when the value holds something JSON cannot represent.
    public init(
        status: HTTPResponse.Status = .ok, document: some JSONWritable,
        mediaType: JSONAPIMediaType = JSONAPIMediaType(), headers: HTTPFields = [:],
        options: JSONWritingOptions = JSONWritingOptions()
    ) throws {
        self.init(
            status: status, bytes: try document.jsonBytes(options: options), mediaType: mediaType, headers: headers)
    }

    /// A response whose primary data is `value`, written by `encoder`
    /// (see ``JSONAPIEncoder/encode(_:meta:links:jsonapi:jsonapiVersion:included:)``).
    ///
    /// ```swift
    /// let query = try request.jsonapiQuery(rules: rules)
    /// return try JSONAPIResponse(encoding: page, encoder: JSONAPIEncoder(options: EncodingOptions(query: query)),
    ///                            meta: ["total": 40], links: links)
    /// ```
    public init<Value: Encodable>(
        status: HTTPResponse.Status = .ok, encoding value: Value, encoder: JSONAPIEncoder,
        meta: (any Encodable)? = nil, links: (any Encodable)? = nil,
        mediaType: JSONAPIMediaType = JSONAPIMediaType(), headers: HTTPFields = [:]
    ) throws {
        self.init(
            status: status, bytes: try encoder.encode(value, meta: meta, links: links), mediaType: mediaType,
            headers: headers)
    }

    /// An error document, with its status (``JSONAPIErrorDocument/httpStatus``).
    public init(errors: JSONAPIErrorDocument, mediaType: JSONAPIMediaType = JSONAPIMediaType()) {
        self.init(
            status: HTTPResponse.Status(code: errors.httpStatus), bytes: errors.responseBytes(), mediaType: mediaType)
    }

    /// The error document describing `error` (see ``JSONAPIMiddleware/errorObjects(describing:)``),
    /// with the header fields of a ``JSONAPI/JSONAPIHTTPError`` (``JSONAPI/JSONAPIHTTPError/headerFields``:
    /// `Allow` for a 405, `Retry-After` for a 503).
    public init(describing error: any Error) {
        self.init(
            errors: JSONAPIErrorDocument(errors: JSONAPIMiddleware<BasicRequestContext>.errorObjects(describing: error))
        )
        for field in (error as? JSONAPIHTTPError)?.headerFields ?? [] {
            // The fields an error carries (`JSONAPIHTTPError.headerFields`), by Hummingbird's names.
            switch field.name {
            case "Allow": headers[.allow] = field.value
            case "Retry-After": headers[.retryAfter] = field.value
            default: break
            }
        }
    }

    /// 204 No Content: no body and no `Content-Type`.
    public static func noContent(headers: HTTPFields = [:]) -> JSONAPIResponse {
        var response = JSONAPIResponse(status: .noContent, bytes: [], headers: headers)
        response.mediaType = nil
        return response
    }

    /// The Hummingbird response.
    public func response(from request: Request, context: some RequestContext) -> Response {
        var headers = headers
        if let mediaType {
            headers[.contentType] = mediaType.description
            if let chunks {
                return Response(
                    status: status, headers: headers,
                    body: ResponseBody { writer in
                        for try await chunk in chunks { try await writer.write(ByteBuffer(bytes: chunk)) }
                        try await writer.finish(nil)
                    })
            }
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        return Response(status: status, headers: headers)
    }
}
