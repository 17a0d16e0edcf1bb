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
        if capacity > 0 { _ = grow(to: capacity) }
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
