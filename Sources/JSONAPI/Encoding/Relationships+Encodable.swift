#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Encoding for the decoding-side relationship types (`Field`, `Related`, `Lazy`), and the
// internal protocols by which the encoder collects relationship values' linkage. Which types are
// relationships is `RelationshipType`'s rule.

/// A value that is relationship linkage: the encoder asks it for its resource identifiers.
protocol LinkageEncodable {
    /// Adds the linkage (and the models to include, if any) to `linkage`.
    func collectLinkage(into linkage: inout LinkageBuilder) throws
}

/// Linkage read through the value's static type: the caller passes a value of `Self`.
protocol DirectLinkageEncodable: LinkageEncodable {
    static func collect<V>(_ value: V, into linkage: inout LinkageBuilder) throws
}

extension DirectLinkageEncodable {
    static func collect<V>(_ value: V, into linkage: inout LinkageBuilder) throws {
        try sameType(value, as: Self.self).collectLinkage(into: &linkage)
    }
}

extension Identifier: DirectLinkageEncodable {}
extension Array: DirectLinkageEncodable {}
extension Optional: DirectLinkageEncodable {}
extension Lazy: DirectLinkageEncodable {}

extension EncodingContext {
    /// Whether a `nil` member of type `Optional<type>` under `key` is a to-one relationship known
    /// to be empty, written as `{"data": null}`: a model, an identifier, a union (or its
    /// identifier), a ``Lazy`` or a ``Related`` of one, under an attribute-like or
    /// `relationships.` key. A to-many one is left out (nil says nothing of its members), and so
    /// is every nil in an update body. The type is asked first, from the cached kinds: the
    /// member's section is read only for relationship types, since reading a dotted key
    /// (`author.links`) allocates.
    @inline(__always)
    func writesNull(forNil type: Any.Type, key: some CodingKey) -> Bool {
        guard writesNilToOne, !isStreamedLeaf(type), kind(of: type) == .toOneRelationship else { return false }
        switch section(of: key) {
        case .attribute, .relationship: return true
        default: return false
        }
    }
}

extension Identifier: LinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        linkage.add(reference)
    }

    var reference: LinkageReference {
        LinkageReference(type: Model.resourceType, id: id.isEmpty ? nil : id, lid: lid, model: nil, meta: meta)
    }
}

/// Array elements whose linkage is read without a dynamic cast per element (``Identifier``).
protocol IdentifierArrayElement {
    /// The references of `array`, which is `[Self]`.
    static func references<A>(of array: A) -> [LinkageReference]
}

extension Identifier: IdentifierArrayElement {
    static func references<A>(of array: A) -> [LinkageReference] {
        let identifiers = sameType(array, as: [Identifier].self)
        let type = Model.resourceType
        var references: [LinkageReference] = []
        references.reserveCapacity(identifiers.count)
        for identifier in identifiers {
            let id = identifier.id
            references.append(
                LinkageReference(
                    type: type, id: id.isEmpty ? nil : id, lid: identifier.lid, model: nil, meta: identifier.meta))
        }
        return references
    }
}

extension Lazy: LinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        let identifier = self.identifier
        linkage.add(
            LinkageReference(
                type: identifier.type, id: identifier.id, lid: identifier.lid, model: nil, meta: identifierMeta))
    }
}

extension Lazy: Encodable {
    /// Encodes the resource identifier object of the reference (`type`, `id`, `lid`).
    public func encode(to encoder: any Encoder) throws {
        let identifier = self.identifier
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(identifier.type, forKey: AnyKey("type"))
        try container.encodeIfPresent(identifier.id, forKey: AnyKey("id"))
        try container.encodeIfPresent(identifier.lid, forKey: AnyKey("lid"))
    }
}

extension Array: LinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        linkage.isToMany = true
        if let identifiers = Element.self as? any IdentifierArrayElement.Type {
            linkage.references += identifiers.references(of: self)
            return
        }
        for element in self { try linkage.addValue(element) }
    }
}

extension Optional: LinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        if let value = self { try linkage.addValue(value) }
    }
}

/// A relationship ``Field`` reached through a generic `encode` (whose static type is not
/// `Field`, so the keyed container's overloads do not apply): its value's linkage, or `null`
/// for ``Field/null`` and ``Field/absent`` (which only a keyed container can leave out), as
/// ``Field``'s own `encode(to:)` writes `null` for both.
extension Field: LinkageEncodable {
    func collectLinkage(into linkage: inout LinkageBuilder) throws {
        if case .value(let value) = self { try linkage.addValue(value) }
    }
}

/// `null` linkage, written for a relationship ``Field`` that is ``Field/null``: a to-one
/// relationship to nothing.
struct NullLinkage: Encodable, LinkageEncodable, RelationshipTargetMarker {
    static var relationshipTarget: RelationshipType.Target { .identifier(Self.self) }
    func collectLinkage(into linkage: inout LinkageBuilder) throws {}
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

/// The parts of a ``Related`` value the encoder writes.
protocol RelatedEncodable {
    var relatedValue: Any { get }
    var relatedMeta: (any Encodable)? { get }
    var relatedLinks: (any Encodable)? { get }
}

extension Related: RelatedEncodable where Value: Encodable, Meta: Encodable, Links: Encodable {
    var relatedValue: Any { value }
    var relatedMeta: (any Encodable)? { meta }
    var relatedLinks: (any Encodable)? { links }
}

extension Related: Encodable where Value: Encodable, Meta: Encodable, Links: Encodable {
    private enum EncodingKeys: String, CodingKey {
        case data, meta, links
    }

    /// Encodes the relationship object: `data`, and `meta` and `links` when present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EncodingKeys.self)
        try container.encode(value, forKey: .data)
        try container.encodeIfPresent(meta, forKey: .meta)
        try container.encodeIfPresent(links, forKey: .links)
    }
}

extension NoMeta: Encodable {
    /// Encodes an empty object (``Related`` and documents leave `nil` meta out altogether).
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: AnyKey.self)
    }
}

extension NoLinks: Encodable {
    /// Encodes an empty object.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: AnyKey.self)
    }
}

extension Field: Encodable where Value: Encodable {
    /// Encodes ``Field/null`` (and ``Field/absent``, outside a keyed container) as `null`, a
    /// value as itself. In a keyed container ``Field/absent`` leaves the key out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .absent, .null: try container.encodeNil()
        case .value(let value): try container.encode(value)
        }
    }
}

extension KeyedEncodingContainer {
    /// Encodes a ``Field``: nothing for ``Field/absent``, `null` for ``Field/null`` (null
    /// linkage when the value is a relationship), else the value.
    ///
    /// ```swift
    /// struct ArticlePatch: Encodable, JSONAPIResource {
    ///     static let resourceType = "articles"
    ///     var id: String
    ///     var title: Field<String> = .absent          // left out
    ///     var subtitle: Field<String> = .null         // "subtitle": null
    ///     var author: Field<Identifier<Person>> = .null   // "author": {"data": null}
    /// }
    /// ```
    public mutating func encode<Value: Encodable>(_ field: Field<Value>, forKey key: Key) throws {
        switch field {
        case .absent:
            return
        case .null:
            if RelationshipType.of(Value.self) != nil {
                try encode(NullLinkage(), forKey: key)
            } else {
                try encodeNil(forKey: key)
            }
        case .value(let value):
            try encode(value, forKey: key)
        }
    }

    /// Encodes an optional ``Field``: nothing when nil, else as ``encode(_:forKey:)``.
    public mutating func encodeIfPresent<Value: Encodable>(_ field: Field<Value>?, forKey key: Key) throws {
        guard let field else { return }
        try encode(field, forKey: key)
    }
}
