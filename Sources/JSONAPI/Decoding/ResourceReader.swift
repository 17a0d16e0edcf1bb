#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `Decodable` type that can also read itself straight from a parsed document, without the
/// `Decoder` protocol's containers.
///
/// The typed views decode a conforming type through `init(from: ResourceReader)` instead of
/// `init(from: any Decoder)` (unless ``DecodingOptions/usesResourceReaders`` is off). The two
/// must read the same members the same way; the `@ResourceReadable` macro of the
/// `JSONAPIMacros` library writes this initializer from the type's stored properties and its
/// `CodingKeys`, exactly as the compiler writes `init(from:)`, so nobody has to:
///
/// ```swift
/// @ResourceReadable
/// struct Article: JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var title: String
///     var author: Identifier<Person>
/// }
/// ```
///
/// Options, errors (with coding path, JSON Pointer, line and column), relationships, cycles and
/// missing resources behave exactly as they do through `init(from:)`.
///
/// Written by hand, build the value in one initializer call rather than a property at a time:
/// `try self.init(id: reader.decode("id"), title: reader.decode("title"))`. A struct initialized
/// property by property is returned as a copy of itself, a retain and a release for each string
/// and array it holds, which the optimizer does not remove.
public protocol ResourceReadable: Decodable {
    /// Reads the value from `reader`: a resource object, or a JSON object for a nested type.
    init(from reader: borrowing ResourceReader) throws
}

/// The members of one resource object (or one JSON object) being decoded, read by name.
///
/// Member names resolve as a keyed container resolves coding keys: `id`, `type` and `lid` from
/// the resource, then `attributes`, then `relationships` (so a property can be a related model,
/// an ``Identifier``, a ``Lazy`` reference, ...), then the resource's `meta` and `links`;
/// `name.meta` and `name.links` reach a relationship's. The key decoding strategy applies.
///
/// A reader is lent to one `init(from: ResourceReader)` call (it cannot be copied, so it cannot
/// outlive that call).
///
/// `@safe`: its unretained decoder outlives it (the reader is noncopyable and lent to one call
/// inside the decode), and it reads the document only at ranges the arena recorded.
@safe
public struct ResourceReader: ~Copyable {
    // SAFETY: the decoder outlives every reader it makes: a reader is borrowed by one
    // `init(from:)` call, which the decoder's own frame encloses, and being noncopyable it
    // cannot be kept past that call.
    // Unmanaged, read with `_withUnsafeGuaranteedRef`, so that reading a member retains nothing.
    let unmanaged: Unmanaged<ResourceDecoder>
    let record: UInt32
    /// The JSON object read (`.absent` when reading a resource).
    let object: ByteRange
    let segment: MemberSegment
    let depth: Int

    @inline(__always) var isResource: Bool { !object.isPresent }
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    @inline(__always) var node: Node { isResource ? .resource(record) : .value(object) }

    /// The coding path of the value being read.
    public var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    /// Whether the member exists (for a relationship: whether it is present at all).
    public func contains(_ name: StaticString) -> Bool {
        if case .none = slot(name) { return false }
        return true
    }

    @inline(__always)
    func slot(_ name: StaticString) -> ResourceSlot {
        unsafe unmanaged._withUnsafeGuaranteedRef { decoder in slot(name, decoder) }
    }

    @inline(__always)
    func slot(_ name: StaticString, _ decoder: ResourceDecoder) -> ResourceSlot {
        name.withUTF8Buffer { utf8 in
            let wanted = UnsafeRawBufferPointer(utf8)
            if isResource { return unsafe decoder.lookup(wanted, record: record, segment: segment) }
            if let member = unsafe decoder.findMember(segment, object: object, wanted) { return .member(member) }
            return .none
        }
    }

    @inline(__always)
    func scalar<T: ScalarDecodable>(_ type: T.Type, _ name: StaticString) throws -> T {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            do {
                guard let value = try decoder.scalar(T.self, in: slot(name, decoder), record: record, key: .name(name))
                else { throw keyNotFound(name) }
                return value
            } catch {
                return try decoder.standIn(T.self, after: error, at: node)
            }
        }
    }

    @inline(__always)
    func scalarIfPresent<T: ScalarDecodable>(_ type: T.Type, _ name: StaticString) throws -> T? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            try decoder.scalarIfPresent(T.self, in: slot(name, decoder), record: record, key: .name(name))
        }
    }

    @inline(never)
    func keyNotFound(_ name: StaticString) -> DecodingError {
        decoder.keyNotFound(StaticCodingKey(name), in: node, path: codingPath)
    }

    /// The member `name` as a `String`.
    public func decode(_ name: StaticString, as type: String.Type = String.self) throws -> String {
        try scalar(String.self, name)
    }
    /// The member `name` as an `Int`.
    public func decode(_ name: StaticString, as type: Int.Type = Int.self) throws -> Int {
        try scalar(Int.self, name)
    }
    /// The member `name` as a `Double`.
    public func decode(_ name: StaticString, as type: Double.Type = Double.self) throws -> Double {
        try scalar(Double.self, name)
    }
    /// The member `name` as a `Bool`.
    public func decode(_ name: StaticString, as type: Bool.Type = Bool.self) throws -> Bool {
        try scalar(Bool.self, name)
    }
    /// The member `name`, or nil when it is absent or null.
    public func decodeIfPresent(_ name: StaticString, as type: String.Type = String.self) throws -> String? {
        try scalarIfPresent(String.self, name)
    }
    /// The member `name`, or nil when it is absent or null.
    public func decodeIfPresent(_ name: StaticString, as type: Int.Type = Int.self) throws -> Int? {
        try scalarIfPresent(Int.self, name)
    }
    /// The member `name`, or nil when it is absent or null.
    public func decodeIfPresent(_ name: StaticString, as type: Double.Type = Double.self) throws -> Double? {
        try scalarIfPresent(Double.self, name)
    }
    /// The member `name`, or nil when it is absent or null.
    public func decodeIfPresent(_ name: StaticString, as type: Bool.Type = Bool.self) throws -> Bool? {
        try scalarIfPresent(Bool.self, name)
    }

    /// The member `name` as any `Decodable` type: exactly what
    /// `KeyedDecodingContainer.decode(_:forKey:)` gives for a key named `name`.
    public func decode<T: Decodable>(_ name: StaticString, as type: T.Type = T.self) throws -> T {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(name, decoder), record: record) else {
                return try decoder.absentValue(T.self, key: StaticCodingKey(name), in: node, depth: depth)
            }
            return try decoder.unbox(T.self, node, key: .name(name))
        }
    }

    /// The member `name` of a property declared with a default value (`var views: Int = 0`):
    /// what `decode(_:as:)` gives, and in a lenient decode `defaultValue` when the
    /// member is missing or cannot be read.
    ///
    /// A strict decode reads the member exactly as `decode(_:as:)` does and never
    /// evaluates `defaultValue` (a missing member is an error, as it is for the compiler's
    /// `init(from:)`, which does not use declared defaults either). With
    /// ``DecodingOptions/Tolerance/lenient`` a value that would fail gives `defaultValue`
    /// instead, and the report lists a ``DecodingProblem`` whose action is
    /// ``DecodingProblem/Action/defaultKept``. `@ResourceReadable` reads each such property
    /// this way:
    ///
    /// ```swift
    /// try self.init(id: reader.decode("id"), views: reader.decode("views", default: 0))
    /// ```
    public func decode<T: Decodable>(_ name: StaticString, default defaultValue: @autoclosure () -> T) throws -> T {
        guard unsafe unmanaged._withUnsafeGuaranteedRef({ decoder in unsafe decoder.lenient }) else {
            return try decode(name, as: T.self)
        }
        return try decodeKeepingDefault(name, defaultValue)
    }

    /// The array member `name` of a property declared with a default value: what
    /// `decode(_:as:)` gives, and in a lenient decode `defaultValue` when the
    /// member is missing or cannot be read; see `decode(_:default:)`.
    @inlinable
    public func decode<E: Decodable>(_ name: StaticString, default defaultValue: @autoclosure () -> [E]) throws
        -> [E]
    {
        guard _isLenient else { return try decode(name, as: [E].self) }
        return try decodeKeepingDefault(name, defaultValue)
    }

    /// Whether the decode is lenient.
    @usableFromInline
    var _isLenient: Bool {
        unsafe unmanaged._withUnsafeGuaranteedRef { decoder in unsafe decoder.lenient }
    }

    /// `decode(_:default:)` in a lenient decode: the member, or `defaultValue` with a
    /// problem recorded where the member (or, when it is missing, the object) is.
    @usableFromInline
    @inline(never)
    func decodeKeepingDefault<T: Decodable>(_ name: StaticString, _ defaultValue: () -> T) throws -> T {
        let decoder = decoder
        let mark = decoder.recoveryMark
        do {
            return try decode(name, as: T.self)
        } catch {
            // An absent member is located at the object that lacks it, which is not the value.
            let member = decoder.node(for: slot(name, decoder), record: record)
            guard
                decoder.recover(
                    error, since: mark, node: member ?? node, key: .name(name), action: .defaultKept,
                    isValue: member != nil)
            else { throw error }
            return defaultValue()
        }
    }

    /// The member `name`, or nil: exactly what `KeyedDecodingContainer.decodeIfPresent(_:forKey:)`
    /// gives for a key named `name`.
    public func decodeIfPresent<T: Decodable>(_ name: StaticString, as type: T.Type = T.self) throws -> T? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(name, decoder), record: record) else { return nil }
            return try decoder.decodeOptional(T.self, node, key: .name(name))
        }
    }

    /// The member `name` as a typed identifier: what `decode(_:as:)` gives, with the common
    /// case (a to-one relationship whose linkage has an id of the right type and no `lid` or
    /// `meta`) read straight from the linkage record.
    public func decode<M: JSONAPIResource>(
        _ name: StaticString, as type: Identifier<M>.Type = Identifier<M>.self
    ) throws -> Identifier<M> {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(name, decoder), record: record) else {
                return try decoder.absentValue(Identifier<M>.self, key: StaticCodingKey(name), in: node, depth: depth)
            }
            if let identifier = Identifier<M>.plain(decoder, node) { return identifier }
            return try decoder.unbox(Identifier<M>.self, node, key: .name(name))
        }
    }

    /// The member `name` as an optional typed identifier: what `decodeIfPresent(_:as:)` gives,
    /// with the common case read as the non-optional overload reads it.
    public func decodeIfPresent<M: JSONAPIResource>(
        _ name: StaticString, as type: Identifier<M>.Type = Identifier<M>.self
    ) throws -> Identifier<M>? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(name, decoder), record: record) else { return nil }
            // An identifier needs no related resource and is no union, so nothing the general
            // way checks first applies to a plain linkage.
            if let identifier = Identifier<M>.plain(decoder, node) { return identifier }
            return try decoder.decodeOptional(Identifier<M>.self, node, key: .name(name))
        }
    }

    /// The member `name` as an array: what `decode(_:as:)` gives for `[E]`, with the
    /// array allocated here, in the caller's code, where its type is known (allocated inside the
    /// library, an array of a type it does not know costs a runtime metadata lookup).
    @inlinable
    public func decode<E: Decodable>(_ name: StaticString, as type: [E].Type = [E].self) throws -> [E] {
        var result: [E] = []
        _ = try _decodeArray(
            name, into: &result, optional: false, reserve: { array, count in array.reserveCapacity(count) },
            append: { array, element in array.append(element) })
        return result
    }

    /// The member `name` as an optional array: what `decodeIfPresent(_:as:)` gives
    /// for `[E]`, allocated as the non-optional overload allocates it.
    @inlinable
    public func decodeIfPresent<E: Decodable>(_ name: StaticString, as type: [E].Type = [E].self) throws -> [E]? {
        var result: [E] = []
        let present = try _decodeArray(
            name, into: &result, optional: true, reserve: { array, count in array.reserveCapacity(count) },
            append: { array, element in array.append(element) })
        return present ? result : nil
    }

    /// Fills `result` with the array member `name`; false when an optional array is nil.
    ///
    /// A to-many relationship or a JSON array is read here, in a frame of its own as `unbox`
    /// makes one for any array; everything else (a missing member, null, a to-one relationship,
    /// primary data) goes the general way, with the general errors.
    @usableFromInline
    func _decodeArray<E: Decodable>(
        _ name: StaticString, into result: inout [E], optional: Bool, reserve: (inout [E], Int) -> Void,
        append: (inout [E], E) -> Void
    ) throws -> Bool {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(name, decoder), record: record) else {
                if optional { return false }
                result = try decoder.absentValue([E].self, key: StaticCodingKey(name), in: self.node, depth: depth)
                return true
            }
            let direct: Bool
            switch node {
            case .relationship(let index): direct = unsafe decoder.relationships[Int(index)].data == .many
            case .value(let range): direct = decoder.firstByte(range) == UInt8(ascii: "[")
            default: direct = false
            }
            guard direct else {
                if optional {
                    guard let value = try decoder.decodeOptional([E].self, node, key: .name(name)) else { return false }
                    result = value
                } else {
                    result = try decoder.unbox([E].self, node, key: .name(name))
                }
                return true
            }
            let mark = decoder.recoveryMark
            do {
                let frame = try decoder.push(node, key: .name(name), expected: .max, model: nil)
                defer { decoder.pop(frame) }
                do {
                    try decoder.appendElements(E.self, node, into: &result, reserve: reserve, append: append)
                } catch {
                    throw decoder.locate(error, node: node)
                }
            } catch {
                // A lenient decode makes an optional array that cannot be read nil.
                guard optional, decoder.recover(error, since: mark, node: node, key: .name(name), action: .setToNil)
                else { throw error }
                result.removeAll()
                return false
            }
            return true
        }
    }
}

/// The coding key of a member read by a ``ResourceReader``, for coding paths.
struct StaticCodingKey: CodingKey {
    let name: StaticString

    init(_ name: StaticString) { self.name = name }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }

    var stringValue: String { name.description }
    var intValue: Int? { nil }
}

extension Node {
    /// Whether a ``ResourceReader`` reads this node (a resource, or a JSON value); the others
    /// (the document, `included`, strings) go through `init(from:)`, which knows them.
    @inline(__always)
    var isReadable: Bool {
        switch self {
        case .value, .resource, .relationship, .linkage, .primary: true
        case .document, .included, .text, .typeName: false
        }
    }
}

extension ResourceDecoder {
    /// A reader over the current node (which ``Node/isReadable``), set up as
    /// ``container(keyedBy:)`` sets up a container.
    func reader<T>(for type: T.Type) throws -> ResourceReader {
        if case .value(let range) = unsafe node {
            guard firstByte(range) == UInt8(ascii: "{") else {
                throw typeMismatch(T.self, expected: "an object", found: range, path: path)
            }
            let segment = unsafe table.scan(bytes, object: range)
            return unsafe ResourceReader(
                unmanaged: .passUnretained(self), record: 0, object: range, segment: segment, depth: pathCount)
        }
        let record = unsafe try singleResource(of: node, for: T.self)
        try enter(record)
        let segment = unsafe table.scan(bytes, object: resources[Int(record)].attributes)
        return unsafe ResourceReader(
            unmanaged: .passUnretained(self), record: record, object: .absent, segment: segment, depth: pathCount)
    }
}
