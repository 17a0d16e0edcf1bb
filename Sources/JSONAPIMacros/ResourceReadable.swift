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
/// type; the macro reports one that has none, and types it cannot handle (classes, enums).
///
/// The values read go to the struct's memberwise initializer in one call, which builds the value
/// at once; a struct without one (it declares an `init`, a `private` stored property, a property
/// wrapper or `#if`) has each property assigned instead, which costs a copy of the value.
@attached(extension, conformances: ResourceReadable, names: named(init(from:)))
public macro ResourceReadable() = #externalMacro(module: "JSONAPIMacrosPlugin", type: "ResourceReadableMacro")
