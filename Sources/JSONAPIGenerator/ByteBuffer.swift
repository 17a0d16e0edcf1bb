/// A growable byte buffer written through a raw pointer, the generator's only output path.
///
/// Callers ``reserve(_:)`` an upper bound for what they are about to write, then use the unchecked
/// `append` methods. The buffer owns its memory; whoever creates it must call ``deallocate()``.
struct ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count: Int = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        self.base = .allocate(capacity: self.capacity)
    }

    func deallocate() {
        base.deallocate()
    }

    /// The bytes written so far.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }

    /// Makes sure at least `byteCount` more bytes fit without a check.
    @inline(__always)
    mutating func reserve(_ byteCount: Int) {
        if capacity &- count < byteCount {
            grow(toFit: byteCount)
        }
    }

    @inline(never)
    private mutating func grow(toFit byteCount: Int) {
        let newCapacity = Swift.max(capacity &* 2, count &+ byteCount)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Drops the first `byteCount` bytes, moving the rest to the front.
    mutating func removeFirst(_ byteCount: Int) {
        let rest = count &- byteCount
        if rest > 0 {
            base.update(from: base + byteCount, count: rest)
        }
        count = rest
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { utf8 in
            appendUnchecked(utf8)
        }
    }

    @inline(__always)
    mutating func appendUnchecked(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let source = utf8.baseAddress {
            (base + count).update(from: source, count: utf8.count)
            count &+= utf8.count
        }
    }

    /// Appends an ASCII word with its first letter upper-cased.
    @inline(__always)
    mutating func appendCapitalized(_ text: StaticString) {
        let start = count
        append(text)
        let first = base[start]
        if first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") {
            base[start] = first &- 32
        }
    }

    /// Appends the decimal digits of a non-negative integer.
    @inline(__always)
    mutating func append(decimal value: UInt64) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits &+= 1
        }
        var position = count &+ digits
        count = position
        rest = value
        repeat {
            position &-= 1
            base[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        } while rest > 0
    }

    /// Appends the decimal text of an integer, with a minus sign when negative.
    @inline(__always)
    mutating func append(decimal value: Int) {
        if value < 0 {
            append(UInt8(ascii: "-"))
            append(decimal: UInt64(value.magnitude))
        } else {
            append(decimal: UInt64(truncatingIfNeeded: value))
        }
    }

    /// Appends exactly `width` decimal digits of `value`, zero-padded on the left.
    @inline(__always)
    mutating func append(decimal value: Int, width: Int) {
        var rest = UInt64(value.magnitude)
        var position = count &+ width
        count = position
        for _ in 0..<width {
            position &-= 1
            base[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
            rest /= 10
        }
    }

    /// Appends the `digits` lowest hexadecimal digits of `value`, lower case.
    @inline(__always)
    mutating func append(hex value: UInt64, digits: Int) {
        var rest = value
        var position = count &+ digits
        count = position
        for _ in 0..<digits {
            position &-= 1
            let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
            base[position] = nibble < 10 ? nibble &+ UInt8(ascii: "0") : nibble &+ (UInt8(ascii: "a") &- 10)
            rest >>= 4
        }
    }
}
