/// An array of a type the decoder's generic code knows only at run time, written straight into
/// the array's storage.
///
/// In unspecialized generic code every `Array.append` looks the array type's metadata up in the
/// runtime's table (`[E]` is instantiated from `E` on each call), a few hundred instructions per
/// element. Writing the elements through the storage's buffer uses only `E`'s own value
/// witnesses, so an array costs one look-up, when its storage is allocated.
///
/// `@safe`: the buffer is the storage `Array(unsafeUninitializedCapacity:initializingWith:)`
/// lends to ``ArrayFiller/array(capacity:_:)`` for the duration of its closure; the filler never
/// escapes it, writes only below the capacity, and the array takes exactly the elements written
/// (also when filling throws).
@safe
struct ArrayFiller<Element> {
    private let buffer: UnsafeMutableBufferPointer<Element>
    /// How many elements have been written, from the start of the buffer.
    private(set) var count = 0
    /// Set when more elements were offered than the capacity the array was made with.
    private(set) var overflowed = false

    private init(buffer: UnsafeMutableBufferPointer<Element>) {
        unsafe self.buffer = buffer
    }

    /// Appends `element`, or sets ``overflowed`` when the array is full.
    @inline(__always)
    mutating func append(_ element: Element) {
        guard unsafe count < buffer.count else {
            overflowed = true
            return
        }
        // SAFETY: `count` is below the buffer's capacity and the slot is uninitialized: slots
        // are written once, in order, and `count` counts them.
        unsafe buffer.initializeElement(at: count, to: element)
        count &+= 1
    }

    /// An array of at most `capacity` elements, those `fill` appends.
    ///
    /// - Throws: what `fill` throws (the elements appended so far are destroyed).
    static func array(capacity: Int, _ fill: (inout ArrayFiller<Element>) throws -> Void) rethrows -> [Element] {
        try unsafe [Element](unsafeUninitializedCapacity: max(0, capacity)) { buffer, initialized in
            var filler = unsafe ArrayFiller(buffer: buffer)
            defer { initialized = filler.count }
            try fill(&filler)
        }
    }
}
