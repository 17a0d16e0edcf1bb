/// An owned JSON value, built in code: the value type of `meta`, attributes and other free-form
/// members of the documents this library writes (error documents, Atomic Operations).
///
/// Where ``JSONValue`` is a view into a parsed document, `JSON` holds its contents. Build one
/// with literals, or copy a view with ``init(_:)-(JSONValue)``. Objects keep their members in
/// the order given.
///
/// ```swift
/// let meta: JSON = [
///     "requestId": "7f9c",
///     "retryAfter": 30,
///     "ratio": 0.25,
///     "tags": ["a", "b"],
///     "paging": ["next": nil],
/// ]
/// print(try meta.jsonString())
/// // {"requestId":"7f9c","retryAfter":30,"ratio":0.25,"tags":["a","b"],"paging":{"next":null}}
/// print(meta["retryAfter"]?.int64Value ?? 0)   // 30
/// ```
///
/// Equality is structural and ordered: objects are equal when they have the same members in the
/// same order, and `.int(1)` differs from `.double(1)`. Equality, hashing, writing and copying
/// walk the tree with an explicit stack. Only deinitialisation recurses (the standard library
/// releases nested arrays that way): trees copied from a document are no deeper than the
/// document's ``ParsingOptions/maximumDepth`` (512 by default, at most
/// ``ParsingOptions/depthCeiling``), and a `JSON` property decoded by ``JSONAPIDecoder`` no
/// deeper than ``DecodingOptions/maximumDepth``, so input cannot exhaust the stack.
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A finite floating-point number (NaN and infinities cannot be written).
    case double(Double)
    /// A number kept as its exact JSON text (`"12345678901234567890"`, `"1e400"`), written verbatim.
    /// The text must follow the JSON number grammar, or writing fails.
    case decimal(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object, members in order.
    case object(Object)

    /// The members of a JSON object, in order.
    public typealias Object = OrderedMembers<JSON>
}

// MARK: - Equality and hashing

extension JSON {
    /// Structural, ordered equality, without recursion: pairs of nested values wait on a stack.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        var pending: [(JSON, JSON)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.null, .null): continue
            case (.bool(let x), .bool(let y)): if x != y { return false }
            case (.int(let x), .int(let y)): if x != y { return false }
            case (.double(let x), .double(let y)): if x != y { return false }
            case (.decimal(let x), .decimal(let y)): if x != y { return false }
            case (.string(let x), .string(let y)): if x != y { return false }
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                pending.append(contentsOf: zip(x, y))
            case (.object(let x), .object(let y)):
                guard x.members.count == y.members.count else { return false }
                for (m, n) in zip(x.members, y.members) {
                    guard m.key == n.key else { return false }
                    pending.append((m.value, n.value))
                }
            default:
                return false
            }
        }
        return true
    }

    /// Hashes the case, scalars, counts and member names of the whole tree, without recursion.
    public func hash(into hasher: inout Hasher) {
        var pending: [JSON] = [self]
        while let value = pending.popLast() {
            switch value {
            case .null: hasher.combine(0 as UInt8)
            case .bool(let x): hasher.combine(1 as UInt8); hasher.combine(x)
            case .int(let x): hasher.combine(2 as UInt8); hasher.combine(x)
            case .double(let x): hasher.combine(3 as UInt8); hasher.combine(x)
            case .decimal(let x): hasher.combine(4 as UInt8); hasher.combine(x)
            case .string(let x): hasher.combine(5 as UInt8); hasher.combine(x)
            case .array(let elements):
                hasher.combine(6 as UInt8)
                hasher.combine(elements.count)
                pending.append(contentsOf: elements.reversed())
            case .object(let object):
                hasher.combine(7 as UInt8)
                hasher.combine(object.members.count)
                for member in object.members { hasher.combine(member.key) }
                pending.append(contentsOf: object.members.reversed().map(\.value))
            }
        }
    }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// An object with the members in the order written; a repeated key keeps its first position
    /// and its last value.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(Object(elements)) }
}

// MARK: - Convenience initialisers

extension JSON {
    /// An integer value.
    public init(_ value: Int) { self = .int(Int64(value)) }
    /// A floating-point value.
    public init(_ value: Double) { self = .double(value) }
    /// A string value.
    public init(_ value: String) { self = .string(value) }
    /// A boolean value.
    public init(_ value: Bool) { self = .bool(value) }
    /// An object value.
    public init(_ object: Object) { self = .object(object) }
}

// MARK: - Reading

extension JSON {
    /// True for `null`.
    public var isNull: Bool { self == .null }

    /// The boolean, or nil for other values.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, or nil for other values.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer: an `.int`, or a `.decimal` whose text is an integer that fits `Int64`.
    public var int64Value: Int64? {
        switch self {
        case .int(let value): return value
        case .decimal(let text): return Int64(text)
        default: return nil
        }
    }

    /// The number as the nearest `Double` (any `.int`, `.double` or `.decimal` in range).
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .decimal(let text): return Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// The elements, or nil for other values.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, or nil for other values.
    public var objectValue: Object? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key` of an object (nil when absent or not an object). Setting a member
    /// of an object replaces it in place or appends it; setting nil removes it.
    public subscript(key: String) -> JSON? {
        get { objectValue?[key] }
        set {
            guard case .object(var object) = self else { return }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` of an array, or nil when out of range or not an array.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

// MARK: - Copying a view

extension JSON {
    /// Copies a value out of a parsed document.
    ///
    /// Strings are unescaped. Integers that fit `Int64` become ``int(_:)``. Other numbers become
    /// ``double(_:)`` when they have at most 15 significant digits and are in range (a `Double`
    /// then holds them exactly to the digit), and ``decimal(_:)`` with their exact text otherwise,
    /// so nothing is lost.
    ///
    /// ```swift
    /// let meta = document.meta?.jsonValue.map(JSON.init) ?? [:]
    /// ```
    ///
    /// - Complexity: O(n) in the size of the value; uses an explicit stack, not recursion.
    public init(_ view: JSONValue) {
        self =
            unsafe view.storage.withBytes { bytes in unsafe JSON.copy(bytes, view.range, maximumDepth: .max) } ?? .null
    }

    /// Copies a value out of a parsed document unless its arrays and objects nest more than
    /// `maximumDepth` levels (a scalar has none, `[]` one, `[[]]` two); nil when they do.
    init?(_ view: JSONValue, maximumDepth: Int) {
        guard let copy = unsafe view.storage.withBytes({ unsafe JSON.copy($0, view.range, maximumDepth: maximumDepth) })
        else {
            return nil
        }
        self = copy
    }

    /// Copies the valid JSON value at `range` of `bytes`; nil when containers nest deeper than
    /// `maximumDepth`.
    private static func copy(_ bytes: UnsafeRawBufferPointer, _ range: ByteRange, maximumDepth: Int) -> JSON? {
        struct Frame {
            var items: [(key: String, value: ByteRange)] = []
            var next = 0
            var elements: [JSON] = []
            var members = Object()
            let isObject: Bool
            let key: String
        }
        let ends = unsafe ContainerEnds(bytes, from: Int(range.start), to: Int(range.end))
        func scalar(_ range: ByteRange) -> JSON? {
            let start = Int(range.start)
            guard start < bytes.count else { return .null }
            switch unsafe bytes[start] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                return nil
            case UInt8(ascii: "n"):
                return .null
            case UInt8(ascii: "t"):
                return .bool(true)
            case UInt8(ascii: "f"):
                return .bool(false)
            case UInt8(ascii: "\""):
                let contents = unsafe bytes.slice(ByteRange(start + 1, max(start + 1, Int(range.end) - 1)))
                return unsafe .string(JSONStringDecoding.decode(validUTF8: contents))
            default:
                return unsafe JSON.number(text: bytes.slice(range))
            }
        }
        func frame(_ range: ByteRange, key: String) -> Frame {
            var frame = unsafe Frame(isObject: bytes[Int(range.start)] == UInt8(ascii: "{"), key: key)
            if frame.isObject {
                unsafe ends.forEachMember(bytes, object: Int(range.start)) { name, escaped, value in
                    unsafe frame.items.append(
                        (JSONStringDecoding.decode(validUTF8: bytes.slice(name), hasEscapes: escaped), value))
                    return true
                }
            } else {
                unsafe ends.forEachElement(bytes, array: Int(range.start)) { element in
                    frame.items.append(("", element))
                    return true
                }
            }
            return frame
        }
        if let value = scalar(range) { return value }
        guard maximumDepth >= 1 else { return nil }
        var stack = [frame(range, key: "")]
        while let top = stack.last {
            if top.next < top.items.count {
                let item = top.items[top.next]
                stack[stack.count - 1].next += 1
                if let value = scalar(item.value) {
                    if top.isObject {
                        stack[stack.count - 1].members.append(key: item.key, value: value)
                    } else {
                        stack[stack.count - 1].elements.append(value)
                    }
                } else {
                    guard stack.count < maximumDepth else { return nil }
                    stack.append(frame(item.value, key: item.key))
                }
                continue
            }
            let done = stack.removeLast()
            let value: JSON = done.isObject ? .object(done.members) : .array(done.elements)
            guard !stack.isEmpty else { return value }
            if stack[stack.count - 1].isObject {
                stack[stack.count - 1].members.append(key: done.key, value: value)
            } else {
                stack[stack.count - 1].elements.append(value)
            }
        }
        return .null
    }

    /// Copies an object out of a parsed document (`meta`, attributes); an absent object is empty.
    public init(_ object: JSONObject) {
        self = object.jsonValue.map(JSON.init) ?? .object(Object())
    }

    /// The narrowest exact form of valid JSON number text.
    static func number<Text: Collection<UInt8>>(text: Text) -> JSON {
        let string = String(decoding: text, as: UTF8.self)
        var isInteger = true
        var significant = 0
        var leading = true
        var inExponent = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "."):
                isInteger = false
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                isInteger = false
                inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !inExponent:
                if byte != UInt8(ascii: "0") { leading = false }
                if !leading { significant += 1 }
            default:
                break
            }
        }
        if isInteger, let value = Int64(string) { return .int(value) }
        if !isInteger, significant <= 15, let value = Double(string), value.isFinite { return .double(value) }
        return .decimal(string)
    }
}

// MARK: - Writing

extension JSON: JSONWritable {
    /// Writes the value; see ``JSONWritable/write(to:sortingKeys:)``.
    ///
    /// A non-finite ``double(_:)`` or a ``decimal(_:)`` that is not JSON number text is written
    /// as `null` and reported by ``JSONWriter/finish()``.
    ///
    /// - Complexity: O(n) in the size of the tree; uses an explicit stack, not recursion.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        enum Frame {
            case array([JSON], next: Int)
            // `order` nil: the members in their own order (no index array to build).
            case object(Object, order: [Int]?, next: Int)
        }
        func open(_ value: JSON, _ writer: inout JSONWriter) -> Frame? {
            switch value {
            case .null: writer.null()
            case .bool(let flag): writer.bool(flag)
            case .int(let number): writer.number(number)
            case .double(let number):
                do throws(JSONAPIError) { try writer.number(number) } catch { writer.recordUnwritable(error) }
            case .decimal(let text):
                do throws(JSONAPIError) { try writer.number(text: text) } catch { writer.recordUnwritable(error) }
            case .string(let text): writer.string(text)
            case .array(let elements):
                writer.beginArray()
                return .array(elements, next: 0)
            case .object(let object):
                writer.beginObject()
                return .object(object, order: sortingKeys ? object.sortedOrder() : nil, next: 0)
            }
            return nil
        }
        guard let first = open(self, &writer) else { return }
        var stack = [first]
        while let top = stack.last {
            switch top {
            case .array(let elements, let next):
                guard next < elements.count else {
                    writer.endArray()
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1] = .array(elements, next: next + 1)
                if let frame = open(elements[next], &writer) { stack.append(frame) }
            case .object(let object, let order, let next):
                guard next < object.count else {
                    writer.endObject()
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1] = .object(object, order: order, next: next + 1)
                let member = object[order?[next] ?? next]
                writer.key(member.key)
                if let frame = open(member.value, &writer) { stack.append(frame) }
            }
        }
    }
}

extension JSON: CustomStringConvertible {
    /// The compact JSON text (`null` in place of values JSON cannot represent).
    public var description: String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
