import CJSONAPISupport

/// The (type, id) → resource index of a document: open addressing with linear probing.
///
/// Each slot is one 16-byte entry, so a probe touches one cache line. Its first word packs 32
/// bits of the key's hash (a tag that rejects most mismatches) and the resource's position plus
/// one (0 marks an empty slot). Its second word says how to confirm a match:
///
/// - a *short* key (a type among the first 4,096 and an id of at most 6 bytes, such as most
///   numeric ids) is stored whole (``shortKey(type:id:)``, bit 63 set), so comparing it touches
///   neither the resource records nor the input;
/// - a longer id without escapes is described by its offset and length in the input and its type
///   (``longKey(type:record:)``, bit 63 clear), so confirming it reads the input once and never
///   the resource record;
/// - anything else (escaped ids, very long ones, offsets past 4 GiB) is 0: confirmed through
///   the record.
///
/// In a large document those records and ids are cache misses, which makes index work a large
/// share of a large build's time. The table is sized once, after the last resource is known, to
/// at most half full, so probes stay short: a lookup is O(1) expected.
///
/// Keys are hashed with a keyed multiply-fold hash (in the style of wyhash: each 64-bit word of
/// the id is mixed in by a 64 x 64 -> 128-bit multiply whose halves are folded together), with
/// two keys drawn from the system's random number generator for every index built. Without the
/// keys, ids cannot be chosen to collide. Should a document still produce a long probe run (the
/// table is at most half full, so runs are short for any ids the hash spreads), the index is
/// rebuilt with the standard library's SipHash-1-3 `Hasher`, whose per-process seed makes
/// collisions infeasible to craft: a crafted document cannot make lookups quadratic, and ordinary
/// documents never pay for SipHash.
@usableFromInline
struct ResourceIndex: Sendable {
    /// One slot: the tag and position word, and the key word (see the type's discussion).
    struct Entry: Sendable {
        var head: UInt64
        var key: UInt64
    }

    private var slots: [Entry] = []
    private var mask: Int = 0
    /// The fast hash's keys, drawn when the index is built.
    private var key0: UInt64 = 0
    private var key1: UInt64 = 0
    /// Whether the index fell back to SipHash (see the type's discussion).
    private(set) var usesSipHash = false

    @inlinable init() {}

    var footprint: Int { slots.count * MemoryLayout<Entry>.stride }

    /// The slot array, for ``ArenaShelf`` when the document is released.
    var recyclableSlots: [Entry] { slots }

    /// Takes a shelved slot array to fill on the next ``build(resources:input:digests:probeLimit:duplicate:)``
    /// if it has room (see ``ArenaShelf``).
    mutating func adopt(slots recycled: inout [Entry]) {
        swap(&slots, &recycled)
    }

    /// The longest probe run a build accepts before it switches to SipHash. With the table at
    /// most half full, a run this long from well-spread hashes is far beyond unlikely.
    static let probeLimit = 48

    /// The whole key in one word when it is short, in fields that do not overlap:
    ///
    ///     bit 63      marker (1)
    ///     bits 51-62  type (12 bits: the first 4,096 types)
    ///     bits 48-50  id length (0 to 6)
    ///     bits 0-47   id bytes, the first in the lowest byte, zero-padded
    ///
    /// Distinct short keys give distinct words (the length tells `"0"` from `"0\u0000"`), and
    /// the marker bit keeps every one of them non-zero, so 0 can mean "not short".
    @inline(__always)
    static func shortKey(type: UInt32, id: UnsafeRawBufferPointer) -> UInt64 {
        guard type < 1 << 12, id.count <= 6 else { return 0 }
        var word: UInt64 = 1 << 63 | UInt64(type) << 51 | UInt64(id.count) << 48
        var shift: UInt64 = 0
        for index in id.indices {
            word |= UInt64(unsafe id[index]) << shift
            shift &+= 8
        }
        return word
    }

    /// The key word of a longer unescaped id: its input offset (32 bits), length (16 bits) and
    /// type (15 bits), bit 63 clear; 0 when it does not fit or the id has escapes.
    @inline(__always)
    static func longKey(type: UInt32, record: ResourceRecord) -> UInt64 {
        let length = record.id.end &- record.id.start
        guard type < 1 << 15, length < 1 << 16, !record.flags.contains(.idHasEscapes) else { return 0 }
        return UInt64(type) << 48 | UInt64(length) << 32 | UInt64(record.id.start)
    }

    /// Whether the entry's key word `key` (not short) names `type` and `id`.
    @inline(__always)
    private static func keyMatches(
        _ key: UInt64, position: Int, type: UInt32, id: UnsafeRawBufferPointer, resources: [ResourceRecord],
        input: UnsafeRawBufferPointer
    ) -> Bool {
        guard key != 0 else {
            return unsafe resources[position].type == type && idEquals(resources[position], input: input, id)
        }
        guard key >> 48 == UInt64(type), Int((key >> 32) & 0xFFFF) == id.count else { return false }
        let start = Int(key & 0xFFFF_FFFF)
        guard start &+ id.count <= input.count, let base = input.baseAddress else { return false }
        guard let other = id.baseAddress else { return id.count == 0 }
        return unsafe memcmpBytes(base + start, other, id.count)
    }

    /// Draws fresh random keys for the fast hash. The builder does this before the first
    /// ``digest(type:id:)``, so digests taken during the parse and lookups afterwards agree.
    mutating func drawKeys() {
        var generator = SystemRandomNumberGenerator()
        key0 = generator.next()
        key1 = generator.next()
    }

    /// A key's digest, taken by the builder while the id's bytes are still in cache so that
    /// building the index and resolving linkage need not read them again: the short key itself
    /// (bit 63 set) or, for a longer key, its fast hash with bit 63 clear.
    @inline(__always)
    func digest(type: UInt32, id: UnsafeRawBufferPointer) -> UInt64 {
        let short = unsafe Self.shortKey(type: type, id: id)
        if short != 0 { return short }
        return unsafe Self.foldHash(type: type, id: id, key0: key0, key1: key1) & ~(1 << 63)
    }

    /// The probe hash and short key (0 if not short) of a digest, for the fast hash.
    @inline(__always)
    func probe(digest: UInt64) -> (hash: UInt64, short: UInt64) {
        guard digest >> 63 != 0 else { return (digest, 0) }
        return (Self.fold(Self.fold(digest ^ key0, Self.p0 ^ key1) ^ key1, Self.p1), digest)
    }

    /// How many keys ahead the index passes ask for the slots (and, half as far ahead, the id
    /// bytes) they will need. In a large document the slots and ids are cache misses; issued one
    /// at a time the pass waits on each in turn, overlapped they cost little.
    static let prefetchDistance = 32

    /// Asks the processor to start loading the slot a key with this digest probes first.
    @inline(__always)
    func prefetchSlot(digest: UInt64) {
        guard !usesSipHash else { return }
        let slot = Int(truncatingIfNeeded: probe(digest: digest).hash) & mask
        unsafe slots.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, slot < buffer.count else { return }
            unsafe jsonapi_prefetch(base + slot)
        }
    }

    /// Asks the processor to start loading the input bytes that confirming a long key with this
    /// digest will read: the stored resource's id, named by the first slot's key word.
    @inline(__always)
    func prefetchStoredID(digest: UInt64, input: UnsafeRawBufferPointer) {
        guard !usesSipHash, digest >> 63 == 0 else { return }
        let slot = Int(truncatingIfNeeded: digest) & mask
        unsafe slots.withUnsafeBufferPointer { buffer in
            guard slot < buffer.count else { return }
            let key = unsafe buffer[slot].key
            guard key != 0, key >> 63 == 0 else { return }
            let start = Int(key & 0xFFFF_FFFF)
            unsafe input.prefetch(at: start)
            unsafe input.prefetch(at: start &+ Int((key >> 32) & 0xFFFF) &- 1)
        }
    }

    /// The probe hash and short key of (type, unescaped id) with the index's current hash; with
    /// `digest` (from ``digest(type:id:)``), without reading the id for the fast hash.
    @inline(__always)
    func locate(type: UInt32, id: UnsafeRawBufferPointer, digest: UInt64?) -> (hash: UInt64, short: UInt64) {
        if usesSipHash { return unsafe (Self.sipHash(type: type, id: id), Self.shortKey(type: type, id: id)) }
        return unsafe probe(digest: digest ?? self.digest(type: type, id: id))
    }

    /// Odd constants from the digits of pi, so no word multiplies to a fixed point.
    static let p0: UInt64 = 0x243F_6A88_85A3_08D3
    static let p1: UInt64 = 0x1319_8A2E_0370_7345

    /// The fast keyed hash: the id as whole 64-bit words (the tail zero-padded, the length mixed
    /// in with the type), each folded in by a keyed 128-bit multiply.
    @inline(__always)
    static func foldHash(type: UInt32, id: UnsafeRawBufferPointer, key0: UInt64, key1: UInt64) -> UInt64 {
        let p0 = Self.p0
        let p1 = Self.p1
        var h = fold((UInt64(type) << 32 | UInt64(truncatingIfNeeded: id.count)) ^ key0, p0 ^ key1)
        unsafe forEachWord(of: id) { word in h = fold(word ^ key0, h ^ p1) }
        return fold(h ^ key1, p0)
    }

    /// Calls `body` with the id's bytes as whole 64-bit words, the last one zero-padded.
    @inline(__always)
    private static func forEachWord(of id: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
        guard let base = id.baseAddress else { return }
        var i = 0
        // SAFETY: each 8-byte load ends at or before `id.count`.
        while i &+ 8 <= id.count {
            unsafe body(base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i &+= 8
        }
        guard i < id.count else { return }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < id.count {
            unsafe tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
            shift &+= 8
            i &+= 1
        }
        body(tail)
    }

    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// SipHash-1-3 with the process's random seed, for the fallback: the id goes in as whole
    /// 64-bit words, one `combine` per word rather than per byte as `combine(bytes:)` would
    /// feed it.
    static func sipHash(type: UInt32, id: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(UInt64(type) << 32 | UInt64(truncatingIfNeeded: id.count))
        unsafe forEachWord(of: id) { word in hasher.combine(word) }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// Builds the index over every resource that has a type and an id.
    ///
    /// - Parameters:
    ///   - digests: each resource's ``digest(type:id:)`` (any value for resources without a type
    ///     or id), or nil to read every id from `input`.
    ///   - probeLimit: the longest probe run accepted before falling back to SipHash; tests
    ///     lower it to exercise the fallback.
    ///   - duplicate: called with (first, second) positions for each repeated key.
    mutating func build(
        resources: [ResourceRecord], input: UnsafeRawBufferPointer, digests: [UInt64]? = nil,
        probeLimit: Int = Self.probeLimit, duplicate: (Int, Int) -> Void
    ) {
        usesSipHash = false
        let digests = digests.flatMap { $0.count == resources.count ? $0 : nil }
        var duplicates: [(Int, Int)] = []
        if unsafe !fill(
            resources: resources, input: input, digests: digests, probeLimit: probeLimit, duplicates: &duplicates)
        {
            usesSipHash = true
            duplicates.removeAll()
            _ = unsafe fill(resources: resources, input: input, digests: nil, probeLimit: .max, duplicates: &duplicates)
        }
        for (first, second) in duplicates { duplicate(first, second) }
    }

    /// One attempt at filling the table; false when a probe run exceeds `probeLimit`.
    private mutating func fill(
        resources: [ResourceRecord], input: UnsafeRawBufferPointer, digests: [UInt64]?, probeLimit: Int,
        duplicates: inout [(Int, Int)]
    ) -> Bool {
        var capacity = 16
        while capacity < resources.count &* 2 { capacity &<<= 1 }
        if slots.capacity >= capacity {
            // A recycled array (or the first attempt's, on the way to SipHash): its pages are mapped.
            slots.removeAll(keepingCapacity: true)
            slots.append(contentsOf: repeatElement(Entry(head: 0, key: 0), count: capacity))
        } else {
            slots = unsafe [Entry](unsafeUninitializedCapacity: capacity) { buffer, count in
                unsafe adviseHugePages(
                    UnsafeMutableRawPointer(buffer.baseAddress), byteCount: capacity &* MemoryLayout<Entry>.stride)
                // SAFETY: `buffer` was just allocated with `capacity` entries; this initializes all of them.
                unsafe buffer.initialize(repeating: Entry(head: 0, key: 0))
                count = capacity
            }
        }
        mask = capacity &- 1
        var scratch: [UInt8] = []
        let ahead = Self.prefetchDistance
        for position in resources.indices {
            if let digests, position &+ ahead < digests.count { prefetchSlot(digest: digests[position &+ ahead]) }
            let record = resources[position]
            guard record.type != .max, record.id.isPresent else { continue }
            let placed = unsafe Self.withID(of: record, input: input, scratch: &scratch) { id -> Bool in
                let (h, short) = unsafe locate(type: record.type, id: id, digest: digests?[position])
                let tag = h >> 32
                var slot = Int(truncatingIfNeeded: h) & mask
                var probes = 0
                while true {
                    let entry = slots[slot]
                    if entry.head == 0 {
                        slots[slot] = Entry(
                            head: (tag << 32) | UInt64(position &+ 1),
                            key: short != 0 ? short : Self.longKey(type: record.type, record: record))
                        return true
                    }
                    if entry.head >> 32 == tag {
                        let other = Int(entry.head & 0xFFFF_FFFF) &- 1
                        let same =
                            unsafe short != 0
                            ? entry.key == short
                            : (entry.key >> 63 == 0
                                && Self.keyMatches(
                                    entry.key, position: other, type: record.type, id: id, resources: resources,
                                    input: input))
                        if same {
                            duplicates.append((other, position))
                            return true
                        }
                    }
                    probes &+= 1
                    if probes > probeLimit { return false }
                    slot = (slot &+ 1) & mask
                }
            }
            if !placed { return false }
        }
        return true
    }

    /// The position of the resource with this type and unescaped id.
    ///
    /// - Parameter digest: the key's ``digest(type:id:)`` if known; then the id is read only to
    ///   confirm a long key.
    func find(
        type: UInt32, id: UnsafeRawBufferPointer, digest: UInt64? = nil, resources: [ResourceRecord],
        input: UnsafeRawBufferPointer
    ) -> UInt32? {
        guard !slots.isEmpty else { return nil }
        let (h, short) = unsafe locate(type: type, id: id, digest: digest)
        let tag = h >> 32
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = slots[slot]
            if entry.head == 0 { return nil }
            if entry.head >> 32 == tag {
                let position = Int(entry.head & 0xFFFF_FFFF) &- 1
                if short != 0 {
                    // A short key matches only a short key, and exactly.
                    if entry.key == short { return UInt32(position) }
                } else if entry.key >> 63 == 0,
                    unsafe Self.keyMatches(
                        entry.key, position: position, type: type, id: id, resources: resources, input: input)
                {
                    return UInt32(position)
                }
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// Calls `body` with the unescaped id bytes of `record`. Static on purpose: `fill` mutates
    /// `slots` inside `body`, and calling an instance method there would hold a second reference
    /// to `slots` for the call, so every insertion could copy the whole table, O(n²) in all
    /// (debug builds do not remove that copy).
    @inline(__always)
    static func withID<R>(
        of record: ResourceRecord, input: UnsafeRawBufferPointer, scratch: inout [UInt8],
        _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        unsafe Self.withUnescaped(
            record.id, escaped: record.flags.contains(.idHasEscapes), input: input, scratch: &scratch, body)
    }

    /// Calls `body` with the unescaped bytes of the string contents at `range`.
    @inline(__always)
    static func withUnescaped<R>(
        _ range: ByteRange, escaped: Bool, input: UnsafeRawBufferPointer, scratch: inout [UInt8],
        _ body: (UnsafeRawBufferPointer) -> R
    ) -> R {
        let raw = unsafe input.slice(range)
        guard escaped else { return unsafe body(raw) }
        scratch.removeAll(keepingCapacity: true)
        unsafe JSONStringDecoding.unescape(raw, into: &scratch)
        return unsafe scratch.withUnsafeBytes(body)
    }

    private static func idEquals(_ record: ResourceRecord, input: UnsafeRawBufferPointer, _ id: UnsafeRawBufferPointer)
        -> Bool
    {
        let raw = unsafe input.slice(record.id)
        if !record.flags.contains(.idHasEscapes) {
            guard raw.count == id.count else { return false }
            guard let a = raw.baseAddress, let b = id.baseAddress else { return raw.count == 0 }
            return unsafe memcmpBytes(a, b, raw.count)
        }
        var decoded: [UInt8] = []
        unsafe JSONStringDecoding.unescape(raw, into: &decoded)
        return unsafe decoded.withUnsafeBytes { d in
            guard d.count == id.count else { return false }
            guard let a = d.baseAddress, let b = id.baseAddress else { return d.count == 0 }
            return unsafe memcmpBytes(a, b, d.count)
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Asks the processor to start loading the byte at `offset`, if it is inside the buffer.
    @inline(__always)
    func prefetch(at offset: Int) {
        guard let base = baseAddress, offset >= 0, offset < count else { return }
        unsafe jsonapi_prefetch(base + offset)
    }

    /// Asks the processor to start loading the bytes of `range` (its first and last cache lines;
    /// the ranges the index passes prefetch are ids, rarely longer than two lines).
    @inline(__always)
    func prefetch(_ range: ByteRange) {
        unsafe prefetch(at: Int(range.start))
        unsafe prefetch(at: Int(range.end) &- 1)
    }

    /// The bytes of `range`, clamped to the buffer so a bad range can never read outside it.
    @inlinable @inline(__always)
    func slice(_ range: ByteRange) -> UnsafeRawBufferPointer {
        // SAFETY: an empty buffer reads nothing; otherwise `start...end` is clamped to `0...count` below.
        guard range.isPresent else { return unsafe UnsafeRawBufferPointer(start: nil, count: 0) }
        let start = Swift.min(Int(range.start), count)
        let end = Swift.max(start, Swift.min(Int(range.end), count))
        return unsafe UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}
