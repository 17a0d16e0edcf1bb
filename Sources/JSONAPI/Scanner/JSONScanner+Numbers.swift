// Numbers and literals: small state machines that stop anywhere and resume from their phase.

/// How far a number has been read: the states of `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
enum NumberPhase: UInt8, Sendable {
    /// After `-`: a digit must follow.
    case afterMinus
    /// After a leading `0`: `.`, `e`, `E` or the end.
    case zero
    /// In the integer digits.
    case integer
    /// After `.`: a digit must follow.
    case afterDot
    /// In the fraction digits.
    case fraction
    /// After `e` or `E`: a sign or a digit must follow.
    case afterExponent
    /// After the exponent's sign: a digit must follow.
    case afterExponentSign
    /// In the exponent digits.
    case exponent

    /// Whether the number may end here.
    var isComplete: Bool {
        switch self {
        case .zero, .integer, .fraction, .exponent: true
        case .afterMinus, .afterDot, .afterExponent, .afterExponentSign: false
        }
    }

    /// Whether a number ending here has neither fraction nor exponent.
    @inline(__always)
    var isInteger: Bool { self == .zero || self == .integer }
}

extension JSONScanner {
    /// Reads number bytes from `i` in `phase`; returns the index of the first byte after the
    /// number, or `n` when the chunk ends first (then `phase` says how far the number got).
    @inline(__always)
    static func scanNumber(
        _ p: UnsafeRawPointer, from i: Int, count n: Int, base: Int, phase: inout NumberPhase
    ) throws(JSONAPIError) -> Int {
        var i = i
        var current = phase
        defer { phase = current }
        while i < n {
            var c = unsafe byte(p, i)  // SAFETY: i < n, here and in the digit loops below.
            switch current {
            case .integer, .fraction, .exponent:
                while isDigit(c) {
                    i &+= 1
                    guard i < n else { return n }
                    c = unsafe byte(p, i)
                }
                if c == UInt8(ascii: ".") && current == .integer {
                    current = .afterDot
                } else if c | 0x20 == UInt8(ascii: "e") && current != .exponent {
                    current = .afterExponent
                } else {
                    return try numberEnd(c, at: i, base: base, phase: current)
                }
            case .zero:
                if c == UInt8(ascii: ".") {
                    current = .afterDot
                } else if c | 0x20 == UInt8(ascii: "e") {
                    current = .afterExponent
                } else {
                    return try numberEnd(c, at: i, base: base, phase: current)
                }
            case .afterMinus:
                guard isDigit(c) else { throw numberError(c, at: base &+ i, phase: current) }
                current = c == UInt8(ascii: "0") ? .zero : .integer
            case .afterDot:
                guard isDigit(c) else { throw numberError(c, at: base &+ i, phase: current) }
                current = .fraction
            case .afterExponent:
                if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    current = .afterExponentSign
                } else {
                    guard isDigit(c) else { throw numberError(c, at: base &+ i, phase: current) }
                    current = .exponent
                }
            case .afterExponentSign:
                guard isDigit(c) else { throw numberError(c, at: base &+ i, phase: current) }
                current = .exponent
            }
            i &+= 1
        }
        return n
    }

    /// The number ended before `c`; a byte that could only belong to a malformed number (a digit
    /// after a leading zero, a second `.`, a stray sign or exponent) is an `invalidNumber` here
    /// rather than a vaguer error at the next token.
    @inline(__always)
    static func numberEnd(_ c: UInt8, at i: Int, base: Int, phase: NumberPhase) throws(JSONAPIError) -> Int {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            throw numberError(c, at: base &+ i, phase: phase)
        default:
            return i
        }
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    /// Matches `literal` from byte `matched` on, reading from `i`; returns the index after the
    /// literal, or `n` when the chunk ends first (then `matched` says how much was matched).
    @inline(never)
    static func matchLiteral(
        _ literal: JSONLiteral, _ p: UnsafeRawPointer, from i: Int, count n: Int, base: Int, start: Int,
        matched: inout Int
    ) throws(JSONAPIError) -> Int {
        var i = i
        while matched < literal.length {
            guard i < n else { return n }
            let c = unsafe byte(p, i)  // SAFETY: i < n.
            guard c == literal.byte(at: matched) else {
                throw literalError(literal, matched: matched, found: c, at: base &+ i)
            }
            matched &+= 1
            i &+= 1
        }
        return i
    }
}
