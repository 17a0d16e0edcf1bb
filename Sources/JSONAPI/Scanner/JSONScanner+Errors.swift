// The scanner's errors. All out of line: they are built once per document at most, and keeping
// them out of the hot loops keeps those small.

extension JSONScanner {
    /// A byte as an error message shows it: `'x'` when printable ASCII, else its hex value.
    static func describe(_ c: UInt8) -> String {
        if c >= 0x20 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(hex(c))"
    }

    /// Two uppercase hex digits.
    static func hex(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(c >> 4)], digits[Int(c & 0xF)]])
    }

    /// `\uXXXX` for a UTF-16 code unit.
    static func escapeText(_ value: UInt32) -> String {
        "\\u" + hex(UInt8(truncatingIfNeeded: value >> 8)) + hex(UInt8(truncatingIfNeeded: value))
    }

    /// What the grammar wanted in state `expect`.
    static func expectation(_ expect: Expect, inObject: Bool) -> String {
        switch expect {
        case .topValue: "expected a JSON value"
        case .firstElementOrEnd: "expected a value or ']' after '['"
        case .element: "expected a value after ',' in an array"
        case .firstKeyOrEnd: "expected a string key or '}' after '{'"
        case .key: "expected a string key after ',' in an object"
        case .colon: "expected ':' after an object key"
        case .memberValue: "expected a value after ':'"
        case .commaOrEnd:
            inObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element"
        case .done: "expected the end of the input after the JSON value"
        }
    }

    @inline(never)
    static func unexpected(_ c: UInt8, at offset: Int, expecting expect: Expect, inObject: Bool) -> JSONAPIError {
        if offset == 0 && c == 0xEF {
            return .at(
                offset, .invalidJSON,
                "byte order mark is not allowed: expected a JSON value, found byte 0xEF (the start of a UTF-8 BOM)")
        }
        var message = "\(expectation(expect, inObject: inObject)), found \(describe(c))"
        switch expect {
        case .topValue, .firstElementOrEnd, .element, .memberValue:
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "+") {
                // `.5` and `+1` are numbers in other languages, but not in JSON.
                return .at(offset, .invalidNumber, message + " (a JSON number starts with '-' or a digit)")
            }
            if c == UInt8(ascii: "'") { message += " (JSON strings use double quotes)" }
        case .key, .firstKeyOrEnd:
            if c == UInt8(ascii: "'") { message += " (JSON strings use double quotes)" }
        default:
            break
        }
        return .at(offset, .invalidJSON, message)
    }

    @inline(never)
    static func unexpectedEnd(at offset: Int, expecting expect: Expect, inObject: Bool) -> JSONAPIError {
        .at(offset, .unexpectedEnd, "\(expectation(expect, inObject: inObject)), found the end of the input")
    }

    @inline(never)
    static func misuse(baseOffset: Int, expected: Int, finished: Bool) -> JSONAPIError {
        if finished {
            return .at(expected, .invalidJSON, "the scanner was given more input after the final chunk")
        }
        return .at(
            expected, .invalidJSON,
            "chunks must arrive in order without gaps: expected a chunk at offset \(expected), got one at \(baseOffset)"
        )
    }

    @inline(never)
    static func tooDeep(at offset: Int, limit: Int) -> JSONAPIError {
        .at(offset, .depthLimitExceeded, "objects and arrays are nested deeper than the limit of \(limit)")
    }

    @inline(never)
    static func stringTooLong(start: Int, limit: Int) -> JSONAPIError {
        .at(
            start &+ limit, .stringTooLong,
            "the string starting at offset \(start) is longer than the limit of \(limit) bytes")
    }

    @inline(never)
    static func unterminatedString(_ progress: StringProgress, at offset: Int) -> JSONAPIError {
        let what = progress.isKey ? "key" : "string"
        let inside: String
        switch progress.sub {
        case .clean: inside = ""
        case .escape, .hex, .lowBackslash, .lowU, .lowHex: inside = " inside an escape sequence"
        case .utf8: inside = " inside a UTF-8 sequence"
        }
        return .at(
            offset, .unexpectedEnd,
            "expected '\"' to close the \(what) starting at offset \(progress.start &- 1), found the end of the input"
                + inside)
    }

    @inline(never)
    static func numberError(_ c: UInt8, at offset: Int, phase: NumberPhase) -> JSONAPIError {
        let expected: String
        switch phase {
        case .afterMinus: expected = "expected a digit after '-'"
        case .afterDot: expected = "expected a digit after the decimal point"
        case .afterExponent: expected = "expected a sign or a digit in the exponent"
        case .afterExponentSign: expected = "expected a digit after the exponent's sign"
        case .zero where isDigit(c):
            expected = "leading zeros are not allowed: expected '.', 'e' or the end of the number after '0'"
        case .zero, .integer, .fraction, .exponent: expected = "expected the end of the number"
        }
        return .at(offset, .invalidNumber, "\(expected), found \(describe(c))")
    }

    @inline(never)
    static func numberCutShort(_ phase: NumberPhase, at offset: Int) -> JSONAPIError {
        let expected: String
        switch phase {
        case .afterMinus: expected = "expected a digit after '-'"
        case .afterDot: expected = "expected a digit after the decimal point"
        case .afterExponent: expected = "expected a sign or a digit in the exponent"
        case .afterExponentSign, .zero, .integer, .fraction, .exponent:
            expected = "expected a digit after the exponent's sign"
        }
        return .at(offset, .unexpectedEnd, "\(expected), found the end of the input")
    }

    @inline(never)
    static func literalError(_ literal: JSONLiteral, matched: Int, found c: UInt8, at offset: Int) -> JSONAPIError {
        .at(
            offset, .invalidJSON,
            "expected the literal '\(literal.text)', found \(describe(c)) at its byte \(matched + 1)")
    }

    @inline(never)
    static func literalCutShort(_ literal: JSONLiteral, matched: Int, at offset: Int) -> JSONAPIError {
        .at(offset, .unexpectedEnd, "expected the literal '\(literal.text)', found the end of the input")
    }

    @inline(never)
    static func badLeadMessage(_ c: UInt8) -> String {
        switch c {
        case 0x80...0xBF:
            "invalid UTF-8: unexpected continuation byte 0x\(hex(c)); expected a character to start here"
        case 0xC0, 0xC1: "invalid UTF-8: byte 0x\(hex(c)) can only start an overlong encoding"
        default: "invalid UTF-8: byte 0x\(hex(c)) never appears in UTF-8"
        }
    }

    @inline(never)
    static func badContinuationMessage(_ c: UInt8, _ progress: StringProgress) -> String {
        let range = "0x\(hex(progress.low))...0x\(hex(progress.high))"
        guard c & 0xC0 == 0x80 else {
            return "invalid UTF-8: truncated sequence; expected a continuation byte (\(range)), found \(describe(c))"
        }
        let why: String
        switch (progress.low, progress.high) {
        case (0xA0, _), (0x90, _): why = " (an overlong encoding)"
        case (_, 0x9F): why = " (an encoded UTF-16 surrogate)"
        case (_, 0x8F): why = " (a code point above U+10FFFF)"
        default: why = ""
        }
        return "invalid UTF-8: expected a continuation byte in \(range), found 0x\(hex(c))\(why)"
    }
}
