/// A Swift type that models one JSON:API resource type.
///
/// Conform a plain `Decodable` struct and name its `type`; nothing else is needed. The decoder
/// reads `id`, `type` and `lid` from the resource object, every other key from `attributes`,
/// then from `relationships`, then the resource's own `meta` and `links`:
///
/// ```swift
/// struct Article: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///
///     var id: String                 // or Int, UUID, any LosslessStringConvertible
///     var title: String              // from attributes
///     var author: Person             // a to-one relationship, resolved through `included`
///     var comments: [Comment]        // a to-many relationship
///     var meta: JSONObject?          // the resource's own `meta`
/// }
///
/// let articles = try JSONAPIDecoder().decode([Article].self, from: data)
/// ```
///
/// The conformance lets the decoder check that a resource has the type a property expects
/// (decoding a `people` resource as an `Article` is an error that names both types), and it is
/// what ``Document/included(of:options:)`` and ``Document/resource(_:id:options:)`` filter by.
/// The encoder uses the same protocol with `Encodable`.
public protocol JSONAPIResource {
    /// The JSON:API `type` of the resource, such as `"articles"`.
    static var resourceType: String { get }
}
