import Foundation
import OpenAPIKit
import Testing

/// A value encoded with `JSONEncoder` and read back as plain JSON, so that tests look at what an
/// OpenAPI consumer sees rather than at OpenAPIKit's types.
struct Encoded {
    let value: Any?

    init(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        self.value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// JSON text read as plain JSON.
    init(json: Data) throws {
        value = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
    }

    private init(raw: Any?) { value = raw }

    /// The member `key` of an object.
    subscript(key: String) -> Encoded { Encoded(raw: (value as? [String: Any])?[key]) }
    /// The element at `index` of an array.
    subscript(index: Int) -> Encoded {
        guard let array = value as? [Any], array.indices.contains(index) else { return Encoded(raw: nil) }
        return Encoded(raw: array[index])
    }

    var string: String? { value as? String }
    var strings: [String]? { value as? [String] }
    /// The values a schema allows: its `enum`, or its `const` (OpenAPIKit writes a single
    /// allowed value as `const`).
    var allowed: [String]? { self["enum"].strings ?? self["const"].string.map { [$0] } }
    var int: Int? { (value as? NSNumber)?.intValue }
    var bool: Bool? { value.flatMap { $0 as? NSNumber }.map(\.boolValue) }
    var count: Int? { (value as? [Any])?.count }
    var keys: [String]? { (value as? [String: Any]).map { $0.keys.sorted() } }
    var isAbsent: Bool { value == nil }
    /// The elements of an array.
    var elements: [Encoded] { ((value as? [Any]) ?? []).map { Encoded(raw: $0) } }
    /// `required`, sorted.
    var required: [String] { (self["required"].strings ?? []).sorted() }
}
