import CJSONAPISupport

// The resource stream's exact (type, id) index: uniqueness and full linkage over a document
// whose bytes are gone by the time the question is asked.
//
// Every key the stream sees (a resource's, or one named by linkage) is one 64-bit slot word in an
// open-addressing table. A key is written in exactly one canonical form, so two keys are equal
// exactly when their forms are:
//
//     bits 62-63  form: 0 empty slot, 1 decimal, 2 short string, 3 stored out of line
//     bit  61     defined: a resource object with this key was seen
//     bit  60     reached: the key is reachable from primary data (full linkage)
//     bits 50-59  type (the first 1,024 types; later types are stored out of line)
//     form 1      bits 0-49: the value of a canonical decimal id (digits only, no leading zero,
//                 at most 15 digits, so below 2^50)
//     form 2      bits 40-42: length (0-5), bits 0-39: the bytes, first in the lowest byte;
//                 any id of at most 5 bytes that is not a canonical decimal
//     form 3      bit 49: 1 = UUID column, 0 = byte heap; bits 32-48: 17 bits of the key's
//                 hash (rejects most mismatches without touching the store); bits 0-31: the
//                 entry in that store. A UUID (36 bytes, canonical lower-case 8-4-4-4-12 hex)
//                 is kept as its 16 bytes; anything else as type, length and bytes in the heap,
//                 compared byte for byte.
//
// No fingerprint ever stands for a key: a match is a comparison of whole forms (forms 1 and 2),
// of 16 bytes (UUIDs) or of every byte (the heap).
@safe
struct IdentityIndex {
    private var slots: [UInt64] = []
    private var mask = 0
    private var used = 0
    private var uuids: [(UInt64, UInt64)] = []
    private var heap: [UInt8] = []
    private var heapStarts: [UInt64] = []
    private let seed: UInt64
    /// Whether canonical decimal ids may go to the dense pages (the prototype can turn it off).
    private let usesDensePages: Bool
    /// Dense pages: per type, a directory from `value >> 12` to a page of 4,096 two-bit cells
    /// (defined, reached), 1 KB each, all pages in one array (128 words per page).
    private var directories: [[Int32]] = []
    private var pages: [UInt64] = []
    private var pagesOfType: [Int] = []
    private var keysInPages: [Int] = []
    /// A type some of whose decimal keys went to the table: it gets no more pages, so every key
    /// stays where it was first put (see `denseCell`).
    private var spilled: [Bool] = []
    private var denseKeys = 0
    /// The handle of the key the last `insert` found or added: the key's canonical word without
    /// its flags (form, type and value or store entry), which never changes once the key is in.
    private(set) var lastHandle: UInt64 = 0

    static let defined: UInt64 = 1 << 61
    static let reached: UInt64 = 1 << 60
    static let flags: UInt64 = defined | reached

    init(expectedKeys: Int = 1 << 14, usesDensePages: Bool = true) {
        self.usesDensePages = usesDensePages
        var generator = SystemRandomNumberGenerator()
        seed = generator.next()
        var capacity = 16
        while capacity * 3 < expectedKeys * 4 { capacity <<= 1 }
        slots = Array(repeating: 0, count: capacity)
        mask = capacity - 1
    }

    /// Keys held, and bytes used by the table and the stores.
    var keyCount: Int { used + denseKeys }
    var footprint: Int { tableBytes + storeBytes + denseBytes }
    var tableBytes: Int { slots.count * 8 }
    var denseBytes: Int { pages.count * 8 + directories.reduce(0) { $0 + $1.count * 4 } }
    var denseKeyCount: Int { denseKeys }
    var storeBytes: Int { uuids.count * 16 + heap.count + heapStarts.count * 8 }

    @inline(__always)
    static func mix(_ x: UInt64, _ seed: UInt64) -> UInt64 {
        let p = (x ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        let q = (p.high ^ p.low).multipliedFullWidth(by: 0xD6E8_FEB8_6659_FD93)
        return q.high ^ q.low
    }

    /// The inline form of (type, id) (forms 1 and 2), or 0.
    @inline(__always)
    static func inlineForm(type: UInt32, id: UnsafeRawBufferPointer) -> UInt64 {
        guard type < 1024 else { return 0 }
        let n = id.count
        let typeBits = UInt64(type) << 50
        if n >= 1 && n <= 15 {
            var value: UInt64 = 0
            var decimal = unsafe n == 1 || id[0] != UInt8(ascii: "0")
            var i = 0
            while decimal && i < n {
                let d = unsafe id[i] &- UInt8(ascii: "0")
                if d > 9 { decimal = false } else { value = value &* 10 &+ UInt64(d) }
                i += 1
            }
            if decimal { return 1 << 62 | typeBits | value }
        }
        if n <= 5 {
            var word: UInt64 = 2 << 62 | typeBits | UInt64(n) << 40
            for i in 0..<n { word |= UInt64(unsafe id[i]) << (8 * UInt64(i)) }
            return word
        }
        return 0
    }

    /// The 16 bytes of a canonical lower-case UUID, or nil: eight characters at a time (SWAR).
    /// Only equality matters, so the nibbles may be packed in any fixed order.
    @inline(__always)
    static func uuid(_ id: UnsafeRawBufferPointer) -> (UInt64, UInt64)? {
        // SAFETY: `id` holds 36 bytes (checked first); every load below reads inside bytes 0-35.
        guard id.count == 36, let p = id.baseAddress else { return nil }
        guard unsafe p.load(fromByteOffset: 8, as: UInt8.self) == UInt8(ascii: "-"),
            unsafe p.load(fromByteOffset: 13, as: UInt8.self) == UInt8(ascii: "-"),
            unsafe p.load(fromByteOffset: 18, as: UInt8.self) == UInt8(ascii: "-"),
            unsafe p.load(fromByteOffset: 23, as: UInt8.self) == UInt8(ascii: "-")
        else { return nil }
        let a = unsafe p.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        let b =
            unsafe UInt64(p.loadUnaligned(fromByteOffset: 9, as: UInt32.self))
            | UInt64(p.loadUnaligned(fromByteOffset: 14, as: UInt32.self)) << 32
        let c =
            unsafe UInt64(p.loadUnaligned(fromByteOffset: 19, as: UInt32.self))
            | UInt64(p.loadUnaligned(fromByteOffset: 24, as: UInt32.self)) << 32
        let d = unsafe p.loadUnaligned(fromByteOffset: 28, as: UInt64.self)
        guard let x = hex8(a), let y = hex8(b), let z = hex8(c), let w = hex8(d) else { return nil }
        return (x << 32 | y, z << 32 | w)
    }

    /// Eight lower-case hex digits (one per byte of `word`) as 32 bits, or nil.
    @inline(__always)
    static func hex8(_ word: UInt64) -> UInt64? {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        guard word & high == 0 else { return nil }
        // Per byte, the high bit says "at least" each bound (no byte is above 0x7F, so no carry).
        let ge0 = word &+ ones &* (0x80 - 0x30)
        let gt9 = word &+ ones &* (0x80 - 0x3A)
        let geA = word &+ ones &* (0x80 - 0x61)
        let gtF = word &+ ones &* (0x80 - 0x67)
        let digit = ge0 & ~gt9 & high
        let letter = geA & ~gtF & high
        guard digit | letter == high else { return nil }
        var v = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (letter >> 7) &* 9
        v = ((v << 4) | (v >> 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v >> 8)) & 0x0000_FFFF_0000_FFFF
        return (v | (v >> 16)) & 0xFFFF_FFFF
    }

    /// A key in its canonical form, hashed: what `insert(_:type:id:setting:)` needs, computed
    /// ahead so that the slots of a whole batch can be prefetched first.
    struct EncodedKey {
        var hash: UInt64
        /// Form 1 or 2 word; or the UUID's first half.
        var a: UInt64
        /// The UUID's second half.
        var b: UInt64
        /// 1 inline, 2 UUID, 3 heap.
        var kind: UInt8
    }

    @inline(__always)
    func encode(type: UInt32, id: UnsafeRawBufferPointer) -> EncodedKey {
        let form = unsafe Self.inlineForm(type: type, id: id)
        if form != 0 { return EncodedKey(hash: Self.mix(form, seed), a: form, b: 0, kind: 1) }
        if type < 1024, let u = unsafe Self.uuid(id) {
            return EncodedKey(hash: Self.mix(u.0 ^ Self.mix(u.1 ^ UInt64(type), seed), seed), a: u.0, b: u.1, kind: 2)
        }
        return unsafe EncodedKey(
            hash: ResourceIndex.foldHash(type: type, id: id, key0: seed, key1: ~seed), a: 0, b: 0, kind: 3)
    }

    @inline(__always)
    func prefetch(_ key: EncodedKey) {
        let slot = Int(truncatingIfNeeded: key.hash) & mask
        unsafe slots.withUnsafeBufferPointer { buffer in
            // SAFETY: `slot` is masked to the table, which is never empty.
            if let base = buffer.baseAddress { unsafe jsonapi_prefetch(base + slot) }
        }
    }

    /// `insert(type:id:setting:)` for a key encoded by `encode`; `id` is read only for a heap key.
    @inline(__always)
    mutating func insert(_ key: EncodedKey, type: UInt32, id: UnsafeRawBufferPointer, setting flag: UInt64) -> UInt64 {
        switch key.kind {
        case 1: return insertInline(key.a, hash: key.hash, setting: flag)
        case 2: return insertUUID((key.a, key.b), type: type, hash: key.hash, setting: flag)
        default: return unsafe insertHeap(type: type, id: id, hash: key.hash, setting: flag)
        }
    }

    /// The probe hash of (type, unescaped id): what `insert` starts from.
    @inline(__always)
    func probeHash(type: UInt32, id: UnsafeRawBufferPointer) -> UInt64 {
        let form = unsafe Self.inlineForm(type: type, id: id)
        if form != 0 { return Self.mix(form, seed) }
        if type < 1024, let u = unsafe Self.uuid(id) { return Self.mix(u.0 ^ Self.mix(u.1 ^ UInt64(type), seed), seed) }
        return unsafe ResourceIndex.foldHash(type: type, id: id, key0: seed, key1: ~seed)
    }

    /// Asks the processor to start loading the slot (type, id) probes first. The stream calls it
    /// for a whole batch of keys before inserting them, so their cache misses overlap.
    @inline(__always)
    func prefetch(type: UInt32, id: UnsafeRawBufferPointer) {
        let slot = Int(truncatingIfNeeded: unsafe probeHash(type: type, id: id)) & mask
        unsafe slots.withUnsafeBufferPointer { buffer in
            // SAFETY: `slot` is masked to the table, which is never empty.
            if let base = buffer.baseAddress { unsafe jsonapi_prefetch(base + slot) }
        }
    }

    /// Finds or adds (type, unescaped id) and sets `flag` on it; returns the flags it had
    /// (0 for a new key).
    @discardableResult
    mutating func insert(type: UInt32, id: UnsafeRawBufferPointer, setting flag: UInt64) -> UInt64 {
        unsafe insert(encode(type: type, id: id), type: type, id: id, setting: flag)
    }

    private mutating func insertUUID(_ u: (UInt64, UInt64), type: UInt32, hash h: UInt64, setting flag: UInt64)
        -> UInt64
    {
        let tag = (h >> 47) & 0x1FFFF
        let head: UInt64 = 3 << 62 | UInt64(type) << 50 | 1 << 49 | tag << 32
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let word = slots[slot]
            if word == 0 {
                lastHandle = head | UInt64(uuids.count)
                slots[slot] = lastHandle | flag
                uuids.append(u)
                return grewAfterInsert()
            }
            if word & ~Self.flags & ~0xFFFF_FFFF == head {
                let other = uuids[Int(word & 0xFFFF_FFFF)]
                if other == u {
                    lastHandle = word & ~Self.flags
                    if word & flag != flag { slots[slot] = word | flag }
                    return word & Self.flags
                }
            }
            slot = (slot &+ 1) & mask
        }
    }

    private mutating func insertHeap(type: UInt32, id: UnsafeRawBufferPointer, hash h: UInt64, setting flag: UInt64)
        -> UInt64
    {
        let tag = (h >> 47) & 0x1FFFF
        let head: UInt64 = 3 << 62 | tag << 32
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let word = slots[slot]
            if word == 0 {
                lastHandle = head | UInt64(heapStarts.count)
                slots[slot] = lastHandle | flag
                heapStarts.append(UInt64(heap.count))
                unsafe withUnsafeBytes(of: type.littleEndian) { unsafe heap.append(contentsOf: $0) }
                unsafe withUnsafeBytes(of: UInt32(id.count).littleEndian) { unsafe heap.append(contentsOf: $0) }
                unsafe heap.append(contentsOf: id)
                return grewAfterInsert()
            }
            if word & ~Self.flags & ~0xFFFF_FFFF == head, unsafe heapEntry(Int(word & 0xFFFF_FFFF), equals: type, id) {
                lastHandle = word & ~Self.flags
                if word & flag != flag { slots[slot] = word | flag }
                return word & Self.flags
            }
            slot = (slot &+ 1) & mask
        }
    }

    private func heapEntry(_ entry: Int, equals type: UInt32, _ id: UnsafeRawBufferPointer) -> Bool {
        let start = Int(heapStarts[entry])
        return unsafe heap.withUnsafeBytes { h in
            // SAFETY: `insertHeap` writes each entry as type (4 bytes), length (4) and the id's
            // bytes, and `start` is an entry's start: the header lies in `heap`, and the id is
            // read only when its stored length equals `id.count`.
            guard unsafe h.loadUnaligned(fromByteOffset: start, as: UInt32.self) == type.littleEndian,
                unsafe h.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self) == UInt32(id.count).littleEndian
            else { return false }
            return unsafe UnsafeRawBufferPointer(rebasing: h[(start + 8)..<(start + 8 + id.count)])
                .elementsEqual(id)
        }
    }

    /// The word index and shift of a decimal key's cell in the dense pages, creating its page when
    /// the type's pages are dense enough; nil when the key belongs in the table.
    ///
    /// A key's place never changes: if its page exists it is there; a page is created only while
    /// the type has never spilled; the first key that can have no page spills the type, and from
    /// then on its keys without a page go to the table, whose ranges therefore never get a page.
    @inline(__always)
    private mutating func denseCell(_ form: UInt64) -> (word: Int, shift: UInt64)? {
        let type = Int((form >> 50) & 0x3FF)
        let value = form & ((1 << 50) - 1)
        guard value < 1 << 28 else { return nil }
        let pageIndex = Int(value >> 12)
        let cell = Int(value & 4095)
        if type < directories.count, pageIndex < directories[type].count {
            let page = directories[type][pageIndex]
            if page >= 0 { return (Int(page) * 128 + cell >> 5, UInt64(cell & 31) * 2) }
        }
        return newDenseCell(type: type, pageIndex: pageIndex, cell: cell)
    }

    @inline(never)
    private mutating func newDenseCell(type: Int, pageIndex: Int, cell: Int) -> (word: Int, shift: UInt64)? {
        while directories.count <= type {
            directories.append([])
            pagesOfType.append(0)
            keysInPages.append(0)
            spilled.append(false)
        }
        // Dense enough: the first four pages freely, then 256 keys a page on average; the
        // directory at most 64 entries per page held.
        let owned = pagesOfType[type]
        guard !spilled[type], owned < 4 || keysInPages[type] >= 256 * owned, pageIndex < 64 * (owned + 1) else {
            spilled[type] = true
            return nil
        }
        if directories[type].count <= pageIndex {
            directories[type].append(contentsOf: repeatElement(-1, count: pageIndex + 1 - directories[type].count))
        }
        let page = pages.count / 128
        pages.append(contentsOf: repeatElement(0, count: 128))
        directories[type][pageIndex] = Int32(page)
        pagesOfType[type] += 1
        return (page * 128 + cell >> 5, UInt64(cell & 31) * 2)
    }

    @inline(__always)
    private mutating func insertInline(_ form: UInt64, hash: UInt64, setting flag: UInt64) -> UInt64 {
        lastHandle = form
        if usesDensePages && form >> 62 == 1, let (word, shift) = denseCell(form) {
            // Cell bit 0 is `defined`, bit 1 `reached`.
            let bits = (flag >> 61) & 1 | ((flag >> 60) & 1) << 1
            let old = pages[word] >> shift & 3
            if old == 0 {
                denseKeys += 1
                keysInPages[Int((form >> 50) & 0x3FF)] += 1
            }
            if old | bits != old { pages[word] |= bits << shift }
            return (old & 1) << 61 | (old >> 1) << 60
        }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let word = slots[slot]
            if word == 0 {
                slots[slot] = form | flag
                return grewAfterInsert()
            }
            if word & ~Self.flags == form {
                if word & flag != flag { slots[slot] = word | flag }
                return word & Self.flags
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// Counts a new key and doubles the table past three quarters full; returns 0 (a new key
    /// had no flags).
    private mutating func grewAfterInsert() -> UInt64 {
        used += 1
        if used * 4 > slots.count * 3 { rehash() }
        return 0
    }

    private mutating func rehash() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for word in old where word != 0 {
            var slot = Int(truncatingIfNeeded: hashOfStored(word)) & mask
            while slots[slot] != 0 { slot = (slot &+ 1) & mask }
            slots[slot] = word
        }
    }

    /// The probe hash of a stored slot word (the same as `insert` computed for its key).
    private func hashOfStored(_ word: UInt64) -> UInt64 {
        let form = word & ~Self.flags
        guard form >> 62 == 3 else { return Self.mix(form, seed) }
        let entry = Int(word & 0xFFFF_FFFF)
        if word & (1 << 49) != 0 {
            let u = uuids[entry]
            let type = (form >> 50) & 0x3FF
            return Self.mix(u.0 ^ Self.mix(u.1 ^ type, seed), seed)
        }
        let start = Int(heapStarts[entry])
        return unsafe heap.withUnsafeBytes { h in
            // SAFETY: `start` is an entry's start, written by `insertHeap` as type (4 bytes),
            // length (4) and that many bytes of id, all inside `heap`.
            let type = unsafe h.loadUnaligned(fromByteOffset: start, as: UInt32.self)
            let count = Int(unsafe h.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self))
            return unsafe ResourceIndex.foldHash(
                type: UInt32(littleEndian: type),
                id: UnsafeRawBufferPointer(rebasing: h[(start + 8)..<(start + 8 + count)]),
                key0: seed, key1: ~seed)
        }
    }

    /// Sets `flag` on the key with this handle (from ``lastHandle``; the key is in the index) and
    /// returns the flags it had.
    @discardableResult
    mutating func set(_ flag: UInt64, onHandle handle: UInt64) -> UInt64 {
        if handle >> 62 != 3 { return insertInline(handle, hash: Self.mix(handle, seed), setting: flag) }
        var slot = Int(truncatingIfNeeded: hashOfStored(handle)) & mask
        while true {
            let word = slots[slot]
            if word & ~Self.flags == handle {
                if word & flag != flag { slots[slot] = word | flag }
                return word & Self.flags
            }
            // Unreached for a handle the index gave out; an empty slot ends the probe either way.
            if word == 0 { return 0 }
            slot = (slot &+ 1) & mask
        }
    }

    /// Keys defined by a resource but never reached (included resources without full linkage).
    var unreachedDefinedCount: Int {
        var count = slots.reduce(0) { $0 + ($1 & Self.flags == Self.defined ? 1 : 0) }
        for word in pages {
            var w = word
            while w != 0 {
                if w & 3 == 1 { count += 1 }
                w >>= 2
            }
        }
        return count
    }
}
