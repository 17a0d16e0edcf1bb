/// A stack of trivial values (no references) for the decoder's frames: pushing is a store and
/// an increment, popping a decrement, with none of `Array`'s uniqueness checks or
/// `removeLast(_:)`'s range replacement.
///
/// Owned by one ``ResourceDecoder``, which frees it in `deinit`; never copied (a forked
/// decoder gets its own with ``copy()``).
struct TrivialStack<Element> {
    // SAFETY: `base` points at `capacity` elements, the first `count` initialized; `Element`
    // is trivial (checked in `init`), so elements need no deinitialization and memory moves
    // with plain copies.
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 16) {
        precondition(_isPOD(Element.self), "TrivialStack holds trivial values only")
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the stack must not be used afterwards.
    func deallocate() { base.deallocate() }

    /// A stack with the same elements in storage of its own.
    func copy() -> TrivialStack {
        var result = TrivialStack(capacity: capacity)
        result.base.update(from: base, count: count)
        result.count = count
        return result
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    var last: Element? { count > 0 ? base[count &- 1] : nil }

    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count)
        return base[index]
    }

    @inline(__always)
    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(__always)
    mutating func pop() {
        precondition(count > 0)
        count &-= 1
    }

    /// Drops elements down to `newCount` (no-op when there are fewer).
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        if newCount >= 0 && newCount < count { count = newCount }
    }

    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity &* 2
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        fresh.update(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }
}
