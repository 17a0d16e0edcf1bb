import JSONAPI

/// The requests of one resource type: list, page through, get, create, update, delete, and the
/// relationship endpoints. Get one from ``JSONAPIClient/resources(_:)``.
///
/// ```swift
/// let articles = client.resources(Article.self)
/// let list = try await articles.list(JSONAPIQuery().including("author").paged(number: 1, size: 20))
/// let one = try await articles.get(id: "1").value
/// let tags = try await articles.relationship(id: "1", "tags").value       // [ResourceIdentifier]
/// try await articles.changeRelationship(id: "1", "tags", .add([Identifier<Tag>("4")]))
/// _ = try await articles.delete(id: "1")
/// ```
///
/// Models are decoded with the client's `DecodingOptions`; bodies are encoded with its
/// `EncodingOptions` (`JSONAPIEncoder.encodeCreate`, `encodeUpdate`). Every method takes extra
/// header fields for its request.
public struct JSONAPIResources<Model: JSONAPIResource & Decodable>: Sendable {
    /// The client that sends the requests.
    public let client: JSONAPIClient

    /// The type's resources in the collection endpoint, with `query`.
    ///
    /// - Returns: The models of one page, with `meta`, `links` (``DecodedResponse/next``) and
    ///   what the decoder skipped.
    /// - Throws: ``JSONAPIClientError``.
    public func list(_ query: JSONAPIQuery = JSONAPIQuery(), headers: JSONAPIHTTPHeaders = [:])
        async throws -> DecodedResponse<[Model]>
    {
        let url = client.url(for: .collection(type: Model.resourceType), query: query)
        return try await client.fetch([Model].self, client.request("GET", url, headers: headers))
    }

    /// Every page of the collection, following `links.next` from the first until a page has no
    /// `next` or `maximumPages` pages have been read.
    ///
    /// ```swift
    /// for try await page in articles.pages(JSONAPIQuery().paged(number: 1, size: 100)) {
    ///     for article in page.value { print(article.title) }
    /// }
    /// ```
    ///
    /// A `next` link that leads back to a page already read ends the sequence with
    /// ``JSONAPIClientError/Kind/unexpectedDocument`` rather than looping.
    public func pages(
        _ query: JSONAPIQuery = JSONAPIQuery(), maximumPages: Int = .max, headers: JSONAPIHTTPHeaders = [:]
    ) -> JSONAPIPages<Model> {
        JSONAPIPages(
            client: client, first: client.url(for: .collection(type: Model.resourceType), query: query),
            maximumPages: maximumPages, headers: headers)
    }

    /// The resource with `id`.
    ///
    /// - Throws: ``JSONAPIClientError``: ``JSONAPIClientError/Kind/errorResponse`` with status
    ///   404 when the server has none; ``JSONAPIClientError/Kind/unexpectedDocument`` when the
    ///   primary data is not one resource.
    public func get(id: String, query: JSONAPIQuery = JSONAPIQuery(), headers: JSONAPIHTTPHeaders = [:])
        async throws -> DecodedResponse<Model>
    {
        let url = try client.url(for: .resource(type: Model.resourceType, id: checked(id, "GET")), query: query)
        let request = client.request("GET", url, headers: headers)
        let response = try await client.fetch([Model].self, request)
        guard case .one = response.document.primary, let model = response.value.first else {
            throw JSONAPIClientError(
                .unexpectedDocument, method: "GET", url: url, status: response.status,
                message: "the primary data is not one `\(Model.resourceType)` resource")
        }
        return DecodedResponse(
            value: model, status: response.status, headers: response.headers, document: response.document,
            skipped: response.skipped)
    }

    /// The resources a relationship of the resource `id` points to (`GET /articles/1/author`),
    /// decoded as `Related` (a to-one relationship gives zero or one).
    public func related<Related: Decodable>(
        id: String, _ relationship: String, as type: Related.Type, query: JSONAPIQuery = JSONAPIQuery(),
        headers: JSONAPIHTTPHeaders = [:]
    ) async throws -> DecodedResponse<[Related]> {
        let endpoint = try JSONAPIEndpoint.related(
            type: Model.resourceType, id: checked(id, "GET"), relationship: relationship)
        return try await client.fetch(
            [Related].self, client.request("GET", client.url(for: endpoint, query: query), headers: headers))
    }

    /// The linkage of a relationship of the resource `id` (`GET /articles/1/relationships/tags`):
    /// the identifiers, in order (none for a `null` to-one).
    public func relationship(id: String, _ relationship: String, headers: JSONAPIHTTPHeaders = [:])
        async throws -> DecodedResponse<[ResourceIdentifier]>
    {
        let endpoint = try JSONAPIEndpoint.relationship(
            type: Model.resourceType, id: checked(id, "GET"), relationship: relationship)
        let url = client.url(for: endpoint)
        let response = try await client.send(client.request("GET", url, headers: headers), kind: .relationshipUpdate)
        guard let document = response.document else {
            throw JSONAPIClientError(
                .unexpectedDocument, method: "GET", url: url, status: response.status,
                message: "the response has no linkage document")
        }
        return DecodedResponse(
            value: document.primaryIdentifiers.map(\.identifier), status: response.status,
            headers: response.headers, document: document, skipped: [])
    }

    /// Creates a resource (`POST /articles`) from `body`: a model of the same resource type whose
    /// `id` is empty for a server-assigned id, or set for a client-generated one; a JSON:API 1.1
    /// `lid` is sent when the model has one.
    ///
    /// ```swift
    /// struct NewArticle: Encodable, JSONAPIResource {
    ///     static let resourceType = "articles"
    ///     var id = ""
    ///     var title: String
    ///     var author: Identifier<Person>
    /// }
    /// let created = try await articles.create(NewArticle(title: "Hello", author: "9"))
    /// created.resource?.id      // the id the server assigned (201)
    /// ```
    public func create<Body: JSONAPIResource & Encodable>(
        _ body: Body, meta: (any Encodable & Sendable)? = nil, headers: JSONAPIHTTPHeaders = [:]
    ) async throws -> WriteResponse<Model> {
        let url = client.url(for: .collection(type: Model.resourceType))
        try sameType(Body.self, "POST", url)
        let bytes = try client.encode("POST", url) { try $0.encodeCreate(body, meta: meta) }
        let response = try await client.write(Model.self, client.request("POST", url, body: bytes, headers: headers))
        // The store's linkages to the new resource by its `lid` now name the id it was given.
        if let store = client.store, let document = response.document, case .one(let created) = document.primary,
            let id = created.id,
            let sent = try? Document(parsing: bytes, options: ParsingOptions(kind: .createRequest)),
            case .one(let resource) = sent.primary, let lid = resource.lid
        {
            store.replaceLocalIdentifier(lid, type: Model.resourceType, with: id)
        }
        return response
    }

    /// Updates a resource (`PATCH /articles/1`) with the members `patch` sets: `Field.absent`
    /// members are left out, `Field.null` ones sent as `null`. The URL's id is the patch's `id`.
    ///
    /// With `optimistic`, the client's store takes the patch before the request is sent (its
    /// observers see the change at once) and puts the previous copy back if the server answers
    /// with an error or no answer comes (a success whose body cannot be read keeps it).
    public func update<Body: JSONAPIResource & Encodable>(
        _ patch: Body, meta: (any Encodable & Sendable)? = nil, optimistic: Bool = false,
        headers: JSONAPIHTTPHeaders = [:]
    ) async throws -> WriteResponse<Model> {
        let collection = client.url(for: .collection(type: Model.resourceType))
        try sameType(Body.self, "PATCH", collection)
        let bytes = try client.encode("PATCH", collection) { try $0.encodeUpdate(patch, meta: meta) }
        let sent: ResourceObject
        do {
            let document = try Document(parsing: bytes, options: ParsingOptions(kind: .updateRequest))
            guard case .one(let resource) = document.primary, let sentID = resource.id, !sentID.isEmpty else {
                throw JSONAPIError(.specViolation, "the update body has no id")
            }
            sent = resource
        } catch {
            throw JSONAPIClientError(
                .invalidRequest, method: "PATCH", url: collection, underlying: error,
                message: "an update needs the resource's id: \(error)")
        }
        let url = client.url(for: .resource(type: Model.resourceType, id: sent.id ?? ""))
        let rollback = optimistic ? client.store?.mergeOptimistically(JSONAPIResourceObject(sent)) : nil
        do {
            return try await client.write(Model.self, client.request("PATCH", url, body: bytes, headers: headers))
        } catch {
            if let rollback, !Self.wasAccepted(error) { client.store?.rollBack(rollback) }
            throw error
        }
    }

    /// Deletes the resource `id` (`DELETE /articles/1`). Once the server has deleted it (any
    /// success but `202 Accepted`), it leaves the client's store, and so does every stored
    /// linkage to it (``ResourceStore/delete(type:id:)``).
    ///
    /// With `optimistic`, it leaves the store before the request is sent, and comes back (with
    /// the linkages) if the server answers with an error or no answer comes.
    public func delete(id: String, optimistic: Bool = false, headers: JSONAPIHTTPHeaders = [:]) async throws
        -> WriteResponse<Model>
    {
        let url = try client.url(for: .resource(type: Model.resourceType, id: checked(id, "DELETE")))
        let rollback = optimistic ? client.store?.deleteOptimistically(type: Model.resourceType, id: id) : nil
        let response: WriteResponse<Model>
        do {
            response = try await client.write(Model.self, client.request("DELETE", url, headers: headers))
        } catch {
            if let rollback, !Self.wasAccepted(error) { client.store?.rollBack(rollback) }
            throw error
        }
        if response.status != 202 { client.store?.delete(type: Model.resourceType, id: id) }
        return response
    }

    /// Replaces, adds to or removes from a relationship of the resource `id`
    /// (`PATCH`/`POST`/`DELETE /articles/1/relationships/tags`).
    ///
    /// ```swift
    /// try await articles.changeRelationship(id: "1", "author", .toOne(Identifier<Person>("9")))
    /// try await articles.changeRelationship(id: "1", "tags", .remove([Identifier<Tag>("4")]))
    /// ```
    ///
    /// - Returns: The response; a `200` carries the relationship's linkage as the server now holds it.
    @discardableResult
    public func changeRelationship(
        id: String, _ relationship: String, _ update: RelationshipUpdate, headers: JSONAPIHTTPHeaders = [:]
    ) async throws -> JSONAPIClientResponse {
        let endpoint = try JSONAPIEndpoint.relationship(
            type: Model.resourceType, id: checked(id, update.method), relationship: relationship)
        let url = client.url(for: endpoint)
        let bytes = try client.encode(update.method, url) { try $0.encode(update) }
        let response = try await client.send(
            client.request(update.method, url, body: bytes, headers: headers), kind: .relationshipUpdate)
        // The stored linkage follows what the server did: the linkage a `200` carries, or the
        // update itself when the server says it did exactly that (`204`, a `200` without one).
        if let store = client.store, response.status != 202 {
            let key = ResourceStore.Key(type: Model.resourceType, id: id)
            switch response.document?.primary {
            case .identifier(let identifier)?:
                store.apply(
                    RelationshipUpdate(operation: .replaceToOne, identifiers: [identifier.identifier]), to: key,
                    relationship: relationship)
            case .null? where update.operation == .replaceToOne:
                store.apply(
                    RelationshipUpdate(operation: .replaceToOne, identifiers: []), to: key, relationship: relationship)
            case .identifiers(let identifiers)?:
                store.apply(
                    RelationshipUpdate(operation: .replaceToMany, identifiers: identifiers.map(\.identifier)), to: key,
                    relationship: relationship)
            default:
                store.apply(update, to: key, relationship: relationship)
            }
        }
        return response
    }

    /// Whether the server accepted a write that still failed: it answered with a success, and
    /// what failed was reading the answer. An optimistic change then stands (the store already
    /// holds whatever the answer brought); any other failure rolls it back.
    private static func wasAccepted(_ error: any Error) -> Bool {
        guard let error = error as? JSONAPIClientError, let status = error.status else { return false }
        return (200..<300).contains(status)
    }

    private func checked(_ id: String, _ method: String) throws(JSONAPIClientError) -> String {
        guard !id.isEmpty else {
            throw JSONAPIClientError(
                .invalidRequest, method: method, url: client.url(for: .collection(type: Model.resourceType)),
                message: "a resource id cannot be empty")
        }
        return id
    }

    private func sameType<Body: JSONAPIResource>(_ body: Body.Type, _ method: String, _ url: String)
        throws(JSONAPIClientError)
    {
        guard Body.resourceType == Model.resourceType else {
            throw JSONAPIClientError(
                .invalidRequest, method: method, url: url,
                message: "a `\(Body.resourceType)` body cannot go to the `\(Model.resourceType)` endpoint")
        }
    }
}

extension JSONAPIClient {
    /// Sends `request` and decodes its primary data as `Value`.
    func fetch<Element: Decodable>(_ type: [Element].Type, _ request: JSONAPIHTTPRequest)
        async throws -> DecodedResponse<[Element]>
    {
        let response = try await send(request)
        guard let document = response.document else {
            throw JSONAPIClientError(
                .unexpectedDocument, method: request.method, url: request.url, status: response.status,
                message: "the \(response.status) response has no document")
        }
        let report = try decode([Element].self, document, request, status: response.status)
        return DecodedResponse(
            value: report.value, status: response.status, headers: response.headers, document: document,
            skipped: report.skipped)
    }

    /// Sends a write and decodes the resource in its response, if any.
    func write<Model: Decodable>(_ type: Model.Type, _ request: JSONAPIHTTPRequest)
        async throws -> WriteResponse<Model>
    {
        let response = try await send(request)
        var resource: Model?
        if let document = response.document, case .one = document.primary {
            resource = try decode([Model].self, document, request, status: response.status).value.first
        }
        return WriteResponse(
            status: response.status, headers: response.headers, document: response.document, resource: resource)
    }

    func decode<Element: Decodable>(
        _ type: [Element].Type, _ document: Document, _ request: JSONAPIHTTPRequest, status: Int
    ) throws(JSONAPIClientError) -> DecodingReport<[Element]> {
        do {
            return try document.primary(as: Element.self, options: configuration.decoding).decodeAllReporting()
        } catch {
            throw JSONAPIClientError(
                .decoding, method: request.method, url: request.url, status: status, underlying: error,
                message: "the document does not decode as [\(Element.self)]: \(error)")
        }
    }

    func encode(_ method: String, _ url: String, _ body: (JSONAPIEncoder) throws -> [UInt8])
        throws(JSONAPIClientError) -> [UInt8]
    {
        do {
            return try body(JSONAPIEncoder(options: configuration.encoding))
        } catch {
            throw JSONAPIClientError(
                .invalidRequest, method: method, url: url, underlying: error,
                message: "the body cannot be encoded: \(error)")
        }
    }
}
