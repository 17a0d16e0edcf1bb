extension ResourceIdentifier: JSONWritable {
    /// Writes the resource identifier object: `type`, then `id` and/or `lid` (whichever are set).
    ///
    /// ```swift
    /// print(try ResourceIdentifier(type: "people", id: "9").jsonString())  // {"type":"people","id":"9"}
    /// ```
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        // Written directly, no list of members: sorted, the keys come as `id`, `lid`, `type`.
        writer.beginObject()
        if !sortingKeys {
            writer.key(literal: "type")
            writer.string(type)
        }
        if let id {
            writer.key(literal: "id")
            writer.string(id)
        }
        if let lid {
            writer.key(literal: "lid")
            writer.string(lid)
        }
        if sortingKeys {
            writer.key(literal: "type")
            writer.string(type)
        }
        writer.endObject()
    }
}

// As linkage through `JSONAPIEncoder` (a model's `ResourceIdentifier` property is a relationship),
// as the resource identifier object through any other encoder.

extension ResourceIdentifier: Encodable {
    /// Encodes the resource identifier object: `type`, then `id` and `lid` when set.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(ResourceIdentifier(type: "people", id: "9"))
    /// // {"type":"people","id":"9"}
    /// ```
    ///
    /// ``JSONAPIEncoder`` writes a model's `ResourceIdentifier` (or array or optional of them)
    /// as relationship linkage, and one given as the value to encode as a relationship
    /// document, `{"data":{"type":"people","id":"9"}}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IdentifierKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(lid, forKey: .lid)
    }
}

extension ResourceIdentifier: LinkageEncodable, DirectLinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        linkage.add(reference)
    }

    var reference: LinkageReference { LinkageReference(type: type, id: id, lid: lid, model: nil) }
}

extension ResourceIdentifier: IdentifierArrayElement {
    static func references<A>(of array: A) -> [LinkageReference] {
        sameType(array, as: [ResourceIdentifier].self).map(\.reference)
    }
}

extension ResourceIdentifier: StreamedIdentifier {
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder) {
        let identifier = sameType(value, as: ResourceIdentifier.self)
        stream.appendIdentifier(type: identifier.type, id: identifier.id, lid: identifier.lid, meta: nil)
    }
}
