/// Which Swift types hold a relationship rather than an attribute: the one rule that the encoder
/// (which section a member is written to), the shape probe (the schema OpenAPI publishes and the
/// server's declarations check) and error mapping (which pointer a key path names) all consult.
///
/// A relationship holds a *target*: a model (``JSONAPIResource``), a union of models
/// (``ResourceUnion``), an identifier (``Identifier``, ``ResourceIdentifier``, ``UnionIdentifier``
/// or a union's own identifier enum) or a ``Lazy`` reference. The target may sit inside an
/// `Optional` or a ``Field`` (an optional to-one relationship), then inside an `Array` (a to-many
/// one), and all of that inside a ``Related`` relationship object; a ``Related`` of any other
/// value is a relationship too, its `data` read and written as that value. Nothing else is:
/// `[[Article]]` or `[Article?]` cannot be written as linkage, so they are attribute values.
struct RelationshipType {
    /// What the relationship's linkage names.
    enum Target {
        /// A model or a union of models, by value.
        case resource(Any.Type)
        /// An identifier of one resource (of a model, a union, or untyped).
        case identifier(Any.Type)
        /// A ``Lazy`` reference, and the model (or union) it refers to.
        case lazy(model: Any.Type)
        /// The value of a ``Related`` that is none of the above, read as the `data` it is.
        case untyped(Any.Type)
    }

    var target: Target
    /// Inside a ``Related`` relationship object.
    var related: Any.Type?
    /// Inside `Optional` or ``Field`` (outside the array, for to-many).
    var isOptional: Bool
    /// Inside an `Array`.
    var isToMany: Bool

    /// The relationship `type` holds, or nil when a value of `type` is an attribute value.
    static func of(_ type: Any.Type) -> RelationshipType? {
        var element = type
        var related: Any.Type?
        if case .related(let value)? = wrapping(of: element) {
            related = element
            element = value
        }
        var isOptional = false
        if case .optional(let wrapped)? = wrapping(of: element) {
            isOptional = true
            element = wrapped
        }
        var isToMany = false
        if case .array(let member)? = wrapping(of: element) {
            isToMany = true
            element = member
        }
        let target: Target
        if let found = self.target(element) {
            target = found
        } else if related != nil {
            target = .untyped(element)
        } else {
            return nil
        }
        return RelationshipType(target: target, related: related, isOptional: isOptional, isToMany: isToMany)
    }

    private static func wrapping(of type: Any.Type) -> RelationshipWrapping? {
        (type as? any RelationshipWrapper.Type)?.relationshipWrapping
    }

    private static func target(_ type: Any.Type) -> Target? {
        if let marker = type as? any RelationshipTargetMarker.Type { return marker.relationshipTarget }
        if type is any JSONAPIResource.Type || type is any ResourceUnion.Type { return .resource(type) }
        if type is any UnionIdentifierConvertible.Type { return .identifier(type) }
        return nil
    }
}

/// How a wrapper type wraps the type it holds, for ``RelationshipType``.
enum RelationshipWrapping {
    case optional(Any.Type)
    case array(Any.Type)
    case related(Any.Type)
}

/// `Optional`, ``Field``, `Array` and ``Related``.
protocol RelationshipWrapper {
    static var relationshipWrapping: RelationshipWrapping { get }
}

extension Optional: RelationshipWrapper {
    static var relationshipWrapping: RelationshipWrapping { .optional(Wrapped.self) }
}

extension Field: RelationshipWrapper {
    static var relationshipWrapping: RelationshipWrapping { .optional(Value.self) }
}

extension Array: RelationshipWrapper {
    static var relationshipWrapping: RelationshipWrapping { .array(Element.self) }
}

extension Related: RelationshipWrapper {
    static var relationshipWrapping: RelationshipWrapping { .related(Value.self) }
}

/// The library's identifier and reference types, which are relationship targets by what they are.
protocol RelationshipTargetMarker {
    static var relationshipTarget: RelationshipType.Target { get }
}

extension Identifier: RelationshipTargetMarker {
    static var relationshipTarget: RelationshipType.Target { .identifier(Self.self) }
}

extension ResourceIdentifier: RelationshipTargetMarker {
    static var relationshipTarget: RelationshipType.Target { .identifier(Self.self) }
}

extension UnionIdentifier: RelationshipTargetMarker {
    static var relationshipTarget: RelationshipType.Target { .identifier(Self.self) }
}

extension Lazy: RelationshipTargetMarker {
    static var relationshipTarget: RelationshipType.Target { .lazy(model: Model.self) }
}
