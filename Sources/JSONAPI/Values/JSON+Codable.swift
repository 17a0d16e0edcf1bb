#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// `JSON` as a free-form `Codable` value: a model property typed `JSON` or `[String: JSON]`
// takes whatever the document holds there.

extension JSON: Codable {
    /// Encodes the value through any encoder: objects as keyed containers (members in order),
    /// arrays as unkeyed containers, scalars as single values.
    ///
    /// ``JSONAPIEncoder`` writes the value as it is: member names are not changed by a key
    /// strategy, and a ``decimal(_:)`` is written as its exact text. Other encoders get a
    /// ``decimal(_:)`` as the nearest integer type that holds it exactly, else as a `Decimal`
    /// when its text reads as one, else as a `Double`; and may apply their key strategy to
    /// member names, as they do to dictionary keys.
    ///
    /// ```swift
    /// struct Article: Codable, JSONAPIResource {
    ///     static let resourceType = "articles"
    ///     var id: String
    ///     var extra: JSON            // any JSON value, written and read back as it is
    ///     var meta: [String: JSON]?
    /// }
    /// let data = try JSONEncoder().encode(JSON(["n": 1, "list": [true, nil]]))
    /// ```
    ///
    /// - Throws: What the encoder throws (Foundation's `JSONEncoder` throws for a non-finite
    ///   ``double(_:)``).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .int(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .double(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .decimal(let text):
            var container = encoder.singleValueContainer()
            if let value = Int64(text) {
                try container.encode(value)
            } else if let value = UInt64(text) {
                try container.encode(value)
            } else if let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN {
                try container.encode(value)
            } else {
                try container.encode(Double(text) ?? .nan)
            }
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyKey.self)
            for member in object { try container.encode(member.value, forKey: AnyKey(member.key)) }
        }
    }

    /// Decodes any JSON value.
    ///
    /// From ``JSONAPIDecoder`` (and the typed views of a ``Document``) the value is copied
    /// exactly as ``init(_:)-(JSONValue)`` does: members in document order, numbers beyond
    /// `Int64` and `Double` kept as ``decimal(_:)`` text. From other decoders, integers become
    /// ``int(_:)`` (or ``decimal(_:)`` beyond `Int64`), other numbers ``double(_:)``, and object
    /// members come in the order the decoder lists its keys (Foundation's `JSONDecoder` does not
    /// keep the document's order).
    ///
    /// ```swift
    /// let value = try JSONDecoder().decode(JSON.self, from: Data(#"{"n":18446744073709551616}"#.utf8))
    /// // .object(["n": .decimal("18446744073709551616")])
    /// ```
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            let view = try JSONValue(from: decoder)
            // The value's own levels count towards DecodingOptions.maximumDepth like nested
            // structs do: its outermost container is the level this decode already entered.
            guard let value = unsafe JSON(view, maximumDepth: decoder.options.maximumDepth &- decoder.depth &+ 1) else {
                throw unsafe decoder.tooDeep(decoder.node, key: .none)
            }
            self = value
            return
        }
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object = Object()
            for key in container.allKeys {
                object.append(key: key.stringValue, value: try container.decode(JSON.self, forKey: key))
            }
            self = .object(object)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSON] = []
            while !container.isAtEnd { elements.append(try container.decode(JSON.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .decimal(String(value))
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self), value.isFinite {
            // An integral value beyond 64 bits: its exact digits when the decoder has them.
            if value.rounded() == value, value.magnitude >= 9.2e18,
                let decimal = try? container.decode(Decimal.self), decimal.isFinite
            {
                self = .decimal(decimal.description)
            } else {
                self = .double(value)
            }
        } else if let decimal = try? container.decode(Decimal.self), decimal.isFinite {
            self = .decimal(decimal.description)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }
}
