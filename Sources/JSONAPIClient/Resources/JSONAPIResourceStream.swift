import JSONAPI

extension JSONAPIResources {
    /// The type's resources in the collection endpoint, with `query`, decoded one at a time while
    /// the response arrives: memory holds the largest resource (the stream's window), not the
    /// page, so a response of any size can be read.
    ///
    /// ```swift
    /// for try await article in client.resources(Article.self).stream(JSONAPIQuery().paged(number: 1, size: 100_000)) {
    ///     try await database.insert(article)
    /// }
    /// ```
    ///
    /// The request goes through the interceptors, retries and timeout as any other; a retry or
    /// the timeout covers the response head, and the body then arrives at the pace the caller
    /// reads it (cancel the task to stop it). A status of 400 or more throws from the first
    /// `next()`, as ``list(_:headers:)`` throws; a body that breaks off or stops being a JSON:API
    /// document throws where it does, after the models before it. The answer is neither kept by
    /// the client's cache nor answered from the store; each resource (primary and included) is
    /// merged into the client's store, when it has one, as it arrives.
    ///
    /// Primary resources of `Model`'s type are decoded as they arrive. Relationships typed as
    /// identifiers (`Identifier`, `[Identifier]`, `ResourceIdentifier`) always decode; one
    /// typed as a model is resolved through the client's store, which holds the resources that
    /// arrived before it (earlier in the body, or in earlier responses). One that has not arrived
    /// is reported: a ``JSONAPIClientError/Kind/decoding`` error naming it, or, with
    /// `DecodingOptions.ignoresMissingResources`, left out as `list` leaves it out. Servers
    /// usually send `included` after `data`: read such models with `list`, or type their
    /// relationships as identifiers and look the resources up in the store when they have come.
    public func stream(_ query: JSONAPIQuery = JSONAPIQuery(), headers: JSONAPIHTTPHeaders = [:])
        -> JSONAPIResourceStream<Model>
    {
        let url = client.url(for: .collection(type: Model.resourceType), query: query)
        return JSONAPIResourceStream(client: client, request: client.request("GET", url, headers: headers))
    }
}

/// Models decoded one at a time while a response arrives (``JSONAPIResources/stream(_:headers:)``).
///
/// Each iteration sends the request anew. The iterator's ``AsyncIterator/statistics`` tell how
/// much memory the stream used.
public struct JSONAPIResourceStream<Model: JSONAPIResource & Decodable>: AsyncSequence, Sendable {
    public typealias Element = Model

    /// The client that sends the request.
    public let client: JSONAPIClient
    /// The request, as the client made it.
    public let request: JSONAPIHTTPRequest

    /// The iterator: sends the request on the first `next()`, then reads the body as it is asked for models.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: JSONAPIClient
        let request: JSONAPIHTTPRequest
        private var body: StreamedBody?
        private var sent = false

        init(client: JSONAPIClient, request: JSONAPIHTTPRequest) {
            self.client = client
            self.request = request
        }

        /// The next primary resource of `Model`'s type, decoded; nil at the end of the document.
        ///
        /// - Throws: ``JSONAPIClientError``, as ``JSONAPIClient/send(_:kind:)`` throws for the
        ///   request and its body, ``JSONAPIClientError/Kind/decoding`` for a resource that does
        ///   not decode as `Model`.
        public mutating func next() async throws -> Model? {
            if !sent {
                sent = true
                body = try await client.openStream(request)
            }
            guard let body else { return nil }
            while let part = try await body.next() {
                guard case .resource(let resource) = part else { continue }
                client.store?.merge(resource.object)
                guard resource.section == .primary, resource.isOfType(Model.self) else { continue }
                let options = client.configuration.decoding
                do {
                    return try resource.decode(as: Model.self, options: options)
                } catch {
                    // A relationship typed as a model: resolved through the store, which holds
                    // the resources that arrived before (in this body and in earlier responses).
                    if let store = client.store, let id = resource.object.id {
                        do {
                            if let model = try store.model(Model.self, id: id, options: options) { return model }
                        } catch {
                            throw decodingFailure(resource, error)
                        }
                    }
                    throw decodingFailure(resource, error)
                }
            }
            return nil
        }

        private func decodingFailure(_ resource: StreamedResource, _ error: any Error) -> JSONAPIClientError {
            JSONAPIClientError(
                .decoding, method: request.method, url: request.url, underlying: error,
                message: "the resource at \(resource.pointer) does not decode as \(Model.self): \(error)")
        }

        /// The stream's use of memory so far (its window's capacity, the identity index); nil
        /// before the response has arrived, or when it had no body.
        public var statistics: ResourceStream.Statistics? { body?.statistics }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, request: request)
    }
}

extension JSONAPIClient {
    /// Sends `request` to be read as a resource stream: returns once a 2xx head has arrived with
    /// the body unread (nil for a `204`).
    func openStream(_ request: JSONAPIHTTPRequest) async throws(JSONAPIClientError) -> StreamedBody? {
        do {
            try configuration.validate()
        } catch {
            throw JSONAPIClientError(
                .invalidRequest, method: request.method, url: request.url, underlying: error, message: error.message)
        }
        var parsing = configuration.decoding.parsing
        parsing.kind = .response
        parsing.backend = .scanner  // the one a stream reads with, whichever documents use
        let response: JSONAPIClientResponse
        do {
            response = try await attempts(request, reading: .stream(ResourceStream.Options(parsing: parsing)))
        } catch {
            throw classify(error, request)
        }
        if response.status == 204 { return nil }
        guard let body = response.streamedBody else {
            throw JSONAPIClientError(
                .unexpectedDocument, method: request.method, url: request.url, status: response.status,
                message: "the \(response.status) response has no body to stream (an interceptor answered in its place)")
        }
        return body
    }
}
