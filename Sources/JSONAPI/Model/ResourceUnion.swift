/// A polymorphic relationship or primary data: an enum whose cases carry different models,
/// chosen by each resource's `type`. No macro needed: list the members once.
///
/// ```swift
/// enum Contributor: ResourceUnion {
///     case person(Person)
///     case organization(Organization)
///
///     static let members: [ResourceUnionMember<Contributor>] = [
///         .member(Person.self, Contributor.person),
///         .member(Organization.self, Contributor.organization),
///     ]
/// }
///
/// struct Article: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var contributors: [Contributor]        // people and organizations, in linkage order
///     var reviewer: Contributor?
/// }
/// ```
///
/// A resource whose type is not a member fails the decode, naming the type and the members;
/// with ``DecodingOptions/ignoresUnhandledResourceTypes`` it is left out of arrays, makes
/// optionals `nil`, and is listed among the skipped resources. Unions work anywhere a model
/// does: relationships, primary data, ``Document/primary(as:options:)``, ``Lazy``.
///
/// Declare `members` with `static let` so the list is built once, or let `@ResourceReadable`
/// (in `JSONAPIMacros`) write it from the cases.
///
/// The identifier of a member, for linkage-only properties and request bodies, is
/// ``UnionIdentifier`` (`Contributor.ID` unless the union declares an `ID` of its own):
///
/// ```swift
/// struct ArticleContributors: Encodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var contributors: [Contributor.ID]
/// }
/// let body = try JSONAPIEncoder().encodeUpdate(
///     ArticleContributors(id: "1", contributors: [.init(Contributor.person, id: "12")]))
/// ```
public protocol ResourceUnion: Decodable {
    /// The identifier of a resource of any member type: ``UnionIdentifier`` unless the union
    /// declares its own (such as an enum with a case per member, as `@ResourceReadable` writes).
    associatedtype ID: UnionIdentifierConvertible = UnionIdentifier<Self> where ID.Union == Self

    /// The member models, each with the case that wraps it.
    static var members: [ResourceUnionMember<Self>] { get }
}

/// One member of a ``ResourceUnion``: a model type and the enum case that carries it.
public struct ResourceUnionMember<Union>: @unchecked Sendable {
    /// The member's JSON:API type.
    public let resourceType: String
    // SAFETY (`@unchecked Sendable`): `decode` captures only the `Sendable` `embed` function and
    // the model's metatype, which is immutable runtime metadata; sharing it is sound.
    let decode: (any Decoder) throws -> Union

    /// A member decoding the model that `embed` (the enum case) wraps, the model type inferred
    /// from the case: `.member(Contributor.person)`.
    public static func member<Model: JSONAPIResource & Decodable>(
        _ embed: @escaping @Sendable (Model) -> Union
    ) -> ResourceUnionMember {
        member(Model.self, embed)
    }

    /// A member decoding `model` and wrapping it with `embed` (usually the enum case).
    public static func member<Model: JSONAPIResource & Decodable>(
        _ model: Model.Type, _ embed: @escaping @Sendable (Model) -> Union
    ) -> ResourceUnionMember {
        ResourceUnionMember(resourceType: Model.resourceType) { decoder in
            // Through this library's decoder, a `ResourceReadable` model uses its reader.
            if let decoder = decoder as? ResourceDecoder {
                return embed(try decoder.construct(Model.self, decoder.typeInfo(Model.self)))
            }
            return embed(try Model(from: decoder))
        }
    }
}

private struct UnionTypeKey: CodingKey {
    var stringValue: String { "type" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) {}
    init?(intValue: Int) { nil }
}

extension ResourceUnion {
    /// The JSON:API types of the members, in declaration order.
    public static var memberResourceTypes: [String] { members.map(\.resourceType) }

    /// Picks the member whose type is the resource's `type` and decodes it.
    ///
    /// With `JSONAPIDecoder` the type is read from the resource record; with any other decoder
    /// from a `type` member of the object, so a union also decodes from plain JSON.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = try decoder.decodeUnion(Self.self)
            return
        }
        let container = try decoder.container(keyedBy: UnionTypeKey.self)
        let type = try container.decode(String.self, forKey: UnionTypeKey())
        guard let member = Self.members.first(where: { $0.resourceType == type }) else {
            throw DecodingError.typeMismatch(
                Self.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath + [UnionTypeKey()],
                    debugDescription:
                        "resource type `\(type)` is not a member of \(Self.self) (\(Self.memberResourceTypes.joined(separator: ", ")))"
                ))
        }
        self = try member.decode(decoder)
    }
}

extension ResourceDecoder {
    func decodeUnion<U: ResourceUnion>(_ type: U.Type) throws -> U {
        guard let identity = unsafe try identity(of: node) else {
            throw unsafe typeMismatch(
                U.self, at: offset(of: node), expected: "a resource", found: describe(node), path: path)
        }
        let info = typeInfo(U.self)
        let union = union(info)
        let members = union?.members ?? []
        if let position = members.firstIndex(of: identity.type) {
            let all = U.members
            if position < all.count { return try all[position].decode(self) }
        }
        throw unhandledType(
            String(describing: U.self), type: U.self, typeIndex: identity.type, at: identity.offset,
            identity: describe(identity),
            members: union?.memberNames ?? U.memberResourceTypes)
    }
}
