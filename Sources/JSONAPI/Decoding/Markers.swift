import Foundation

// Types the decoder treats specially, recognised by conformance to these internal protocols so
// that the element or wrapped type is known statically where it matters: arrays are walked with
// their element type in hand (to skip missing or unhandled resources, and to read `[String]`
// without a container per element), optionals decide between `nil` and an error, and
// `[String: V]` keeps member names as they are (no key strategy), as `JSONDecoder` does.

/// `Array` of any `Decodable`.
protocol DecodableArrayMarker {
    static func decodeArray(from decoder: ResourceDecoder, _ node: Node) throws -> Any
}

extension Array: DecodableArrayMarker where Element: Decodable {
    static func decodeArray(from decoder: ResourceDecoder, _ node: Node) throws -> Any {
        try decoder.decodeElements(Element.self, node)
    }
}

/// `Optional` of any `Decodable`.
protocol DecodableOptionalMarker {
    static func decodeOptional(from decoder: ResourceDecoder, _ node: Node, key: (any CodingKey)?) throws -> Any
}

extension Optional: DecodableOptionalMarker where Wrapped: Decodable {
    static func decodeOptional(from decoder: ResourceDecoder, _ node: Node, key: (any CodingKey)?) throws -> Any {
        try decoder.decodeOptional(Wrapped.self, node, key: key) as Any
    }
}

/// `[String: V]`.
protocol DecodableDictionaryMarker {
    static func decodeDictionary(from decoder: ResourceDecoder, _ node: Node) throws -> Any
}

extension Dictionary: DecodableDictionaryMarker where Key == String, Value: Decodable {
    static func decodeDictionary(from decoder: ResourceDecoder, _ node: Node) throws -> Any {
        try decoder.decodeStringDictionary(Value.self, node)
    }
}

/// Types that decode from a resource identifier alone, so a linkage to a resource the document
/// does not contain is no reason to skip or fail.
protocol LinkageDecodable {}

/// Types with a value for a member that is absent (``Field``).
protocol AbsentRepresentable {
    static var absentValue: Any { get }
}

/// ``Lazy`` references, so unions inside them are recognised.
protocol LazyMarker {
    static var model: Any.Type { get }
}
