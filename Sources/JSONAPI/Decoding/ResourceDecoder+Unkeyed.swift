#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An unkeyed container over a JSON array in the input.
///
/// `Array`, `Set` and other collections of attribute values usually bypass this container
/// (the decoder walks arrays itself with the element type known), so this serves custom
/// `init(from:)` implementations.
///
/// `@safe`: its unretained decoder lives for the whole decode, and a container is used, as
/// `Decodable` intends, only inside the `init(from:)` it was given to (see the note above
/// ``ResourceContainer``).
@safe
struct ArrayContainer: UnkeyedDecodingContainer {
    let unmanaged: Unmanaged<ResourceDecoder>
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    let array: ByteRange
    let depth: Int
    var cursor: ArrayCursor
    private(set) var currentIndex = 0

    init(decoder: ResourceDecoder, array: ByteRange, depth: Int) {
        unsafe self.unmanaged = .passUnretained(decoder)
        self.array = array
        self.depth = depth
        self.cursor = ArrayCursor(array)
    }

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    var count: Int? {
        var counter = ArrayCursor(array)
        var n = 0
        while unsafe counter.next(decoder.bytes) != nil { n &+= 1 }
        return n
    }

    var isAtEnd: Bool { unsafe cursor.isAtEnd(decoder.bytes) }

    private mutating func next<T>(_ type: T.Type) throws -> ByteRange {
        guard let element = unsafe cursor.next(decoder.bytes) else {
            // The element is absent, not null: `keyNotFound` (the index is its key), where
            // `valueNotFound` would say a null was found.
            throw decoder.failure(
                .keyNotFound(IndexKey(currentIndex)), at: Int(array.end) &- 1, code: .decodingFailed,
                path: codingPath, "the array has no element \(currentIndex) (it has \(currentIndex))")
        }
        return element
    }

    mutating func decodeNil() throws -> Bool {
        var peek = cursor
        guard let element = unsafe peek.next(decoder.bytes) else { return false }
        if decoder.firstByte(element) == UInt8(ascii: "n") {
            cursor = peek
            currentIndex &+= 1
            return true
        }
        return false
    }

    private mutating func scalar<T: ScalarDecodable>(_ type: T.Type) throws -> T {
        let element = try next(T.self)
        let value = try T.read(decoder, value: element, escaped: nil, key: .index(currentIndex))
        currentIndex &+= 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next(T.self)
        let value = try decoder.unbox(T.self, .value(element), key: .index(currentIndex))
        currentIndex &+= 1
        return value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if try decodeNil() { return nil }
        return try decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try fork().container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try fork().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try fork()
    }

    private mutating func fork() throws -> ResourceDecoder {
        let element = try next(Any.self)
        let forked = decoder.fork(node: .value(element), path: codingPath + [IndexKey(currentIndex)])
        currentIndex &+= 1
        return forked
    }
}

/// An unkeyed container over resources or resource identifiers: primary data, `included`, or
/// a to-many relationship. Elements are resources (or identifiers, resolved on decode).
///
/// `@safe`: its unretained decoder lives for the whole decode, and a container is used, as
/// `Decodable` intends, only inside the `init(from:)` it was given to (see the note above
/// ``ResourceContainer``).
@safe
struct ListContainer: UnkeyedDecodingContainer {
    let unmanaged: Unmanaged<ResourceDecoder>
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    let list: ResourceDecoder.ElementList
    let depth: Int
    private(set) var currentIndex = 0

    init(decoder: ResourceDecoder, list: ResourceDecoder.ElementList, depth: Int) {
        unsafe self.unmanaged = .passUnretained(decoder)
        self.list = list
        self.depth = depth
    }

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }
    var count: Int? { list.count }
    var isAtEnd: Bool { currentIndex >= list.count }

    private mutating func next<T>(_ type: T.Type) throws -> Node {
        guard currentIndex < list.count else {
            throw unsafe decoder.failure(
                .keyNotFound(IndexKey(currentIndex)), at: decoder.offset(of: decoder.node), code: .decodingFailed,
                path: codingPath, "the list has no element \(currentIndex) (it has \(list.count))")
        }
        return list.node(currentIndex)
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let node = try next(T.self)
        let value = try decoder.unbox(T.self, node, key: .index(currentIndex))
        currentIndex &+= 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try fork().container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try fork().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try fork()
    }

    private mutating func fork() throws -> ResourceDecoder {
        let node = try next(Any.self)
        let forked = decoder.fork(node: node, path: codingPath + [IndexKey(currentIndex)])
        currentIndex &+= 1
        return forked
    }
}

/// A single-value container over the node the decoder is at. It reads `decoder.node` when
/// used (the same node while its frame runs) so that it fits an existential's inline buffer
/// and making one allocates nothing.
///
/// `@safe`: its unretained decoder lives for the whole decode, and a container is used, as
/// `Decodable` intends, only inside the `init(from:)` it was given to (see the note above
/// ``ResourceContainer``).
@safe
struct SingleValueContainer: SingleValueDecodingContainer {
    let unmanaged: Unmanaged<ResourceDecoder>
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    let depth: Int

    var node: Node { unsafe decoder.node }

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    func decodeNil() -> Bool {
        switch node {
        case .value(let range):
            return decoder.firstByte(range) == UInt8(ascii: "n")
        case .relationship(let index):
            let data = unsafe decoder.relationships[Int(index)].data
            return data == .null || data == .absent
        case .primary:
            return unsafe decoder.topLevel.data == .null || decoder.topLevel.data == .absent
        default:
            return false
        }
    }

    @inline(__always)
    private func scalar<T: ScalarDecodable>(_ type: T.Type) throws -> T {
        try T.read(decoder, node: node, key: nil)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String { try scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.unbox(T.self, node, key: nil)
    }
}
