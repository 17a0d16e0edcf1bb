#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The standard library's scalar types, read straight from the input bytes.
///
/// Strings without escapes are created from their UTF-8 in one copy; numbers are parsed from
/// their text with `JSONNumberParsing`. Nothing is materialised that was not asked for.
protocol ScalarDecodable: Decodable, DecodingMarked {
    /// Reads a value from the JSON value at `range`. `escaped` says whether a string value has
    /// backslash escapes, when the caller knows (nil: find out).
    static func read(_ decoder: ResourceDecoder, value range: ByteRange, escaped: Bool?, key: KeyRef)
        throws -> Self
    /// Reads a value from the raw contents of an `id` or `lid` string.
    static func read(_ decoder: ResourceDecoder, text range: ByteRange, escaped: Bool, key: KeyRef)
        throws -> Self
}

extension ScalarDecodable {
    /// Reads a value from any node, as `R` (which the caller knows is `Self`).
    static func read<R>(_ decoder: ResourceDecoder, node: Node, key: KeyRef, as type: R.Type) throws -> R {
        sameType(try read(decoder, node: node, key: key), as: R.self)
    }

    /// Reads a value from any node: JSON values, `id`/`lid` text, `type` names.
    @inline(__always)
    static func read(_ decoder: ResourceDecoder, node: Node, key: KeyRef) throws -> Self {
        switch node {
        case .value(let range):
            return try read(decoder, value: range, escaped: nil, key: key)
        case .text(let range, let escaped):
            return try read(decoder, text: range, escaped: escaped, key: key)
        case .typeName(let index, _):
            return try readTypeName(decoder, index, node: node, key: key)
        default:
            throw decoder.typeMismatch(
                Self.self, at: decoder.offset(of: node), expected: decoder.expectation(Self.self),
                found: decoder.describe(node), path: decoder.path(key))
        }
    }

    /// A resource's `type` name as `Self` (a `String`). Out of line: the cast's `Self?` made
    /// every read of a scalar, whatever its node, look up `Optional<Self>`'s metadata.
    @inline(never)
    static func readTypeName(_ decoder: ResourceDecoder, _ index: UInt32, node: Node, key: KeyRef) throws -> Self {
        if let name = unsafe decoder.types.name(index) as? Self { return name }
        throw decoder.typeMismatch(
            Self.self, at: decoder.offset(of: node), expected: decoder.expectation(Self.self),
            found: decoder.describe(node), path: decoder.path(key))
    }
}

extension String: ScalarDecodable {
    @inline(__always)
    static func read(_ decoder: ResourceDecoder, value range: ByteRange, escaped: Bool?, key: KeyRef)
        throws -> String
    {
        try decoder.readString(range, escaped: escaped, key: key)
    }

    static func read(_ decoder: ResourceDecoder, text range: ByteRange, escaped: Bool, key: KeyRef)
        throws -> String
    {
        decoder.string(range, escaped: escaped)
    }
}

extension Bool: ScalarDecodable {
    @inline(__always)
    static func read(_ decoder: ResourceDecoder, value range: ByteRange, escaped: Bool?, key: KeyRef)
        throws -> Bool
    {
        switch decoder.firstByte(range) {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw decoder.typeMismatch(Bool.self, expected: "a boolean", found: range, path: decoder.path(key))
        }
    }

    static func read(_ decoder: ResourceDecoder, text range: ByteRange, escaped: Bool, key: KeyRef)
        throws -> Bool
    {
        switch decoder.string(range, escaped: escaped) {
        case "true": return true
        case "false": return false
        case let other:
            throw decoder.failure(
                .dataCorrupted, at: Int(range.start) &- 1, code: .typeMismatch, path: decoder.path(key),
                "expected `true` or `false`, found \"\(other)\"")
        }
    }
}

extension Double: ScalarDecodable {
    @inline(__always)
    static func read(_ decoder: ResourceDecoder, value range: ByteRange, escaped: Bool?, key: KeyRef)
        throws -> Double
    {
        try decoder.readDouble(range, key: key)
    }

    static func read(_ decoder: ResourceDecoder, text range: ByteRange, escaped: Bool, key: KeyRef)
        throws -> Double
    {
        let text = decoder.string(range, escaped: escaped)
        guard let value = Double(text) else {
            throw decoder.failure(
                .dataCorrupted, at: Int(range.start) &- 1, code: .typeMismatch, path: decoder.path(key),
                "expected a number, found \"\(text)\"")
        }
        return value
    }
}

extension Float: ScalarDecodable {
    static func read(_ decoder: ResourceDecoder, value range: ByteRange, escaped: Bool?, key: KeyRef)
        throws -> Float
    {
        let value = try decoder.readDouble(range, key: key)
        guard value.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw decoder.failure(
                .dataCorrupted, at: Int(range.start), code: .typeMismatch, path: decoder.path(key),
                "number \(decoder.snippet(range)) does not fit in Float")
        }
        return Float(value)
    }

    static func read(_ decoder: ResourceDecoder, text range: ByteRange, escaped: Bool, key: KeyRef)
        throws -> Float
    {
        Float(try Double.read(decoder, text: range, escaped: escaped, key: key))
    }
}

/// The fixed-width integers share one implementation.
protocol IntegerScalar: ScalarDecodable, FixedWidthInteger {}

extension IntegerScalar {
    @inline(__always)
    static func read(_ decoder: ResourceDecoder, value range: ByteRange, escaped: Bool?, key: KeyRef)
        throws -> Self
    {
        try decoder.readInteger(Self.self, range, key: key)
    }

    static func read(_ decoder: ResourceDecoder, text range: ByteRange, escaped: Bool, key: KeyRef)
        throws -> Self
    {
        let text = decoder.string(range, escaped: escaped)
        guard let value = Self(text) else {
            throw decoder.failure(
                .dataCorrupted, at: Int(range.start) &- 1, code: .typeMismatch, path: decoder.path(key),
                "expected \(decoder.expectation(Self.self)), found \"\(text)\"")
        }
        return value
    }
}

extension Int: IntegerScalar {}
extension Int8: IntegerScalar {}
extension Int16: IntegerScalar {}
extension Int32: IntegerScalar {}
extension Int64: IntegerScalar {}
extension UInt: IntegerScalar {}
extension UInt8: IntegerScalar {}
extension UInt16: IntegerScalar {}
extension UInt32: IntegerScalar {}
extension UInt64: IntegerScalar {}

extension ResourceDecoder {
    /// The coding path with `key` appended.
    @inline(__always)
    func path(_ key: KeyRef) -> [any CodingKey] {
        guard let key = key.key(in: self) else { return path }
        return path + [key]
    }

    /// The string at `range` (quotes included).
    @inline(__always)
    func readString(_ range: ByteRange, escaped: Bool?, key: KeyRef) throws -> String {
        let start = Int(range.start)
        let end = Int(range.end)
        guard end &- start >= 2, unsafe end <= bytes.count, unsafe bytes[start] == UInt8(ascii: "\"") else {
            throw typeMismatch(String.self, expected: "a string", found: range, path: path(key))
        }
        let hasEscapes = unsafe escaped ?? ValueReader.stringEnd(bytes, start, limit: end).hasEscapes
        return unsafe bytes.subview((start &+ 1)..<(end &- 1)).withUnsafeBytes { contents in
            unsafe JSONStringDecoding.decode(validUTF8: contents, hasEscapes: hasEscapes)
        }
    }

    /// A string from any node that can hold one.
    @inline(__always)
    func readString(_ node: Node, key: KeyRef) throws -> String {
        try String.read(self, node: node, key: key)
    }

    @inline(__always)
    func isNumberStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (byte &- 0x30) < 10
    }

    @inline(__always)
    func readInteger<T: FixedWidthInteger>(_ type: T.Type, _ range: ByteRange, key: KeyRef) throws -> T {
        let text = unsafe bytes.subview(range)
        let first = text.isEmpty ? 0 : text[0]
        guard isNumberStart(first) else {
            throw typeMismatch(T.self, expected: expectation(T.self), found: range, path: path(key))
        }
        // Plain digits (the common case) accumulate directly; 18 digits cannot overflow Int64.
        if text.count <= 18 {
            var value: Int64 = 0
            var index = first == UInt8(ascii: "-") ? 1 : 0
            var plain = index < text.count
            while index < text.count {
                let digit = text[index] &- 0x30
                if digit >= 10 {
                    plain = false
                    break
                }
                value = value &* 10 &+ Int64(digit)
                index &+= 1
            }
            if plain {
                if first == UInt8(ascii: "-") { value = 0 &- value }
                if let exact = T(exactly: value) { return exact }
                throw outOfRange(T.self, range, key: key)
            }
        }
        return try readIntegerSlow(T.self, range, key: key)
    }

    @inline(never)
    func readIntegerSlow<T: FixedWidthInteger>(_ type: T.Type, _ range: ByteRange, key: KeyRef) throws -> T {
        let text = unsafe bytes.subview(range)
        if let value = unsafe text.withUnsafeBytes({ text in unsafe JSONNumberParsing.int64(text) }) {
            if let exact = T(exactly: value) { return exact }
            throw outOfRange(T.self, range, key: key)
        }
        if let value = unsafe text.withUnsafeBytes({ text in unsafe JSONNumberParsing.uint64(text) }) {
            if let exact = T(exactly: value) { return exact }
            throw outOfRange(T.self, range, key: key)
        }
        if let value = unsafe text.withUnsafeBytes({ text in unsafe JSONNumberParsing.double(text) }),
            value.rounded(.towardZero) == value
        {
            if let exact = T(exactly: value) { return exact }
            throw outOfRange(T.self, range, key: key)
        }
        throw failure(
            .dataCorrupted, at: Int(range.start), code: .typeMismatch, path: path(key),
            "expected \(expectation(T.self)), found the number \(snippet(range)), which is not an integer")
    }

    func outOfRange<T>(_ type: T.Type, _ range: ByteRange, key: KeyRef) -> DecodingError {
        failure(
            .dataCorrupted, at: Int(range.start), code: .typeMismatch, path: path(key),
            "the number \(snippet(range)) does not fit in \(T.self)")
    }

    @inline(__always)
    func readDouble(_ range: ByteRange, key: KeyRef) throws -> Double {
        let text = unsafe bytes.subview(range)
        guard isNumberStart(text.isEmpty ? 0 : text[0]) else {
            throw typeMismatch(Double.self, expected: "a number", found: range, path: path(key))
        }
        guard let value = unsafe text.withUnsafeBytes({ text in unsafe JSONNumberParsing.double(text) }) else {
            throw failure(
                .dataCorrupted, at: Int(range.start), code: .typeMismatch, path: path(key),
                "the number \(snippet(range)) is out of range for Double")
        }
        return value
    }

    // MARK: Foundation types

    /// The string contents of a string-like node, for the Foundation types read from strings.
    func stringContents<T>(_ node: Node, for type: T.Type, key: KeyRef) throws -> String {
        switch node {
        case .value(let range) where firstByte(range) == UInt8(ascii: "\""):
            return try readString(range, escaped: nil, key: key)
        case .text(let range, let escaped):
            return string(range, escaped: escaped)
        default:
            throw typeMismatch(
                T.self, at: offset(of: node), expected: "a string", found: describe(node), path: path(key))
        }
    }

    func decodeDate(_ node: Node, key: KeyRef) throws -> Date {
        switch unsafe options.dateDecodingStrategy {
        case .iso8601:
            let text = try stringContents(node, for: Date.self, key: key)
            var utf8 = text
            let parsed = utf8.withUTF8 { unsafe ISO8601Parser.parse(UnsafeRawBufferPointer($0)) }
            guard let seconds = parsed else {
                throw failure(
                    .dataCorrupted, at: offset(of: node), code: .typeMismatch, path: path(key),
                    "expected an ISO 8601 date such as 2015-05-22T14:56:29Z, found \"\(text)\"")
            }
            return Date(timeIntervalSince1970: seconds)
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try number(node, key: key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try number(node, key: key) / 1000)
        case .deferredToDate:
            return try descend(into: node, key: key) { try Date(from: self) }
        case .custom(let read):
            return try descend(into: node, key: key) { try read(self) }
        }
    }

    private func number(_ node: Node, key: KeyRef) throws -> Double {
        guard case .value(let range) = node else {
            throw typeMismatch(
                Double.self, at: offset(of: node), expected: "a number", found: describe(node), path: path(key))
        }
        return try readDouble(range, key: key)
    }

    func decodeData(_ node: Node, key: KeyRef) throws -> Data {
        switch unsafe options.dataDecodingStrategy {
        case .base64:
            let text = try stringContents(node, for: Data.self, key: key)
            guard let data = Data(base64Encoded: text) else {
                throw failure(
                    .dataCorrupted, at: offset(of: node), code: .typeMismatch, path: path(key),
                    "expected base64-encoded data, found \"\(text.prefix(40))\"")
            }
            return data
        case .deferredToData:
            return try descend(into: node, key: key) { try Data(from: self) }
        case .custom(let read):
            return try descend(into: node, key: key) { try read(self) }
        }
    }

    func decodeURL(_ node: Node, key: KeyRef) throws -> URL {
        let text = try stringContents(node, for: URL.self, key: key)
        guard let url = URL(string: text) else {
            throw failure(
                .dataCorrupted, at: offset(of: node), code: .typeMismatch, path: path(key),
                "expected a URL, found \"\(text)\"")
        }
        return url
    }

    func decodeUUID(_ node: Node, key: KeyRef) throws -> UUID {
        let text = try stringContents(node, for: UUID.self, key: key)
        guard let uuid = UUID(uuidString: text) else {
            throw failure(
                .dataCorrupted, at: offset(of: node), code: .typeMismatch, path: path(key),
                "expected a UUID, found \"\(text)\"")
        }
        return uuid
    }

    /// A `Decimal` from the exact text of a number (or of a string holding one), never through
    /// `Double`, so `0.1` stays exactly `0.1`.
    func decodeDecimal(_ node: Node, key: KeyRef) throws -> Decimal {
        let text: String
        if case .value(let range) = node, isNumberStart(firstByte(range)) {
            text = unsafe bytes.subview(range).string
        } else {
            text = try stringContents(node, for: Decimal.self, key: key)
        }
        guard let value = Decimal(string: text, locale: nil), !value.isNaN else {
            throw failure(
                .dataCorrupted, at: offset(of: node), code: .typeMismatch, path: path(key),
                "expected a decimal number, found \"\(text)\"")
        }
        return value
    }
}

/// A fast RFC 3339 / ISO 8601 date-time parser: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`.
///
/// Returns seconds since 1970, or nil for anything else. One pass over the bytes, O(n), with no
/// formatter, calendar or allocation (unlike `ISO8601DateFormatter`), and it accepts both whole
/// and fractional seconds.
enum ISO8601Parser {
    static func parse(_ s: UnsafeRawBufferPointer) -> Double? {
        guard s.count >= 20 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for index in at..<(at + count) {
                let digit = unsafe Int(s[index]) &- 0x30
                guard digit >= 0 && digit < 10 else { return nil }
                value = value &* 10 &+ digit
            }
            return value
        }
        guard let year = digits(0, 4), unsafe s[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            unsafe s[7] == UInt8(ascii: "-"),
            let day = digits(8, 2),
            unsafe s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: "t") || s[10] == UInt8(ascii: " "),
            let hour = digits(11, 2), unsafe s[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            unsafe s[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year, month), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0
        var fractionScale = 1
        if index < s.count, unsafe s[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < s.count, unsafe (s[index] &- 0x30) < 10 {
                // Digits past nanoseconds cannot change a `Date`; read and ignore them.
                if index - start < 9 {
                    fraction = unsafe fraction * 10 + Int(s[index] &- 0x30)
                    fractionScale *= 10
                }
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < s.count else { return nil }
        var offset = 0
        switch unsafe s[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = unsafe s[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard index + 2 <= s.count, let hours = digits(index, 2) else { return nil }
            index += 2
            if index < s.count, unsafe s[index] == UInt8(ascii: ":") { index += 1 }
            guard index + 2 <= s.count, let minutes = digits(index, 2), hours < 24, minutes < 60 else { return nil }
            index += 2
            offset = sign * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        guard index == s.count else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Double(seconds) + Double(fraction) / Double(fractionScale)
    }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
