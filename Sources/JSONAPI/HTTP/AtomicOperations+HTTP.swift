extension AtomicOperations {
    /// The operations of an Atomic Operations request, checked the way an endpoint must check
    /// them before applying any.
    ///
    /// The request body must have been sent with the extension in its media type's `ext`, and the
    /// document must hold at least one operation; each operation is checked against the
    /// extension's rules by ``Document/atomicOperations()``.
    ///
    /// ```swift
    /// let type = try configuration.requestMediaType(contentType: contentType)
    /// let operations = try AtomicOperations.checkedOperations(of: document, requestType: type)
    /// ```
    ///
    /// - Throws: ``JSONAPIHTTPError`` 415 without the extension, 400 without operations;
    ///   ``JSONAPIError`` (400) for an operation that breaks the extension's rules.
    public static func checkedOperations(
        of document: Document, requestType: JSONAPIMediaType
    ) throws -> [AtomicOperation] {
        guard requestType.extensions.contains(extensionURI) else {
            throw JSONAPIHTTPError.unsupportedMediaType(
                "an Atomic Operations request must be sent with ext=\"\(extensionURI)\"")
        }
        let operations = try document.atomicOperations()
        guard !operations.isEmpty else {
            throw JSONAPIHTTPError(
                status: 400, code: "missing-operations", title: "Invalid Atomic Operations document",
                detail: "the document has no `\(operationsMember)` member", source: .pointer(""))
        }
        return operations
    }

    /// The body answering an Atomic Operations request: the results document, or nil when no
    /// operation returned data or meta (the extension answers that with 204 No Content).
    ///
    /// - Throws: ``JSONAPIError`` when a result holds something JSON cannot represent.
    public static func responseBody(
        for results: AtomicResultsDocument, options: JSONWritingOptions = JSONWritingOptions()
    ) throws -> [UInt8]? {
        if results.results.allSatisfy({ $0.data == nil && $0.meta == nil }) { return nil }
        return try results.jsonBytes(options: options)
    }
}

extension AtomicOperations {
    /// Stops the program with the fix in its message when `configuration` does not list
    /// ``extensionURI`` among its supported extensions. An endpoint served under such a
    /// configuration would answer every request 415 (negotiation refuses the extension's media
    /// type), so the adapters call it when they register one: the mistake shows at start, not
    /// at the first request.
    ///
    /// ```swift
    /// configuration.supportedExtensions = [AtomicOperations.extensionURI]
    /// AtomicOperations.requireSupport(in: configuration, path: "operations")   // passes
    /// ```
    public static func requireSupport(in configuration: JSONAPIConfiguration, path: String) {
        precondition(
            configuration.supportedExtensions.contains(extensionURI),
            "the Atomic Operations endpoint `\(path)` needs `\(extensionURI)` in the configuration's "
                + "supportedExtensions (`configuration.supportedExtensions.append(AtomicOperations.extensionURI)`, "
                + "in the configuration the middleware negotiates with); without it every request is a 415")
    }
}
