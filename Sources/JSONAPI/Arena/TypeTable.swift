/// The interned resource type names of one document.
///
/// A document has few distinct types and many resources, so every record stores a `UInt32`
/// index here instead of the name. Lookups check the most recently used entry first (runs of
/// the same type are the common case), then compare against every entry of the same length,
/// then fall back to a dictionary once the table grows past a handful of types.
@usableFromInline
struct TypeTable: Sendable {
    /// Unescaped UTF-8 bytes of each type name.
    @usableFromInline private(set) var names: [[UInt8]] = []
    private var lookup: [[UInt8]: UInt32] = [:]
    private var lastHit: UInt32 = .max
    /// Each name of at most 16 bytes packed by ``pack(_:)`` (parallel to `names`; a name that
    /// does not fit packs to ``unpacked``), so the common lookup compares words, not arrays.
    private var packed: [PackedName] = []
    private var lastPacked = Self.unpacked

    /// A short name as its length and up to 16 bytes.
    struct PackedName: Equatable, Sendable {
        var count: Int
        var low: UInt64
        var high: UInt64
    }

    static let unpacked = PackedName(count: -1, low: 0, high: 0)

    /// `bytes` packed when at most 16 long: two (possibly overlapping) 8-byte loads for 8 to 16
    /// bytes, a zero-padded copy below 8. Equal packings of equal lengths mean equal bytes.
    @inline(__always)
    static func pack(_ bytes: UnsafeRawBufferPointer) -> PackedName {
        let count = bytes.count
        guard count <= 16, let base = bytes.baseAddress else {
            return count == 0 ? PackedName(count: 0, low: 0, high: 0) : unpacked
        }
        // SAFETY: every load lies inside `bytes`.
        if count >= 8 {
            return PackedName(
                count: count, low: base.loadUnaligned(as: UInt64.self),
                high: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        }
        var word: UInt64 = 0
        var i = 0
        while i < count {
            word |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (UInt64(i) &* 8)
            i &+= 1
        }
        return PackedName(count: count, low: word, high: 0)
    }

    @inlinable init() {}

    @inlinable var count: Int { names.count }

    /// The type name at `index` as a `String`.
    func name(_ index: UInt32) -> String {
        guard Int(index) < names.count else { return "" }
        return String(decoding: names[Int(index)], as: UTF8.self)
    }

    /// The index of `bytes`, adding it when new.
    mutating func intern(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if let found = find(bytes) { return found }
        let index = UInt32(names.count)
        let owned = [UInt8](bytes)
        names.append(owned)
        packed.append(Self.pack(bytes))
        lastPacked = packed[Int(index)]
        if names.count > Self.linearLimit {
            if lookup.isEmpty {
                for (i, name) in names.enumerated() { lookup[name] = UInt32(i) }
            } else {
                lookup[owned] = index
            }
        }
        lastHit = index
        return index
    }

    /// The index of `bytes`, or nil when no resource of that type was seen.
    mutating func find(_ bytes: UnsafeRawBufferPointer) -> UInt32? {
        let key = Self.pack(bytes)
        if key.count >= 0 {
            // A short name: compare packed words, the last hit first.
            if lastHit != .max && key == lastPacked { return lastHit }
            if names.count <= Self.linearLimit {
                for i in packed.indices where packed[i] == key {
                    lastHit = UInt32(i)
                    lastPacked = key
                    return UInt32(i)
                }
                return nil
            }
        }
        if lastHit != .max, Self.equal(names[Int(lastHit)], bytes) { return lastHit }
        if names.count > Self.linearLimit {
            guard let hit = lookup[[UInt8](bytes)] else { return nil }
            lastHit = hit
            lastPacked = packed[Int(hit)]
            return hit
        }
        for i in names.indices where Self.equal(names[i], bytes) {
            lastHit = UInt32(i)
            lastPacked = packed[i]
            return UInt32(i)
        }
        return nil
    }

    /// Non-mutating lookup, for readers of a finished document.
    func index(of name: some StringProtocol) -> UInt32? {
        var utf8 = Array(name.utf8)
        return utf8.withUnsafeMutableBytes { raw -> UInt32? in
            let bytes = UnsafeRawBufferPointer(raw)
            if names.count > Self.linearLimit { return lookup[[UInt8](bytes)] }
            for i in names.indices where Self.equal(names[i], bytes) { return UInt32(i) }
            return nil
        }
    }

    private static let linearLimit = 16

    @inline(__always)
    private static func equal(_ name: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard name.count == bytes.count else { return false }
        return name.withUnsafeBytes { stored in
            guard let a = stored.baseAddress, let b = bytes.baseAddress else { return stored.count == 0 }
            return memcmpBytes(a, b, stored.count)
        }
    }

    var footprint: Int {
        names.reduce(names.capacity * MemoryLayout<[UInt8]>.stride) { $0 + $1.capacity }
            + packed.capacity * MemoryLayout<PackedName>.stride
            + lookup.capacity * (MemoryLayout<[UInt8]>.stride + 4)
    }
}

/// Byte equality of two buffers of `count` bytes, without Foundation.
@inlinable @inline(__always)
func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var i = 0
    // SAFETY: callers pass `count` no larger than either buffer; unaligned loads are explicit.
    while i &+ 8 <= count {
        if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
            return false
        }
        i &+= 8
    }
    while i < count {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i &+= 1
    }
    return true
}
