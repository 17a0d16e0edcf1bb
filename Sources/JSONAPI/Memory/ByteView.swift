/// A read-only view of bytes that something else owns: the one way code outside the owner
/// types reads raw bytes (see "Where raw memory lives" in the Architecture article).
///
/// The view is an `UnsafeRawBufferPointer` with every read checked against its count: bytes are
/// read by index, sliced, compared, loaded as integers or as 16-byte chunks, copied into arrays
/// and strings, and never through an address. Making one is the only unsafe step
/// (``init(unsafeBytes:)``): the maker promises the bytes outlive the view, which the owners
/// keep by making views only inside their own `withBytes`-style scopes (the document's input
/// storage, a parser's input buffer, an array's `withUnsafeBytes`).
///
/// Checks: a read at an index, or a load, outside the view stops the process (a
/// `precondition`), because every caller first bounds its index by ``count`` or reads at offsets
/// the parser recorded inside the same bytes, so a failure is a bug of ours, never bad input.
/// Slicing by a ``ByteRange`` (an offset the arena recorded) clamps instead, so that a wrong range
/// reads wrong bytes at worst, never outside the view.
@safe
struct ByteView {
    // SAFETY: `bytes` stays valid and unchanged for the view's whole life (the promise of
    // `init(unsafeBytes:)`); every read below is bounds-checked against `bytes.count`.
    private let bytes: UnsafeRawBufferPointer

    /// A view of `bytes`, which must stay valid and unchanged while the view (or any view sliced
    /// from it) is used.
    @unsafe @inline(__always)
    init(unsafeBytes bytes: UnsafeRawBufferPointer) {
        unsafe self.bytes = bytes
    }

    /// A view of the `count` bytes at `start`, which must stay valid and unchanged while the view
    /// (or any view sliced from it) is used: for the readers handed an address and a length (the
    /// scanner's chunk).
    @unsafe @inline(__always)
    init(unsafeStart start: UnsafeRawPointer, count: Int) {
        // SAFETY: the maker's promise, as for `init(unsafeBytes:)`.
        unsafe self.bytes = UnsafeRawBufferPointer(start: start, count: count)
    }

    /// No bytes.
    static var empty: ByteView {
        // SAFETY: an empty buffer has no bytes to outlive.
        @inline(__always) get { unsafe ByteView(unsafeBytes: UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    @inline(__always) var count: Int { unsafe bytes.count }
    @inline(__always) var isEmpty: Bool { unsafe bytes.count == 0 }

    /// The byte at `i`; `i` must be in `0..<count`.
    @inline(__always)
    subscript(i: Int) -> UInt8 {
        precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "ByteView index out of range")
        // SAFETY: `i` was checked against `count` just above.
        return unsafe bytes.load(fromByteOffset: i, as: UInt8.self)
    }

    /// The byte at `i`, unchecked: for the byte loops of the hot readers, which bound `i` to
    /// `0..<count` themselves (each use says how in a `SAFETY` comment).
    @unsafe @inline(__always)
    subscript(unchecked i: Int) -> UInt8 {
        // SAFETY: the caller keeps `i` in `0..<count` (the promise of this accessor). The buffer's
        // subscript, unlike `load`, does not test the base address for nil on every read.
        unsafe bytes[i]
    }

    /// The bytes at `range`, which must lie inside the view.
    @inline(__always)
    func subview(_ range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteView range out of bounds")
        // SAFETY: `range` was checked against `0...count` just above.
        return unsafe ByteView(unsafeBytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// The bytes at `range` (an offset the arena recorded), clamped to the view: a bad range
    /// reads fewer bytes, never outside the view; an absent range reads none.
    @inline(__always)
    func subview(_ range: ByteRange) -> ByteView {
        guard range.isPresent else { return .empty }
        let start = Swift.min(Int(range.start), count)
        let end = Swift.max(start, Swift.min(Int(range.end), count))
        // SAFETY: `start <= end <= count` by the clamping above.
        return unsafe ByteView(unsafeBytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }

    /// The bytes from `start` to the end (`start` at most ``count``).
    @inline(__always)
    func subview(from start: Int) -> ByteView { subview(start..<count) }

    /// The integer whose little-endian bytes start at `offset`; `offset + size` must be at most
    /// ``count``.
    @inline(__always)
    func loadUnaligned<T: FixedWidthInteger>(fromByteOffset offset: Int = 0, as type: T.Type) -> T {
        precondition(offset >= 0 && offset <= count &- MemoryLayout<T>.size, "ByteView load out of range")
        // SAFETY: `offset..<offset + size` was checked against `count` just above.
        return T(littleEndian: unsafe bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The eight bytes at `offset` as a little-endian integer, unchecked: `0 <= offset` and
    /// `offset + 8 <= count` must hold (each use says why in a `SAFETY` comment).
    @unsafe @inline(__always)
    func word64(unchecked offset: Int) -> UInt64 {
        // SAFETY: the caller keeps `offset..<offset + 8` inside `0..<count` (the promise of this accessor).
        UInt64(littleEndian: unsafe bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The 16 bytes at `offset`, as one vector; `offset + 16` must be at most ``count``.
    @inline(__always)
    func chunk16(at offset: Int) -> SIMD16<UInt8> {
        precondition(offset >= 0 && offset <= count &- 16, "ByteView load out of range")
        // SAFETY: `offset..<offset + 16` was checked against `count` just above.
        return unsafe bytes.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    }

    /// The 16 bytes at `offset`, unchecked: `0 <= offset` and `offset + 16 <= count` must hold
    /// (each use says why in a `SAFETY` comment).
    @unsafe @inline(__always)
    func chunk16(unchecked offset: Int) -> SIMD16<UInt8> {
        // SAFETY: the caller keeps `offset..<offset + 16` inside `0..<count` (the promise of this accessor).
        unsafe bytes.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    }

    /// Whether the view holds the same bytes as `other`.
    @inline(__always)
    func elementsEqual(_ other: ByteView) -> Bool {
        guard count == other.count else { return false }
        guard let a = unsafe bytes.baseAddress, let b = unsafe other.bytes.baseAddress else { return true }
        // SAFETY: both views hold `count` bytes.
        return unsafe memcmpBytes(a, b, count)
    }

    /// Whether the view holds the UTF-8 bytes of `literal`.
    @inline(__always)
    func elementsEqual(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount && starts(with: literal)
    }

    /// Whether the view starts with the UTF-8 bytes of `literal`.
    @inline(__always)
    func starts(with literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard count >= n, let base = unsafe bytes.baseAddress else { return n == 0 }
        // SAFETY: the view holds at least `n` bytes, and so does the literal.
        return unsafe memcmpBytes(base, UnsafeRawPointer(literal.utf8Start), n)
    }

    /// Whether the view ends with the UTF-8 bytes of `literal` and has at least one byte more.
    @inline(__always)
    func hasProperSuffix(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard count > n, let base = unsafe bytes.baseAddress else { return false }
        // SAFETY: the view holds more than `n` bytes, the literal `n`.
        return unsafe memcmpBytes(base + (count &- n), UnsafeRawPointer(literal.utf8Start), n)
    }

    /// The bytes as UTF-8 text (ill-formed sequences repaired).
    var string: String { unsafe String(decoding: bytes, as: UTF8.self) }

    /// A copy of the bytes.
    var array: [UInt8] { unsafe Array(bytes) }

    /// Appends the bytes of `range` (inside the view) to `out`.
    @inline(__always)
    func append(_ range: Range<Int>, to out: inout [UInt8]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteView range out of bounds")
        // SAFETY: `range` was checked against `0...count` just above.
        unsafe out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// Appends the bytes of `range` to `out`, unchecked: `0 <= range.lowerBound` and
    /// `range.upperBound <= count` must hold (each use says why in a `SAFETY` comment).
    @unsafe @inline(__always)
    func append(unchecked range: Range<Int>, to out: inout [UInt8]) {
        // SAFETY: the caller keeps `range` inside `0...count` (the promise of this accessor).
        unsafe out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
    }

    /// Appends every byte of the view to `out`.
    @inline(__always)
    func append(to out: inout [UInt8]) { unsafe out.append(contentsOf: bytes) }

    /// Calls `body` with the raw bytes: for the scanner's and the string decoder's entry points,
    /// which own their byte loops. `body` must not keep the pointer.
    @inline(__always)
    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        unsafe try body(bytes)
    }
}
