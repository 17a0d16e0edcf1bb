#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The identifier of a resource of any member type of a ``ResourceUnion``: the linkage of a
/// polymorphic relationship, without the related resource.
///
/// What ``Identifier`` is to a model, this is to a union. Decoding checks that the identifier's
/// `type` is one of the union's member types; the related resource need not be in the document.
///
/// ```swift
/// enum Contributor: ResourceUnion {
///     case person(Person)
///     case organization(Organization)
///     static let members: [ResourceUnionMember<Contributor>] = [
///         .member(Person.self, Contributor.person),
///         .member(Organization.self, Contributor.organization),
///     ]
/// }
///
/// struct Article: Codable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var contributors: [UnionIdentifier<Contributor>]   // or [Contributor.ID]
///     var reviewer: UnionIdentifier<Contributor>?
/// }
/// article.contributors[0].type                // "people"
/// article.contributors[0] == UnionIdentifier(Contributor.person, id: "12")   // true
/// ```
///
/// A type that is not a member fails the decode with an error naming the members, located at
/// the linkage. With ``DecodingOptions/ignoresUnhandledResourceTypes`` such an identifier is
/// left out of arrays, makes an optional `nil`, and is listed among the skipped resources, as
/// for the union itself.
///
/// ``JSONAPIEncoder`` writes it as linkage (in documents and in create, update and
/// ``RelationshipUpdate`` bodies); any other encoder as the resource identifier object.
/// Every ``ResourceUnion`` has it as its ``ResourceUnion/ID`` unless the union declares an `ID`
/// of its own (as `@ResourceReadable` does, with a case per member).
public struct UnionIdentifier<Union: ResourceUnion>: Hashable, Sendable, CustomStringConvertible {
    /// The resource type: the `resourceType` of one of the union's members.
    public let type: String
    /// The id (empty for an identifier that has only a 1.1 `lid`).
    public var id: String
    /// The 1.1 local id, if the identifier has one.
    public var lid: String?
    /// The resource identifier object's `meta` (not part of equality).
    public var meta: JSONObject?

    @inline(__always)
    init(type: String, id: String, lid: String?, meta: JSONObject?) {
        self.type = type
        self.id = id
        self.lid = lid
        self.meta = meta
    }

    /// Creates the identifier of a resource of the member that `member` (the enum case) wraps.
    ///
    /// ```swift
    /// let contributor = UnionIdentifier(Contributor.person, id: "12")   // people/12
    /// let new = UnionIdentifier(Contributor.organization, id: "", lid: "org-1")
    /// ```
    ///
    /// - Parameters:
    ///   - member: The case of the union that carries the model, such as `Contributor.person`;
    ///     it is not called, it only names the model type.
    ///   - id: The id (empty when the identifier has only a `lid`).
    ///   - lid: The 1.1 local id.
    public init<Model: JSONAPIResource>(_ member: (Model) -> Union, id: String, lid: String? = nil) {
        self.init(type: Model.resourceType, id: id, lid: lid, meta: nil)
    }

    /// Creates the identifier of the resource `identifier` names, a member of the union through
    /// `member`, keeping its `lid` and `meta`.
    ///
    /// ```swift
    /// let author = Identifier<Person>("9")
    /// let contributor = UnionIdentifier(author, as: Contributor.person)
    /// ```
    public init<Model: JSONAPIResource>(_ identifier: Identifier<Model>, as member: (Model) -> Union) {
        self.init(type: Model.resourceType, id: identifier.id, lid: identifier.lid, meta: identifier.meta)
    }

    /// Creates the identifier of an untyped resource identifier whose type is a member of the
    /// union; nil for any other type.
    ///
    /// ```swift
    /// UnionIdentifier<Contributor>(ResourceIdentifier(type: "people", id: "12"))   // people/12
    /// UnionIdentifier<Contributor>(ResourceIdentifier(type: "robots", id: "1"))    // nil
    /// ```
    ///
    /// - Complexity: O(*m*) in the number of members.
    public init?(_ identifier: ResourceIdentifier) {
        guard Union.members.contains(where: { $0.resourceType == identifier.type }) else { return nil }
        self.init(type: identifier.type, id: identifier.id ?? "", lid: identifier.lid, meta: nil)
    }

    /// The untyped identifier.
    public var resourceIdentifier: ResourceIdentifier {
        ResourceIdentifier(type: type, id: id.isEmpty && lid != nil ? nil : id, lid: lid)
    }

    /// The typed identifier, when the resource is a `Model`; nil when it is another member.
    ///
    /// ```swift
    /// if let person = contributor.identifier(as: Person.self) { print(person.id) }
    /// ```
    public func identifier<Model: JSONAPIResource>(as model: Model.Type) -> Identifier<Model>? {
        guard type == Model.resourceType else { return nil }
        return Identifier(id: id, lid: lid, meta: meta)
    }

    /// Whether both identify the same resource: `type`, `id` and `lid` (not `meta`).
    public static func == (lhs: UnionIdentifier, rhs: UnionIdentifier) -> Bool {
        lhs.type == rhs.type && lhs.id == rhs.id && lhs.lid == rhs.lid
    }

    /// Hashes `type`, `id` and `lid`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(id)
        hasher.combine(lid)
    }

    /// `type/id`, or `type/lid:…` for an identifier with only a local id.
    public var description: String { "\(type)/\(id.isEmpty ? "lid:" + (lid ?? "") : id)" }
}

/// An identifier type of a ``ResourceUnion``: ``UnionIdentifier``, or an enum with a case per
/// member, as `@ResourceReadable` writes for a union (DataDog's `Contributor.ID` style).
///
/// ```swift
/// extension Contributor {
///     enum ID: UnionIdentifierConvertible {
///         case person(Identifier<Person>)
///         case organization(Identifier<Organization>)
///
///         init?(_ identifier: UnionIdentifier<Contributor>) {
///             if let id = identifier.identifier(as: Person.self) {
///                 self = .person(id)
///             } else if let id = identifier.identifier(as: Organization.self) {
///                 self = .organization(id)
///             } else {
///                 return nil
///             }
///         }
///
///         var unionIdentifier: UnionIdentifier<Contributor> {
///             switch self {
///             case .person(let id): UnionIdentifier(id, as: Contributor.person)
///             case .organization(let id): UnionIdentifier(id, as: Contributor.organization)
///             }
///         }
///     }
/// }
/// let body = try JSONAPIEncoder().encode(RelationshipUpdate.toMany([Contributor.ID.person("12"), .organization("24")]))
/// ```
///
/// A conforming type decodes and encodes exactly as its ``unionIdentifier`` does (the protocol
/// gives `init(from:)`, `encode(to:)` and `description`): from linkage whose type is a member of
/// the union, and as linkage in documents and request bodies.
public protocol UnionIdentifierConvertible: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The union whose members this identifies.
    associatedtype Union: ResourceUnion

    /// Creates the value from the union's identifier; nil when this type has no value for it.
    init?(_ identifier: UnionIdentifier<Union>)

    /// The union's identifier of the same resource.
    var unionIdentifier: UnionIdentifier<Union> { get }
}

extension UnionIdentifierConvertible {
    /// Reads the union's identifier and converts it (see ``UnionIdentifier``).
    public init(from decoder: any Decoder) throws {
        let identifier = try UnionIdentifier<Union>(from: decoder)
        guard let value = Self(identifier) else {
            throw DecodingError.typeMismatch(
                Self.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "\(Self.self) has no value for the resource \(identifier)"))
        }
        self = value
    }

    /// Encodes the resource identifier object of ``unionIdentifier``.
    public func encode(to encoder: any Encoder) throws {
        try unionIdentifier.encode(to: encoder)
    }

    /// The description of ``unionIdentifier``: `type/id`.
    public var description: String { unionIdentifier.description }

    /// The union, for the decoder's type traits.
    static var unionType: any ResourceUnion.Type { Union.self }

    /// How the decoder reads a value of this type straight from a node.
    static var directDecoding: any DirectDecodable.Type { ConvertedUnionIdentifier<Self>.self }
}

extension UnionIdentifier: UnionIdentifierConvertible {
    /// The identifier itself.
    public init?(_ identifier: UnionIdentifier<Union>) {
        self = identifier
    }

    /// The identifier itself.
    public var unionIdentifier: UnionIdentifier<Union> { self }
}
