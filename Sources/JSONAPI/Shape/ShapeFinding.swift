/// Something a model declares that compiles but that JSON:API, or reading a document into the
/// model, does not accept or advises against: an optional array attribute, an attribute named
/// `type`, a relationship name that is not a valid member name…
///
/// ```swift
/// for finding in ResourceShape(of: Article.self).findings {
///     print(finding)   // "tags: an optional array attribute; JSON:API prefers an empty array"
/// }
/// ```
public struct ShapeFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of finding: a struct over a private enum, so that adding a kind breaks no one.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case optionalArrayAttribute, notAttributeOrRelationship, reservedMemberName, invalidMemberName
            case optionalToManyRelationship, invalidResourceType, keyReadTwice, sampleRejected
            case initializerStopped, relationshipInAttribute, nestingTooDeep
        }

        private let value: Value

        private init(_ value: Value) { self.value = value }

        /// An attribute holding an optional array: JSON:API prefers an empty array to `null` or
        /// an absent member for "none".
        public static let optionalArrayAttribute = Kind(.optionalArrayAttribute)
        /// A key that names neither an attribute nor a relationship of the resource object:
        /// `type` (the decoder hands back the resource's type, which is fixed by the model).
        public static let notAttributeOrRelationship = Kind(.notAttributeOrRelationship)
        /// An attribute or relationship named `relationships`, `links`, `attributes`, or an
        /// attribute read from the resource's own `id`, `lid`, `type`, `meta` or `links` section
        /// when a different type was meant; JSON:API reserves these names.
        public static let reservedMemberName = Kind(.reservedMemberName)
        /// A member name that JSON:API's member-name rules reject (`first name`, `_private`…).
        public static let invalidMemberName = Kind(.invalidMemberName)
        /// A to-many relationship declared optional: JSON:API gives an empty to-many relationship
        /// as `[]`, never `null`.
        public static let optionalToManyRelationship = Kind(.optionalToManyRelationship)
        /// The model's `resourceType` is empty or not a valid member name.
        public static let invalidResourceType = Kind(.invalidResourceType)
        /// The model's initializer reads the same key twice (both reads see the same member).
        public static let keyReadTwice = Kind(.keyReadTwice)
        /// A type's initializer threw on every sample value: its shape is
        /// ``ValueShape/Kind/opaque``.
        public static let sampleRejected = Kind(.sampleRejected)
        /// The model's initializer threw, so the members it reads afterwards are not described.
        public static let initializerStopped = Kind(.initializerStopped)
        /// A model, union or identifier type inside an attribute value (`[[Person]]`,
        /// `[String: Person]`): it is not a relationship, and no document decodes into it.
        public static let relationshipInAttribute = Kind(.relationshipInAttribute)
        /// An attribute value nests deeper than ``ResourceShape/maximumNesting``.
        public static let nestingTooDeep = Kind(.nestingTooDeep)

        public var description: String { value.rawValue }
    }

    /// What kind of finding.
    public var kind: Kind
    /// The member path the finding is about: the attribute or relationship name, then names of
    /// nested members (`["address", "street"]`); empty for the resource as a whole.
    public var path: [String]
    /// What is wrong and what to do instead.
    public var message: String

    /// Creates a finding.
    public init(_ kind: Kind, path: [String], message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone for the resource as a whole.
    public var description: String {
        path.isEmpty ? message : "\(path.joined(separator: ".")): \(message)"
    }
}
