#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `Encoder` a model encodes itself to when the output is compact and unsorted: member
/// values are written as JSON text the moment the model hands them over, instead of being
/// captured as ``EncodedValue`` trees and written afterwards.
///
/// A resource's members arrive in the model's order, attributes and relationships mixed, and a
/// relationship's `data`, `links` and `meta` under different keys. So every value goes to one
/// byte buffer, `out`, and the resource remembers where each part lies:
///
/// ```
/// model: id "1", title "Hi", author Identifier("9"), metrics {views 3}, author.links {related …}
///
/// out:  "title":"Hi" {"type":"people","id":"9"} "metrics":{"views":3} {"related":"/a/1/author"}
///       ^ attributes[0]  ^ relationships[0].data  ^ attributes[1]       ^ relationships[0].links
/// ```
///
/// ``DocumentEncoder`` then writes `{"type":…,"id":…,"attributes":{…},"relationships":{…}}`
/// by copying those ranges, and the buffer is reused for the next resource.
///
/// Nested values (a struct attribute, `meta`, `links`) stream too: each container that a value
/// opens is pushed on `open`, and closed when a write reaches an enclosing container or the
/// value's `encode(to:)` returns. `Encodable` allows using containers in any order (write to a
/// nested container after its parent moved on); streaming cannot follow that, so such a use sets
/// `needsTree` and the document encoder encodes the model again through ``ResourceEncoder``.
/// Synthesized conformances always write in order.
final class StreamingEncoder: Encoder {
    let context: EncodingContext
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    // Stored properties are accessed without exclusivity checks: the stream serves one
    // `encode` call on one thread, and no access to one of them overlaps another (no property
    // is passed `inout` to code that reaches the same property).

    /// The resource being encoded.
    @exclusivity(unchecked) var resourceType = ""
    /// The sparse fieldset of `resourceType`, if the request has one.
    @exclusivity(unchecked) var fieldset: Set<String>?
    @exclusivity(unchecked) var id: String?
    @exclusivity(unchecked) var lid: String?
    /// Member values as JSON text.
    @exclusivity(unchecked) var out: StreamBuffer
    /// The resource object assembled from `out`, handed to the document's writer in one piece.
    @exclusivity(unchecked) var object: StreamBuffer
    /// The `"name":value` ranges of `out` of the attributes, in order.
    @exclusivity(unchecked) var attributes: [Range<Int>] = []
    @exclusivity(unchecked) var relationships: [StreamedRelationship] = []
    @exclusivity(unchecked) var meta: Range<Int>?
    @exclusivity(unchecked) var links: Range<Int>?
    @exclusivity(unchecked) var failure: (any Error)?
    /// Set when containers were used in an order streaming cannot follow.
    @exclusivity(unchecked) var needsTree = false
    /// The containers of nested values that are open, outermost first.
    @exclusivity(unchecked) var open: [OpenContainer] = []
    @exclusivity(unchecked) var nextSerial: UInt32 = 0
    /// Value encoders nobody holds any more, for the next nested values.
    @exclusivity(unchecked) var spare: [StreamValueEncoder] = []
    /// How each recent relationship type becomes linkage (see ``relationshipPlan(for:)``).
    @exclusivity(unchecked) var recentLinkage = [RecentLinkage](repeating: RecentLinkage(), count: 16)

    init(context: EncodingContext) {
        self.context = context
        unsafe out = StreamBuffer(capacity: 4096, escapeSlashes: context.options.formatting.escapesSlashes)
        unsafe object = StreamBuffer(capacity: 4096, escapeSlashes: context.options.formatting.escapesSlashes)
    }

    /// Assembles the resource object in `object`: `type`, then `id` and `lid` when given, then
    /// the members as the model handed them over (compact output: ranges of `out` copied).
    func assembleObject(id: String?, lid: String?) {
        unsafe object.count = 0
        unsafe object.appendByte(UInt8(ascii: "{"))
        unsafe object.appendIdentity(type: resourceType, id: id, lid: lid)
        unsafe out.withBytes { bytes in
            if unsafe !attributes.isEmpty {
                unsafe object.appendByte(UInt8(ascii: ","))
                unsafe object.appendLiteralKey("attributes")
                unsafe object.appendByte(UInt8(ascii: "{"))
                for index in unsafe attributes.indices {
                    if index != 0 { unsafe object.appendByte(UInt8(ascii: ",")) }
                    unsafe object.append(attributes[index], of: bytes)
                }
                unsafe object.appendByte(UInt8(ascii: "}"))
            }
            if unsafe !relationships.isEmpty {
                unsafe object.appendByte(UInt8(ascii: ","))
                unsafe object.appendLiteralKey("relationships")
                unsafe object.appendByte(UInt8(ascii: "{"))
                // By index, reading the fields in place: a `for relationship in` loop copies each
                // relationship (its name and references retained and released) to read four fields.
                for index in unsafe relationships.indices {
                    if index != 0 { unsafe object.appendByte(UInt8(ascii: ",")) }
                    unsafe object.appendKey(relationships[index].name)
                    unsafe object.appendByte(UInt8(ascii: "{"))
                    var first = true
                    unsafe appendMember("data", relationships[index].data, of: bytes, first: &first)
                    unsafe appendMember("links", relationships[index].links, of: bytes, first: &first)
                    unsafe appendMember("meta", relationships[index].meta, of: bytes, first: &first)
                    unsafe object.appendByte(UInt8(ascii: "}"))
                }
                unsafe object.appendByte(UInt8(ascii: "}"))
            }
            var first = false
            unsafe appendMember("links", links, of: bytes, first: &first)
            unsafe appendMember("meta", meta, of: bytes, first: &first)
        }
        unsafe object.appendByte(UInt8(ascii: "}"))
    }

    /// Appends `"name":` and the value at `range` of `bytes` to `object`, when there is one.
    @inline(__always)
    private func appendMember(
        _ name: StaticString, _ range: Range<Int>?, of bytes: UnsafeRawBufferPointer, first: inout Bool
    ) {
        guard let range else { return }
        if !first { unsafe object.appendByte(UInt8(ascii: ",")) }
        first = false
        unsafe object.appendLiteralKey(name)
        unsafe object.append(range, of: bytes)
    }

    /// Forgets the previous resource.
    func begin(resourceType: String) {
        unsafe self.resourceType = resourceType
        unsafe fieldset = context.options.fields.isEmpty ? nil : context.options.fields[resourceType]
        unsafe id = nil
        unsafe lid = nil
        unsafe out.count = 0
        // `removeAll(keepingCapacity:)` of an empty array is not free: asked only when needed.
        if unsafe !attributes.isEmpty { unsafe attributes.removeAll(keepingCapacity: true) }
        if unsafe !relationships.isEmpty { unsafe relationships.removeAll(keepingCapacity: true) }
        unsafe meta = nil
        unsafe links = nil
        unsafe failure = nil
        unsafe needsTree = false
        if unsafe !open.isEmpty { unsafe open.removeAll(keepingCapacity: true) }
    }

    /// Resource containers made before, by key type, to hand out again: a
    /// `KeyedEncodingContainer` is one reference to the standard library's box around our
    /// container, which holds nothing but this stream, so a box nobody holds any more (the
    /// `encode(to:)` it was made for has returned) serves the next resource of that type as it
    /// is. Making one looked up the generic metadata of `StreamResourceContainer<Key>` and of the
    /// box in the runtime's table and allocated the box, for every resource. The boxes refer back
    /// to the stream: ``releaseReusables()`` drops them when a document is done.
    @exclusivity(unchecked) private var resourceContainers: [(key: ObjectIdentifier, box: AnyObject)] = []
    /// How many key types keep a reusable container.
    private static let reusableContainerLimit = 32

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let key = ObjectIdentifier(Key.self)
        var index = 0
        let count = unsafe resourceContainers.count
        while index < count {
            if unsafe resourceContainers[index].key == key,
                unsafe isKnownUniquelyReferenced(&resourceContainers[index].box)
            {
                // SAFETY: the entry for `Key` holds a `KeyedEncodingContainer<Key>` (one class
                // reference, checked when it was stored), cast back to that type.
                return unsafe unsafeBitCast(resourceContainers[index].box, to: KeyedEncodingContainer<Key>.self)
            }
            index &+= 1
        }
        return makeResourceContainer(Key.self)
    }

    @inline(never)
    private func makeResourceContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = KeyedEncodingContainer(StreamResourceContainer<Key>(stream: self))
        if MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size,
            unsafe resourceContainers.count < Self.reusableContainerLimit
        {
            // SAFETY: `KeyedEncodingContainer` is one class reference (checked above); it is cast
            // back to the same type, by its key type.
            unsafe resourceContainers.append((ObjectIdentifier(Key.self), unsafeBitCast(container, to: AnyObject.self)))
        }
        return container
    }

    /// Drops what the stream keeps for reuse that refers back to it (spare value encoders,
    /// resource containers), so that it can be freed when its document is done.
    func releaseReusables() {
        unsafe spare.removeAll()
        unsafe resourceContainers.removeAll()
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        // Not a resource: the tree encoder reports it.
        unsafe needsTree = true
        return StreamUnkeyedContainer(encoder: takeEncoder(parent: nil, key: nil), handle: .invalid)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        unsafe needsTree = true
        return StreamSingleContainer(encoder: takeEncoder(parent: nil, key: nil))
    }

    // MARK: Members of the resource

    /// Starts the attribute `name`: writes its key and returns true, or false when the
    /// sparse fieldset leaves it out.
    @inline(__always)
    func beginAttribute(_ name: String) -> Bool {
        if let fieldset = unsafe fieldset, !fieldset.contains(name) { return false }
        unsafe attributeStart = out.count
        unsafe out.appendKey(name)
        return true
    }

    @exclusivity(unchecked) private var attributeStart = 0

    @inline(__always)
    func endAttribute() {
        unsafe attributes.append(attributeStart..<out.count)
    }

    /// The relationship named `name`, added at the end the first time.
    func relationshipIndex(_ name: String) -> Int {
        if let index = unsafe relationships.firstIndex(where: { $0.name == name }) { return index }
        unsafe relationships.append(StreamedRelationship(name: name))
        return unsafe relationships.count - 1
    }

    func fail(_ error: any Error) {
        if unsafe failure == nil { unsafe failure = error }
    }

    // MARK: Values

    /// Writes `value`, whatever its type, at the current position.
    ///
    /// - Parameters:
    ///   - parent: The encoder of the enclosing value (nil for a member of the resource).
    ///   - key: The key (or index) of the value, for coding paths.
    func writeValue<T: Encodable>(_ value: T, parent: StreamValueEncoder?, key: any CodingKey) throws {
        if try writeLeaf(value) { return }
        if context.kind(of: T.self) == .stringDictionary, let dictionary = value as? any StringKeyedDictionary {
            try dictionary.streamMembers(self, parent: parent, key: key)
            return
        }
        var encoder = takeEncoder(parent: parent, key: key)
        let start = unsafe out.count
        let depth = unsafe open.count
        unsafe encoder.slotStart = start
        unsafe encoder.slotDepth = depth
        try value.encode(to: encoder)
        close(downTo: depth)
        if unsafe out.count == start {
            // An encoder given nothing writes an empty object, as `JSONEncoder` does.
            unsafe out.appendByte(UInt8(ascii: "{"))
            unsafe out.appendByte(UInt8(ascii: "}"))
        }
        if isKnownUniquelyReferenced(&encoder) {
            unsafe encoder.parent = nil
            unsafe encoder.container = nil
            unsafe spare.append(encoder)
        }
    }

    /// Writes the common leaf types without an encoder; false for other types.
    @inline(__always)
    func writeLeaf<T: Encodable>(_ value: T) throws -> Bool {
        if T.self == String.self {
            unsafe out.appendString(sameType(value, as: String.self))
        } else if T.self == Int.self {
            unsafe out.appendInteger(Int64(sameType(value, as: Int.self)))
        } else if T.self == Double.self {
            try appendDouble(sameType(value, as: Double.self))
        } else if T.self == Bool.self {
            unsafe out.appendBool(sameType(value, as: Bool.self))
        } else if T.self == [String].self {
            let strings = sameType(value, as: [String].self)
            unsafe out.appendByte(UInt8(ascii: "["))
            for index in strings.indices {
                if index != 0 { unsafe out.appendByte(UInt8(ascii: ",")) }
                unsafe out.appendString(strings[index])
            }
            unsafe out.appendByte(UInt8(ascii: "]"))
        } else if T.self == [Double].self {
            let numbers = sameType(value, as: [Double].self)
            unsafe out.appendByte(UInt8(ascii: "["))
            for index in numbers.indices {
                if index != 0 { unsafe out.appendByte(UInt8(ascii: ",")) }
                try appendDouble(numbers[index])
            }
            unsafe out.appendByte(UInt8(ascii: "]"))
        } else if T.self == [Int].self {
            let numbers = sameType(value, as: [Int].self)
            unsafe out.appendByte(UInt8(ascii: "["))
            for index in numbers.indices {
                if index != 0 { unsafe out.appendByte(UInt8(ascii: ",")) }
                unsafe out.appendInteger(Int64(numbers[index]))
            }
            unsafe out.appendByte(UInt8(ascii: "]"))
        } else if T.self == JSON.self {
            // As it is: member names are not changed by the key strategy.
            var writer = JSONWriter(options: context.options.formatting)
            sameType(value, as: JSON.self).write(to: &writer, sortingKeys: false)
            unsafe out.append(try writer.finish())
        } else if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == UUID.self
            || T.self == Decimal.self
        {
            // The tree encoder's boxes of these (strategies that stream never call an encoder).
            try writeBoxed(context.box(value, path: []))
        } else {
            return false
        }
        return true
    }

    func writeBoxed(_ value: EncodedValue) throws {
        var writer = JSONWriter(options: context.options.formatting)
        try value.write(to: &writer, sorted: false)
        unsafe out.append(try writer.finish())
    }

    @inline(__always)
    func appendDouble(_ value: Double) throws {
        guard value.isFinite else { throw JSONWriter.nonFinite(value.description) }
        unsafe out.appendFinite(value)
    }

    func appendFloat(_ value: Float) throws {
        guard value.isFinite else { throw JSONWriter.nonFinite(value.description) }
        unsafe out.appendDescription(value.description)
    }

    /// A value encoder for a nested value, reused when one is free.
    func takeEncoder(parent: StreamValueEncoder?, key: (any CodingKey)?) -> StreamValueEncoder {
        let encoder = unsafe spare.popLast() ?? StreamValueEncoder(stream: self)
        unsafe encoder.parent = parent
        unsafe encoder.key = key
        unsafe encoder.container = nil
        unsafe encoder.slotStart = out.count
        unsafe encoder.slotDepth = open.count
        return encoder
    }

    // MARK: Containers of nested values

    /// Opens a container at the current position.
    func push(isObject: Bool) -> ContainerHandle {
        unsafe out.appendByte(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        unsafe nextSerial &+= 1
        unsafe open.append(OpenContainer(serial: nextSerial, isObject: isObject, count: 0))
        return unsafe ContainerHandle(serial: nextSerial, index: open.count - 1)
    }

    /// Makes `handle` the innermost open container (closing those inside it) and counts one
    /// more member or element in it; false (and `needsTree`) when it was closed already.
    @inline(__always)
    func enter(_ handle: ContainerHandle) -> Bool {
        guard unsafe handle.index < open.count, unsafe open[handle.index].serial == handle.serial else {
            unsafe needsTree = true
            return false
        }
        if unsafe open.count > handle.index &+ 1 { close(downTo: handle.index &+ 1) }
        if unsafe open[handle.index].count > 0 { unsafe out.appendByte(UInt8(ascii: ",")) }
        unsafe open[handle.index].count &+= 1
        return true
    }

    /// Closes open containers until `depth` remain.
    func close(downTo depth: Int) {
        while unsafe open.count > depth {
            let container = unsafe open.removeLast()
            unsafe out.appendByte(container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }
}

/// One relationship of a streamed resource: where its parts lie in the stream's buffer.
struct StreamedRelationship {
    var name: String
    var data: Range<Int>?
    var links: Range<Int>?
    var meta: Range<Int>?
    /// The linkage's references, kept when they carry models (candidates for `included`).
    var references: [LinkageReference] = []

    init(name: String) {
        self.name = name
    }
}

/// A container of a nested value that is open in a ``StreamingEncoder``.
struct OpenContainer {
    var serial: UInt32
    var isObject: Bool
    /// Members or elements written so far.
    var count: Int
}

/// Which open container a container value writes to.
struct ContainerHandle {
    var serial: UInt32
    var index: Int

    /// A handle no container has.
    static var invalid: ContainerHandle { ContainerHandle(serial: 0, index: Int.max) }
}

extension Dictionary where Key == String, Value: Encodable {
    /// Writes the dictionary as an object, keys as they are (as ``StringKeyedDictionary``).
    func streamMembers(_ stream: StreamingEncoder, parent: StreamValueEncoder?, key: any CodingKey) throws {
        try stream.writeMembers(self.lazy.map { ($0.key, $0.value) }, parent: parent)
    }
}

extension OrderedMembers where Value: Encodable {
    /// Writes the members as an object, in order, keys as they are (as ``StringKeyedDictionary``).
    func streamMembers(_ stream: StreamingEncoder, parent: StreamValueEncoder?, key: any CodingKey) throws {
        try stream.writeMembers(members.lazy.map { ($0.key, $0.value) }, parent: parent)
    }
}

extension StreamingEncoder {
    /// Writes `members` as an object, names as they are.
    func writeMembers<Value: Encodable>(
        _ members: some Sequence<(String, Value)>, parent: StreamValueEncoder?
    ) throws {
        unsafe out.appendByte(UInt8(ascii: "{"))
        var first = true
        for (name, value) in members {
            if !first { unsafe out.appendByte(UInt8(ascii: ",")) }
            first = false
            unsafe out.appendKey(name)
            try writeValue(value, parent: parent, key: AnyKey(name))
        }
        unsafe out.appendByte(UInt8(ascii: "}"))
    }
}
