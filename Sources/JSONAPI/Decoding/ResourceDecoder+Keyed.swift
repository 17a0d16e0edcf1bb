#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a key was found in a resource object.
enum ResourceSlot {
    case member(MemberEntry)
    case id, type, lid
    case relationship(UInt32)
    case meta, links
    /// A relationship's `meta` or `links` (keys `name.meta`, `name.links`).
    case part(ByteRange)
    case none
}

extension ResourceDecoder {
    /// Finds the member named `wanted` in `segment` (rescanning `object` if the segment is stale).
    @inline(__always)
    func findMember(_ segment: MemberSegment, object: ByteRange, _ wanted: UnsafeRawBufferPointer) -> MemberEntry? {
        var segment = segment
        if !table.isValid(segment) {
            guard object.isPresent else { return nil }
            segment = unsafe table.scan(bytes, object: object)
        }
        let count = segment.count
        guard count > 0 else { return nil }
        // Raw names are the names only under the exact strategy (the filter is over raw bytes).
        if unsafe exactKeys && !table.mayContain(segment, name: wanted) { return nil }
        var position = table.hint(segment)
        if position >= count { position = 0 }
        var remaining = count
        while remaining > 0 {
            let entry = table.member(segment, position)
            if unsafe nameMatches(entry.key, escaped: entry.flags & MemberEntry.keyEscaped != 0, wanted) {
                table.setHint(segment, position &+ 1)
                return entry
            }
            position &+= 1
            if position == count { position = 0 }
            remaining &-= 1
        }
        return nil
    }

    /// Whether the raw member name at `name` names the key `wanted` under the key strategy.
    @inline(__always)
    func nameMatches(_ name: ByteRange, escaped: Bool, _ wanted: UnsafeRawBufferPointer) -> Bool {
        if !escaped {
            return unsafe bytes.subview(name).withUnsafeBytes { raw in
                if unsafe exactKeys { return unsafe KeyMatcher.equal(raw, wanted) }
                return unsafe matcher.matches(raw, wanted, path: { self.path })
            }
        }
        return unsafe nameMatchesEscaped(name, wanted)
    }

    @inline(never)
    func nameMatchesEscaped(_ name: ByteRange, _ wanted: UnsafeRawBufferPointer) -> Bool {
        var decoded: [UInt8] = []
        unsafe bytes.subview(name).withUnsafeBytes { raw in unsafe JSONStringDecoding.unescape(raw, into: &decoded) }
        return unsafe decoded.withUnsafeBytes { unsafe matcher.matches($0, wanted, path: { self.path }) }
    }

    /// The scalar that a lookup in resource `record` found, or nil when `slot` names nothing
    /// (which the caller reports). Resource containers and readers read scalars through this.
    @inline(__always)
    func scalar<T: ScalarDecodable>(_ type: T.Type, in slot: ResourceSlot, record: UInt32, key: KeyRef) throws -> T? {
        if case .member(let member) = slot {
            return try T.read(
                self, value: member.value, escaped: member.flags & MemberEntry.valueEscaped != 0, key: key)
        }
        guard let node = node(for: slot, record: record) else { return nil }
        return try T.read(self, node: node, key: key)
    }

    /// As ``scalar(_:in:record:key:)``, for `decodeIfPresent`: nil also for null.
    @inline(__always)
    func scalarIfPresent<T: ScalarDecodable>(_ type: T.Type, in slot: ResourceSlot, record: UInt32, key: KeyRef)
        throws -> T?
    {
        if case .member(let member) = slot {
            if firstByte(member.value) == UInt8(ascii: "n") { return nil }
            guard unsafe recovers else {
                return try T.read(
                    self, value: member.value, escaped: member.flags & MemberEntry.valueEscaped != 0, key: key)
            }
            return try recoverableScalar(T.self, member, key: key)
        }
        guard let node = node(for: slot, record: record) else { return nil }
        return try decodeOptional(T.self, node, key: key)
    }

    /// An optional attribute's scalar in a lenient decode, or one listing every problem: nil
    /// (and a problem recorded) when the value does not fit.
    @inline(never)
    func recoverableScalar<T: ScalarDecodable>(_ type: T.Type, _ member: MemberEntry, key: KeyRef) throws -> T? {
        let mark = recoveryMark
        do {
            return try T.read(
                self, value: member.value, escaped: member.flags & MemberEntry.valueEscaped != 0, key: key)
        } catch {
            if recover(error, since: mark, node: .value(member.value), key: key, action: .setToNil) { return nil }
            return try standIn(T?.self, after: error, at: .value(member.value))
        }
    }

    /// The relationship of `record` named `wanted`.
    @inline(__always)
    func findRelationship(of record: UInt32, _ wanted: UnsafeRawBufferPointer) -> UInt32? {
        let resource = unsafe resources[Int(record)]
        let first = Int(resource.firstRelationship)
        let end = first &+ Int(resource.relationshipCount)
        var index = first
        while index < end {
            let relationship = unsafe relationships[index]
            if unsafe nameMatches(relationship.name, escaped: relationship.flags.contains(.nameHasEscapes), wanted) {
                return UInt32(index)
            }
            index &+= 1
        }
        return nil
    }

    /// Looks `wanted` up in resource `record`: `id`/`type`/`lid`, attributes, relationships,
    /// then the resource's `meta` and `links`. A name prefixed `attributes.` or
    /// `relationships.` (never a valid member name) looks in that section only.
    @inline(__always)
    func lookup(_ wanted: UnsafeRawBufferPointer, record: UInt32, segment: MemberSegment) -> ResourceSlot {
        let resource = unsafe resources[Int(record)]
        switch wanted.count {
        case 2 where unsafe wanted[0] == UInt8(ascii: "i") && wanted[1] == UInt8(ascii: "d"):
            return resource.id.isPresent ? .id : .none
        case 4 where unsafe wanted.equals("type"):
            return .type
        case 3 where unsafe wanted.equals("lid"):
            return resource.flags.contains(.hasLid) ? .lid : .none
        default:
            break
        }
        if let member = unsafe findMember(segment, object: resource.attributes, wanted) { return .member(member) }
        if resource.relationshipCount > 0, let relationship = unsafe findRelationship(of: record, wanted) {
            return .relationship(relationship)
        }
        return unsafe lookupReserved(wanted, record: record, segment: segment)
    }

    @inline(never)
    func lookupReserved(_ wanted: UnsafeRawBufferPointer, record: UInt32, segment: MemberSegment) -> ResourceSlot {
        let resource = unsafe resources[Int(record)]
        if unsafe wanted.equals("meta") { return resource.flags.contains(.hasMeta) ? .meta : .none }
        if unsafe wanted.equals("links") { return resource.links.isPresent ? .links : .none }
        let attributes: StaticString = "attributes."
        let relationshipsPrefix: StaticString = "relationships."
        // SAFETY: the view is used only during this call, while `wanted` is lent to it.
        let view = unsafe ByteView(unsafeBytes: wanted)
        if view.starts(with: attributes) {
            let name = view.subview(from: attributes.utf8CodeUnitCount)
            let member = unsafe name.withUnsafeBytes { name in
                unsafe findMember(segment, object: resource.attributes, name)
            }
            if let member { return .member(member) }
        } else if view.starts(with: relationshipsPrefix) {
            let name = view.subview(from: relationshipsPrefix.utf8CodeUnitCount)
            let relationship = unsafe name.withUnsafeBytes { name in unsafe findRelationship(of: record, name) }
            if let relationship { return .relationship(relationship) }
        } else if view.hasProperSuffix(".meta") || view.hasProperSuffix(".links") {
            let isMeta = view.hasProperSuffix(".meta")
            let name = view.subview(0..<(view.count - (isMeta ? 5 : 6)))
            let found = unsafe name.withUnsafeBytes { name in unsafe findRelationship(of: record, name) }
            guard let index = found else { return .none }
            let part =
                unsafe isMeta
                ? storage.arena.meta(ofRelationship: Int(index)) : storage.arena.links(ofRelationship: Int(index))
            return part.isPresent ? .part(part) : .none
        }
        return .none
    }

    func node(for slot: ResourceSlot, record: UInt32) -> Node? {
        let resource = unsafe resources[Int(record)]
        switch slot {
        case .member(let member): return .value(member.value)
        case .id: return .text(resource.id, escaped: resource.flags.contains(.idHasEscapes))
        case .lid:
            return unsafe .text(
                storage.arena.lid(ofResource: Int(record)), escaped: resource.flags.contains(.lidHasEscapes))
        case .type: return .typeName(resource.type, offset: resource.object.start)
        case .relationship(let index): return .relationship(index)
        case .meta: return unsafe .value(storage.arena.meta(ofResource: Int(record)))
        case .part(let range): return .value(range)
        case .links: return .value(resource.links)
        case .none: return nil
        }
    }

    /// Calls `body` with the UTF-8 of `key.stringValue`, from `names` when the key type is small.
    @inline(__always)
    func withKeyBytes<K: CodingKey, R>(
        _ key: K, names: Unmanaged<KeyNames>, _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        if let name = unsafe names._withUnsafeGuaranteedRef({ unsafe $0.name(key) }) { return unsafe body(name) }
        return unsafe withKeyBytes(key, body)
    }

    /// Calls `body` with the UTF-8 of `key.stringValue`, without copying for native strings.
    @inline(__always)
    func withKeyBytes<R>(_ key: some CodingKey, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let name = key.stringValue
        if let result = unsafe name.utf8.withContiguousStorageIfAvailable({ unsafe body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var copy = name
        return copy.withUTF8 { unsafe body(UnsafeRawBufferPointer($0)) }
    }
}

extension ResourceDecoder {
    /// The value of a `T` whose key is missing, for types that have one (``Field``); else the
    /// `keyNotFound` error.
    ///
    /// Out of line, and returning `T` rather than `T?`: a `T?` at the call site made every
    /// `decode(_:forKey:)` fetch `Optional<T>`'s metadata and reserve stack for it on entry.
    @inline(never)
    func absentValue<T: Decodable, K: CodingKey>(_ type: T.Type, key: K, in node: Node, depth: Int) throws -> T {
        if let absent = T.self as? any AbsentRepresentable.Type, let value = absent.absentValue as? T {
            return value
        }
        return try standIn(T.self, after: keyNotFound(key, in: node, path: Array(path.prefix(depth))), at: node)
    }
}

// SAFETY (all containers): a container holds its decoder unretained (`Unmanaged`, read with
// `_withUnsafeGuaranteedRef`), so that neither the copies the standard library's container box
// makes for every `decode` call nor the calls themselves retain or release it. A container is
// usable only while the decode that made it runs (it reads that decode's state); the decoder
// lives for the whole decode, held by `DecodingSession.run` or by the `Lazy` /
// `TypedResourceCollection` call that created it, so the reference is valid whenever a
// container is used as `Decodable` intends: inside the `init(from:)` it was given to.

/// A keyed container over a resource object.
///
/// `@safe`: its unretained decoder lives for the whole decode, and a container is used, as
/// `Decodable` intends, only inside the `init(from:)` it was given to (see the note above
/// ``ResourceContainer``).
@safe
struct ResourceContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let unmanaged: Unmanaged<ResourceDecoder>
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    // SAFETY: owned by the decoder's container pool, which lives as long as the decoder.
    unowned(unsafe) let state: KeyedState
    var record: UInt32 { unsafe state.record }
    var segment: MemberSegment { unsafe state.segment }
    var depth: Int { unsafe state.depth }

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    var allKeys: [Key] {
        let resource = unsafe decoder.resources[Int(record)]
        var names: [String] = ["type"]
        if resource.id.isPresent { names.append("id") }
        if resource.flags.contains(.hasLid) { names.append("lid") }
        let members = unsafe decoder.table.scan(decoder.bytes, object: resource.attributes)
        for position in 0..<members.count {
            let member = decoder.table.member(members, position)
            let raw = decoder.string(member.key, escaped: member.flags & MemberEntry.keyEscaped != 0)
            unsafe names.append(decoder.matcher.convertedName(raw, path: { codingPath }))
        }
        let first = Int(resource.firstRelationship)
        for index in first..<(first + Int(resource.relationshipCount)) {
            unsafe names.append(
                decoder.matcher.convertedName(decoder.relationshipName(UInt32(index)), path: { codingPath }))
        }
        if resource.flags.contains(.hasMeta) { names.append("meta") }
        if resource.links.isPresent { names.append("links") }
        return names.compactMap { Key(stringValue: $0) }
    }

    @inline(__always)
    func slot(_ key: Key) -> ResourceSlot {
        unsafe unmanaged._withUnsafeGuaranteedRef { decoder in
            unsafe decoder.withKeyBytes(key, names: state.names) {
                unsafe decoder.lookup($0, record: record, segment: segment)
            }
        }
    }

    func contains(_ key: Key) -> Bool {
        if case .none = slot(key) { return false }
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            switch slot(key) {
            case .member(let member):
                return decoder.firstByte(member.value) == UInt8(ascii: "n")
            case .relationship(let index):
                let data = unsafe decoder.relationships[Int(index)].data
                return data == .null || data == .absent
            case .meta, .links, .id, .type, .lid, .part:
                return false
            case .none:
                throw decoder.keyNotFound(key, in: .resource(record), path: codingPath)
            }
        }
    }

    @inline(__always)
    func scalar<T: ScalarDecodable>(_ type: T.Type, _ key: Key) throws -> T {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            let slot = unsafe decoder.withKeyBytes(key, names: state.names) {
                unsafe decoder.lookup($0, record: record, segment: segment)
            }
            do {
                guard
                    let value = try decoder.withKeyRef(
                        key, { try decoder.scalar(T.self, in: slot, record: record, key: $0) })
                else {
                    throw decoder.keyNotFound(key, in: .resource(record), path: codingPath)
                }
                return value
            } catch {
                return try decoder.standIn(T.self, after: error, at: .resource(record))
            }
        }
    }

    @inline(__always)
    func scalarIfPresent<T: ScalarDecodable>(_ type: T.Type, _ key: Key) throws -> T? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            let slot = unsafe decoder.withKeyBytes(key, names: state.names) {
                unsafe decoder.lookup($0, record: record, segment: segment)
            }
            return try decoder.withKeyRef(key) {
                try decoder.scalarIfPresent(T.self, in: slot, record: record, key: $0)
            }
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try scalarIfPresent(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(key), record: record) else {
                return try decoder.absentValue(T.self, key: key, in: .resource(record), depth: depth)
            }
            return try decoder.withKeyRef(key) { key in try decoder.unbox(T.self, node, key: key) }
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard let node = decoder.node(for: slot(key), record: record) else { return nil }
            return try decoder.withKeyRef(key) { key in try decoder.decodeOptional(T.self, node, key: key) }
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try fork(key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try fork(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.fork(node: .resource(record), path: codingPath + [AnyCodingKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try fork(key)
    }

    private func fork(_ key: Key) throws -> ResourceDecoder {
        guard let node = decoder.node(for: slot(key), record: record) else {
            throw decoder.keyNotFound(key, in: .resource(record), path: codingPath)
        }
        return decoder.fork(node: node, path: codingPath + [key])
    }
}

/// A keyed container over a JSON object (an attribute value, `meta`, a nested struct).
///
/// `@safe`: its unretained decoder lives for the whole decode, and a container is used, as
/// `Decodable` intends, only inside the `init(from:)` it was given to (see the note above
/// ``ResourceContainer``).
@safe
struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let unmanaged: Unmanaged<ResourceDecoder>
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    // SAFETY: owned by the decoder's container pool, which lives as long as the decoder.
    unowned(unsafe) let state: KeyedState
    var object: ByteRange { unsafe state.object }
    var segment: MemberSegment { unsafe state.segment }
    var depth: Int { unsafe state.depth }

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    var allKeys: [Key] {
        let members = unsafe decoder.table.scan(decoder.bytes, object: object)
        var keys: [Key] = []
        keys.reserveCapacity(members.count)
        for position in 0..<members.count {
            let member = decoder.table.member(members, position)
            let raw = decoder.string(member.key, escaped: member.flags & MemberEntry.keyEscaped != 0)
            if let key = unsafe Key(stringValue: decoder.matcher.convertedName(raw, path: { codingPath })) {
                keys.append(key)
            }
        }
        return keys
    }

    @inline(__always)
    func member(_ key: Key) -> MemberEntry? {
        unsafe unmanaged._withUnsafeGuaranteedRef { decoder in
            unsafe decoder.withKeyBytes(key, names: state.names) {
                unsafe decoder.findMember(segment, object: object, $0)
            }
        }
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let member = member(key) else { throw decoder.keyNotFound(key, in: .value(object), path: codingPath) }
        return decoder.firstByte(member.value) == UInt8(ascii: "n")
    }

    @inline(__always)
    func scalar<T: ScalarDecodable>(_ type: T.Type, _ key: Key) throws -> T {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            do {
                guard
                    let member = unsafe decoder.withKeyBytes(
                        key, names: state.names, { unsafe decoder.findMember(segment, object: object, $0) })
                else {
                    throw decoder.keyNotFound(key, in: .value(object), path: codingPath)
                }
                return try decoder.withKeyRef(key) { key in
                    try T.read(
                        decoder, value: member.value, escaped: member.flags & MemberEntry.valueEscaped != 0, key: key)
                }
            } catch {
                return try decoder.standIn(T.self, after: error, at: .value(object))
            }
        }
    }

    @inline(__always)
    func scalarIfPresent<T: ScalarDecodable>(_ type: T.Type, _ key: Key) throws -> T? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard
                let member = unsafe decoder.withKeyBytes(
                    key, names: state.names, { unsafe decoder.findMember(segment, object: object, $0) }),
                decoder.firstByte(member.value) != UInt8(ascii: "n")
            else { return nil }
            do {
                return try decoder.withKeyRef(key) { key in
                    try T.read(
                        decoder, value: member.value, escaped: member.flags & MemberEntry.valueEscaped != 0, key: key)
                }
            } catch {
                return try decoder.standIn(T?.self, after: error, at: .value(member.value))
            }
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try scalarIfPresent(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard
                let member = unsafe decoder.withKeyBytes(
                    key, names: state.names, { unsafe decoder.findMember(segment, object: object, $0) })
            else {
                return try decoder.absentValue(T.self, key: key, in: .value(object), depth: depth)
            }
            return try decoder.withKeyRef(key) { key in try decoder.unbox(T.self, .value(member.value), key: key) }
        }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        unsafe try unmanaged._withUnsafeGuaranteedRef { decoder in
            guard
                let member = unsafe decoder.withKeyBytes(
                    key, names: state.names, { unsafe decoder.findMember(segment, object: object, $0) })
            else {
                return nil
            }
            return try decoder.withKeyRef(key) { key in
                try decoder.decodeOptional(T.self, .value(member.value), key: key)
            }
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try fork(key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try fork(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard
            let member = unsafe decoder.withKeyBytes(
                AnyCodingKey(stringValue: "super"), { unsafe decoder.findMember(segment, object: object, $0) })
        else {
            throw decoder.keyNotFound(AnyCodingKey(stringValue: "super"), in: .value(object), path: codingPath)
        }
        return decoder.fork(node: .value(member.value), path: codingPath + [AnyCodingKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try fork(key)
    }

    private func fork(_ key: Key) throws -> ResourceDecoder {
        guard let member = member(key) else { throw decoder.keyNotFound(key, in: .value(object), path: codingPath) }
        return decoder.fork(node: .value(member.value), path: codingPath + [key])
    }
}

/// A keyed container over the top-level object: `data` is the primary data, `included` the
/// included resources, and every other key a top-level member (`meta`, `links`, `jsonapi`,
/// `errors`, or an extension member such as `atomic:results`).
///
/// `@safe`: its unretained decoder lives for the whole decode, and a container is used, as
/// `Decodable` intends, only inside the `init(from:)` it was given to (see the note above
/// ``ResourceContainer``).
@safe
struct DocumentContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let unmanaged: Unmanaged<ResourceDecoder>
    var decoder: ResourceDecoder { unsafe unmanaged.takeUnretainedValue() }
    let depth: Int

    var codingPath: [any CodingKey] { Array(decoder.path.prefix(depth)) }

    var allKeys: [Key] {
        let top = unsafe decoder.topLevel
        var names: [String] = []
        if top.data != .absent { names.append("data") }
        if top.hasIncluded { names.append("included") }
        if top.meta.isPresent { names.append("meta") }
        if top.links.isPresent { names.append("links") }
        if top.jsonapi.isPresent { names.append("jsonapi") }
        if top.errors.isPresent { names.append("errors") }
        for member in unsafe decoder.storage.arena.foreignMembers {
            names.append(decoder.string(member.name, escaped: member.nameHasEscapes))
        }
        return names.compactMap { Key(stringValue: $0) }
    }

    func node(_ key: Key) -> Node? {
        let top = unsafe decoder.topLevel
        switch key.stringValue {
        case "data": return top.data == .absent ? nil : .primary
        case "included": return top.hasIncluded ? .included : nil
        case "meta": return top.meta.isPresent ? .value(top.meta) : nil
        case "links": return top.links.isPresent ? .value(top.links) : nil
        case "jsonapi": return top.jsonapi.isPresent ? .value(top.jsonapi) : nil
        case "errors": return top.errors.isPresent ? .value(top.errors) : nil
        default:
            return unsafe decoder.withKeyBytes(key) { wanted in
                for member in unsafe decoder.storage.arena.foreignMembers
                where unsafe decoder.nameMatches(member.name, escaped: member.nameHasEscapes, wanted) {
                    return .value(member.value)
                }
                return nil
            }
        }
    }

    func contains(_ key: Key) -> Bool { node(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let node = node(key) else { throw decoder.keyNotFound(key, in: .document, path: codingPath) }
        switch node {
        case .value(let range): return decoder.firstByte(range) == UInt8(ascii: "n")
        case .primary: return unsafe decoder.topLevel.data == .null
        default: return false
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let node = node(key) else {
            return try decoder.absentValue(T.self, key: key, in: .document, depth: depth)
        }
        return try decoder.withKeyRef(key) { key in try decoder.unbox(T.self, node, key: key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let node = node(key) else { return nil }
        return try decoder.withKeyRef(key) { key in try decoder.decodeOptional(T.self, node, key: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try fork(key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try fork(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.fork(node: .document, path: codingPath + [AnyCodingKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try fork(key)
    }

    private func fork(_ key: Key) throws -> ResourceDecoder {
        guard let node = node(key) else { throw decoder.keyNotFound(key, in: .document, path: codingPath) }
        return decoder.fork(node: node, path: codingPath + [key])
    }
}
