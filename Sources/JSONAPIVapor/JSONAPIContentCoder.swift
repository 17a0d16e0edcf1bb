import JSONAPI
import Vapor

/// Vapor's content coding for `application/vnd.api+json`: `req.content.decode(_:)` parses the
/// body with the library's parser and decodes it with ``JSONAPI/JSONAPIDecoder``, and
/// `Response.content.encode(_:as:)` writes with ``JSONAPI/JSONAPIEncoder`` and sets `Content-Type`
/// to exactly `application/vnd.api+json`.
///
/// Vapor's default configuration maps its `.jsonAPI` media type to `JSONEncoder`, which writes
/// `application/json; charset=utf-8` and a flat body. ``Vapor/ContentConfiguration/useJSONAPI(_:)``
/// replaces that mapping:
///
/// ```swift
/// var content = ContentConfiguration.global
/// content.useJSONAPI(JSONAPIContentCoder())
/// ContentConfiguration.global = content
///
/// let article = try req.content.decode(Article.self)       // Content-Type: application/vnd.api+json
/// ```
///
/// `req.content` reads a collected body (16 KiB by default in Vapor); for larger bodies, or to
/// parse while the body arrives, use ``Vapor/Request/jsonapiDocument(kind:configuration:)`` on a
/// `body: .stream` route.
public struct JSONAPIContentCoder: ContentEncoder, ContentDecoder {
    /// The encoder of response bodies.
    public var encoder: JSONAPIEncoder
    /// The decoder of request bodies; its ``JSONAPI/JSONAPIDecoder/parsingOptions`` say how the
    /// bytes are parsed.
    public var decoder: JSONAPIDecoder
    /// The media type written in `Content-Type` (its `ext` and `profile` parameters included).
    public var mediaType: JSONAPIMediaType

    /// Creates a coder.
    ///
    /// - Parameters:
    ///   - encoder: Writes response bodies. By default its options are a response's to a request
    ///     without `include` (``JSONAPI/EncodingOptions/includesRelatedByDefault`` is `false`):
    ///     the coder does not see the request, so it includes no related model it was not asked
    ///     for; answer `include` with an encoder built from
    ///     ``JSONAPI/EncodingOptions/init(query:)``.
    ///   - decoder: Reads request bodies. By default its documents are parsed as
    ///     ``JSONAPI/ParsingOptions/Kind/createRequest``, the kind that accepts a resource with or
    ///     without an `id`, so that one coder reads create and update bodies; the typed request
    ///     helpers (``Vapor/Request/jsonapiDecode(_:kind:decoder:configuration:)``) check each
    ///     route's own kind.
    ///   - mediaType: The `Content-Type` of encoded bodies.
    public init(
        encoder: JSONAPIEncoder? = nil, decoder: JSONAPIDecoder? = nil,
        mediaType: JSONAPIMediaType = JSONAPIMediaType()
    ) {
        self.encoder = encoder ?? Self.responseEncoder()
        self.decoder = decoder ?? Self.requestDecoder()
        self.mediaType = mediaType
    }

    private static func responseEncoder() -> JSONAPIEncoder {
        var options = EncodingOptions()
        options.includesRelatedByDefault = false
        return JSONAPIEncoder(options: options)
    }

    private static func requestDecoder() -> JSONAPIDecoder {
        let decoder = JSONAPIDecoder()
        decoder.parsingOptions.kind = .createRequest
        return decoder
    }

    /// Writes `encodable` as a document's primary data.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        body.writeBytes(try encoder.encode(encodable))
        headers.replaceOrAdd(name: .contentType, value: mediaType.description)
    }

    /// Parses `body` and decodes `D` from it, listing every value that does not fit `D`
    /// (``JSONAPI/JSONAPIDecoder/decodeListingProblems(_:from:)-(_,Document)``).
    ///
    /// - Throws: ``JSONAPI/JSONAPIError`` when the body is not a valid document (400, or 413 past
    ///   a limit, through ``JSONAPIMiddleware``); ``JSONAPI/DecodingFailure`` when it does not fit
    ///   `D` (422 per problem).
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        let document = try body.withUnsafeReadableBytes { bytes in
            var parser = DocumentParser(options: decoder.parsingOptions, expectedByteCount: bytes.count)
            try parser.feed(bytes)
            return try parser.finish()
        }
        return try decoder.decodeListingProblems(D.self, from: document)
    }
}

extension ContentConfiguration {
    /// Makes `coder` the encoder and decoder of `application/vnd.api+json` (replacing Vapor's
    /// default, `JSONEncoder`, for its `.jsonAPI` media type).
    public mutating func useJSONAPI(_ coder: JSONAPIContentCoder = JSONAPIContentCoder()) {
        let mediaType = HTTPMediaType(type: "application", subType: "vnd.api+json")
        use(encoder: coder, for: mediaType)
        use(decoder: coder, for: mediaType)
    }
}
