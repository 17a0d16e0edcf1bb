/// Reads the value of a number token.
///
/// The scanner reports numbers as positions; a consumer that needs a value passes the token's
/// text (`input[token.start ..< token.end]`) here.
///
/// ```swift
/// if token.isInteger, let id = JSONNumberParsing.int64(text) { ... }
/// let rating = JSONNumberParsing.double(text)  // 4.5
/// ```
///
/// Every function accepts exactly the JSON number grammar (RFC 8259) and returns nil for anything
/// else, so it is safe on unvalidated text too.
@_spi(Backend)
public enum JSONNumberParsing {
    /// The value of an integer token, or nil when the text is not a JSON integer (it has a
    /// fraction or an exponent, or is not a number) or is out of range.
    ///
    /// `-0` is 0.
    public static func int64(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard let (negative, magnitude) = unsafe integer(text) else { return nil }
        if negative {
            if magnitude == UInt64(Int64.max) &+ 1 { return .min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The value of a non-negative integer token, or nil when the text is not a JSON integer or
    /// is out of range (negative numbers other than `-0` are out of range).
    public static func uint64(_ text: UnsafeRawBufferPointer) -> UInt64? {
        guard let (negative, magnitude) = unsafe integer(text) else { return nil }
        if negative && magnitude != 0 { return nil }
        return magnitude
    }

    /// The value of a number token, correctly rounded to the nearest `Double`.
    ///
    /// - Returns: The value, or nil when the text is not a JSON number or its magnitude is too
    ///   large for a finite `Double`. Values too small to represent round to zero (keeping the sign).
    public static func double(_ text: UnsafeRawBufferPointer) -> Double? {
        guard let parts = unsafe NumberParts(text) else { return nil }
        if parts.significand == 0 && !parts.truncated { return parts.negative ? -0.0 : 0.0 }
        // Clinger's fast path: a significand below 2^53 and a power of ten below 10^23 are both
        // exact doubles, so one correctly rounded multiplication or division gives the answer.
        if !parts.truncated && parts.significand <= 1 << 53 && parts.exponent >= -22 && parts.exponent <= 22 {
            let significand = Double(parts.significand)
            let power = powersOfTen[Int(parts.exponent.magnitude)]
            let value = parts.exponent < 0 ? significand / power : significand * power
            return parts.negative ? -value : value
        }
        // Up to 19 significant digits and any exponent: Eisel-Lemire.
        if !parts.truncated, let bits = eiselLemire(significand: parts.significand, exponent: parts.exponent) {
            guard bits != 0x7FF << 52 else { return nil }
            let magnitude = Double(bitPattern: bits)
            return parts.negative ? -magnitude : magnitude
        }
        // More digits (or the rare product Eisel-Lemire leaves open): the standard library's
        // correctly rounded conversion.
        guard let value = unsafe Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// 10^0 ... 10^22, every one exact in a `Double`.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The sign and magnitude of `-?(0|[1-9][0-9]*)`, or nil when the text is anything else or the
    /// magnitude does not fit in 64 bits.
    static func integer(_ text: UnsafeRawBufferPointer) -> (negative: Bool, magnitude: UInt64)? {
        var i = 0
        let negative = unsafe !text.isEmpty && text[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        guard i < text.count else { return nil }
        if unsafe text[i] == UInt8(ascii: "0") {
            return i &+ 1 == text.count ? (negative, 0) : nil
        }
        var magnitude: UInt64 = 0
        while i < text.count {
            let digit = unsafe text[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1 && !overflow2 else { return nil }
            magnitude = sum
            i &+= 1
        }
        return (negative, magnitude)
    }
}

/// A JSON number taken apart: value = ±significand × 10^exponent (when not `truncated`).
struct NumberParts {
    var negative = false
    /// The decimal digits, without the point, as an integer (the first 19 significant digits).
    var significand: UInt64 = 0
    /// The power of ten to apply to `significand`.
    var exponent: Int = 0
    /// Whether digits were dropped from `significand` (then only the general path is exact).
    var truncated = false

    /// Parses `text`, or returns nil when it is not exactly a JSON number.
    init?(_ text: UnsafeRawBufferPointer) {
        let n = text.count
        var i = 0
        if unsafe i < n && text[i] == UInt8(ascii: "-") {
            negative = true
            i &+= 1
        }
        var digits = 0
        // Integer part: 0, or a non-zero digit and more digits.
        guard i < n, unsafe JSONScanner.isDigit(text[i]) else { return nil }
        if unsafe text[i] == UInt8(ascii: "0") {
            i &+= 1
        } else {
            while unsafe i < n && JSONScanner.isDigit(text[i]) {
                unsafe add(text[i], digits: &digits, isFraction: false)
                i &+= 1
            }
        }
        if unsafe i < n && text[i] == UInt8(ascii: ".") {
            i &+= 1
            guard i < n, unsafe JSONScanner.isDigit(text[i]) else { return nil }
            while unsafe i < n && JSONScanner.isDigit(text[i]) {
                unsafe add(text[i], digits: &digits, isFraction: true)
                i &+= 1
            }
        }
        if unsafe i < n && text[i] | 0x20 == UInt8(ascii: "e") {
            i &+= 1
            var exponentNegative = false
            if unsafe i < n && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) {
                exponentNegative = unsafe text[i] == UInt8(ascii: "-")
                i &+= 1
            }
            guard i < n, unsafe JSONScanner.isDigit(text[i]) else { return nil }
            var written = 0
            while unsafe i < n && JSONScanner.isDigit(text[i]) {
                // Saturate: anything past a million is out of any double's range anyway.
                written = unsafe min(written &* 10 &+ Int(text[i] &- UInt8(ascii: "0")), 1_000_000)
                i &+= 1
            }
            exponent &+= exponentNegative ? -written : written
        }
        guard i == n else { return nil }
    }

    /// Appends one digit to the significand, keeping at most 19 significant digits.
    private mutating func add(_ c: UInt8, digits: inout Int, isFraction: Bool) {
        let digit = UInt64(c &- UInt8(ascii: "0"))
        if significand == 0 && digit == 0 {
            // A leading zero of the fraction only moves the point.
            if isFraction { exponent &-= 1 }
            return
        }
        if digits < 19 {
            significand = significand &* 10 &+ digit
            digits &+= 1
            if isFraction { exponent &-= 1 }
        } else {
            // A dropped digit: before the point it still scales the value.
            if digit != 0 { truncated = true }
            if !isFraction { exponent &+= 1 }
        }
    }
}
