import JSONAPI

/// The least any `Codable`-driven encoder spends on a set of models (`jsonapi measure --path
/// encode-floor`): each resource of the document (the primary models, then every related model
/// once) walked through its own `encode(to:)` once, every member handed to a container, nested
/// values walked, and nothing kept, checked or written. A related model met as a member value
/// is not walked there (reading its identity costs nothing here), so the floor is a lower bound
/// on `JSONAPIEncoder`, and on any encoder of the same document from the same plain `Codable`
/// models: what the `Codable` protocol's calls alone cost.
enum EncodingFloor {
    /// The resources a compound document of `primary` holds: the primary models, then each
    /// related model once by (type, id), in the order first met. Not part of the floor.
    static func resources(of primary: [any Encodable & JSONAPIResource]) throws -> [any Encodable] {
        var seen = Set<String>()
        var resources: [any Encodable] = []
        var pending: [any Encodable & JSONAPIResource] = []
        let collector = DiscardingEncoder()
        collector.onResource = { model in
            let key = type(of: model).resourceType + "\u{0}" + (try IdentityReader.id(of: model))
            if seen.insert(key).inserted { pending.append(model) }
        }
        for model in primary {
            resources.append(model)
            try model.encode(to: collector)
        }
        while let model = pending.popLast() {
            resources.append(model)
            try model.encode(to: collector)
        }
        return resources
    }

    /// Walks every resource through a ``DiscardingEncoder``; returns how many values it was
    /// handed, so that nothing is optimised away.
    @inline(never)
    static func walk(_ resources: [any Encodable]) throws -> Int {
        let encoder = DiscardingEncoder()
        for resource in resources { try resource.encode(to: encoder) }
        return encoder.values
    }
}

/// An `Encoder` that keeps nothing: it counts the values it is handed and walks nested ones,
/// except models (``JSONAPIResource``), which it hands to ``onResource`` when set.
final class DiscardingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var values = 0
    var onResource: ((any Encodable & JSONAPIResource) throws -> Void)?
    /// Whether a type is a model, by metadata address: a few slots, no hashing.
    private var cachedTypes = [UInt](repeating: 0, count: 64)
    private var cachedAnswers = [Bool](repeating: false, count: 64)

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(DiscardingKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { DiscardingUnkeyedContainer(encoder: self) }

    @inline(__always)
    func count() { values &+= 1 }

    func visit<T: Encodable>(_ value: T) throws {
        values &+= 1
        if isModel(T.self) {
            if let onResource, let model = value as? any Encodable & JSONAPIResource { try onResource(model) }
            return
        }
        try value.encode(to: self)
    }

    private func isModel<T>(_ type: T.Type) -> Bool {
        let bits = UInt(bitPattern: ObjectIdentifier(type))
        let slot = Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: bits) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
        if cachedTypes[slot] == bits { return cachedAnswers[slot] }
        let answer = type is any JSONAPIResource.Type
        cachedTypes[slot] = bits
        cachedAnswers[slot] = answer
        return answer
    }
}

struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: DiscardingEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.count() }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.count() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.visit(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let encoder: DiscardingEncoder
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws { encoder.count() }
    mutating func encode(_ value: Bool) throws { encoder.count() }
    mutating func encode(_ value: String) throws { encoder.count() }
    mutating func encode(_ value: Double) throws { encoder.count() }
    mutating func encode(_ value: Float) throws { encoder.count() }
    mutating func encode(_ value: Int) throws { encoder.count() }
    mutating func encode(_ value: Int8) throws { encoder.count() }
    mutating func encode(_ value: Int16) throws { encoder.count() }
    mutating func encode(_ value: Int32) throws { encoder.count() }
    mutating func encode(_ value: Int64) throws { encoder.count() }
    mutating func encode(_ value: UInt) throws { encoder.count() }
    mutating func encode(_ value: UInt8) throws { encoder.count() }
    mutating func encode(_ value: UInt16) throws { encoder.count() }
    mutating func encode(_ value: UInt32) throws { encoder.count() }
    mutating func encode(_ value: UInt64) throws { encoder.count() }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.visit(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
}

/// Reads a model's `id` by encoding it (outside the floor: only to find each related model once).
private final class IdentityReader: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var id: String?

    static func id(of model: any Encodable) throws -> String {
        let reader = IdentityReader()
        try model.encode(to: reader)
        return reader.id ?? ""
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(reader: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer(encoder: DiscardingEncoder()) }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        DiscardingUnkeyedContainer(encoder: DiscardingEncoder())
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let reader: IdentityReader
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {}
        mutating func encode(_ value: Bool, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { note(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { note(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { note(value, key) }

        private func note(_ value: Any, _ key: Key) {
            if key.stringValue == "id" { reader.id = "\(value)" }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            DiscardingEncoder().container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            DiscardingUnkeyedContainer(encoder: DiscardingEncoder())
        }

        mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingEncoder() }
    }
}
