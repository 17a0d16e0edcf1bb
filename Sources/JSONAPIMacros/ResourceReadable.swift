@_exported import JSONAPI

/// Writes a `ResourceReadable` conformance for a struct: an `init(from: ResourceReader)`
/// that reads every stored property the way the compiler's synthesized `init(from: any Decoder)`
/// does (same keys, `CodingKeys` included; optionals through `decodeIfPresent`; properties with
/// a `let` initial value, or left out of `CodingKeys`, keep their initial value), without the
/// `Decoder` protocol's containers. The typed views then use it instead of `init(from:)`.
///
/// ```swift
/// import JSONAPIMacros
///
/// @ResourceReadable
/// struct Article: JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var title: String
///     var subtitle: String?
///     var author: Identifier<Person>
/// }
/// ```
///
/// Apply it to the nested value types a model holds too (a `Metrics` attribute, a links
/// object): each type that has it skips the containers. Every stored property needs a written
/// type; the macro reports one that has none, and types it cannot handle (classes).
///
/// The values read go to the struct's memberwise initializer in one call, which builds the value
/// at once; a struct without one (it declares an `init`, a `private` stored property, a property
/// wrapper or `#if`) has each property assigned instead, which costs a copy of the value.
///
/// ## Unions
///
/// On an enum whose cases each carry one model, it writes the ``JSONAPI/ResourceUnion``
/// conformance: the `members` table (one entry per case, in order) and an `ID` enum with a case
/// per member carrying that member's ``JSONAPI/Identifier``, for linkage-only properties and
/// request bodies.
///
/// ```swift
/// @ResourceReadable
/// enum Contributor {
///     case person(Person)
///     case organization(Organization)
/// }
///
/// struct Article: Codable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var contributors: [Contributor.ID]     // linkage only: .person("12"), .organization("24")
/// }
/// let body = try JSONAPIEncoder().encode(RelationshipUpdate.toMany([Contributor.ID.person("12"), .organization("24")]))
/// ```
///
/// The macro reports, from the syntax: a generic enum, an enum without cases, cases inside
/// `#if`, a case with no value or several, a value with a default, a value whose type is written
/// as an optional, array, dictionary, tuple, function or existential, and two cases carrying
/// the same type. That each case's type is a `JSONAPIResource & Decodable` model the compiler
/// checks at the generated `members` entry. A `members` or `ID` the enum declares itself is kept.
/// As for structs, the types are written in an extension, so a model nested in another type
/// must be named with its full path in the case (`case person(Models.Person)`).
@attached(
    extension, conformances: ResourceReadable, ResourceUnion,
    names: named(init(from:)), named(members), named(ID))
public macro ResourceReadable() = #externalMacro(module: "JSONAPIMacrosPlugin", type: "ResourceReadableMacro")
