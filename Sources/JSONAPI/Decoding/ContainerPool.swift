// Keyed containers, reused.
//
// `Decoder.container(keyedBy:)` must return a `KeyedDecodingContainer<Key>`, which is a struct
// around a class instance the standard library allocates: `_KeyedDecodingContainerBox<C>`,
// holding our container `C`. Making one costs a heap allocation, a runtime lookup of the
// generic metadata of `C<Key>` and of the box, and a lookup of `C<Key>`'s conformance; freeing
// it, a deallocation. A projection asks for a container for every resource and every nested
// object, so that was a fifth of the time of decoding the generated documents.
//
// A box is immutable, but what our containers read is not in the box: they read a
// ``KeyedState`` object that the box holds. So a box nobody else holds any more (its
// `init(from:)` has returned and dropped its container) can be handed out again with its state
// set to the new object:
//
//   pool for (Article.CodingKeys, resource)     boxes [B0]      states [S0]
//   Article 1: container(keyedBy:) -> B0 unique -> S0 = record 1 -> decode ... -> user drops B0
//   Article 2: container(keyedBy:) -> B0 unique -> S0 = record 2 -> ...
//
// A box still held (an outer container of the same key type while a recursive type decodes its
// children, or a container someone kept) is not unique, so another box is made and pooled; a
// pool holds as many boxes as there were containers of its type alive at once.

/// What a keyed container reads: which object, and where its members are. Set each time the
/// container's box is handed out.
///
/// `@safe`: it only holds `names` unretained, and the pool that owns this state owns those names
/// too, so they outlive it.
@safe
final class KeyedState {
    /// The member names of the container's key type (unretained: reading them must not
    /// retain and release, once per property).
    let names: Unmanaged<KeyNames>

    /// The resource record (resource containers).
    @exclusivity(unchecked) var record: UInt32 = 0
    /// The JSON object (object containers).
    @exclusivity(unchecked) var object: ByteRange = .absent
    @exclusivity(unchecked) var segment: MemberSegment = .empty
    /// The length of the decoder's coding path when the container was made.
    @exclusivity(unchecked) var depth: Int = 0

    // SAFETY: `names` belongs to the pool that owns this state.
    init(names: KeyNames) { unsafe self.names = unsafe .passUnretained(names) }
}

/// The UTF-8 of the `stringValue` of each key of one key type, by the key's bits, for key
/// types of at most one byte (the enums Swift synthesizes for `CodingKeys`).
///
/// Looking a key up by name called `stringValue` (a witness call and a `switch` that makes a
/// `String`), then reached the string's UTF-8 and retained and released its storage, for every
/// property of every object. A key of one byte has at most 256 values, and its `stringValue`
/// depends on nothing but its value, so the name is kept the first time and read from here.
///
/// The names depend only on the key type; they live as long as the pool, which lives as long as
/// its decoder, and decoders are reused from one decode to the next (``ResourceDecoder/recycle(_:)``).
///
/// `@safe`: the buffers are private, allocated and freed here only, and a slot is read only after
/// the check that it was filled.
@safe
final class KeyNames {
    // SAFETY: when allocated, `starts` and `counts` hold 256 entries; `starts[i]` is nil or
    // the start of a buffer of `counts[i]` bytes (allocated here, freed in `deinit`) holding the
    // UTF-8 of the name of the key whose bits are `i`.
    private var starts: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    private var counts: UnsafeMutablePointer<Int>?

    init() {}

    deinit {
        // SAFETY: each filled slot and both tables were allocated by `name(_:)` and are freed once, here.
        guard let starts = unsafe starts else { return }
        for index in 0..<256 { unsafe starts[index]?.deallocate() }
        unsafe starts.deallocate()
        unsafe counts?.deallocate()
    }

    /// The UTF-8 of `key.stringValue`, or nil when `key`'s type is not a small plain value.
    @inline(__always)
    func name<K: CodingKey>(_ key: K) -> UnsafeRawBufferPointer? {
        guard MemoryLayout<K>.size <= 1, let bits = KeyRef.bits(of: key) else { return nil }
        let slot = Int(truncatingIfNeeded: bits) & 0xFF
        // SAFETY: `slot` is below 256, the tables' size; a filled slot holds `counts[slot]` bytes.
        if let starts = unsafe starts, let counts = unsafe counts, let start = unsafe starts[slot] {
            return unsafe UnsafeRawBufferPointer(start: start, count: counts[slot])
        }
        return unsafe remember(key, slot: slot)
    }

    @inline(never)
    private func remember<K: CodingKey>(_ key: K, slot: Int) -> UnsafeRawBufferPointer {
        let starts: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        let counts: UnsafeMutablePointer<Int>
        if let existing = unsafe self.starts, let existingCounts = unsafe self.counts {
            unsafe starts = existing
            unsafe counts = existingCounts
        } else {
            // SAFETY: both tables get 256 entries, all initialized to "empty" before use.
            unsafe starts = .allocate(capacity: 256)
            unsafe starts.initialize(repeating: nil, count: 256)
            unsafe counts = .allocate(capacity: 256)
            unsafe counts.initialize(repeating: 0, count: 256)
            unsafe self.starts = starts
            unsafe self.counts = counts
        }
        let utf8 = Array(key.stringValue.utf8)
        // SAFETY: `buffer` holds `utf8.count` bytes (at least one), filled from `utf8` and owned by this table
        // until `deinit`.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, utf8.count), alignment: 1)
        unsafe utf8.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { unsafe buffer.copyMemory(from: base, byteCount: bytes.count) }
        }
        unsafe starts[slot] = buffer
        unsafe counts[slot] = utf8.count
        return unsafe UnsafeRawBufferPointer(start: buffer, count: utf8.count)
    }
}

/// The boxes of one container type (a key type, and whether over resources or objects).
final class ContainerPool {
    enum Kind: UInt8 {
        case resource, object
    }

    let type: ObjectIdentifier
    let kind: Kind
    /// Whether a `KeyedDecodingContainer` is a single reference (its box), as the standard
    /// library has always declared it; if a future one is not, nothing is reused.
    let reusable: Bool
    // SAFETY: `boxes[i]` is the box (the only stored property) of a `KeyedDecodingContainer`
    // of key type `type` over a container of kind `kind` whose state is `states[i]`; the
    // states live as long as the pool, which the decoder keeps for its whole life.
    @exclusivity(unchecked) var boxes: [AnyObject] = []
    @exclusivity(unchecked) var states: [KeyedState] = []
    let names = KeyNames()

    init(type: ObjectIdentifier, kind: Kind, reusable: Bool) {
        self.type = type
        self.kind = kind
        self.reusable = reusable
    }
}

extension ResourceDecoder {
    /// A keyed container of `kind` over `record` or `object`, in a reused box when one is free.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(
        _ key: Key.Type, _ kind: ContainerPool.Kind, record: UInt32, object: ByteRange, segment: MemberSegment
    ) -> KeyedDecodingContainer<Key> {
        let pool = containerPool(Key.self, kind)
        let depth = pathCount
        if pool.reusable {
            var index = 0
            let count = unsafe pool.boxes.count
            while index < count {
                if unsafe isKnownUniquelyReferenced(&pool.boxes[index]) {
                    let state = unsafe pool.states[index]
                    unsafe state.record = record
                    unsafe state.object = object
                    unsafe state.segment = segment
                    unsafe state.depth = depth
                    // SAFETY: the pool for `Key` stores only boxes of `KeyedDecodingContainer<Key>` (a single class
                    // reference), cast back to that type.
                    return unsafe unsafeBitCast(pool.boxes[index], to: KeyedDecodingContainer<Key>.self)
                }
                index &+= 1
            }
        }
        return makeKeyedContainer(Key.self, pool, record: record, object: object, segment: segment, depth: depth)
    }

    @inline(never)
    func makeKeyedContainer<Key: CodingKey>(
        _ key: Key.Type, _ pool: ContainerPool, record: UInt32, object: ByteRange, segment: MemberSegment,
        depth: Int
    ) -> KeyedDecodingContainer<Key> {
        let state = KeyedState(names: pool.names)
        unsafe state.record = record
        unsafe state.object = object
        unsafe state.segment = segment
        unsafe state.depth = depth
        let container: KeyedDecodingContainer<Key>
        switch pool.kind {
        case .resource:
            container = unsafe KeyedDecodingContainer(
                ResourceContainer<Key>(unmanaged: .passUnretained(self), state: state))
        case .object:
            container = unsafe KeyedDecodingContainer(
                ObjectContainer<Key>(unmanaged: .passUnretained(self), state: state))
        }
        // The state must outlive the container even when its box is not pooled.
        unsafe pool.states.append(state)
        // SAFETY: `KeyedDecodingContainer` is one class reference; the pool is specific to `Key` and casts it
        // back to the same type.
        if pool.reusable { unsafe pool.boxes.append(unsafeBitCast(container, to: AnyObject.self)) }
        return container
    }

    /// The pool of containers of `kind` keyed by `Key`.
    @inline(__always)
    func containerPool<Key: CodingKey>(_ key: Key.Type, _ kind: ContainerPool.Kind) -> ContainerPool {
        let id = ObjectIdentifier(Key.self)
        // Metadata addresses are 16-byte aligned; the kind picks the neighbouring slot.
        let slot =
            (Int(truncatingIfNeeded: UInt(bitPattern: id) &>> 4) &+ Int(kind.rawValue))
            & (Self.poolCacheSize &- 1)
        if let cached = unsafe poolCache[slot], cached.type == id, cached.kind == kind { return cached }
        for pool in unsafe pools where pool.type == id && pool.kind == kind {
            unsafe poolCache[slot] = pool
            return pool
        }
        let pool = ContainerPool(
            type: id, kind: kind,
            reusable: MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size)
        unsafe pools.append(pool)
        unsafe poolCache[slot] = pool
        return pool
    }

    static let poolCacheSize = 32
}
