#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// The growing copy of a chunked document's bytes, in memory from `malloc`.
///
/// Growth goes through `realloc`, which for large blocks moves page mappings instead of copying
/// (`mremap` on Linux), so a 100 MB document fed in 64 KiB chunks is copied once, not once per
/// doubling. When parsing finishes the buffer becomes the document's input; it is never written
/// again, and `deinit` frees it.
final class InputBuffer: @unchecked Sendable {
    // SAFETY: mutated only by the single `DocumentParser` that owns it, before the document it
    // becomes part of is created; from then on it is read-only, so sharing it is sound.
    private var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0

    init(reserving capacity: Int) {
        if capacity > 0 && grow(to: capacity) {
            // A buffer sized up front (the caller knew the length) is faulted in as huge pages
            // where Linux allows it. Not done when growing: measured, advising the regions
            // `realloc` moves with `mremap` made page faults more frequent, not less.
            JSONAPI.adviseHugePages(base, byteCount: capacity)
        }
    }

    deinit {
        free(base)
    }

    /// Every byte appended so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Appends `chunk`; false when memory could not be had (nothing is appended then).
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard !chunk.isEmpty else { return true }
        if capacity - count < chunk.count {
            let wanted = max(count + chunk.count, capacity * 2, 1 << 16)
            guard grow(to: wanted) else { return false }
        }
        guard let base, let source = chunk.baseAddress else { return false }
        // SAFETY: capacity - count >= chunk.count was ensured above.
        (base + count).copyMemory(from: source, byteCount: chunk.count)
        count += chunk.count
        return true
    }

    /// A separate buffer with the same bytes, for a copied parser (copy on write).
    func copy() -> InputBuffer? {
        let other = InputBuffer(reserving: max(capacity, 1))
        guard other.capacity > 0, other.append(bytes) else { return nil }
        return other
    }

    private func grow(to newCapacity: Int) -> Bool {
        guard let grown = realloc(base, newCapacity) else { return false }
        base = grown
        capacity = newCapacity
        return true
    }
}

/// Asks Linux to back a large block (8 MB or more) with transparent huge pages, where the
/// system leaves that to `madvise`: it is then faulted in 2 MB at a time instead of 4 KiB.
/// Elsewhere, and for small blocks, does nothing. Only advice: if the kernel says no, nothing
/// changes.
func adviseHugePages(_ base: UnsafeMutableRawPointer?, byteCount: Int) {
    #if os(Linux)
        let hugePage = 2 << 20
        guard byteCount >= 4 * hugePage, let base else { return }
        let page = 4096
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + byteCount) & ~(page - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
}
