/// Percent-decoding and percent-encoding of query-string names and values: the one place that
/// parsing, building and pagination links consult, so the three always agree.
///
/// Decoding follows `application/x-www-form-urlencoded`, as JSON:API 1.1 requires for
/// extracting query parameters: `+` is a space and `%XX` is the byte `XX`, in names and values
/// alike. Two choices are stricter than the WHATWG algorithm, which keeps a malformed `%` as it
/// is and replaces bytes that are not UTF-8: here both are refused, so a client's encoding
/// mistake is a 400 instead of a silently different parameter.
///
/// Encoding writes every byte outside a small safe set as `%XX` (upper-case hex), a space as
/// `%20` (which decodes the same as `+`, and means the same to parsers that do not treat `+`
/// as a space), and `+` as `%2B`. The safe set is the RFC 3986 unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`), so the brackets of a family name are written `%5B` and `%5D`
/// (`page%5Bnumber%5D`): RFC 3986 allows them only in an IP literal, and links in one valid
/// encoding need no server to be lenient. Values also keep `,` `:` `@` `/`, which RFC 3986
/// allows in a query and which make lists and URIs readable. URI path segments (a resource's id
/// in its `self` link) have their own safe set, RFC 3986 `pchar` (``pathSegment(_:)``).
enum QueryPercentEncoding {
    /// Why a name or value cannot be decoded.
    enum Failure: Error, Equatable {
        /// A `%` not followed by two hexadecimal digits, at this byte offset of the text.
        case invalidPercentEncoding(offset: Int)
        /// The decoded bytes are not UTF-8.
        case invalidUTF8
    }

    /// Decodes `bytes[range]`.
    ///
    /// ASCII text, nearly every query, is copied into the string without a validation pass;
    /// only text with bytes of 0x80 and up is checked as UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Result<String, Failure> {
        // SAFETY: the view is used only during this call, while `bytes` is lent to it; `range`
        // is checked against it.
        let slice = unsafe ByteView(unsafeBytes: UnsafeRawBufferPointer(bytes)).subview(range)
        var escapes = 0
        var isASCII = true
        var index = 0
        while index < slice.count {
            let byte = slice[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < slice.count, let high = hexValue(slice[index + 1]),
                    hexValue(slice[index + 2]) != nil
                else { return .failure(.invalidPercentEncoding(offset: index)) }
                if high >= 8 { isASCII = false }
                escapes += 1
                index += 3
            } else {
                if byte >= 0x80 { isASCII = false }
                if byte == UInt8(ascii: "+") { escapes += 1 }
                index += 1
            }
        }
        if escapes == 0 { return text(slice, isASCII: isASCII) }
        // Every escape is well formed: decode without checks.
        var decoded: [UInt8] = []
        decoded.reserveCapacity(slice.count)
        index = 0
        while index < slice.count {
            let byte = slice[index]
            if byte == UInt8(ascii: "%"), let high = hexValue(slice[index + 1]),
                let low = hexValue(slice[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        // SAFETY: the view of `decoded` is used only inside its `withUnsafeBytes`.
        return unsafe decoded.withUnsafeBytes { unsafe text(ByteView(unsafeBytes: $0), isASCII: isASCII) }
    }

    /// The bytes as a string: copied when ASCII, validated as UTF-8 otherwise.
    private static func text(_ bytes: ByteView, isASCII: Bool) -> Result<String, Failure> {
        if isASCII { return .success(bytes.string) }
        guard let text = unsafe bytes.withUnsafeBytes({ unsafe String(validatingUTF8Bytes: $0) }) else {
            return .failure(.invalidUTF8)
        }
        return .success(text)
    }

    /// The value of a hexadecimal digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }

    /// Whether `byte` is written as itself: in a name (`isName`) or a value.
    @inline(__always)
    static func isSafe(_ byte: UInt8, isName: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"): !isName
        default: false
        }
    }

    /// Appends `text` percent-encoded as a name (`isName`) or a value.
    static func append(_ text: some StringProtocol, isName: Bool, to output: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        for byte in text.utf8 {
            if isSafe(byte, isName: isName) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                hex.withUTF8Buffer { digits in
                    unsafe output.append(digits[Int(byte >> 4)])
                    unsafe output.append(digits[Int(byte & 0x0F)])
                }
            }
        }
    }

    /// Whether `byte` is written as itself in a URI path segment: RFC 3986 `pchar` (unreserved,
    /// sub-delims, `:` and `@`), so `/`, `?`, `#`, `[`, `]`, `%`, a space and every non-ASCII
    /// byte are encoded.
    @inline(__always)
    static func isPathSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default: false
        }
    }

    /// `text` as one URI path segment: every byte but a `pchar` as `%XX` (upper-case hex).
    static func pathSegment(_ text: some StringProtocol) -> String {
        let hex: StaticString = "0123456789ABCDEF"
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isPathSafe(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                hex.withUTF8Buffer { digits in
                    unsafe output.append(digits[Int(byte >> 4)])
                    unsafe output.append(digits[Int(byte & 0x0F)])
                }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `name=value`, both encoded.
    static func parameter(name: some StringProtocol, value: some StringProtocol) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(name.utf8.count + value.utf8.count + 8)
        append(name, isName: true, to: &output)
        output.append(UInt8(ascii: "="))
        append(value, isName: false, to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
