import CJSONAPISupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// The growing copy of a chunked document's bytes.
///
/// Small buffers come from `malloc` and grow through `realloc`, which for large blocks moves
/// page mappings instead of copying. On Linux, a buffer past 16 MB is an anonymous mapping of its
/// own, aligned to 2 MB and advised for transparent huge pages, and grows by moving its
/// pages into a larger aligned mapping (`mremap`): a 100 MB document fed in 64 KiB chunks is
/// then written once into memory faulted in 2 MB at a time, instead of 4 KiB at a time (page
/// faults are what chunked parsing pays on top of whole-buffer parsing, besides the copy).
/// When parsing finishes the buffer becomes the document's input; it is never written again,
/// and `deinit` frees it, or with ``ParsingOptions/recyclesMemory`` leaves a mapping on
/// ``ArenaShelf`` for the next chunked document of about its size, which then writes into pages
/// already faulted in.
///
/// `@safe`: the memory is private, allocated, grown and freed here only, and every append first
/// grows the buffer to hold it.
@safe
final class InputBuffer: @unchecked Sendable {
    // SAFETY: mutated only by the single `DocumentParser` that owns it, before the document it
    // becomes part of is created; from then on it is read-only, so sharing it is sound.
    private var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0
    /// Whether `base` is a mapping of `capacity` bytes (Linux, large buffers) rather than a
    /// `malloc` block.
    private var mapped = false
    /// Whether a mapping comes from, and goes back to, ``ArenaShelf`` (``ParsingOptions/recyclesMemory``).
    private let recycles: Bool

    /// No bytes: what a builder holds as its input before the driver binds the real input.
    static var noBytes: UnsafeRawBufferPointer {
        // SAFETY: an empty buffer has no bytes to read or to outlive.
        unsafe UnsafeRawBufferPointer(start: nil, count: 0)
    }

    init(reserving capacity: Int, recycles: Bool = false) {
        self.recycles = recycles
        if capacity > 0 && grow(to: capacity) && !mapped {
            // A `malloc` block sized up front (the caller knew the length) is faulted in as huge
            // pages where Linux allows it (a mapping is advised when it is made).
            unsafe JSONAPI.adviseHugePages(base, byteCount: capacity)
        }
    }

    deinit {
        #if os(Linux)
            if mapped {
                let mine = unsafe ArenaShelf.Mapping(address: Int(bitPattern: base), capacity: capacity)
                if recycles {
                    // Its pages stay mapped for the next chunked document of about this size:
                    // a fresh mapping is faulted in and zeroed 2 MB at a time (5 ms at 100 MB).
                    if let displaced = ArenaShelf.active.put(mine) { Self.unmap(displaced) }
                } else {
                    Self.unmap(mine)
                }
                return
            }
        #endif
        unsafe free(base)
    }

    /// Unmaps a mapping made by ``InputBuffer`` (Linux; elsewhere there are none).
    static func unmap(_ mapping: ArenaShelf.Mapping) {
        #if os(Linux)
            unsafe munmap(UnsafeMutableRawPointer(bitPattern: mapping.address), mapping.capacity)
        #endif
    }

    /// Every byte appended so far.
    // SAFETY: `count` bytes at `base` have been appended (`count` is zero while `base` is nil).
    var bytes: UnsafeRawBufferPointer { unsafe UnsafeRawBufferPointer(start: base, count: count) }

    /// Appends `chunk`; false when memory could not be had (nothing is appended then).
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard unsafe !chunk.isEmpty else { return true }
        if capacity - count < chunk.count {
            let wanted = max(count + chunk.count, capacity * 2, 1 << 16)
            guard grow(to: wanted, minimum: count + chunk.count) else { return false }
        }
        guard let base = unsafe base, let source = chunk.baseAddress else { return false }
        // SAFETY: capacity - count >= chunk.count was ensured above.
        unsafe (base + count).copyMemory(from: source, byteCount: chunk.count)
        count += chunk.count
        return true
    }

    /// Drops the first `n` bytes (at most `count`), moving the rest to the front: how the
    /// resource stream's window releases what it has handed out.
    func removeFirst(_ n: Int) {
        let n = max(0, min(n, count))
        guard n > 0, let base = unsafe base else { return }
        // SAFETY: `n..<count` and `0..<count - n` lie in the `count` written bytes.
        if n < count { unsafe memmove(base, base + n, count - n) }
        count -= n
    }

    /// Reads up to `limit` bytes from `descriptor` onto the end, growing first if needed; returns
    /// the bytes read (0 at end of file), or -1 with `errno` set.
    func append(readingFrom descriptor: Int32, limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        if capacity - count < limit {
            guard grow(to: max(count + limit, capacity * 2), minimum: count + limit) else { return -1 }
        }
        guard let base = unsafe base else { return -1 }
        // SAFETY: `capacity - count >= limit` bytes are free after the written ones.
        let got = unsafe read(descriptor, base + count, limit)
        if got > 0 { count += got }
        return got
    }

    /// Room after the written bytes.
    var freeCapacity: Int { capacity - count }

    /// Makes room for `n` more bytes, doubling at least; false when memory could not be had.
    func reserveFree(_ n: Int) -> Bool {
        guard capacity - count < n else { return true }
        return grow(to: max(count + n, capacity * 2), minimum: count + n)
    }

    /// A separate buffer with the same bytes, for a copied parser (copy on write).
    func copy() -> InputBuffer? {
        let other = InputBuffer(reserving: max(capacity, 1), recycles: recycles)
        guard other.capacity > 0, unsafe other.append(bytes) else { return nil }
        return other
    }

    /// Grows to `newCapacity` bytes, or (taking a recycled mapping) at least `minimum`.
    private func grow(to newCapacity: Int, minimum: Int? = nil) -> Bool {
        #if os(Linux)
            // A buffer becomes a mapping once it already holds 16 MB (so documents up to 16 MB
            // grow as before), or at once when its first size is that large.
            if unsafe mapped || capacity >= Self.mappingThreshold
                || (base == nil && newCapacity >= Self.mappingThreshold)
            {
                if growMapped(to: newCapacity, minimum: minimum ?? newCapacity) { return true }
                if mapped { return false }
            }
        #endif
        guard let grown = unsafe realloc(base, newCapacity) else { return false }
        unsafe base = grown
        capacity = newCapacity
        return true
    }

    #if os(Linux)
        private static let hugePage = 2 << 20
        /// The size from which a buffer is a mapping of its own.
        static let mappingThreshold = 16 << 20

        /// Grows into a fresh aligned mapping: a mapped buffer's pages move there without being
        /// copied; a `malloc` block is copied once and freed. False (nothing changed) when the
        /// system has no memory to give.
        private func growMapped(to wanted: Int, minimum: Int) -> Bool {
            var size = (wanted &+ Self.hugePage &- 1) & ~(Self.hugePage &- 1)
            guard size >= wanted else { return false }
            let fresh: UnsafeMutableRawPointer
            if recycles, let shelved = ArenaShelf.active.takeMapping(minimum: minimum, maximum: size &* 2),
                let address = unsafe UnsafeMutableRawPointer(bitPattern: shelved.address)
            {
                // A released document's mapping, its pages already faulted in, with room for what
                // is needed now (a growing buffer would ask for twice that): an unsized parser
                // takes one the size of the document it is reading when it passes 16 MB. Moving
                // this buffer's pages over its start replaces that many of them; the rest stay.
                unsafe fresh = address
                size = shelved.capacity
            } else if let mapped = unsafe Self.mapAligned(size) {
                unsafe fresh = mapped
            } else {
                return false
            }
            if let base = unsafe base {
                if mapped {
                    // `capacity` is a whole number of huge pages, so the pages move as they are.
                    // SAFETY: `fresh` holds at least `capacity >= count` bytes, and `base` holds `count` written ones.
                    if unsafe jsonapi_move_mapping(base, capacity, fresh) == nil {
                        unsafe fresh.copyMemory(from: base, byteCount: count)
                        unsafe munmap(base, capacity)
                    }
                } else {
                    unsafe fresh.copyMemory(from: base, byteCount: count)
                    unsafe free(base)
                }
            }
            unsafe base = fresh
            capacity = size
            mapped = true
            return true
        }

        /// An anonymous read-write mapping of `size` bytes (a multiple of 2 MB) that starts on a
        /// 2 MB boundary, advised for huge pages; nil when `mmap` fails.
        private static func mapAligned(_ size: Int) -> UnsafeMutableRawPointer? {
            let span = size &+ hugePage
            guard let raw = unsafe mmap(nil, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                Int(bitPattern: raw) != -1
            else { return nil }
            let start = Int(bitPattern: raw)
            let aligned = (start &+ hugePage &- 1) & ~(hugePage &- 1)
            let head = aligned &- start
            if head > 0 { unsafe munmap(raw, head) }
            let tail = span &- head &- size
            if tail > 0, let end = unsafe UnsafeMutableRawPointer(bitPattern: aligned &+ size) {
                unsafe munmap(end, tail)
            }
            guard let base = unsafe UnsafeMutableRawPointer(bitPattern: aligned) else { return nil }
            _ = unsafe madvise(base, size, MADV_HUGEPAGE)
            return unsafe base
        }
    #endif
}

/// Asks Linux to back a large block (2 MB or more) with transparent huge pages, where the
/// system leaves that to `madvise`: it is then faulted in 2 MB at a time instead of 4 KiB.
/// Elsewhere, and for small blocks, does nothing. Only advice: if the kernel says no, nothing
/// changes.
func adviseHugePages(_ base: UnsafeMutableRawPointer?, byteCount: Int) {
    #if os(Linux)
        let hugePage = 2 << 20
        guard byteCount >= hugePage, let base = unsafe base else { return }
        let page = 4096
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + byteCount) & ~(page - 1)
        guard end > start, let aligned = unsafe UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = unsafe madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
}
