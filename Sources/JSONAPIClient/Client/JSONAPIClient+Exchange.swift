import JSONAPI

/// A response whose body has been parsed.
public struct JSONAPIClientResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: JSONAPIHTTPHeaders
    /// The parsed body; nil when there was none (`204 No Content`, or an empty `202`).
    public var document: Document?
    /// Whether the server sent this answer, or the client's cache gave it (see
    /// ``JSONAPIClient/Caching``).
    public var source: JSONAPIResponseSource = .network
    /// The body's length as received.
    var bodyBytes = 0
    /// A 2xx body still to be read as a resource stream, for a request sent to be streamed.
    var streamedBody: StreamedBody?

    /// The `Location` header (a created resource's URL).
    public var location: String? { headers["Location"] }
}

extension JSONAPIClient {
    /// Sends `request` and parses the body as it arrives.
    ///
    /// A status of 400 or more throws (``JSONAPIClientError/Kind/errorResponse`` with the error
    /// objects when the body is an error document; ``JSONAPIClientError/Kind/preconditionFailed``
    /// for a 412); a 2xx body must be a JSON:API document; a `204` or an empty body gives no
    /// document. Every successful document is merged into ``store``.
    ///
    /// With ``Configuration/caching`` on, a `GET` is answered from the client's cache while the
    /// kept answer is fresh (`Cache-Control: max-age`, `Expires`), and otherwise sent with
    /// `If-None-Match` when the kept answer has an `ETag`; a `304` then answers with the kept
    /// document (``JSONAPIClientResponse/source`` tells which). A `PATCH` or `DELETE` of a URL
    /// whose kept answer has an `ETag` carries `If-Match`. A request that already carries a
    /// condition (`If-None-Match`, `If-Match`, `If-Modified-Since`, `Range`) is sent as it is.
    ///
    /// - Parameters:
    ///   - request: The request, as ``JSONAPIClient/request(_:_:body:headers:extensions:)`` makes it.
    ///   - kind: What the primary data holds: resources (`.response`) or linkage
    ///     (`.relationshipUpdate`, for relationship endpoints).
    /// - Throws: ``JSONAPIClientError``.
    public func send(
        _ request: JSONAPIHTTPRequest, kind: ParsingOptions.Kind = .response
    ) async throws -> JSONAPIClientResponse {
        do {
            try configuration.validate()
        } catch {
            throw JSONAPIClientError(
                .invalidRequest, method: request.method, url: request.url, underlying: error,
                message: error.message)
        }
        let response: JSONAPIClientResponse
        do {
            response = try await attempts(request, reading: .document(kind))
        } catch {
            throw classify(error, request)
        }
        if let document = response.document, response.source != .store { store?.merge(document) }
        return response
    }

    /// One exchange as the interceptors hand it to the transport, answered from the store when
    /// the server answered the same read recently (``Configuration/queryLifetime``), otherwise
    /// through the client's cache; what the server answers is remembered for the next time.
    func rememberedExchange(_ request: JSONAPIHTTPRequest, reading: BodyReading) async throws
        -> JSONAPIClientResponse
    {
        guard let lifetime = configuration.queryLifetime, let store, case .document(let kind) = reading else {
            return try await cachedExchange(request, reading: reading)
        }
        // Reads of resources; linkage (a relationship endpoint) is read from the server.
        let reads = request.method == "GET" && kind == .response
        if reads,
            let answer = rememberedQueries.answer(
                request, from: store, lifetime: lifetime, at: .now, parsing: configuration.decoding.parsing)
        {
            return JSONAPIClientResponse(
                status: answer.status, headers: answer.headers, document: answer.document, source: .store)
        }
        let response = try await cachedExchange(request, reading: reading)
        if reads, response.status == 200, let document = response.document {
            rememberedQueries.remember(
                request, status: response.status, headers: response.headers, document: document, at: .now)
        } else if request.method != "GET" && request.method != "HEAD" && response.status < 400 {
            rememberedQueries.forgetAll()
        }
        return response
    }

    /// One exchange as the interceptors hand it to the transport, through the client's cache
    /// (``Configuration/caching``): a fresh kept answer without a request, a stale one
    /// revalidated, `If-Match` on writes, and what comes back kept or dropped. It sees each
    /// request with every header the interceptors set, credentials included.
    func cachedExchange(_ request: JSONAPIHTTPRequest, reading: BodyReading) async throws
        -> JSONAPIClientResponse
    {
        let caching = configuration.caching
        // A streamed body is not kept: nothing to answer with or revalidate.
        guard caching.isEnabled, case .document = reading else {
            return try await timedExchange(request, reading: reading)
        }
        let original = request
        var request = request
        var kept: HTTPResponseCache.Entry?
        if !Self.isConditional(request) {
            if request.method == "GET", let entry = httpCache.entry(for: request) {
                let asked = CacheDirectives(request.headers.values("Cache-Control"))
                if entry.isFresh(at: .now), !asked.noCache, asked.maxAge != 0 {
                    return JSONAPIClientResponse(
                        status: 200, headers: entry.headers, document: entry.document, source: .cache)
                }
                if let etag = entry.etag {
                    request.headers.replaceOrAdd(name: "If-None-Match", value: etag)
                    kept = entry
                }
            } else if caching.sendsIfMatch, request.method == "PATCH" || request.method == "DELETE",
                let etag = httpCache.etag(of: request.url)
            {
                request.headers.replaceOrAdd(name: "If-Match", value: etag)
            }
        }
        let response: JSONAPIClientResponse
        do {
            response = try await timedExchange(request, reading: reading)
        } catch {
            let failure = classify(error, original)
            // The kept answer is not the current one: revalidated before it is used again, its
            // ETag kept so that a write stays conditional until the resource is read anew.
            if failure.kind == .preconditionFailed { httpCache.markStale(request.url) }
            throw failure
        }
        if let kept, response.status == 304 {
            let entry = httpCache.revalidated(
                kept, by: original, headers: response.headers, limit: caching.maximumBytes)
            return JSONAPIClientResponse(
                status: 200, headers: entry.headers, document: entry.document, source: .revalidated)
        }
        if request.method == "GET", response.status == 200, let document = response.document {
            httpCache.store(
                original, headers: response.headers, document: document, bytes: response.bodyBytes,
                limit: caching.maximumBytes)
        } else if request.method != "GET" && request.method != "HEAD" && response.status < 400 {
            httpCache.invalidate(request.url)
            if let location = response.location { httpCache.invalidate(absoluteURL(location)) }
        }
        return response
    }

    /// The exchange with the transport, within the request's timeout.
    private func timedExchange(_ request: JSONAPIHTTPRequest, reading: BodyReading) async throws
        -> JSONAPIClientResponse
    {
        if let timeout = request.timeout {
            return try await withTimeout(timeout, request) { try await self.exchange(request, reading: reading) }
        }
        return try await exchange(request, reading: reading)
    }

    /// Whether `request` carries a condition or a range of its own, which the cache leaves alone.
    private static func isConditional(_ request: JSONAPIHTTPRequest) -> Bool {
        ["If-None-Match", "If-Match", "If-Modified-Since", "If-Unmodified-Since", "If-Range", "Range"].contains {
            request.headers[$0] != nil
        }
    }

    /// Runs `body`, throwing ``JSONAPIClientError/Kind/timeout`` when it takes longer than `timeout`.
    func withTimeout(
        _ timeout: Duration, _ request: JSONAPIHTTPRequest,
        _ body: @escaping @Sendable () async throws -> JSONAPIClientResponse
    ) async throws -> JSONAPIClientResponse {
        try await withThrowingTaskGroup(of: JSONAPIClientResponse?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw JSONAPIClientError(
                    .timeout, method: request.method, url: request.url,
                    message: "no complete response within \(timeout)")
            }
            return response
        }
    }

    /// Any error as a ``JSONAPIClientError`` of the request.
    func classify(_ error: any Error, _ request: JSONAPIHTTPRequest) -> JSONAPIClientError {
        if var error = error as? JSONAPIClientError {
            error.method = request.method
            error.url = request.url
            return error
        }
        if error is CancellationError || Task.isCancelled {
            return JSONAPIClientError(
                .cancelled, method: request.method, url: request.url, underlying: error,
                message: "the task was cancelled")
        }
        return JSONAPIClientError(
            .transport, method: request.method, url: request.url, underlying: error,
            message: "the request failed: \(error)")
    }

    func exchange(_ request: JSONAPIHTTPRequest, reading: BodyReading) async throws -> JSONAPIClientResponse {
        try await exchange(request, reading: reading, over: transport)
    }

    private func exchange<Transport: JSONAPITransport>(
        _ request: JSONAPIHTTPRequest, reading: BodyReading, over transport: Transport
    ) async throws -> JSONAPIClientResponse {
        try Task.checkCancellation()
        let head = try await transport.send(request)
        var reader = BodyReader(
            request: request, status: head.status, headers: head.headers, configuration: configuration)
        switch reading {
        case .document(let kind): try reader.begin(kind: kind)
        case .stream: try reader.begin(kind: .response, streaming: true)
        }
        if head.status == 204 || head.status == 304 || request.method == "HEAD" {
            return JSONAPIClientResponse(status: head.status, headers: head.headers, document: nil)
        }
        if case .stream(let options) = reading, (200..<300).contains(head.status) {
            // The parts are read as the caller asks for them; the reader's checks of the head
            // (media type, length) have passed.
            let stream: ResourceStream
            do throws(JSONAPIError) {
                stream = try ResourceStream(options: options)
            } catch {
                throw reader.failure(.invalidRequest, parsingError: error, "the stream's options: \(error)")
            }
            var response = JSONAPIClientResponse(status: head.status, headers: head.headers, document: nil)
            response.streamedBody = StreamedBody(head.body, reader: reader, stream: stream)
            return response
        }
        do {
            for try await chunk in head.body {
                // A transport may go on handing over what it has buffered after the task is
                // cancelled; parsing it would only delay the answer.
                try Task.checkCancellation()
                try reader.take(chunk)
            }
        } catch let error as JSONAPIClientError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw reader.failure(
                .truncatedBody, underlying: error,
                "the connection failed after \(reader.received) bytes of the body: \(error)")
        }
        try Task.checkCancellation()
        let document = try reader.finish()
        return JSONAPIClientResponse(
            status: head.status, headers: head.headers, document: document, bodyBytes: reader.received)
    }
}

/// Reads one response body into a document: checks the status and media type first, feeds
/// the parser as chunks arrive, and turns what goes wrong into the right error kind.
struct BodyReader {
    let request: JSONAPIHTTPRequest
    let status: Int
    let headers: JSONAPIHTTPHeaders
    let configuration: JSONAPIClient.Configuration
    private(set) var received = 0
    private var declaredLength: Int?
    private var parser: DocumentParser?
    /// The first bytes of a body that is not a document, for the error message.
    private var rawPrefix: [UInt8] = []
    private static let rawPrefixLimit = 1024

    init(
        request: JSONAPIHTTPRequest, status: Int, headers: JSONAPIHTTPHeaders,
        configuration: JSONAPIClient.Configuration
    ) {
        self.request = request
        self.status = status
        self.headers = headers
        self.configuration = configuration
    }

    var limit: Int { min(configuration.maximumResponseBytes, configuration.decoding.parsing.maximumDocumentBytes) }

    func failure(
        _ kind: JSONAPIClientError.Kind, errors: [JSONAPIErrorObject] = [], parsingError: JSONAPIError? = nil,
        underlying: (any Error)? = nil, _ message: String
    ) -> JSONAPIClientError {
        var error = JSONAPIClientError(
            kind, method: request.method, url: request.url, status: status, errors: errors,
            parsingError: parsingError, underlying: underlying, message: message)
        error.headers = headers
        return error
    }

    /// Decides from the head whether the body is parsed, and sizes the parser; with `streaming`,
    /// a 2xx body is checked but left to a resource stream (no parser is made for it).
    mutating func begin(kind: ParsingOptions.Kind, streaming: Bool = false) throws(JSONAPIClientError) {
        if let length = headers["Content-Length"] {
            guard let value = Int(length.trimmingSpaces), value >= 0 else {
                throw failure(.invalidDocument, "the Content-Length `\(length)` is not a byte count")
            }
            guard value <= limit else {
                throw failure(
                    .responseTooLarge,
                    "the body is \(value) bytes, more than the limit of \(limit) (Configuration.maximumResponseBytes)")
            }
            declaredLength = value
        }
        if (200..<300).contains(status) || status >= 400 {
            let contentType = headers["Content-Type"]
            let isDocument = contentType.flatMap { JSONAPIMediaType(parsing: $0) } != nil
            if (200..<300).contains(status), let contentType, !isDocument, declaredLength != 0 {
                throw failure(
                    .unsupportedMediaType,
                    "the body is `\(contentType)`, not the JSON:API media type application/vnd.api+json")
            }
            if streaming && (200..<300).contains(status) { return }
            if contentType == nil || isDocument {
                var options = configuration.decoding.parsing
                options.kind = status >= 400 ? .response : kind
                options.maximumDocumentBytes = limit
                parser = DocumentParser(options: options, expectedByteCount: declaredLength ?? 0)
            }
        }
    }

    /// Feeds one chunk.
    mutating func take<Chunk: Collection>(_ chunk: Chunk) throws(JSONAPIClientError) where Chunk.Element == UInt8 {
        let count = chunk.count
        guard count <= limit - received else {
            throw failure(
                .responseTooLarge,
                "the body is longer than the limit of \(limit) bytes (Configuration.maximumResponseBytes)")
        }
        if let declaredLength, received + count > declaredLength {
            throw failure(.invalidDocument, "the body is longer than its Content-Length of \(declaredLength) bytes")
        }
        received += count
        if rawPrefix.count < Self.rawPrefixLimit {
            rawPrefix.append(contentsOf: chunk.prefix(Self.rawPrefixLimit - rawPrefix.count))
        }
        guard parser != nil else { return }
        do {
            try parser?.feed(chunk)
        } catch {
            if status >= 400 {
                parser = nil  // not an error document: reported with the status below
                return
            }
            throw parseFailure(error)
        }
    }

    func parseFailure(_ error: JSONAPIError) -> JSONAPIClientError {
        if error.code == .documentTooLarge {
            return failure(.responseTooLarge, parsingError: error, "the body is longer than the limit: \(error)")
        }
        return failure(.invalidDocument, parsingError: error, "the body is not a valid JSON:API document: \(error)")
    }

    /// Ends the body: the document, nil for an empty body, or the error the status stands for.
    mutating func finish() throws(JSONAPIClientError) -> Document? {
        if let declaredLength, received < declaredLength {
            throw failure(
                .truncatedBody, "the body ended after \(received) of its \(declaredLength) bytes (Content-Length)")
        }
        if status >= 400 {
            var errors: [JSONAPIErrorObject] = []
            if received > 0, var parser, let document = try? parser.finish() {
                errors = document.errors.map(JSONAPIErrorObject.init)
            }
            if errors.isEmpty {
                if status == 412 {
                    throw failure(.preconditionFailed, "the server answered 412: the resource changed\(bodyQuote)")
                }
                throw failure(.unexpectedStatus, "the server answered \(status)\(bodyQuote)")
            }
            let summary = errors.compactMap { $0.detail ?? $0.title }.first.map { ": " + $0 } ?? ""
            if status == 412 {
                throw failure(
                    .preconditionFailed, errors: errors, "the server answered 412: the resource changed\(summary)")
            }
            throw failure(
                .errorResponse, errors: errors, "the server answered \(status) with an error document\(summary)")
        }
        guard (200..<300).contains(status) else {
            throw failure(.unexpectedStatus, "the server answered \(status)\(bodyQuote)")
        }
        guard received > 0, var parser else { return nil }
        do {
            let document = try parser.finish()
            if document.hasErrors {
                throw failure(
                    .unexpectedDocument, errors: document.errors.map(JSONAPIErrorObject.init),
                    "a \(status) response holds an error document")
            }
            return document
        } catch let error as JSONAPIClientError {
            throw error
        } catch let error as JSONAPIError {
            throw parseFailure(error)
        } catch {
            throw failure(.invalidDocument, underlying: error, "\(error)")
        }
    }

    /// The body's first bytes, quoted for a message.
    private var bodyQuote: String {
        guard !rawPrefix.isEmpty else { return " with no body" }
        let text = String(decoding: rawPrefix, as: UTF8.self)
        let more = received > rawPrefix.count ? "…" : ""
        return ": `\(text)\(more)`"
    }
}

extension String {
    var trimmingSpaces: Substring {
        let bytes = self[...]
        guard let first = bytes.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        guard let last = bytes.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return bytes[first...last]
    }
}
