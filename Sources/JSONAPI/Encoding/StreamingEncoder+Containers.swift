#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The containers of ``StreamingEncoder``: the resource's own keyed container, which sorts members
// into sections as ``ResourceKeyedContainer`` does, and the encoder and containers of nested
// values, which write JSON text as they go.

struct StreamResourceContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: StreamingEncoder
    var codingPath: [any CodingKey] { [] }

    /// Starts an attribute for a primitive value; other sections take no primitives (as in
    /// ``ResourceKeyedContainer``).
    @inline(__always)
    private func beginPrimitive(_ key: Key) -> Bool {
        if case .attribute(let name) = stream.context.section(of: key) { return stream.beginAttribute(name) }
        stream.fail(
            EncodingError.invalidValue(
                key.stringValue,
                EncodingError.Context(codingPath: [key], debugDescription: "unexpected value for this member")))
        return false
    }

    mutating func encodeNil(forKey key: Key) throws {
        switch stream.context.section(of: key) {
        case .attribute(let name):
            guard stream.beginAttribute(name) else { return }
            unsafe stream.out.appendNull()
            stream.endAttribute()
        case .relationship(let name):
            if let fieldset = unsafe stream.fieldset, !fieldset.contains(name) { return }
            let index = stream.relationshipIndex(name)
            let start = unsafe stream.out.count
            unsafe stream.out.appendNull()
            unsafe stream.relationships[index].data = start..<stream.out.count
            unsafe stream.relationships[index].references = []
        case .meta: unsafe stream.meta = nil
        case .links: unsafe stream.links = nil
        case .relationshipMeta, .relationshipLinks, .id, .lid, .type: break
        }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        guard beginPrimitive(key) else { return }
        unsafe stream.out.appendBool(value)
        stream.endAttribute()
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        guard beginPrimitive(key) else { return }
        try stream.appendDouble(value)
        stream.endAttribute()
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        guard beginPrimitive(key) else { return }
        try stream.appendFloat(value)
        stream.endAttribute()
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        switch stream.context.section(of: key) {
        case .id: unsafe stream.id = value
        case .lid: unsafe stream.lid = value
        case .type: break
        case .attribute(let name):
            guard stream.beginAttribute(name) else { return }
            unsafe stream.out.appendString(value)
            stream.endAttribute()
        default: try encodeGeneric(value, key)
        }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encodeInteger<I: BinaryInteger & Encodable>(_ value: I, _ key: Key) throws {
        switch stream.context.section(of: key) {
        case .id: unsafe stream.id = String(value)
        case .lid: unsafe stream.lid = String(value)
        case .attribute(let name):
            guard stream.beginAttribute(name) else { return }
            if let int = Int64(exactly: value) {
                unsafe stream.out.appendInteger(int)
            } else if let uint = UInt64(exactly: value) {
                unsafe stream.out.appendInteger(uint)
            }
            stream.endAttribute()
        default: try encodeGeneric(value, key)
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeGeneric(value, key)
    }

    // The protocol's default asks for `Optional<T>` metadata on every call.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else {
            // A nil to-one relationship is known-empty linkage, as in `ResourceKeyedContainer`.
            if stream.context.writesNull(forNil: T.self, key: key) { try encodeGeneric(NullLinkage(), key) }
            return
        }
        try encodeGeneric(value, key)
    }

    private func encodeGeneric<T: Encodable>(_ value: T, _ key: Key) throws {
        let context = stream.context
        switch context.section(of: key) {
        case .id:
            unsafe stream.id = try context.identityString(value, key: key)
        case .lid:
            unsafe stream.lid = try context.identityString(value, key: key)
        case .type:
            break
        case .meta:
            unsafe stream.meta = try fragment(value, key)
        case .links:
            unsafe stream.links = try fragment(value, key)
        case .relationshipMeta(let name):
            if let fieldset = unsafe stream.fieldset, !fieldset.contains(name) { return }
            let range = try fragment(value, key)
            unsafe stream.relationships[stream.relationshipIndex(name)].meta = range
        case .relationshipLinks(let name):
            if let fieldset = unsafe stream.fieldset, !fieldset.contains(name) { return }
            let range = try fragment(value, key)
            unsafe stream.relationships[stream.relationshipIndex(name)].links = range
        case .relationship(let name):
            try stream.encodeRelationship(value, name: name)
        case .attribute(let name):
            // Leaves first: they are never relationships, and need no lookup to tell.
            if isStreamedLeaf(T.self) {
                guard stream.beginAttribute(name) else { return }
                _ = try stream.writeLeaf(value)
                stream.endAttribute()
            } else if context.kind(of: T.self).isRelationship {
                try stream.encodeRelationship(value, name: name)
            } else {
                guard stream.beginAttribute(name) else { return }
                try stream.writeValue(value, parent: nil, key: key)
                stream.endAttribute()
            }
        }
    }

    /// Writes a whole value (`meta`, `links`) and returns where it lies.
    private func fragment<T: Encodable>(_ value: T, _ key: Key) throws -> Range<Int> {
        let start = unsafe stream.out.count
        try stream.writeValue(value, parent: nil, key: key)
        return unsafe start..<stream.out.count
    }

    // Containers opened on the resource itself (never by synthesized conformances): written
    // through the tree encoder, which handles them in any order.

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        unsafe stream.needsTree = true
        let encoder = stream.takeEncoder(parent: nil, key: key)
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, handle: .invalid))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        unsafe stream.needsTree = true
        return StreamUnkeyedContainer(encoder: stream.takeEncoder(parent: nil, key: key), handle: .invalid)
    }

    mutating func superEncoder() -> any Encoder { stream }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        unsafe stream.needsTree = true
        return stream.takeEncoder(parent: nil, key: key)
    }
}

/// Whether `type` is one of the types ``StreamingEncoder/writeLeaf(_:)`` writes.
@inline(__always)
func isStreamedLeaf(_ type: Any.Type) -> Bool {
    type == String.self || type == Int.self || type == Double.self || type == Bool.self || type == [String].self
        || type == [Double].self || type == [Int].self || type == Date.self || type == Data.self || type == URL.self
        || type == UUID.self || type == Decimal.self
        || type == JSON.self
}

extension StreamingEncoder {
    /// Writes the linkage of relationship `name` (and keeps its models for `included`).
    func encodeRelationship<T: Encodable>(_ value: T, name: String) throws {
        if let fieldset = unsafe fieldset, !fieldset.contains(name) { return }
        let index = relationshipIndex(name)
        let plan = relationshipPlan(for: T.self)
        if case .identifiers(let writer) = plan {
            // Identifiers: written as they are read, no references kept.
            let start = unsafe out.count
            writer.appendLinkage(value, to: self)
            unsafe relationships[index].data = start..<out.count
            unsafe relationships[index].references = []
            return
        }
        var linkage = LinkageBuilder(context: context)
        // Models, arrays, optionals: collected by the plan, no copy into an existential box.
        let collected = try plan.collect(value, into: &linkage)
        if !collected, let related = value as? any RelatedEncodable {
            try linkage.addRelatedValue(related.relatedValue)
            if let meta = related.relatedMeta {
                let start = unsafe out.count
                try writeValue(meta, parent: nil, key: AnyKey(name))
                unsafe relationships[index].meta = start..<out.count
            }
            if let links = related.relatedLinks {
                let start = unsafe out.count
                try writeValue(links, parent: nil, key: AnyKey(name))
                unsafe relationships[index].links = start..<out.count
            }
        } else if !collected {
            try linkage.addValue(value)
        }
        let start = unsafe out.count
        appendLinkage(linkage)
        unsafe relationships[index].data = start..<out.count
        unsafe relationships[index].references = linkage.hasModels ? linkage.references : []
    }

    /// Writes `null`, one resource identifier object, or an array of them.
    func appendLinkage(_ linkage: LinkageBuilder) {
        if linkage.isToMany {
            unsafe out.appendByte(UInt8(ascii: "["))
            for index in linkage.references.indices {
                if index != 0 { unsafe out.appendByte(UInt8(ascii: ",")) }
                appendIdentifier(linkage.references[index])
            }
            unsafe out.appendByte(UInt8(ascii: "]"))
        } else if let reference = linkage.references.first {
            appendIdentifier(reference)
        } else {
            unsafe out.appendNull()
        }
    }

    func appendIdentifier(_ reference: LinkageReference) {
        appendIdentifier(type: reference.type, id: reference.id, lid: reference.lid, meta: reference.meta)
    }

    func appendIdentifier(type: String, id: String?, lid: String?, meta: JSONObject?) {
        unsafe out.appendByte(UInt8(ascii: "{"))
        unsafe out.appendIdentity(type: type, id: id, lid: lid)
        if let meta, !meta.isAbsent {
            unsafe out.appendByte(UInt8(ascii: ","))
            unsafe out.appendKey("meta")
            var writer = JSONWriter(options: context.options.formatting)
            JSON(meta).write(to: &writer, sortingKeys: false)
            unsafe out.append(writer.bytes)
        }
        unsafe out.appendByte(UInt8(ascii: "}"))
    }
}

/// The `Encoder` of a nested value of a streamed resource.
final class StreamValueEncoder: Encoder {
    let stream: StreamingEncoder
    // No exclusivity checks, as in `StreamingEncoder`: one thread, no overlapping accesses.

    /// The encoder of the enclosing value, and this value's key there: the coding path.
    @exclusivity(unchecked) var parent: StreamValueEncoder?
    @exclusivity(unchecked) var key: (any CodingKey)?
    /// Where the value starts in the stream (bytes, open containers): a single value may be
    /// written only there.
    @exclusivity(unchecked) var slotStart = 0
    @exclusivity(unchecked) var slotDepth = 0
    /// The container this value opened, if any.
    @exclusivity(unchecked) var container: ContainerHandle?

    init(stream: StreamingEncoder) {
        self.stream = stream
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: StreamValueEncoder? = self
        while let current = node {
            if let key = unsafe current.key { path.append(key) }
            node = unsafe current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { stream.context.userInfo }

    /// This value's container: opened now, or the one opened before (which must still be open).
    private func open(isObject: Bool) -> ContainerHandle {
        if let container = unsafe container {
            let open = unsafe stream.open
            if container.index < open.count, open[container.index].serial == container.serial,
                open[container.index].isObject == isObject
            {
                return container
            }
            unsafe stream.needsTree = true
            return .invalid
        }
        guard unsafe stream.out.count == slotStart, unsafe stream.open.count == slotDepth else {
            unsafe stream.needsTree = true
            return .invalid
        }
        let handle = stream.push(isObject: isObject)
        unsafe container = handle
        return handle
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamKeyedContainer<Key>(encoder: self, handle: open(isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamUnkeyedContainer(encoder: self, handle: open(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleContainer(encoder: self)
    }

    /// Whether a single value may be written now: nothing written for this value yet.
    @inline(__always)
    func beginSingle() -> Bool {
        guard unsafe container == nil, unsafe stream.out.count == slotStart, unsafe stream.open.count == slotDepth
        else {
            unsafe stream.needsTree = true
            return false
        }
        return true
    }

    /// An encoder for a container opened inside one of this value's containers.
    func child(key: any CodingKey) -> StreamValueEncoder {
        let child = StreamValueEncoder(stream: stream)
        unsafe child.parent = self
        unsafe child.key = key
        return child
    }
}

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamValueEncoder
    let handle: ContainerHandle
    var codingPath: [any CodingKey] { encoder.codingPath }

    /// Writes `,"name":` as needed; false when the container is no longer open.
    @inline(__always)
    private func begin(_ key: Key) -> Bool {
        let stream = encoder.stream
        guard stream.enter(handle) else { return false }
        if stream.context.usesDefaultKeys {
            unsafe stream.out.appendKey(key.stringValue)
        } else {
            unsafe stream.out.appendKey(stream.context.name(for: key, path: []))
        }
        return true
    }

    mutating func encodeNil(forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendNull() }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendBool(value) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendString(value) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if begin(key) { try encoder.stream.appendDouble(value) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if begin(key) { try encoder.stream.appendFloat(value) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(value) }
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        if begin(key) { unsafe encoder.stream.out.appendInteger(value) }
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if begin(key) { try encoder.stream.writeValue(value, parent: encoder, key: key) }
    }

    // The protocol's default asks for `Optional<T>` metadata on every call.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return }
        if begin(key) { try encoder.stream.writeValue(value, parent: encoder, key: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = encoder.child(key: key)
        let handle = begin(key) ? encoder.stream.push(isObject: true) : .invalid
        unsafe child.container = handle
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: child, handle: handle))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(key: key)
        let handle = begin(key) ? encoder.stream.push(isObject: false) : .invalid
        unsafe child.container = handle
        return StreamUnkeyedContainer(encoder: child, handle: handle)
    }

    mutating func superEncoder() -> any Encoder {
        unsafe encoder.stream.needsTree = true
        return encoder.child(key: AnyKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        unsafe encoder.stream.needsTree = true
        return encoder.child(key: key)
    }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: StreamValueEncoder
    let handle: ContainerHandle
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: StreamValueEncoder, handle: ContainerHandle) {
        self.encoder = encoder
        self.handle = handle
    }

    /// Writes `,` as needed; false when the container is no longer open.
    @inline(__always)
    private mutating func begin() -> Bool {
        count += 1
        return encoder.stream.enter(handle)
    }

    mutating func encodeNil() throws {
        if begin() { unsafe encoder.stream.out.appendNull() }
    }
    mutating func encode(_ value: Bool) throws {
        if begin() { unsafe encoder.stream.out.appendBool(value) }
    }
    mutating func encode(_ value: String) throws {
        if begin() { unsafe encoder.stream.out.appendString(value) }
    }
    mutating func encode(_ value: Double) throws {
        if begin() { try encoder.stream.appendDouble(value) }
    }
    mutating func encode(_ value: Float) throws {
        if begin() { try encoder.stream.appendFloat(value) }
    }
    mutating func encode(_ value: Int) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int8) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int16) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int32) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int64) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(value) }
    }
    mutating func encode(_ value: UInt) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt8) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt16) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt32) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt64) throws {
        if begin() { unsafe encoder.stream.out.appendInteger(value) }
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        if begin() { try encoder.stream.writeValue(value, parent: encoder, key: AnyKey(index: index)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = encoder.child(key: AnyKey(index: count))
        let handle = begin() ? encoder.stream.push(isObject: true) : .invalid
        unsafe child.container = handle
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: child, handle: handle))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(key: AnyKey(index: count))
        let handle = begin() ? encoder.stream.push(isObject: false) : .invalid
        unsafe child.container = handle
        return StreamUnkeyedContainer(encoder: child, handle: handle)
    }

    mutating func superEncoder() -> any Encoder {
        unsafe encoder.stream.needsTree = true
        return encoder.child(key: AnyKey(index: count))
    }
}

struct StreamSingleContainer: SingleValueEncodingContainer {
    let encoder: StreamValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private var stream: StreamingEncoder { encoder.stream }

    mutating func encodeNil() throws {
        if encoder.beginSingle() { unsafe stream.out.appendNull() }
    }
    mutating func encode(_ value: Bool) throws {
        if encoder.beginSingle() { unsafe stream.out.appendBool(value) }
    }
    mutating func encode(_ value: String) throws {
        if encoder.beginSingle() { unsafe stream.out.appendString(value) }
    }
    mutating func encode(_ value: Double) throws {
        if encoder.beginSingle() { try stream.appendDouble(value) }
    }
    mutating func encode(_ value: Float) throws {
        if encoder.beginSingle() { try stream.appendFloat(value) }
    }
    mutating func encode(_ value: Int) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int8) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int16) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int32) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(Int64(value)) }
    }
    mutating func encode(_ value: Int64) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(value) }
    }
    mutating func encode(_ value: UInt) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt8) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt16) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt32) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(UInt64(value)) }
    }
    mutating func encode(_ value: UInt64) throws {
        if encoder.beginSingle() { unsafe stream.out.appendInteger(value) }
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        guard encoder.beginSingle() else { return }
        // The value takes this value's place: same position, same coding path.
        unsafe try stream.writeValue(value, parent: encoder.parent, key: encoder.key ?? AnyKey(""))
    }
}

// MARK: - Identifier linkage

/// A relationship type whose linkage a stream writes directly: ``Identifier``, and arrays and
/// optionals of identifiers.
protocol StreamedLinkage {
    /// Writes the linkage of `value`, which is a `Self`.
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder)
}

/// ``Identifier``, the element type arrays and optionals of which are ``StreamedLinkage``.
protocol StreamedIdentifier: StreamedLinkage {}

extension Identifier: StreamedIdentifier {
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder) {
        let identifier = sameType(value, as: Identifier.self)
        stream.appendIdentifier(
            type: Model.resourceType, id: identifier.id.isEmpty ? nil : identifier.id, lid: identifier.lid,
            meta: identifier.meta)
    }
}

extension Array: StreamedLinkage where Element: StreamedIdentifier {
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder) {
        let elements = sameType(value, as: [Element].self)
        unsafe stream.out.appendByte(UInt8(ascii: "["))
        for index in elements.indices {
            if index != 0 { unsafe stream.out.appendByte(UInt8(ascii: ",")) }
            Element.appendLinkage(elements[index], to: stream)
        }
        unsafe stream.out.appendByte(UInt8(ascii: "]"))
    }
}

extension Optional: StreamedLinkage where Wrapped: StreamedIdentifier {
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder) {
        if let wrapped = sameType(value, as: Wrapped?.self) {
            Wrapped.appendLinkage(wrapped, to: stream)
        } else {
            unsafe stream.out.appendNull()
        }
    }
}

extension NullLinkage: StreamedLinkage {
    static func appendLinkage<V>(_ value: V, to stream: StreamingEncoder) {
        unsafe stream.out.appendNull()
    }
}

// MARK: - Model linkage

/// A relationship type holding models of one type: an optional or an array of a model. Their
/// linkage is collected with the model's static type: no copy of each value into an `Any`, no
/// protocol cast per value.
protocol ModelLinkage {
    /// Adds the linkage of `value`, which is a `Self`, and its models.
    static func collectModels<V>(_ value: V, into linkage: inout LinkageBuilder) throws
}

extension Optional: ModelLinkage where Wrapped: JSONAPIResource & Encodable {
    static func collectModels<V>(_ value: V, into linkage: inout LinkageBuilder) throws {
        if let model = sameType(value, as: Wrapped?.self) { try linkage.addModel(model) }
    }
}

extension Array: ModelLinkage where Element: JSONAPIResource & Encodable {
    static func collectModels<V>(_ value: V, into linkage: inout LinkageBuilder) throws {
        let models = sameType(value, as: [Element].self)
        linkage.isToMany = true
        linkage.references.reserveCapacity(linkage.references.count + models.count)
        for index in models.indices { try linkage.addModel(models[index]) }
    }
}

/// Adds `value`, a model of type `Model`, to `linkage` (the model type opened from a cached
/// metatype).
private func collectModel<Model: JSONAPIResource & Encodable, V>(
    _ type: Model.Type, _ value: V, into linkage: inout LinkageBuilder
) throws {
    try linkage.addModel(sameType(value, as: Model.self))
}

/// How a relationship type's values become linkage, decided once per type.
enum RelationshipPlan {
    /// Identifiers, arrays and optionals of them, and `null`: written as they are read.
    case identifiers(any StreamedLinkage.Type)
    /// A model: collected with its static type.
    case model(any (JSONAPIResource & Encodable).Type)
    /// An optional or an array of a model: collected with the model's static type.
    case models(any ModelLinkage.Type)
    /// Other identifiers, arrays and optionals: collected without a copy into an existential.
    case direct(any DirectLinkageEncodable.Type)
    /// Anything else (``Related``, unions): through ``LinkageBuilder/addValue(_:)``.
    case general

    init(for type: Any.Type) {
        if let writer = type as? any StreamedLinkage.Type {
            self = .identifiers(writer)
        } else if let model = type as? any (JSONAPIResource & Encodable).Type {
            self = .model(model)
        } else if let models = type as? any ModelLinkage.Type {
            self = .models(models)
        } else if let direct = type as? any DirectLinkageEncodable.Type {
            self = .direct(direct)
        } else {
            self = .general
        }
    }

    /// Adds the linkage of `value` (of the planned type) to `linkage`; false for ``general``
    /// and ``identifiers`` plans, which the caller handles.
    func collect<V>(_ value: V, into linkage: inout LinkageBuilder) throws -> Bool {
        switch self {
        case .model(let model): try collectModel(model, value, into: &linkage)
        case .models(let models): try models.collectModels(value, into: &linkage)
        case .direct(let direct): try direct.collect(value, into: &linkage)
        case .identifiers, .general: return false
        }
        return true
    }
}

/// One slot of ``StreamingEncoder``'s cache of relationship plans.
struct RecentLinkage {
    /// The metadata address of the type, 0 for none.
    var type: UInt = 0
    var plan: RelationshipPlan = .general
}

extension StreamingEncoder {
    /// How values of relationship type `type` become linkage. The protocol casts are made once
    /// per type: the answer is kept in 16 slots chosen by the metadata address.
    @inline(__always)
    func relationshipPlan(for type: Any.Type) -> RelationshipPlan {
        let bits = UInt(bitPattern: ObjectIdentifier(type))
        let slot = Int(truncatingIfNeeded: (bits >> 4) & 15)
        if unsafe recentLinkage[slot].type == bits { return unsafe recentLinkage[slot].plan }
        let plan = RelationshipPlan(for: type)
        unsafe recentLinkage[slot] = RecentLinkage(type: bits, plan: plan)
        return plan
    }
}
