/// The interned resource type names of one document.
///
/// A document usually has few distinct types and many resources, so every record stores a
/// `UInt32` index here instead of the name. Lookups check the most recently used entry first
/// (runs of the same type are the common case), then, while the table is small, compare against
/// every entry; past ``linearLimit`` entries they probe an open-addressing table of positions
/// hashed with the standard library's per-process seeded `Hasher`, so a document with hundreds
/// of thousands of types (or types chosen to collide) still interns each in O(1).
///
/// Names live one after another in a single byte array, so interning a type allocates nothing
/// but that array's growth.
@usableFromInline
struct TypeTable: Sendable {
    /// Every name's unescaped UTF-8 bytes, one after another.
    private var bytes: [UInt8] = []
    /// Where each name ends in `bytes` (name `i` starts where name `i - 1` ends).
    @usableFromInline private(set) var ends: [Int] = []
    /// Positions plus one (0: empty) by name hash, once the table has more than ``linearLimit``
    /// names; at most half full.
    private var slots: [UInt32] = []
    /// Each name's hash (parallel to `ends`), once the table has more than ``linearLimit`` names:
    /// probes compare it before the name, and growing the table never hashes a name again.
    private var hashes: [UInt64] = []
    private var lastHit: UInt32 = .max
    /// Each name of at most 16 bytes packed by ``pack(_:)`` (parallel to `ends`; a name that
    /// does not fit packs to ``unpacked``), so the common lookup compares words, not bytes.
    private var packed: [PackedName] = []
    private var lastPacked = Self.unpacked

    /// A short name as its length and up to 16 bytes. The rules table packs its member names the
    /// same way (`JSONAPIRules.Entry`), so a key is packed once, here, whichever table reads it.
    struct PackedName: Hashable, Sendable {
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
            return unsafe PackedName(
                count: count, low: base.loadUnaligned(as: UInt64.self),
                high: base.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        }
        var word: UInt64 = 0
        var i = 0
        while i < count {
            unsafe word |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (UInt64(i) &* 8)
            i &+= 1
        }
        return PackedName(count: count, low: word, high: 0)
    }

    /// ``pack(_:)`` for a name lying inside `buffer`: below 8 bytes, one load and a mask when the
    /// eight bytes from the name's start lie inside `buffer` (the bytes past the name are masked
    /// off), instead of a byte loop.
    @inline(__always)
    static func pack(_ name: UnsafeRawBufferPointer, within buffer: UnsafeRawBufferPointer) -> PackedName {
        let count = name.count
        guard count > 0, count < 8, let start = name.baseAddress, let bufferStart = buffer.baseAddress,
            unsafe start >= bufferStart, unsafe start + 8 <= bufferStart + buffer.count
        else { return unsafe pack(name) }
        // SAFETY: the eight bytes at `start` lie inside `buffer` (checked just above).
        let word = unsafe UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
        return PackedName(count: count, low: word & ((1 &<< UInt64(count &* 8)) &- 1), high: 0)
    }

    /// The bytes a ``PackedName`` of at most 16 bytes holds, in order.
    static func unpack(_ name: PackedName) -> [UInt8] {
        // From 8 bytes the words are loads in the machine's byte order, below 8 a little-endian sum.
        let low = name.count >= 8 ? name.low.littleEndian : name.low
        let high = name.high.littleEndian
        return (0..<Swift.max(name.count, 0)).map { i in
            let (word, shift) = i < 8 ? (low, i &* 8) : (high, (i &- (name.count &- 8)) &* 8)
            return UInt8(truncatingIfNeeded: word &>> UInt64(shift))
        }
    }

    @inlinable init() {}

    @inlinable var count: Int { ends.count }

    /// The names in order, for invariant checks and fingerprints.
    var names: [[UInt8]] { (0..<count).map { Array(bytes[range(of: $0)]) } }

    /// Where name `index` lies in `bytes`.
    @inline(__always)
    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index &- 1])..<ends[index]
    }

    /// The type name at `index` as a `String`.
    func name(_ index: UInt32) -> String {
        guard Int(index) < count else { return "" }
        return String(decoding: bytes[range(of: Int(index))], as: UTF8.self)
    }

    /// The index of `name`, adding it when new.
    mutating func intern(_ name: UnsafeRawBufferPointer) -> UInt32 {
        unsafe intern(name, key: Self.pack(name))
    }

    /// ``intern(_:)`` for a name lying inside `buffer` (the chunk the parser reads), packed with
    /// one load instead of a byte loop (``pack(_:within:)``).
    @inline(__always)
    mutating func intern(_ name: UnsafeRawBufferPointer, within buffer: UnsafeRawBufferPointer) -> UInt32 {
        unsafe intern(name, key: Self.pack(name, within: buffer))
    }

    /// ``intern(_:)`` with the name's ``pack(_:)`` already taken.
    @inline(__always)
    private mutating func intern(_ name: UnsafeRawBufferPointer, key: PackedName) -> UInt32 {
        if count <= Self.linearLimit {
            if let found = unsafe find(name, key: key) { return found }
            return unsafe append(name, hash: count &+ 1 > Self.linearLimit ? Self.hash(name) : 0, slot: nil)
        }
        if unsafe name.count <= 16 && lastHit != .max && Self.pack(name) == lastPacked { return lastHit }
        return unsafe internInLargeTable(name)
    }

    /// ``intern(_:)`` past the linear search: hash once, and add a new name where the probe for
    /// it ended.
    @inline(never)
    private mutating func internInLargeTable(_ name: UnsafeRawBufferPointer) -> UInt32 {
        let hash = unsafe Self.hash(name)
        let key = unsafe Self.pack(name)
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            let i = Int(entry &- 1)
            if unsafe hashes[i] == hash && (key.count >= 0 ? packed[i] == key : equal(i, name)) {
                lastHit = UInt32(i)
                lastPacked = packed[i]
                return UInt32(i)
            }
            slot = (slot &+ 1) & mask
        }
        return unsafe append(name, hash: hash, slot: slot)
    }

    /// Adds a new name (its hash is kept once the table outgrows the linear search) at `slot`
    /// of `slots`, or rebuilds `slots` when it would be more than half full.
    private mutating func append(_ name: UnsafeRawBufferPointer, hash: UInt64, slot: Int?) -> UInt32 {
        let index = UInt32(count)
        unsafe bytes.append(contentsOf: name)
        ends.append(bytes.count)
        unsafe packed.append(Self.pack(name))
        lastPacked = packed[Int(index)]
        lastHit = index
        guard count > Self.linearLimit else { return index }
        if hashes.count < count &- 1 {
            // The table just outgrew the linear search: hash the names it already had.
            // SAFETY: `range(of:)` of an interned name lies inside the name storage `all`.
            hashes = unsafe bytes.withUnsafeBytes { all in
                (0..<(count &- 1)).map { unsafe Self.hash(UnsafeRawBufferPointer(rebasing: all[range(of: $0)])) }
            }
        }
        hashes.append(hash)
        if let slot, slots.count >= count &* 2 {
            slots[slot] = index &+ 1
        } else {
            rehash()
        }
        return index
    }

    /// The index of `name`, or nil when no resource of that type was seen.
    mutating func find(_ name: UnsafeRawBufferPointer) -> UInt32? {
        unsafe find(name, key: Self.pack(name))
    }

    /// ``find(_:)`` with the name's ``pack(_:)`` already taken.
    @inline(__always)
    private mutating func find(_ name: UnsafeRawBufferPointer, key: PackedName) -> UInt32? {
        if key.count >= 0 {
            // A short name (nearly every type): compare packed words, the last hit first.
            if lastHit != .max && key == lastPacked { return lastHit }
            if count <= Self.linearLimit {
                for i in packed.indices where packed[i] == key {
                    lastHit = UInt32(i)
                    lastPacked = key
                    return UInt32(i)
                }
                return nil
            }
        } else if unsafe lastHit != .max && equal(Int(lastHit), name) {
            return lastHit
        }
        guard let hit = unsafe lookup(name, packed: key) else { return nil }
        lastHit = hit
        lastPacked = packed[Int(hit)]
        return hit
    }

    /// Non-mutating lookup, for readers of a finished document.
    func index(of name: some StringProtocol) -> UInt32? {
        var utf8 = String(name)
        return utf8.withUTF8 { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            return unsafe lookup(raw, packed: Self.pack(raw))
        }
    }

    /// Small tables compare every entry; larger ones probe `slots`.
    @inline(__always)
    private func lookup(_ name: UnsafeRawBufferPointer, packed key: PackedName) -> UInt32? {
        if count <= Self.linearLimit {
            if key.count >= 0 {
                for i in packed.indices where packed[i] == key { return UInt32(i) }
            } else {
                for i in 0..<count where unsafe equal(i, name) { return UInt32(i) }
            }
            return nil
        }
        let hash = unsafe Self.hash(name)
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let i = Int(entry &- 1)
            if unsafe hashes[i] == hash && (key.count >= 0 ? packed[i] == key : equal(i, name)) { return UInt32(i) }
            slot = (slot &+ 1) & mask
        }
    }

    /// Rebuilds `slots` at four times the name count (a power of two), so it stays at most half
    /// full until the count doubles.
    private mutating func rehash() {
        var capacity = 64
        while capacity < count &* 4 { capacity &<<= 1 }
        slots = [UInt32](repeating: 0, count: capacity)
        let mask = capacity &- 1
        for i in 0..<count {
            var slot = Int(truncatingIfNeeded: hashes[i]) & mask
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = UInt32(i &+ 1)
        }
    }

    /// SipHash with the process's random seed, so names cannot be chosen to collide.
    @inline(__always)
    private static func hash(_ name: UnsafeRawBufferPointer) -> UInt64 {
        unsafe ResourceIndex.sipHash(type: 0, id: name)
    }

    /// Tables up to this size are searched linearly.
    private static let linearLimit = 16

    @inline(__always)
    private func equal(_ index: Int, _ name: UnsafeRawBufferPointer) -> Bool {
        let stored = range(of: index)
        guard stored.count == name.count else { return false }
        return unsafe bytes.withUnsafeBytes { all in
            guard let a = all.baseAddress, let b = name.baseAddress else { return stored.isEmpty }
            return unsafe memcmpBytes(a + stored.lowerBound, b, stored.count)
        }
    }

    var footprint: Int {
        bytes.capacity + ends.capacity * MemoryLayout<Int>.stride + packed.capacity * MemoryLayout<PackedName>.stride
            + slots.capacity * MemoryLayout<UInt32>.stride + hashes.capacity * MemoryLayout<UInt64>.stride
    }
}

/// Byte equality of two buffers of `count` bytes, without Foundation.
@inlinable @inline(__always)
func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
    var i = 0
    // SAFETY: callers pass `count` no larger than either buffer; unaligned loads are explicit.
    while i &+ 8 <= count {
        if unsafe a.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            != b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        {
            return false
        }
        i &+= 8
    }
    while i < count {
        if unsafe a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) {
            return false
        }
        i &+= 1
    }
    return true
}
