// Foundation is imported for `Decimal` only; the integer and floating-point paths use the
// standard library alone.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension JSONWriter {
    // MARK: Integers

    /// Writes an integer in decimal digits.
    @inlinable
    public mutating func number(_ value: Int) {
        guard beforeValue() else { return }
        writeDigits(UInt64(truncatingIfNeeded: value.magnitude), negative: value < 0)
    }

    /// Writes an integer of any width in decimal digits (`Int8` … `Int64`, `UInt64`, `Int128`, …).
    @inlinable
    public mutating func number<Integer: BinaryInteger>(_ value: Integer) {
        guard beforeValue() else { return }
        if let small = UInt64(exactly: value.magnitude) {
            writeDigits(small, negative: value < 0)
        } else {
            writeWideInteger(value)
        }
    }

    /// Formats `magnitude` with a leading `-` if `negative`, two digits per step.
    @inlinable
    mutating func writeDigits(_ magnitude: UInt64, negative: Bool) {
        if magnitude < 10, !negative {
            storage.append(UInt8(truncatingIfNeeded: magnitude) &+ UInt8(ascii: "0"))
            return
        }
        // 20 digits and a sign at most.
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            guard let base = buffer.baseAddress else { return }
            let start = unsafe Self.formatDigits(magnitude, negative: negative, endingAt: 24, in: base)
            // SAFETY: the digits were written right-aligned in the 24-byte buffer from `start`.
            unsafe storage.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<24]))
        }
    }

    /// Writes `magnitude` in decimal, with a `-` before it if `negative`, so that it ends just
    /// before `end` in `buffer` (which must have room for them, 21 bytes at most): two digits per
    /// step, right to left. Returns the index of the first byte written.
    @inlinable
    static func formatDigits(
        _ magnitude: UInt64, negative: Bool, endingAt end: Int, in buffer: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let pairs = unsafe digitPairs.utf8Start
        var position = end
        var rest = magnitude
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            position &-= 2
            unsafe buffer[position] = pairs[pair]
            unsafe buffer[position &+ 1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            position &-= 2
            unsafe buffer[position] = pairs[pair]
            unsafe buffer[position &+ 1] = pairs[pair &+ 1]
        } else {
            position &-= 1
            unsafe buffer[position] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
        }
        if negative {
            position &-= 1
            unsafe buffer[position] = UInt8(ascii: "-")
        }
        return position
    }

    /// "00" "01" … "99": the two digits of every number below 100.
    @inlinable
    static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Integers wider than 64 bits: peel off 19 digits at a time.
    @usableFromInline
    mutating func writeWideInteger<Integer: BinaryInteger>(_ value: Integer) {
        var chunks: [UInt64] = []
        var rest = value.magnitude
        // Only reached when the magnitude does not fit 64 bits, so 10^19 fits `Magnitude`.
        let divisor = Integer.Magnitude(10_000_000_000_000_000_000 as UInt64)
        while rest > 0 {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: divisor)
            chunks.append(UInt64(truncatingIfNeeded: remainder))
            rest = quotient
        }
        if value < 0 { storage.append(UInt8(ascii: "-")) }
        for (offset, chunk) in chunks.reversed().enumerated() {
            if offset == 0 {
                writeDigits(chunk, negative: false)
            } else {
                // Inner chunks are zero-padded to 19 digits.
                var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 19)
                var rest = chunk
                var position = 19
                while rest > 0 {
                    position -= 1
                    digits[position] = UInt8(truncatingIfNeeded: rest % 10) + UInt8(ascii: "0")
                    rest /= 10
                }
                storage.append(contentsOf: digits)
            }
        }
    }

    // MARK: Floating point

    /// Writes the shortest decimal text that reads back as the same `Double`.
    ///
    /// Integral values keep a fractional `.0` (`5.0`, `-0.0`, `1000000.0`); magnitudes of
    /// 2^53 and above, and below 1e-4, use exponent form (`1e+16`, `1e-05`).
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` for NaN and infinities, which JSON cannot
    ///   represent. Nothing is written then.
    @inlinable
    public mutating func number(_ value: Double) throws(JSONAPIError) {
        guard value.isFinite else { throw Self.nonFinite(value.description) }
        guard beforeValue() else { return }
        appendFinite(value)
    }

    /// Appends the text of a finite `value` (see ``number(_:)-(Double)``), outside the state machine.
    @inlinable
    mutating func appendFinite(_ value: Double) {
        unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDouble.maximumBytes) { buffer in
            // SAFETY: the buffer holds `maximumBytes`; the text fills its first `count`, copied out before it goes.
            guard let base = buffer.baseAddress else { return }
            let count = unsafe ShortestDouble.write(value, to: base)
            unsafe storage.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Writes the shortest decimal text that reads back as the same `Float` (as `Float.description`).
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` for NaN and infinities.
    @inlinable
    public mutating func number(_ value: Float) throws(JSONAPIError) {
        guard value.isFinite else { throw Self.nonFinite(value.description) }
        guard beforeValue() else { return }
        appendDescription(value.description)
    }

    /// Appends the text of a finite `Double`/`Float` description, which is already a valid
    /// JSON number (`-1.5`, `5.0`, `1e-05`, `1.7976931348623157e+308`).
    @usableFromInline
    mutating func appendDescription(_ text: String) {
        var text = text
        text.withUTF8 { unsafe storage.append(contentsOf: $0) }
    }

    @usableFromInline
    static func nonFinite(_ text: String) -> JSONAPIError {
        JSONAPIError(.encodingFailed, "JSON has no representation for the number \(text)")
    }

    // MARK: Verbatim number text

    /// Writes `text`, which must be a JSON number (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// exactly as given. Use it to pass decimals through without rounding.
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` if `text` is not a JSON number; nothing is
    ///   written then.
    @inlinable
    public mutating func number(text: some StringProtocol) throws(JSONAPIError) {
        var text = String(text)
        let valid = text.withUTF8 { unsafe Self.isJSONNumber(UnsafeRawBufferPointer($0)) }
        guard valid else { throw Self.invalidNumberText(text) }
        guard beforeValue() else { return }
        text.withUTF8 { unsafe storage.append(contentsOf: $0) }
    }

    /// Writes the number text in `bytes` (ASCII), which must be a JSON number, exactly as given.
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` if the bytes are not a JSON number.
    @inlinable
    public mutating func number(textBytes bytes: UnsafeRawBufferPointer) throws(JSONAPIError) {
        guard unsafe Self.isJSONNumber(bytes) else {
            throw unsafe Self.invalidNumberText(String(decoding: bytes, as: UTF8.self))
        }
        guard beforeValue() else { return }
        unsafe storage.append(contentsOf: bytes)
    }

    /// Writes a Foundation `Decimal` exactly, in plain digits (`3.14`, `-0.001`, `1000`).
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` for `Decimal.nan`.
    public mutating func number(_ value: Decimal) throws(JSONAPIError) {
        guard !value.isNaN else { throw Self.nonFinite("NaN") }
        try number(text: value.description)
    }

    @usableFromInline
    static func invalidNumberText(_ text: String) -> JSONAPIError {
        JSONAPIError(.encodingFailed, "`\(text.prefix(40))` is not a JSON number")
    }

    /// Whether `bytes` are exactly one JSON number (RFC 8259 grammar).
    @usableFromInline
    static func isJSONNumber(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var index = 0
        func isDigit(_ i: Int) -> Bool {
            unsafe i < count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        if index < count, unsafe bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return false }
        if unsafe bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < count, unsafe bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        if index < count, unsafe bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, unsafe bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        return index == count
    }
}
