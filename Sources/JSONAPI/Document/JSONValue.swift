/// A JSON value inside a parsed document: a view that decodes only what you read.
///
/// Attribute values, `meta` members and extension members are `JSONValue`s. Strings are
/// unescaped and numbers converted when a property is read, never before.
///
/// ```swift
/// let rating = resource.attributes["rating"]
/// rating?.doubleValue      // 4.5
/// rating?.number           // .double(4.5)
/// resource.attributes["tags"]?[0]?.stringValue
/// ```
public struct JSONValue: Sendable, CustomStringConvertible {
    @usableFromInline let storage: DocumentStorage
    @usableFromInline let range: ByteRange

    init(storage: DocumentStorage, range: ByteRange) {
        self.storage = storage
        self.range = range
    }

    /// The JSON type of a value.
    public enum Kind: String, Sendable, Hashable {
        case object, array, string, number, bool, null
    }

    /// A number, in the narrowest exact Swift form that holds it.
    public enum Number: Sendable, Hashable {
        /// An integer that fits `Int64`.
        case int(Int64)
        /// A non-negative integer above `Int64.max` that fits `UInt64`.
        case uint(UInt64)
        /// A number with a fraction or exponent that a `Double` holds without overflow.
        case double(Double)
        /// The exact text of a number that fits none of the above (a huge integer, say).
        case decimal(String)
    }

    /// The value's JSON type.
    public var kind: Kind {
        unsafe storage.withBytes { b in
            guard Int(range.start) < b.count else { return .null }
            switch unsafe b[Int(range.start)] {
            case UInt8(ascii: "{"): return .object
            case UInt8(ascii: "["): return .array
            case UInt8(ascii: "\""): return .string
            case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
            case UInt8(ascii: "n"): return .null
            default: return .number
            }
        }
    }

    /// True for JSON `null`.
    public var isNull: Bool { kind == .null }

    /// The unescaped string, or nil when the value is not a string.
    public var stringValue: String? {
        storage.withView { b in
            let raw = b.subview(range)
            guard raw.count >= 2, raw[0] == UInt8(ascii: "\"") else { return nil }
            return unsafe raw.subview(1..<(raw.count - 1)).withUnsafeBytes { contents in
                unsafe JSONStringDecoding.decode(validUTF8: contents)
            }
        }
    }

    /// The boolean, or nil when the value is not `true` or `false`.
    public var boolValue: Bool? {
        unsafe storage.withBytes { b in
            guard Int(range.start) < b.count else { return nil }
            switch unsafe b[Int(range.start)] {
            case UInt8(ascii: "t"): return true
            case UInt8(ascii: "f"): return false
            default: return nil
            }
        }
    }

    /// The number's exact text, or nil when the value is not a number.
    public var numberText: String? {
        guard kind == .number else { return nil }
        return storage.withView { $0.subview(range).string }
    }

    /// The integer, when the value is an integer (no fraction or exponent) that fits `Int64`.
    public var int64Value: Int64? {
        guard kind == .number else { return nil }
        return unsafe storage.withBytes { unsafe JSONNumberParsing.int64($0.slice(range)) }
    }

    /// The integer, when the value is a non-negative integer that fits `UInt64`.
    public var uint64Value: UInt64? {
        guard kind == .number else { return nil }
        return unsafe storage.withBytes { unsafe JSONNumberParsing.uint64($0.slice(range)) }
    }

    /// The nearest `Double` to any finite number, or nil when not a number or out of range.
    public var doubleValue: Double? {
        guard kind == .number else { return nil }
        return unsafe storage.withBytes { unsafe JSONNumberParsing.double($0.slice(range)) }
    }

    /// The number in its narrowest exact form, or nil when the value is not a number.
    public var number: Number? {
        guard kind == .number else { return nil }
        return unsafe storage.withBytes { b in
            let text = unsafe b.slice(range)
            let isInteger = unsafe !text.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") })
            if isInteger {
                if let value = unsafe JSONNumberParsing.int64(text) { return .int(value) }
                if let value = unsafe JSONNumberParsing.uint64(text) { return .uint(value) }
            } else if let value = unsafe JSONNumberParsing.double(text) {
                return .double(value)
            }
            return unsafe .decimal(String(decoding: text, as: UTF8.self))
        }
    }

    /// The member named `key` of an object (the first, if the name repeats), or nil.
    public subscript(key: String) -> JSONValue? {
        guard kind == .object else { return nil }
        return storage.withView { b in
            ValueReader.member(b, object: range, named: key).map { JSONValue(storage: storage, range: $0) }
        }
    }

    /// The element at `index` of an array, or nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard index >= 0 else { return nil }
        var found: ByteRange?
        var position = 0
        storage.withView { b in
            ValueReader.forEachElement(b, array: Int(range.start)) { element in
                if position == index {
                    found = element
                    return false
                }
                position += 1
                return true
            }
        }
        return found.map { JSONValue(storage: storage, range: $0) }
    }

    /// The elements of an array (empty for other kinds).
    public var elements: [JSONValue] {
        var result: [JSONValue] = []
        storage.withView { b in
            ValueReader.forEachElement(b, array: Int(range.start)) { element in
                result.append(JSONValue(storage: storage, range: element))
                return true
            }
        }
        return result
    }

    /// The members of an object in document order (empty for other kinds).
    public var members: [(key: String, value: JSONValue)] {
        var result: [(key: String, value: JSONValue)] = []
        storage.withView { b in
            ValueReader.forEachMember(b, object: Int(range.start)) { key, escaped, value in
                let name = unsafe b.subview(key).withUnsafeBytes { name in
                    unsafe JSONStringDecoding.decode(validUTF8: name, hasEscapes: escaped)
                }
                result.append((name, JSONValue(storage: storage, range: value)))
                return true
            }
        }
        return result
    }

    /// The member names of an object in document order (empty for other kinds).
    public var keys: [String] { members.map(\.key) }

    /// Number of elements (array) or members (object); 0 for scalars.
    public var count: Int {
        var n = 0
        storage.withView { b in
            switch kind {
            case .array:
                ValueReader.forEachElement(b, array: Int(range.start)) { _ in
                    n += 1; return true
                }
            case .object:
                ValueReader.forEachMember(b, object: Int(range.start)) { _, _, _ in
                    n += 1; return true
                }
            default: break
            }
        }
        return n
    }

    /// The value's exact JSON text, as it appeared in the input.
    public var rawJSON: String { storage.withView { $0.subview(range).string } }

    /// Calls `body` with the value's exact JSON bytes.
    public func withRawBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        unsafe try storage.withBytes { unsafe try body($0.slice(range)) }
    }

    /// The byte offset of the value in the input.
    public var byteOffset: Int { storage.absolute(Int(range.start)) }

    public var description: String { rawJSON }
}

/// A JSON object inside a document (attributes, `meta`): member lookup by name, iteration in order.
public struct JSONObject: Sendable, Sequence {
    let value: JSONValue?

    init(storage: DocumentStorage, range: ByteRange) {
        value = range.isPresent ? JSONValue(storage: storage, range: range) : nil
    }

    /// True when the object was absent from the document.
    public var isAbsent: Bool { value == nil }

    /// The member named `key`, or nil.
    public subscript(key: String) -> JSONValue? { value?[key] }

    /// Whether the object has a member named `key` (even if its value is `null`).
    public func contains(_ key: String) -> Bool { value?[key] != nil }

    /// Member names in document order.
    public var keys: [String] { value?.keys ?? [] }

    /// Number of members. A lenient parse keeps a `meta` or `attributes` that is not an object
    /// (an array, say): it has no members, as `keys` and iteration agree, whatever its length.
    public var count: Int {
        guard let value, value.kind == .object else { return 0 }
        return value.count
    }

    /// True when there are no members (or the object was absent).
    public var isEmpty: Bool { count == 0 }

    /// The object as a plain value (nil when absent).
    public var jsonValue: JSONValue? { value }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        (value?.members ?? []).makeIterator()
    }
}
