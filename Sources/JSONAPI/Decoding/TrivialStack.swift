/// A stack of trivial values (no references) for the decoder's frames and the member table's
/// entries: pushing is a store and an increment, popping a decrement, with none of `Array`'s
/// uniqueness checks or `removeLast(_:)`'s range replacement.
///
/// Owned by one ``ResourceDecoder`` (or its ``MemberTable``), which frees it in `deinit`; never
/// copied (a forked decoder gets its own with ``copy()``).
///
/// `@unsafe`: a copy of the struct shares its storage, and ``free()`` frees it for every
/// copy; the owner must free it exactly once and use no copy afterwards.
@unsafe
struct TrivialStack<Element> {
    // SAFETY: `base` points at `capacity` elements, the first `count` initialized; `Element`
    // is trivial (checked in `init`), so elements need no deinitialization and memory moves
    // with plain copies.
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 16) {
        precondition(_isPOD(Element.self), "TrivialStack holds trivial values only")
        unsafe self.capacity = max(1, capacity)
        // SAFETY: `capacity` elements, freed by `free()`.
        unsafe base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the stack must not be used afterwards.
    // SAFETY: the owner calls this once (see the type's documentation).
    func free() { unsafe base.deallocate() }

    /// A stack with the same elements in storage of its own.
    func copy() -> TrivialStack {
        var result = unsafe TrivialStack(capacity: capacity)
        unsafe result.base.update(from: base, count: count)
        unsafe result.count = count
        return unsafe result
    }

    var isEmpty: Bool { unsafe count == 0 }

    @inline(__always)
    var last: Element? { unsafe count > 0 ? base[count &- 1] : nil }

    @inline(__always)
    subscript(index: Int) -> Element {
        unsafeAddress {
            unsafe precondition(UInt(bitPattern: index) < UInt(bitPattern: count))
            // SAFETY: `index < count`: an initialized element.
            return unsafe UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            unsafe precondition(UInt(bitPattern: index) < UInt(bitPattern: count))
            // SAFETY: `index < count`: an initialized, trivial element, written with a plain store.
            return unsafe base + index
        }
    }

    /// The element at `index`, which the caller keeps below ``count`` by its own invariant.
    @inline(__always)
    subscript(unchecked index: Int) -> Element {
        unsafeAddress {
            // SAFETY: the caller's invariant keeps `index` in `0..<count` (an initialized element).
            unsafe UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            // SAFETY: as for reading; the element is trivial, so a plain store replaces it.
            unsafe base + index
        }
    }

    /// Makes room for `extra` more elements, so that that many pushes do not grow the storage.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if unsafe count &+ extra > capacity { unsafe grow(toAtLeast: count &+ extra) }
    }

    /// Drops every element, and swaps storage of more than `limit` elements for a block of
    /// `small` elements.
    mutating func removeAll(shrinkingTo small: Int, ifAbove limit: Int) {
        unsafe count = 0
        guard unsafe capacity > limit else { return }
        // SAFETY: no element is kept, so the old block goes without copying; elements are trivial.
        unsafe base.deallocate()
        unsafe capacity = max(1, small)
        unsafe base = .allocate(capacity: capacity)
    }

    @inline(__always)
    mutating func push(_ element: Element) {
        if unsafe count == capacity { unsafe grow(toAtLeast: count &+ 1) }
        // SAFETY: `grow` made `count < capacity`.
        unsafe (base + count).initialize(to: element)
        unsafe count &+= 1
    }

    @inline(__always)
    mutating func pop() {
        unsafe precondition(count > 0)
        unsafe count &-= 1
    }

    /// Drops elements down to `newCount` (no-op when there are fewer).
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        if unsafe newCount >= 0 && newCount < count { unsafe count = newCount }
    }

    @inline(never)
    private mutating func grow(toAtLeast needed: Int) {
        var newCapacity = unsafe capacity &* 2
        while newCapacity < needed { newCapacity &*= 2 }
        // SAFETY: the first `count` elements are initialized and `newCapacity > count`; elements are trivial,
        // so the old block is freed without deinitialization.
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        unsafe fresh.update(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = fresh
        unsafe capacity = newCapacity
    }
}
