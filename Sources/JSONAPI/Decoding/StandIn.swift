#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Stand-in values
// ---------------
// A decode that lists every problem (`JSONAPIDecoder.decodeListingProblems`) cannot stop at the
// first value that fails: the model's `init(from:)` needs some value there to go on to its next
// property. It gets a stand-in, made by running the type's own `init(from:)` against a decoder
// that holds nothing: no keys, empty arrays, `null` for optionals, zero and `""` for scalars.
// A stand-in is only ever a placeholder inside a decode that fails; it is never returned.
//
// A type whose `init(from:)` refuses that (a `RawRepresentable` enum that is not `CaseIterable`,
// a value that validates itself) has no stand-in; the listing then ends where it was needed.

/// A library type that makes its own stand-in rather than decoding one.
protocol StandInRepresentable {
    static var standIn: Self? { get }
}

extension Identifier: StandInRepresentable {
    static var standIn: Identifier? { Identifier(id: "") }
}

extension JSON: StandInRepresentable {
    static var standIn: JSON? { .null }
}

extension URL: StandInRepresentable {
    static var standIn: URL? { URL(string: "about:blank") }
}

extension UUID: StandInRepresentable {
    static var standIn: UUID? { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension Decimal: StandInRepresentable {
    static var standIn: Decimal? { Decimal(0) }
}

enum StandIn {
    /// How deeply a stand-in's own stand-ins may nest (a struct in a struct in ...).
    static let maximumDepth = 32

    /// A value of `T` that decodes from nothing, or nil when `T` has none.
    static func value<T: Decodable>(of type: T.Type, depth: Int = 0) -> T? {
        guard depth < maximumDepth else { return nil }
        if let optional = T.self as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ()) as? T
        }
        if let representable = T.self as? any StandInRepresentable.Type {
            return representable.standIn as? T
        }
        if let cases = T.self as? any CaseIterable.Type {
            return firstCase(of: cases) as? T
        }
        return try? T(from: EmptyDecoder(depth: depth))
    }

    private static func firstCase<C: CaseIterable>(of type: C.Type) -> Any? {
        C.allCases.first
    }
}

/// A decoder that holds nothing, for stand-ins: every keyed container has no keys (so a
/// non-optional member gets a stand-in of its own), every unkeyed container is empty, and a
/// single value is `null` when asked, else zero, `false` or `""`.
private struct EmptyDecoder: Decoder {
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(EmptyKeyedContainer<Key>(depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        EmptyUnkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        EmptySingleValueContainer(depth: depth)
    }
}

/// The stand-in of `T` one level further down, or the error that ends the stand-in.
private func nestedStandIn<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
    guard let value = StandIn.value(of: T.self, depth: depth &+ 1) else {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "no stand-in for \(T.self)"))
    }
    return value
}

private struct EmptyKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try nestedStandIn(T.self, depth: depth)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(EmptyKeyedContainer<NestedKey>(depth: depth &+ 1))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        EmptyUnkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { EmptyDecoder(depth: depth &+ 1) }
    func superDecoder(forKey key: Key) throws -> any Decoder { EmptyDecoder(depth: depth &+ 1) }
}

private struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func end() -> DecodingError {
        DecodingError.valueNotFound(
            Any.self, DecodingError.Context(codingPath: [], debugDescription: "a stand-in array is empty"))
    }

    mutating func decodeNil() throws -> Bool { throw end() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw end()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end() }
    mutating func superDecoder() throws -> any Decoder { throw end() }
}

private struct EmptySingleValueContainer: SingleValueDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try nestedStandIn(T.self, depth: depth) }
}
