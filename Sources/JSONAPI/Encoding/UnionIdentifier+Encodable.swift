#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Encoding union identifiers: as linkage by `JSONAPIEncoder` (the same protocols as
// `Identifier`, so a model's property of one of these types is a relationship), as the resource
// identifier object by any other encoder.

extension UnionIdentifier: Encodable {
    /// Encodes the resource identifier object: `type`, `id` (unless only a `lid` is set), `lid`
    /// and `meta` when present.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(UnionIdentifier(Contributor.person, id: "12"))
    /// // {"type":"people","id":"12"}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: IdentifierKeys.self)
        try container.encode(type, forKey: .type)
        if !id.isEmpty || lid == nil { try container.encode(id, forKey: .id) }
        try container.encodeIfPresent(lid, forKey: .lid)
        if let meta, !meta.isAbsent { try container.encode(JSON(meta), forKey: .meta) }
    }
}

extension UnionIdentifier: LinkageEncodable, DirectLinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        linkage.add(reference)
    }

    var reference: LinkageReference {
        LinkageReference(type: type, id: id.isEmpty ? nil : id, lid: lid, model: nil, meta: meta)
    }
}

extension UnionIdentifier: IdentifierArrayElement {
    static func references<A>(of array: A) -> [LinkageReference] {
        sameType(array, as: [UnionIdentifier].self).map(\.reference)
    }
}

extension UnionIdentifier: StreamedIdentifier {
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder) {
        let identifier = sameType(value, as: UnionIdentifier.self)
        stream.appendIdentifier(
            type: identifier.type, id: identifier.id.isEmpty ? nil : identifier.id, lid: identifier.lid,
            meta: identifier.meta)
    }
}

extension UnionIdentifierConvertible {
    /// The linkage of a conforming type other than ``UnionIdentifier`` (which the encoder
    /// reads directly).
    var linkageReference: LinkageReference { unionIdentifier.reference }
}
