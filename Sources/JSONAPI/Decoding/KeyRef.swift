/// The coding key of the value being decoded, passed down without copying the key.
///
/// A key is only needed when something goes wrong (an error's coding path) or when someone asks
/// for `codingPath`. Passing it as `(any CodingKey)?` boxed the caller's key into an existential
/// and destroyed that box again for every value decoded, through the key type's value
/// witnesses, a cost paid on every property. A `KeyRef` is trivial (no retain, no
/// witness calls): an array index; the bits and type of a small plain-data key (the coding keys
/// Swift synthesizes are one-byte enums); or, for any other key, the position of a copy the
/// decoder holds on its held-key stack (``ResourceDecoder/withKeyRef(_:_:)``). ``key(in:)``
/// makes the key again when a path is built.
///
/// A `.held` reference names a key only while the `withKeyRef` call that made it runs: it is
/// passed down the call stack and pushed on the decoder's key stack by frames that end before
/// that call returns; anything kept longer (an error, a recorded skip, a forked decoder) keeps
/// the materialized keys. A reference read after its call ended is checked against the stack's
/// height and yields no key, never another frame's memory.
enum KeyRef {
    /// No key (the root value, a single-value container).
    case none
    /// The element at this index of an array (``IndexKey``).
    case index(Int)
    /// A plain-data key of at most 8 bytes: its bits, and its type.
    case bits(UInt64, any CodingKey.Type)
    /// A key the decoder holds a copy of, at this position of its held-key stack.
    case held(Int)
    /// A member name a ``ResourceReader`` was asked for.
    case name(StaticString)

    @inline(__always)
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// A copy of the key; `decoder` is the decoder whose `withKeyRef` made a `.held` reference.
    func key(in decoder: ResourceDecoder) -> (any CodingKey)? {
        switch self {
        case .none:
            return nil
        case .index(let index):
            return IndexKey(index)
        case .bits(let bits, let type):
            return Self.make(type, bits: bits)
        case .held(let slot):
            return decoder.heldKey(at: slot)
        case .name(let name):
            return StaticCodingKey(name)
        }
    }

    /// The bits of `key` when it is plain data of 0, 1, 2, 4 or 8 bytes (nil otherwise).
    @inline(__always)
    static func bits<K: CodingKey>(of key: K) -> UInt64? {
        // SAFETY: each cast is between types of the same size, and `K` holds no references
        // (`_isPOD`; a type of one byte or less cannot hold one), so its bits are a plain integer.
        switch MemoryLayout<K>.size {
        case 0: return 0
        case 1: return UInt64(unsafe unsafeBitCast(key, to: UInt8.self))
        case 2 where _isPOD(K.self): return UInt64(unsafe unsafeBitCast(key, to: UInt16.self))
        case 4 where _isPOD(K.self): return UInt64(unsafe unsafeBitCast(key, to: UInt32.self))
        case 8 where _isPOD(K.self): return unsafe unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }

    /// The key whose bits ``bits(of:)`` returned.
    private static func make<K: CodingKey>(_ type: K.Type, bits: UInt64) -> any CodingKey {
        // SAFETY: `bits` are the bits of a valid `K` of this size (see `bits(of:)`), and `K`
        // holds no references, so any copy of its bits is a valid `K`.
        switch MemoryLayout<K>.size {
        case 0: return unsafe unsafeBitCast((), to: K.self)
        case 1: return unsafe unsafeBitCast(UInt8(truncatingIfNeeded: bits), to: K.self)
        case 2: return unsafe unsafeBitCast(UInt16(truncatingIfNeeded: bits), to: K.self)
        case 4: return unsafe unsafeBitCast(UInt32(truncatingIfNeeded: bits), to: K.self)
        default: return unsafe unsafeBitCast(bits, to: K.self)
        }
    }
}

extension KeyRef: ExpressibleByNilLiteral {
    init(nilLiteral: ()) { self = .none }
}

extension ResourceDecoder {
    /// Calls `body` with a reference to `key`, valid for the duration of the call.
    @inline(__always)
    func withKeyRef<K: CodingKey, R>(_ key: K, _ body: (KeyRef) throws -> R) rethrows -> R {
        if let bits = KeyRef.bits(of: key) { return try body(.bits(bits, K.self)) }
        return try withHeldKey(key, body)
    }

    /// Holds a copy of `key` (one that is not small plain data) while `body` runs.
    @inline(never)
    func withHeldKey<K: CodingKey, R>(_ key: K, _ body: (KeyRef) throws -> R) rethrows -> R {
        unsafe heldKeys.append(key)
        defer { unsafe heldKeys.removeLast() }
        return try body(.held(unsafe heldKeys.count &- 1))
    }

    /// The held key at `slot`, or nil when the `withKeyRef` call that held it has ended.
    func heldKey(at slot: Int) -> (any CodingKey)? {
        unsafe slot < heldKeys.count ? heldKeys[slot] : nil
    }
}
