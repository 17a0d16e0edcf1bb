import JSONAPI

extension JSONAPIClient {
    /// Sends an Atomic Operations batch (`POST /operations`, JSON:API's `atomic` extension): the
    /// operations succeed or fail together.
    ///
    /// ```swift
    /// var batch = AtomicOperationsDocument()
    /// try batch.add(NewPerson(lid: "p", name: "Ada"))
    /// try batch.add(NewArticle(title: "Notes", author: Identifier(id: "", lid: "p")))
    /// let results = try await client.operations(batch)
    /// results.results[0].data        // the created person, with the id the server gave it
    /// ```
    ///
    /// The request's `Content-Type` and `Accept` carry `ext="https://jsonapi.org/ext/atomic"`.
    /// The resources of the results go into ``store``, as every successful response's do.
    ///
    /// - Returns: The results, in the order of the operations (none for `204 No Content`).
    /// - Throws: ``JSONAPIClientError``; a failed batch is ``JSONAPIClientError/Kind/errorResponse``
    ///   with error objects whose pointers name the operation (`/atomic:operations/1/data`).
    public func operations(_ batch: AtomicOperationsDocument, headers: JSONAPIHTTPHeaders = [:])
        async throws -> AtomicResultsDocument
    {
        let url = url(for: .operations)
        let bytes = try encode("POST", url) { _ in
            var writer = JSONWriter(options: configuration.encoding.formatting)
            batch.write(to: &writer, sortingKeys: false)
            return try writer.finish()
        }
        let request = request(
            "POST", url, body: bytes, headers: headers, extensions: [AtomicOperations.extensionURI])
        let response = try await send(request)
        guard let document = response.document else { return AtomicResultsDocument() }
        let results: AtomicResultsDocument
        do {
            results = try AtomicResultsDocument(document)
        } catch {
            throw JSONAPIClientError(
                .unexpectedDocument, method: "POST", url: url, status: response.status, parsingError: error,
                message: "the response is not an atomic:results document: \(error)")
        }
        // The resources the batch created and updated are the server's current ones: the store
        // takes them in, as it takes in every resource of a successful response.
        var resources: [JSONAPIResourceObject] = []
        for result in results.results {
            switch result.data {
            case .resource(let resource)?: resources.append(resource)
            case .resources(let list)?: resources += list
            case .null?, nil: break
            }
        }
        if !resources.isEmpty { store?.merge(resources) }
        return results
    }
}

extension AtomicOperationsDocument {
    /// Appends an operation that creates `model`, encoded as `JSONAPIEncoder.encodeCreate(_:meta:)`
    /// encodes a create body (an empty `id` is left out; a `lid` names it for later operations).
    ///
    /// - Throws: The encoder's error when the model cannot be encoded.
    public mutating func add<Model: JSONAPIResource & Encodable>(
        _ model: Model, encoder: JSONAPIEncoder = JSONAPIEncoder(), meta: JSON.Object? = nil
    ) throws {
        add(try Self.resourceObject(encoder.encodeCreate(model), kind: .createRequest), meta: meta)
    }

    /// Appends an operation that updates the resource `patch` names with the members it sets,
    /// encoded as `JSONAPIEncoder.encodeUpdate(_:meta:)` encodes an update body.
    ///
    /// - Throws: The encoder's error when the model cannot be encoded.
    public mutating func update<Model: JSONAPIResource & Encodable>(
        _ patch: Model, encoder: JSONAPIEncoder = JSONAPIEncoder(), meta: JSON.Object? = nil
    ) throws {
        update(try Self.resourceObject(encoder.encodeUpdate(patch), kind: .updateRequest), meta: meta)
    }

    private static func resourceObject(_ body: [UInt8], kind: ParsingOptions.Kind) throws -> JSONAPIResourceObject {
        let document = try Document(parsing: body, options: ParsingOptions(kind: kind))
        guard case .one(let resource) = document.primary else {
            throw JSONAPIError(.encodingFailed, "the model did not encode as one resource object")
        }
        return JSONAPIResourceObject(resource)
    }
}
