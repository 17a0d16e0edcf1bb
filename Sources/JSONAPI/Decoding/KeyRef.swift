/// The coding key of the value being decoded, passed down without copying the key.
///
/// A key is only needed when something goes wrong (an error's coding path) or when someone asks
/// for `codingPath`. Passing it as `(any CodingKey)?` boxed the caller's key into an existential
/// and destroyed that box again for every value decoded, through the key type's value
/// witnesses, a cost paid on every property. A `KeyRef` is trivial (no retain, no
/// witness calls): an array index; the bits and type of a small plain-data key (the coding keys
/// Swift synthesizes are one-byte enums); or the address and type of any other key, which lives
/// in a caller's frame. ``key`` makes the key again when a path is built.
///
/// A `KeyRef` made from an address is valid only while the call that made it runs: it is
/// passed down the call stack and pushed on the decoder's key stack by frames that end before
/// that call returns; anything kept longer (an error, a recorded skip, a forked decoder) keeps
/// the materialized keys.
enum KeyRef {
    /// No key (the root value, a single-value container).
    case none
    /// The element at this index of an array (``IndexKey``).
    case index(Int)
    /// A plain-data key of at most 8 bytes: its bits, and its type.
    case bits(UInt64, any CodingKey.Type)
    /// A key at this address, of this type.
    case address(UnsafeRawPointer, any CodingKey.Type)
    /// A member name a ``ResourceReader`` was asked for.
    case name(StaticString)

    @inline(__always)
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// A copy of the key.
    var key: (any CodingKey)? {
        switch self {
        case .none:
            return nil
        case .index(let index):
            return IndexKey(index)
        case .bits(let bits, let type):
            return Self.make(type, bits: bits)
        case .address(let address, let type):
            return Self.load(type, from: address)
        case .name(let name):
            return StaticCodingKey(name)
        }
    }

    /// The bits of `key` when it is plain data of 0, 1, 2, 4 or 8 bytes (nil otherwise).
    @inline(__always)
    static func bits<K: CodingKey>(of key: K) -> UInt64? {
        switch MemoryLayout<K>.size {
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2 where _isPOD(K.self): return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4 where _isPOD(K.self): return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8 where _isPOD(K.self): return unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }

    /// The key whose bits ``bits(of:)`` returned.
    private static func make<K: CodingKey>(_ type: K.Type, bits: UInt64) -> any CodingKey {
        // SAFETY: `bits` are the bits of a valid `K` of this size (see `bits(of:)`); a type of
        // one byte or less holds no references.
        switch MemoryLayout<K>.size {
        case 0: return unsafeBitCast((), to: K.self)
        case 1: return unsafeBitCast(UInt8(truncatingIfNeeded: bits), to: K.self)
        case 2: return unsafeBitCast(UInt16(truncatingIfNeeded: bits), to: K.self)
        case 4: return unsafeBitCast(UInt32(truncatingIfNeeded: bits), to: K.self)
        default: return unsafeBitCast(bits, to: K.self)
        }
    }

    private static func load<K: CodingKey>(_ type: K.Type, from address: UnsafeRawPointer) -> any CodingKey {
        // SAFETY: `address` points at a live `K` (see the type's documentation).
        address.assumingMemoryBound(to: K.self).pointee
    }
}

extension KeyRef: ExpressibleByNilLiteral {
    init(nilLiteral: ()) { self = .none }
}

/// Calls `body` with a reference to `key`, valid for the duration of the call.
@inline(__always)
func withKeyRef<K: CodingKey, R>(_ key: K, _ body: (KeyRef) throws -> R) rethrows -> R {
    if let bits = KeyRef.bits(of: key) { return try body(.bits(bits, K.self)) }
    return try withKeyAddress(key, body)
}

@inline(never)
func withKeyAddress<K: CodingKey, R>(_ key: K, _ body: (KeyRef) throws -> R) rethrows -> R {
    try withUnsafePointer(to: key) { pointer in try body(.address(UnsafeRawPointer(pointer), K.self)) }
}
