// Giving resource identifiers a `meta` in code, for linkage that the encoder writes.

extension JSONObject {
    /// A view of an owned object, for members typed as a view (``Identifier/meta``).
    ///
    /// ```swift
    /// var tag = Identifier<Tag>("2")
    /// tag.meta = JSONObject(["primary": true])
    /// ```
    ///
    /// The object is written out and read back as a tiny document of its own. A non-finite
    /// ``JSON/double(_:)`` or a ``JSON/decimal(_:)`` that is not number text reads back as `null`.
    ///
    /// Returns nil only if the object cannot be read back: when it nests deeper than
    /// ``ParsingOptions/depthCeiling``, which no parsed document can.
    ///
    /// - Complexity: O(n) in the size of the object.
    public init?(_ object: JSON.Object) {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("meta")
        JSON.object(object).write(to: &writer, sortingKeys: false)
        writer.endObject()
        var options = ParsingOptions()
        // The deepest any parsed document may be.
        options.maximumDepth = ParsingOptions.depthCeiling
        guard let meta = try? Document(parsing: writer.bytes, options: options).meta else { return nil }
        self = meta
    }
}

extension Identifier {
    /// Creates an identifier whose resource identifier object has a `meta`, written in linkage
    /// by ``JSONAPIEncoder`` and in ``RelationshipUpdate`` bodies.
    ///
    /// ```swift
    /// let tag = Identifier<Tag>(id: "2", meta: ["primary": true])
    /// // linkage: {"type":"tags","id":"2","meta":{"primary":true}}
    /// ```
    public init(id: String, lid: String? = nil, meta: JSON.Object) {
        self.init(id: id, lid: lid)
        self.meta = JSONObject(meta)
    }
}
