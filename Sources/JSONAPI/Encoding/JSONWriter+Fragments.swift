// Writing outside the state machine, for the streaming resource encoder (`ResourceStream`),
// which keeps track of its own structure and later hands whole fragments to a checked writer.

extension JSONWriter {
    /// Appends one byte.
    @inlinable
    mutating func appendByte(_ byte: UInt8) {
        storage.append(byte)
    }

    /// Appends `"name":` (compact output only).
    @inlinable
    mutating func appendKey(_ name: String) {
        writeQuoted(name, suffix: 0x3A, suffixCount: 1)
    }

    /// Appends a quoted, escaped string.
    @inlinable
    mutating func appendString(_ value: String) {
        writeQuoted(value, suffix: 0, suffixCount: 0)
    }

    /// Appends a signed integer.
    @inlinable
    mutating func appendInteger(_ value: Int64) {
        writeDigits(value.magnitude, negative: value < 0)
    }

    /// Appends an unsigned integer.
    @inlinable
    mutating func appendInteger(_ value: UInt64) {
        writeDigits(value, negative: false)
    }

    /// Appends `true` or `false`.
    @inlinable
    mutating func appendBool(_ value: Bool) {
        if value {
            appendASCII(0x7472_7565, count: 4)  // true
        } else {
            appendASCII(0x66_616c_7365, count: 5)  // false
        }
    }

    /// Appends `null`.
    @inlinable
    mutating func appendNull() {
        appendASCII(0x6e75_6c6c, count: 4)
    }

    /// Writes, as one value, an object whose members are the comma-less `"name":value` ranges
    /// `members` of `bytes` (compact output only).
    mutating func rawObject(members: [Range<Int>], of bytes: UnsafeRawBufferPointer) {
        guard beforeValue() else { return }
        storage.append(UInt8(ascii: "{"))
        var first = true
        for range in members {
            if !first { storage.append(UInt8(ascii: ",")) }
            first = false
            storage.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        storage.append(UInt8(ascii: "}"))
    }
}
