import JSONAPI

/// The least any `Codable`-driven decoder spends on a set of models (`jsonapi measure --path
/// decode-floor`), the mirror of ``EncodingFloor``: each resource of the document (the primary
/// models, then every related model once) built once through its own `init(from:)`, every value
/// it asks for handed back from a tape recorded beforehand, in the order asked, with no parsing,
/// no member lookup and no conversion. A related model met as a member value is handed back
/// whole (it is one of the resources, built on its own). What is left is what the `Decodable`
/// protocol's calls alone cost, so the floor is a lower bound on `JSONAPIDecoder`, and on any
/// decoder of the same document into the same plain `Codable` models.
enum DecodingFloor {
    /// One resource to build: its type and the values its `init(from:)` asks for.
    struct Resource {
        let type: any Decodable.Type
        let tape: [TapeEntry]
    }

    /// Records every resource of `resources` (``EncodingFloor/resources(of:)``); not part of the
    /// floor. Fails when a resource is not `Decodable`.
    static func record(_ resources: [any Encodable]) throws -> [Resource] {
        try resources.map { model in
            guard let type = type(of: model) as? any Decodable.Type else {
                throw DecodingFloorError("\(type(of: model)) is not Decodable")
            }
            let recorder = TapeRecorder()
            try model.encode(to: recorder)
            return Resource(type: type, tape: recorder.tape)
        }
    }

    /// Builds every resource from its tape; returns how many were built, so that nothing is
    /// optimised away.
    @inline(never)
    static func build(_ resources: [Resource]) throws -> Int {
        var built = 0
        for resource in resources {
            _ = try make(resource.type, from: TapeDecoder(tape: resource.tape))
            built &+= 1
        }
        return built
    }

    /// Fails unless each resource built from its tape encodes to the same document as the model
    /// it was recorded from: the replay answered every call its `init(from:)` made, with the
    /// values recorded. Not part of the floor.
    static func check(_ resources: [Resource], against models: [any Encodable]) throws {
        var options = EncodingOptions()
        options.includePaths = []
        let encoder = JSONAPIEncoder(options: options)
        guard resources.count == models.count else { throw DecodingFloorError("a resource was not recorded") }
        for (resource, model) in zip(resources, models) {
            guard let built = try make(resource.type, from: TapeDecoder(tape: resource.tape)) as? any Encodable,
                try encoder.encode(built) == encoder.encode(model)
            else {
                throw DecodingFloorError("\(resource.type) built from its tape differs from the model recorded")
            }
        }
    }

    private static func make<T: Decodable>(_ type: T.Type, from decoder: TapeDecoder) throws -> T {
        try T(from: decoder)
    }
}

/// Why a tape does not fit the calls made on it (a model whose `init(from:)` asks for other
/// values than its `encode(to:)` wrote).
struct DecodingFloorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One value of a tape, in the order written: the member name it was written under (nil in an
/// unkeyed or single-value container) and the depth of the container that holds it.
struct TapeEntry {
    enum Value {
        case null
        case bool(Bool)
        case string(String)
        case double(Double)
        case float(Float)
        case int(Int64)
        case uint(UInt64)
        /// A related model, handed back whole.
        case model(any Decodable)
        /// A keyed container opens here.
        case keyed
        /// An unkeyed container of this many values opens here.
        case unkeyed(count: Int)
    }

    let key: String?
    let depth: Int
    var value: Value
}

/// An `Encoder` that writes a value's containers and values to a tape in the order it hands
/// them over; a model met as a member value is written as itself.
final class TapeRecorder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var tape: [TapeEntry] = []
    /// The depth of the container this value sits in, and the key it sits under.
    let depth: Int
    let key: String?

    init(depth: Int = 0, key: String? = nil) {
        self.depth = depth
        self.key = key
    }

    func append(_ key: String?, _ depth: Int, _ value: TapeEntry.Value) {
        tape.append(TapeEntry(key: key, depth: depth, value: value))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        append(key, depth, .keyed)
        return KeyedEncodingContainer(Keyed<Key>(recorder: self, depth: depth + 1))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        append(key, depth, .unkeyed(count: 0))
        return Unkeyed(recorder: self, depth: depth + 1, slot: tape.count - 1, key: nil)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Unkeyed(recorder: self, depth: depth, slot: nil, key: key)
    }

    /// A value under `key` in a container at `depth`: a model as itself, anything else through
    /// its own `encode(to:)`.
    func record<T: Encodable>(_ value: T, key: String?, depth: Int) throws {
        if T.self is any JSONAPIResource.Type, let model = value as? any Decodable {
            append(key, depth, .model(model))
            return
        }
        let nested = TapeRecorder(depth: depth, key: key)
        try value.encode(to: nested)
        tape += nested.tape
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let recorder: TapeRecorder
        let depth: Int
        var codingPath: [any CodingKey] { [] }

        private func add(_ key: Key, _ value: TapeEntry.Value) { recorder.append(key.stringValue, depth, value) }

        mutating func encodeNil(forKey key: Key) throws { add(key, .null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, .bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(key, .string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { add(key, .double(value)) }
        mutating func encode(_ value: Float, forKey key: Key) throws { add(key, .float(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key, .int(Int64(value))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, .int(Int64(value))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, .int(Int64(value))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, .int(Int64(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, .int(value)) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, .uint(UInt64(value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, .uint(UInt64(value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, .uint(UInt64(value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, .uint(UInt64(value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, .uint(value)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try recorder.record(value, key: key.stringValue, depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            add(key, .keyed)
            return KeyedEncodingContainer(Keyed<NestedKey>(recorder: recorder, depth: depth + 1))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            add(key, .unkeyed(count: 0))
            return Unkeyed(recorder: recorder, depth: depth + 1, slot: recorder.tape.count - 1, key: nil)
        }

        mutating func superEncoder() -> any Encoder { recorder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { recorder }
    }

    /// An unkeyed container (`slot` is its `.unkeyed` entry, whose count grows with each value),
    /// or a single-value one (no slot; its value is written under the value's key).
    final class Unkeyed: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let recorder: TapeRecorder
        let depth: Int
        let slot: Int?
        let key: String?
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        init(recorder: TapeRecorder, depth: Int, slot: Int?, key: String?) {
            self.recorder = recorder
            self.depth = depth
            self.slot = slot
            self.key = key
        }

        private func counted() {
            count += 1
            if let slot { recorder.tape[slot].value = .unkeyed(count: count) }
        }

        private func add(_ value: TapeEntry.Value) {
            counted()
            recorder.append(key, depth, value)
        }

        func encodeNil() throws { add(.null) }
        func encode(_ value: Bool) throws { add(.bool(value)) }
        func encode(_ value: String) throws { add(.string(value)) }
        func encode(_ value: Double) throws { add(.double(value)) }
        func encode(_ value: Float) throws { add(.float(value)) }
        func encode(_ value: Int) throws { add(.int(Int64(value))) }
        func encode(_ value: Int8) throws { add(.int(Int64(value))) }
        func encode(_ value: Int16) throws { add(.int(Int64(value))) }
        func encode(_ value: Int32) throws { add(.int(Int64(value))) }
        func encode(_ value: Int64) throws { add(.int(value)) }
        func encode(_ value: UInt) throws { add(.uint(UInt64(value))) }
        func encode(_ value: UInt8) throws { add(.uint(UInt64(value))) }
        func encode(_ value: UInt16) throws { add(.uint(UInt64(value))) }
        func encode(_ value: UInt32) throws { add(.uint(UInt64(value))) }
        func encode(_ value: UInt64) throws { add(.uint(value)) }
        func encode<T: Encodable>(_ value: T) throws {
            counted()
            try recorder.record(value, key: key, depth: depth)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            add(.keyed)
            return KeyedEncodingContainer(Keyed<NestedKey>(recorder: recorder, depth: depth + 1))
        }

        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            add(.unkeyed(count: 0))
            return Unkeyed(recorder: recorder, depth: depth + 1, slot: recorder.tape.count - 1, key: nil)
        }

        func superEncoder() -> any Encoder { recorder }
    }
}

/// A `Decoder` that answers each call with the next entry of a tape: no lookup, no parsing, no
/// conversion beyond the integer width asked for. A member is present when the next entry sits
/// under its name at the container's depth.
final class TapeDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let tape: [TapeEntry]
    var cursor = 0

    init(tape: [TapeEntry]) { self.tape = tape }

    @inline(__always)
    func next() throws -> TapeEntry.Value {
        guard cursor < tape.count else { throw DecodingFloorError("the tape ended at entry \(cursor)") }
        cursor &+= 1
        return tape[cursor &- 1].value
    }

    /// Whether the next entry is `key`'s in a container at `depth`.
    @inline(__always)
    func holds(_ key: String?, depth: Int) -> Bool {
        cursor < tape.count && tape[cursor].depth == depth && tape[cursor].key == key
    }

    @inline(__always)
    func nextIsNull() -> Bool {
        guard cursor < tape.count, case .null = tape[cursor].value else { return false }
        cursor &+= 1
        return true
    }

    func mismatch(_ asked: String) -> DecodingFloorError {
        DecodingFloorError("entry \(cursor - 1) is not \(asked)")
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let depth = cursor < tape.count ? tape[cursor].depth : 0
        guard case .keyed = try next() else { throw mismatch("a keyed container") }
        return KeyedDecodingContainer(KeyedReader<Key>(decoder: self, depth: depth + 1))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .unkeyed(let count) = try next() else { throw mismatch("an unkeyed container") }
        return UnkeyedReader(decoder: self, count: count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleReader(decoder: self) }

    func bool() throws -> Bool {
        guard case .bool(let value) = try next() else { throw mismatch("a Bool") }
        return value
    }

    func string() throws -> String {
        guard case .string(let value) = try next() else { throw mismatch("a String") }
        return value
    }

    func double() throws -> Double {
        guard case .double(let value) = try next() else { throw mismatch("a Double") }
        return value
    }

    func float() throws -> Float {
        guard case .float(let value) = try next() else { throw mismatch("a Float") }
        return value
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch try next() {
        case .int(let value): if let exact = T(exactly: value) { return exact }
        case .uint(let value): if let exact = T(exactly: value) { return exact }
        default: break
        }
        throw mismatch("a \(T.self)")
    }

    func value<T: Decodable>(_ type: T.Type) throws -> T {
        if cursor < tape.count, case .model(let model) = tape[cursor].value {
            cursor &+= 1
            guard let value = model as? T else { throw mismatch("a \(T.self)") }
            return value
        }
        return try T(from: self)
    }

    struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: TapeDecoder
        let depth: Int
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { decoder.holds(key.stringValue, depth: depth) }
        func decodeNil(forKey key: Key) throws -> Bool { decoder.nextIsNull() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string() }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.double() }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.float() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(Int.self) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(Int8.self) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(Int16.self) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(Int32.self) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(Int64.self) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(UInt.self) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(UInt8.self) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(UInt16.self) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(UInt32.self) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.value(T.self) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decoder.container(keyedBy: NestedKey.self)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    /// An unkeyed container of `count` values.
    struct UnkeyedReader: UnkeyedDecodingContainer {
        let decoder: TapeDecoder
        let count: Int?
        var codingPath: [any CodingKey] { [] }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= (count ?? 0) }

        init(decoder: TapeDecoder, count: Int) {
            self.decoder = decoder
            self.count = count
        }

        mutating func decodeNil() throws -> Bool {
            guard decoder.nextIsNull() else { return false }
            currentIndex &+= 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool {
            currentIndex &+= 1
            return try decoder.bool()
        }
        mutating func decode(_ type: String.Type) throws -> String {
            currentIndex &+= 1
            return try decoder.string()
        }
        mutating func decode(_ type: Double.Type) throws -> Double {
            currentIndex &+= 1
            return try decoder.double()
        }
        mutating func decode(_ type: Float.Type) throws -> Float {
            currentIndex &+= 1
            return try decoder.float()
        }
        mutating func decode(_ type: Int.Type) throws -> Int {
            currentIndex &+= 1
            return try decoder.integer(Int.self)
        }
        mutating func decode(_ type: Int8.Type) throws -> Int8 {
            currentIndex &+= 1
            return try decoder.integer(Int8.self)
        }
        mutating func decode(_ type: Int16.Type) throws -> Int16 {
            currentIndex &+= 1
            return try decoder.integer(Int16.self)
        }
        mutating func decode(_ type: Int32.Type) throws -> Int32 {
            currentIndex &+= 1
            return try decoder.integer(Int32.self)
        }
        mutating func decode(_ type: Int64.Type) throws -> Int64 {
            currentIndex &+= 1
            return try decoder.integer(Int64.self)
        }
        mutating func decode(_ type: UInt.Type) throws -> UInt {
            currentIndex &+= 1
            return try decoder.integer(UInt.self)
        }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
            currentIndex &+= 1
            return try decoder.integer(UInt8.self)
        }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
            currentIndex &+= 1
            return try decoder.integer(UInt16.self)
        }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
            currentIndex &+= 1
            return try decoder.integer(UInt32.self)
        }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
            currentIndex &+= 1
            return try decoder.integer(UInt64.self)
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex &+= 1
            return try decoder.value(T.self)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            currentIndex &+= 1
            return try decoder.container(keyedBy: NestedKey.self)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex &+= 1
            return try decoder.unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { decoder }
    }

    /// A single-value container: the next entry is its value.
    struct SingleReader: SingleValueDecodingContainer {
        let decoder: TapeDecoder
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { decoder.nextIsNull() }
        func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
        func decode(_ type: String.Type) throws -> String { try decoder.string() }
        func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
        func decode(_ type: Float.Type) throws -> Float { try decoder.float() }
        func decode(_ type: Int.Type) throws -> Int { try decoder.integer(Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.value(T.self) }
    }
}
