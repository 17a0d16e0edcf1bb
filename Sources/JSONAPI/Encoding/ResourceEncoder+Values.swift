#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A value captured from `Encodable`, before it is written: attributes, meta and links.
enum EncodedValue {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    /// A `Decimal`, written exactly in plain digits.
    case decimal(Decimal)
    case string(String)
    case object(EncodedObject)
    case array(EncodedArray)
    /// `[String]`, the commonest array, without a box per element.
    case strings([String])
    /// A ``JSON`` value, written as it is (member names untouched by the key strategy).
    case json(JSON)

    /// Writes the value; nesting is bounded by the nesting of the Swift value that made it.
    func write(to writer: inout JSONWriter, sorted: Bool) throws {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .int(let value): writer.number(value)
        case .uint(let value): writer.number(value)
        case .double(let value): try writer.number(value)
        case .float(let value): try writer.number(value)
        case .decimal(let value): try writer.number(value)
        case .string(let value): writer.string(value)
        case .object(let object):
            writer.beginObject()
            if sorted {
                let order = object.keys.indices.sorted {
                    object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8)
                }
                for index in order {
                    writer.key(object.keys[index])
                    try object.values[index].write(to: &writer, sorted: sorted)
                }
            } else {
                for index in object.keys.indices {
                    writer.key(object.keys[index])
                    try object.values[index].write(to: &writer, sorted: sorted)
                }
            }
            writer.endObject()
        case .array(let array):
            writer.beginArray()
            for element in array.values { try element.write(to: &writer, sorted: sorted) }
            writer.endArray()
        case .strings(let strings):
            writer.beginArray()
            for element in strings { writer.string(element) }
            writer.endArray()
        case .json(let value):
            value.write(to: &writer, sortingKeys: sorted)
        }
    }
}

/// An object under construction; a class so nested containers can fill it in place.
final class EncodedObject {
    var keys: [String] = []
    var values: [EncodedValue] = []

    init() {}

    init(capacity: Int) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// Adds a member. A key encoded twice is written twice (the encoder does not search for it).
    func set(_ key: String, _ value: EncodedValue) {
        if keys.capacity == 0 {
            // Most objects have a handful of members: one allocation each instead of four.
            keys.reserveCapacity(8)
            values.reserveCapacity(8)
        }
        keys.append(key)
        values.append(value)
    }
}

/// An array under construction.
final class EncodedArray {
    var values: [EncodedValue] = []
}

extension EncodedValue {
    /// The value as ``JSON``, for linkage given as a value (``LinkageBuilder/addRelatedValue(_:)``);
    /// nesting is bounded by the nesting of the Swift value that made it.
    var json: JSON {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .uint(let value): Int64(exactly: value).map(JSON.int) ?? .decimal(String(value))
        case .double(let value): .double(value)
        case .float(let value): .double(Double(value))
        case .decimal(let value): .decimal(value.description)
        case .string(let value): .string(value)
        case .object(let object): .object(JSON.Object(zip(object.keys, object.values.map(\.json))))
        case .array(let array): .array(array.values.map(\.json))
        case .strings(let strings): .array(strings.map(JSON.string))
        case .json(let value): value
        }
    }
}

/// State shared by every encoder of one `encode` call.
final class EncodingContext {
    let options: EncodingOptions
    let userInfo: [CodingUserInfoKey: Any]
    let sorted: Bool

    /// Whether member names are the coding keys as they are.
    let usesDefaultKeys: Bool
    /// Whether resources are written through ``StreamingEncoder``: compact, unsorted output, and
    /// no custom strategy (those need full coding paths and encoders of their own).
    let streams: Bool
    /// Whether a `nil` optional to-one relationship is written as `{"data": null}` (known-empty
    /// linkage); an update body leaves it out, as it leaves out every member the model does not
    /// set (``Field/null`` clears a relationship there).
    var writesNilToOne = true

    init(options: EncodingOptions) {
        self.options = options
        self.userInfo = options.userInfo
        self.sorted = options.sortsKeys
        var usesDefaultKeys = false
        var customKeys = false
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: usesDefaultKeys = true
        case .convertToSnakeCase, .convertToKebabCase: break
        case .custom: customKeys = true
        }
        var customValues = false
        if case .custom = options.dateEncodingStrategy { customValues = true }
        if case .custom = options.dataEncodingStrategy { customValues = true }
        self.usesDefaultKeys = usesDefaultKeys
        streams = !options.sortsKeys && !options.formatting.prettyPrinted && !customKeys && !customValues
    }

    /// The member name for `key` under the key strategy.
    func name(for key: any CodingKey, path: [any CodingKey]) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: key.stringValue
        case .convertToSnakeCase: convertCase(key.stringValue, separator: "_")
        case .convertToKebabCase: convertCase(key.stringValue, separator: "-")
        case .custom(let convert): convert(path + [key]).stringValue
        }
    }

    /// What the encoder needs to know about a type, found once per type and encode call.
    enum TypeKind {
        case plain
        /// A to-one relationship value: its `nil` is known-empty linkage.
        case toOneRelationship
        /// A to-many relationship value (``RelationshipType/isToMany``): its `nil` says nothing.
        case toManyRelationship
        case stringDictionary

        var isRelationship: Bool { self == .toOneRelationship || self == .toManyRelationship }
    }

    /// An identity-only encoder nobody holds, for the next model's identity. It refers back to
    /// this context: ``releaseSpareEncoders()`` ends that cycle when a document is done.
    private var spareIdentityEncoder: ResourceEncoder?

    /// The `id` and `lid` of `model`, read by encoding it to an identity-only encoder (one is
    /// reused from model to model; a nested call, if a model's identity needed one, gets its
    /// own).
    func identity<Model: Encodable>(of model: Model, resourceType: String) throws -> (id: String?, lid: String?) {
        let encoder: ResourceEncoder
        if let spare = spareIdentityEncoder {
            spareIdentityEncoder = nil
            spare.resourceType = resourceType
            spare.id = nil
            spare.lid = nil
            encoder = spare
        } else {
            encoder = ResourceEncoder(context: self, resourceType: resourceType, identityOnly: true)
        }
        try model.encode(to: encoder)
        let identity = (id: encoder.id, lid: encoder.lid)
        spareIdentityEncoder = encoder
        return identity
    }

    /// Drops the encoders kept for reuse.
    func releaseSpareEncoders() {
        spareIdentityEncoder = nil
    }

    private var kinds: [ObjectIdentifier: TypeKind] = [:]
    /// Recently asked types by metadata address, found without hashing: an open-addressed table
    /// of 64 slots, probed at most ``kindProbes`` slots from the slot the address hashes to.
    ///
    /// Generic types' metadata lives on the heap, at addresses that move with whatever the
    /// process allocated before; a table indexed by a few address bits, one type per slot, let
    /// two of a model's member types evict each other on some layouts, and every member then
    /// paid a hash-table look-up. Hashing the whole address and probing a few slots keeps a
    /// model's handful of types resident whatever their addresses.
    @exclusivity(unchecked) private var recentKinds = [(type: UInt, kind: TypeKind)](
        repeating: (0, .plain), count: kindSlots)
    private static let kindSlots = 64
    private static let kindProbes = 4

    /// The kind of `type`, cached: metatype casts to protocols are costly, and each type is
    /// asked about once per member.
    @inline(__always)
    func kind(of type: Any.Type) -> TypeKind {
        let bits = UInt(bitPattern: ObjectIdentifier(type))
        let home = Self.kindSlot(bits)
        let entry = unsafe recentKinds[home]
        if entry.type == bits { return entry.kind }
        return probeKind(of: type, bits: bits, home: home)
    }

    /// The slot an address hashes to (Fibonacci hashing: the top bits of a multiple).
    @inline(__always)
    private static func kindSlot(_ bits: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: bits) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    /// `kind(of:)` past the home slot: the next probes, then the look-up, remembered in the first
    /// free probed slot (or the home slot when all are taken).
    @inline(never)
    private func probeKind(of type: Any.Type, bits: UInt, home: Int) -> TypeKind {
        var slot = home
        var free = -1
        for _ in 0..<Self.kindProbes {
            let entry = unsafe recentKinds[slot]
            if entry.type == bits { return entry.kind }
            if entry.type == 0 && free < 0 { free = slot }
            slot = (slot &+ 1) & (Self.kindSlots &- 1)
        }
        let kind = lookUpKind(of: type)
        unsafe recentKinds[free >= 0 ? free : home] = (bits, kind)
        return kind
    }

    private func lookUpKind(of type: Any.Type) -> TypeKind {
        let key = ObjectIdentifier(type)
        if let kind = kinds[key] { return kind }
        let kind: TypeKind
        if let relationship = RelationshipType.of(type) {
            kind = relationship.isToMany ? .toManyRelationship : .toOneRelationship
        } else if type is any StringKeyedDictionary.Type {
            kind = .stringDictionary
        } else {
            kind = .plain
        }
        kinds[key] = kind
        return kind
    }

    /// Boxes one value: fast paths for the common leaf types (by metatype, no dynamic cast),
    /// an encoder for the rest.
    func box<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey]) throws -> EncodedValue {
        if T.self == String.self { return .string(sameType(value, as: String.self)) }
        if T.self == Int.self { return .int(Int64(sameType(value, as: Int.self))) }
        if T.self == Double.self { return .double(sameType(value, as: Double.self)) }
        if T.self == Bool.self { return .bool(sameType(value, as: Bool.self)) }
        if T.self == [String].self { return .strings(sameType(value, as: [String].self)) }
        if T.self == JSON.self { return .json(sameType(value, as: JSON.self)) }
        if T.self == Date.self { return try boxDate(sameType(value, as: Date.self), path: path()) }
        if T.self == Data.self { return try boxData(sameType(value, as: Data.self), path: path()) }
        if T.self == URL.self { return .string(sameType(value, as: URL.self).absoluteString) }
        if T.self == UUID.self { return .string(sameType(value, as: UUID.self).uuidString) }
        if T.self == Decimal.self { return .decimal(sameType(value, as: Decimal.self)) }
        if kind(of: T.self) == .stringDictionary, let dictionary = value as? any StringKeyedDictionary {
            return try dictionary.boxMembers(self, path: path())
        }
        let encoder = ValueEncoder(context: self, codingPath: path())
        try value.encode(to: encoder)
        return encoder.result ?? .object(EncodedObject())
    }

    func boxDate(_ date: Date, path: [any CodingKey]) throws -> EncodedValue {
        switch options.dateEncodingStrategy {
        case .deferredToDate: return .double(date.timeIntervalSinceReferenceDate)
        case .iso8601: return .string(formatISO8601(date, fractional: false))
        case .iso8601WithFractionalSeconds: return .string(formatISO8601(date, fractional: true))
        case .secondsSince1970: return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970: return .double((date.timeIntervalSince1970 * 1000).rounded())
        case .custom(let write):
            let encoder = ValueEncoder(context: self, codingPath: path)
            try write(date, encoder)
            return encoder.result ?? .object(EncodedObject())
        }
    }

    func boxData(_ data: Data, path: [any CodingKey]) throws -> EncodedValue {
        switch options.dataEncodingStrategy {
        case .base64: return .string(data.base64EncodedString())
        case .deferredToData:
            let array = EncodedArray()
            array.values = data.map { .int(Int64($0)) }
            return .array(array)
        case .custom(let write):
            let encoder = ValueEncoder(context: self, codingPath: path)
            try write(data, encoder)
            return encoder.result ?? .object(EncodedObject())
        }
    }
}

/// `[String: V]`, whose keys are written as they are (no key strategy), as the decoder reads them.
protocol StringKeyedDictionary {
    func boxMembers(_ context: EncodingContext, path: [any CodingKey]) throws -> EncodedValue
    func streamMembers(_ stream: StreamingEncoder, parent: StreamValueEncoder?, key: any CodingKey) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    func boxMembers(_ context: EncodingContext, path: [any CodingKey]) throws -> EncodedValue {
        let object = EncodedObject()
        for (key, value) in self {
            object.keys.append(key)
            object.values.append(try context.box(value, path: path + [AnyKey(key)]))
        }
        return .object(object)
    }
}

extension OrderedMembers: StringKeyedDictionary where Value: Encodable {
    func boxMembers(_ context: EncodingContext, path: [any CodingKey]) throws -> EncodedValue {
        let object = EncodedObject()
        for member in members {
            object.keys.append(member.key)
            object.values.append(try context.box(member.value, path: path + [AnyKey(member.key)]))
        }
        return .object(object)
    }
}

/// A coding key made from a string or an index.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) {
        stringValue = string
        intValue = nil
    }
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// `JSONEncoder`'s snake case rules with any separator: words split at lower-to-upper changes
/// and before the last capital of an acronym run, lowercased; leading and trailing `_` kept.
func convertCase(_ key: String, separator: Character) -> String {
    let scalars = Array(key.unicodeScalars)
    guard !scalars.isEmpty else { return key }
    func firstIndex(from start: Int, where test: (Unicode.Scalar.Properties) -> Bool) -> Int? {
        var index = start
        while index < scalars.count {
            if test(scalars[index].properties) { return index }
            index += 1
        }
        return nil
    }
    var words: [Range<Int>] = []
    var wordStart = 0
    var searchStart = 1
    while let upper = firstIndex(from: searchStart, where: { $0.isUppercase }) {
        words.append(wordStart..<upper)
        guard let lower = firstIndex(from: upper, where: { $0.isLowercase }) else {
            wordStart = upper
            break
        }
        if lower == upper + 1 {
            wordStart = upper
        } else {
            // An acronym run: its last capital begins the next word ("URLString" -> url, string).
            words.append(upper..<(lower - 1))
            wordStart = lower - 1
        }
        searchStart = lower + 1
    }
    words.append(wordStart..<scalars.count)
    return words.filter { !$0.isEmpty }
        .map { String(String.UnicodeScalarView(scalars[$0])).lowercased() }
        .joined(separator: String(separator))
}

/// `yyyy-MM-ddTHH:mm:ss[.SSS]Z` in UTC, without a formatter.
func formatISO8601(_ date: Date, fractional: Bool) -> String {
    let totalMillis = (date.timeIntervalSince1970 * 1000).rounded(.down)
    let millis = Int64(totalMillis)
    var seconds = millis / 1000
    var milli = millis % 1000
    if milli < 0 {
        milli += 1000
        seconds -= 1
    }
    var days = seconds / 86_400
    var secondOfDay = seconds % 86_400
    if secondOfDay < 0 {
        secondOfDay += 86_400
        days -= 1
    }
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
    var result = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
    result += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2)
    if fractional { result += "." + pad(milli, 3) }
    return result + "Z"
}

/// The `Encoder` for attribute values, meta and links: builds an ``EncodedValue``.
final class ValueEncoder: Encoder {
    let context: EncodingContext
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }
    var result: EncodedValue?

    init(context: EncodingContext, codingPath: [any CodingKey]) {
        self.context = context
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing) = result {
            object = existing
        } else {
            object = EncodedObject()
            result = .object(object)
        }
        return KeyedEncodingContainer(
            ValueKeyedContainer<Key>(context: context, object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing) = result {
            array = existing
        } else {
            array = EncodedArray()
            result = .array(array)
        }
        return ValueUnkeyedContainer(context: context, array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueSingleContainer(encoder: self)
    }
}

struct ValueKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let context: EncodingContext
    let object: EncodedObject
    let codingPath: [any CodingKey]

    private func put(_ value: EncodedValue, _ key: Key) {
        object.set(context.name(for: key, path: codingPath), value)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.uint(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try context.box(value, path: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = EncodedObject()
        put(.object(nested), key)
        return KeyedEncodingContainer(
            ValueKeyedContainer<NestedKey>(context: context, object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        put(.array(nested), key)
        return ValueUnkeyedContainer(context: context, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: AnyKey("super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(forKey: AnyKey(key.stringValue)) }

    private func superEncoder(forKey key: AnyKey) -> any Encoder {
        let nested = EncodedObject()
        object.set(key.stringValue, .object(nested))
        let encoder = ValueEncoder(context: context, codingPath: codingPath + [key])
        encoder.result = .object(nested)
        return encoder
    }
}

/// The scalar `encode` methods every value container has, each one value put where the
/// container keeps it.
protocol PutsEncodedValues {
    func put(_ value: EncodedValue)
}

extension PutsEncodedValues {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.double(value)) }
    mutating func encode(_ value: Float) throws { put(.float(value)) }
    mutating func encode(_ value: Int) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { put(.int(value)) }
    mutating func encode(_ value: UInt) throws { put(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { put(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { put(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { put(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { put(.uint(value)) }
}

struct ValueUnkeyedContainer: UnkeyedEncodingContainer, PutsEncodedValues {
    let context: EncodingContext
    let array: EncodedArray
    let codingPath: [any CodingKey]
    var count: Int { array.values.count }

    func put(_ value: EncodedValue) { array.values.append(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try context.box(value, path: codingPath + [AnyKey(index: count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = EncodedObject()
        let path = codingPath + [AnyKey(index: count)]
        put(.object(nested))
        return KeyedEncodingContainer(
            ValueKeyedContainer<NestedKey>(context: context, object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let path = codingPath + [AnyKey(index: count)]
        put(.array(nested))
        return ValueUnkeyedContainer(context: context, array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = EncodedObject()
        let path = codingPath + [AnyKey(index: count)]
        put(.object(nested))
        let encoder = ValueEncoder(context: context, codingPath: path)
        encoder.result = .object(nested)
        return encoder
    }
}

struct ValueSingleContainer: SingleValueEncodingContainer, PutsEncodedValues {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func put(_ value: EncodedValue) { encoder.result = value }

    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try encoder.context.box(value, path: codingPath))
    }
}
