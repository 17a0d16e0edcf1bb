/// The growable byte buffer ``StreamingEncoder`` writes member values to: compact JSON text,
/// formatted exactly as ``JSONWriter`` formats it.
///
/// A plain pointer, capacity and count, so that a short string costs one capacity check and
/// one copy. (`Array.append(contentsOf:)` does uniqueness and capacity bookkeeping on every
/// call, and the stream appends at least one short run per member value it writes.)
/// Noncopyable: one owner, which frees the memory when it goes.
///
/// SAFETY: every write first makes room with ``reserve(_:)``, so writes stay inside
/// `base..<base + capacity`; bytes at `count...` are never read; `base` is freed only by
/// `deinit` (or replaced by `grow`, which copies and frees the old block).
@safe
struct StreamBuffer: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// The bytes written.
    var count = 0
    /// Escape `/` as `\/` (``JSONWritingOptions/escapesSlashes``).
    let escapeSlashes: Bool

    init(capacity: Int, escapeSlashes: Bool) {
        self.capacity = max(capacity, 64)
        // SAFETY: `capacity` bytes, owned by this buffer and freed in `deinit`.
        unsafe base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        self.escapeSlashes = escapeSlashes
    }

    // SAFETY: the buffer is noncopyable, so this is the only owner.
    deinit {
        unsafe base.deallocate()
    }

    /// The bytes written so far, valid until the next write.
    // SAFETY: `count <= capacity` bytes at `base` are written.
    var bytes: UnsafeRawBufferPointer { unsafe UnsafeRawBufferPointer(start: base, count: count) }

    /// Calls `body` with ``bytes``; `body` must not write to this buffer.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        unsafe try body(bytes)
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if capacity &- count < extra { grow(extra) }
    }

    @inline(never)
    private mutating func grow(_ extra: Int) {
        let newCapacity = max(capacity &* 2, count &+ extra)
        // SAFETY: `newCapacity >= count`; the `count` written bytes move to the new block and the old one is
        // freed once.
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        unsafe newBase.initialize(from: base, count: count)
        unsafe base.deallocate()
        unsafe base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func appendByte(_ byte: UInt8) {
        reserve(1)
        unsafe base[count] = byte
        count &+= 1
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, unsafe !bytes.isEmpty else { return }
        reserve(bytes.count)
        // SAFETY: `reserve` made room for `bytes.count` bytes at `count`.
        unsafe UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count &+= bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        unsafe bytes.withUnsafeBytes { unsafe append($0) }
    }

    /// Appends the bytes at `range` of `bytes` (another buffer's).
    mutating func append(_ range: Range<Int>, of bytes: UnsafeRawBufferPointer) {
        // The range comes from the same encoder's bookkeeping; clamped all the same.
        let lower = min(max(range.lowerBound, 0), bytes.count)
        let upper = min(max(range.upperBound, lower), bytes.count)
        // SAFETY: `lower...upper` lies within `bytes`, which the caller keeps alive for the call.
        unsafe append(UnsafeRawBufferPointer(rebasing: bytes[lower..<upper]))
    }

    /// Appends `"name":` for a member name that needs no escape (a literal of the format).
    @inline(__always)
    mutating func appendLiteralKey(_ name: StaticString) {
        // Byte by byte into one reservation: a literal is a few bytes, less than a copy's call.
        name.withUTF8Buffer { utf8 in
            let length = utf8.count
            reserve(length &+ 3)
            // SAFETY: `reserve` made room for the quotes, the `length` bytes and the colon at `count`.
            unsafe base[count] = UInt8(ascii: "\"")
            var index = 0
            while index < length {
                unsafe base[count &+ 1 &+ index] = utf8[index]
                index &+= 1
            }
            unsafe base[count &+ 1 &+ length] = UInt8(ascii: "\"")
            unsafe base[count &+ 2 &+ length] = UInt8(ascii: ":")
            count &+= length &+ 3
        }
    }

    /// Appends the identity members of a resource object or a resource identifier object:
    /// `"type":…`, then `,"id":…` and `,"lid":…` when given.
    mutating func appendIdentity(type: String, id: String?, lid: String?) {
        appendLiteralKey("type")
        appendString(type)
        if let id {
            appendByte(UInt8(ascii: ","))
            appendLiteralKey("id")
            appendString(id)
        }
        if let lid {
            appendByte(UInt8(ascii: ","))
            appendLiteralKey("lid")
            appendString(lid)
        }
    }

    /// Appends up to 8 ASCII bytes packed little-endian in `word`.
    @inline(__always)
    private mutating func appendPacked(_ word: UInt64, count length: Int) {
        reserve(8)
        // SAFETY: `reserve(8)` made room for the whole word at `count`.
        unsafe UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count &+= length
    }

    mutating func appendNull() { appendPacked(0x6c6c_756e, count: 4) }  // null

    mutating func appendBool(_ value: Bool) {
        if value {
            appendPacked(0x6575_7274, count: 4)  // true
        } else {
            appendPacked(0x65_736c_6166, count: 5)  // false
        }
    }

    // MARK: Strings

    /// Appends `"name":`.
    @inline(__always)
    mutating func appendKey(_ name: String) {
        appendQuoted(name)
        appendByte(UInt8(ascii: ":"))
    }

    /// Appends a quoted, escaped string.
    @inline(__always)
    mutating func appendString(_ value: String) {
        appendQuoted(value)
    }

    private mutating func appendQuoted(_ value: String) {
        let done: Void? = unsafe value.utf8.withContiguousStorageIfAvailable { utf8 in
            unsafe appendQuoted(UnsafeRawBufferPointer(utf8))
        }
        if done == nil {
            var copy = value
            copy.withUTF8 { unsafe appendQuoted(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Copies `"` + `utf8` + `"` in place, then checks the copy sixteen bytes at a time (a block
    /// of spaces, which never need an escape, pads the last); only from the first byte that
    /// needs an escape on is the rest rewritten, escaped, from the source.
    private mutating func appendQuoted(_ utf8: UnsafeRawBufferPointer) {
        let length = utf8.count
        // Room for the quotes and for a whole block past the end of the copy.
        reserve(length &+ 18)
        let start = count
        // SAFETY: `reserve` made room for `length + 18` bytes at `start`: the quote, the copy of `length` bytes
        // and the padding block of 16 at `start + 1 + length`; every block read lies in that initialized span.
        unsafe base[start] = UInt8(ascii: "\"")
        let contents = unsafe UnsafeMutableRawPointer(base + (start &+ 1))
        unsafe (contents + length).storeBytes(of: Self.spaces, as: SIMD16<UInt8>.self)
        if let source = utf8.baseAddress { unsafe contents.copyMemory(from: source, byteCount: length) }
        var offset = 0
        while offset < length {
            let escapes = escapeLanes(unsafe contents.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self))
            if !escapes.isEmpty {
                // The padding never needs an escape, so the hit is a byte of the string.
                let hit = offset &+ escapes.first
                count = start &+ 1 &+ hit
                unsafe appendEscaped(utf8, from: hit)
                appendByte(UInt8(ascii: "\""))
                return
            }
            offset &+= 16
        }
        unsafe base[start &+ 1 &+ length] = UInt8(ascii: "\"")
        count = start &+ length &+ 2
    }

    /// Appends `utf8[first...]` with escapes, sixteen bytes at a time: each block is stored as
    /// read, and a byte that needs an escape ends the plain bytes before it.
    private mutating func appendEscaped(_ utf8: UnsafeRawBufferPointer, from first: Int) {
        guard let source = utf8.baseAddress else { return }
        let length = utf8.count
        var index = first
        while index < length {
            // A block, and the longest escape after the bytes kept of it.
            reserve(24)
            // SAFETY: `reserve(24)` made room for the block stored at `count` (and for the escape sequence, which
            // `appendPacked` reserves again); the source block is read only when `index + 16 <= length`, and a
            // shorter tail is first copied over a block of spaces at `count`, inside the reserved room.
            let out = unsafe UnsafeMutableRawPointer(base + count)
            let available = length &- index
            let block: SIMD16<UInt8>
            if available >= 16 {
                block = unsafe source.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                unsafe out.storeBytes(of: block, as: SIMD16<UInt8>.self)
            } else {
                unsafe out.storeBytes(of: Self.spaces, as: SIMD16<UInt8>.self)
                unsafe out.copyMemory(from: source + index, byteCount: available)
                block = unsafe out.loadUnaligned(as: SIMD16<UInt8>.self)
            }
            let escapes = escapeLanes(block)
            if escapes.isEmpty {
                let step = min(available, 16)
                count &+= step
                index &+= step
                continue
            }
            let hit = escapes.first
            count &+= hit
            // SAFETY: `index + hit < length`: the padding never needs an escape.
            let escape = unsafe JSONWriter.escapeSequence(source.load(fromByteOffset: index &+ hit, as: UInt8.self))
            appendPacked(escape.word, count: escape.count)
            index &+= hit &+ 1
        }
    }

    private static let spaces = SIMD16<UInt8>(repeating: UInt8(ascii: " "))

    /// The lanes of `block` that JSON requires escaped in a string (below 0x20, a quote, a
    /// backslash: the bytes that end a plain run in the scanner too), and `/` when asked: bit k for lane k.
    @inline(__always)
    private func escapeLanes(_ block: SIMD16<UInt8>) -> LaneSet {
        var lanes = JSONScanner.stopLanes(block)
        if escapeSlashes { lanes = lanes .| (block .== SIMD16<UInt8>(repeating: UInt8(ascii: "/"))) }
        return LaneSet(lanes)
    }

    // MARK: Numbers

    mutating func appendInteger(_ value: Int64) {
        appendDigits(value.magnitude, negative: value < 0)
    }

    mutating func appendInteger(_ value: UInt64) {
        appendDigits(value, negative: false)
    }

    /// Formats as ``JSONWriter`` does: two digits per step, right to left.
    private mutating func appendDigits(_ magnitude: UInt64, negative: Bool) {
        // 20 digits and a sign at most.
        reserve(21)
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits &+= 1
        }
        let end = count &+ digits &+ (negative ? 1 : 0)
        _ = unsafe JSONWriter.formatDigits(magnitude, negative: negative, endingAt: end, in: base)
        count = end
    }

    /// Appends a finite `Double` as ``JSONWriter/number(_:)-(Double)`` writes it.
    mutating func appendFinite(_ value: Double) {
        reserve(ShortestDouble.maximumBytes)
        // SAFETY: `reserve` made room for `maximumBytes` at `count`, the most the text takes.
        count &+= unsafe ShortestDouble.write(value, to: base + count)
    }

    /// Appends the description of a finite `Double` or `Float`, already JSON number text.
    mutating func appendDescription(_ text: String) {
        var text = text
        text.withUTF8 { unsafe append(UnsafeRawBufferPointer($0)) }
    }
}
