/// Memory a ``ResourceReadable`` value passes through on its way out of the decoder.
///
/// A generic function cannot name the memory its result goes to, and returning a reader's value
/// through a generic result copies it (a retain and a release per member); a temporary
/// allocation of a generic type instantiates metadata on every call. So the value is moved into
/// this buffer and straight out again. It holds a value only between those two moves, with
/// nothing running in between, so one buffer serves every nested decode.
///
/// `@safe`: the buffer is private, grown only while it holds no value, sized and aligned for
/// each type moved through it, and only ``read(_:through:from:)`` puts a value in and takes it
/// out, checking that the two types are the same.
@safe
final class ResultSlot {
    // SAFETY: `pointer` is `capacity` bytes aligned to `alignment`, allocated here and freed in
    // `deinit` or when replaced by a bigger one, which happens only while it holds no value.
    // Only the owning decoder's thread touches these.
    @exclusivity(unchecked) private var pointer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var alignment: Int

    init() {
        unsafe capacity = 256
        unsafe alignment = 16
        // SAFETY: the slot owns the block and frees it in `deinit` or `grow`.
        unsafe pointer = .allocate(byteCount: capacity, alignment: alignment)
    }

    // SAFETY: the slot owns the block and holds no value when it goes.
    deinit {
        unsafe pointer.deallocate()
    }

    /// Reads a `T` from `decoder`'s current node through the reader initializer of `readable`,
    /// which must be `T` itself (a ``ResourceReadable`` type only known as such at run time).
    @inline(__always)
    func read<T>(_ type: T.Type, through readable: any ResourceReadable.Type, from decoder: ResourceDecoder) throws
        -> T
    {
        precondition(ObjectIdentifier(readable) == ObjectIdentifier(T.self), "ResultSlot types differ")
        let memory = unsafe memory(size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        // SAFETY: the memory has room for a `T` and holds no value; `readable` is `T` (checked
        // above), so `read` initializes a `T` there as its last step (or throws having
        // initialized nothing), which `move` takes out at once.
        unsafe try readable.read(from: decoder, into: memory)
        return unsafe memory.assumingMemoryBound(to: T.self).move()
    }

    /// The buffer, with room for `size` bytes at `alignment`.
    @inline(__always)
    private func memory(size: Int, alignment wanted: Int) -> UnsafeMutableRawPointer {
        if unsafe capacity >= size && alignment >= wanted { return unsafe pointer }
        return unsafe grow(size: size, alignment: wanted)
    }

    @inline(never)
    private func grow(size: Int, alignment wanted: Int) -> UnsafeMutableRawPointer {
        // SAFETY: called only while the slot holds no value, so the old block can go; the new one is big
        // enough and aligned.
        unsafe pointer.deallocate()
        unsafe capacity = max(size, capacity &* 2)
        unsafe alignment = max(wanted, alignment)
        unsafe pointer = .allocate(byteCount: capacity, alignment: alignment)
        return unsafe pointer
    }
}

extension ResourceReadable {
    /// Makes a reader over the decoder's current node and initializes `result` (memory for a
    /// `Self`) with the reader initializer's value. Moving the value into place, rather than
    /// returning it through a generic result and `sameType`, spares a copy of every member
    /// (a retain and a release each).
    fileprivate static func read(from decoder: ResourceDecoder, into result: UnsafeMutableRawPointer) throws {
        let reader = try decoder.reader(for: Self.self)
        // SAFETY: `result` has room for a `Self` and holds no value (see `ResultSlot.read`).
        unsafe result.initializeMemory(as: Self.self, to: try Self(from: reader))
    }
}
