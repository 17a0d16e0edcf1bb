// The probing containers read every type through one generic method (`read`): these
// forward the standard library's per-type requirements to it.

/// A keyed probe container: every `decode` is ``read(_:forKey:)``.
protocol ProbeKeyedForwarding: KeyedDecodingContainerProtocol {
    func read<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T
}

extension ProbeKeyedForwarding {
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try read(type, forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(type, forKey: key) }
}

/// An unkeyed probe container: every `decode` is ``read(_:)``.
protocol ProbeUnkeyedForwarding: UnkeyedDecodingContainer {
    mutating func read<T: Decodable>(_ type: T.Type) throws -> T
}

extension ProbeUnkeyedForwarding {
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    mutating func decode(_ type: String.Type) throws -> String { try read(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try read(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try read(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try read(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }
}

/// A single-value probe container: every `decode` is ``read(_:)``.
protocol ProbeSingleValueForwarding: SingleValueDecodingContainer {
    func read<T: Decodable>(_ type: T.Type) throws -> T
}

extension ProbeSingleValueForwarding {
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    func decode(_ type: String.Type) throws -> String { try read(type) }
    func decode(_ type: Double.Type) throws -> Double { try read(type) }
    func decode(_ type: Float.Type) throws -> Float { try read(type) }
    func decode(_ type: Int.Type) throws -> Int { try read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }
}
