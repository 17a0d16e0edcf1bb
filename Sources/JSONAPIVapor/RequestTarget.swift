import Vapor

/// The request target as the client spelled it, recovered from the `URI` Vapor keeps.
///
/// Vapor 4 keeps no copy of the raw target: it builds `Request.url` with Foundation's
/// `URL(string:)`, which leaves a valid target alone but re-encodes one that holds a character a
/// URL may not (a raw `[`, `]`, space or non-ASCII byte). Re-encoding escapes every such
/// character and every `%` of the client's own escapes:
///
/// | The client sends | Vapor's `url.query` |
/// |---|---|
/// | `filter%5Btitle%5D=a%20b` | `filter%5Btitle%5D=a%20b` (valid: untouched) |
/// | `filter[title]=a%20b` | `filter%5Btitle%5D=a%2520b` |
/// | `page%5Bsize%5D=5&page[number]=2` | `page%255Bsize%255D=5&page%5Bnumber%5D=2` |
///
/// The escapes of characters are harmless (`%5B` means `[`), but `%2520` means a literal `%20`:
/// the query reads one encoding short, and a link built from it grows a `%25` per hop. Undoing
/// the re-encoding means reading every `%25` as `%`, which is right only when the target was
/// re-encoded, and that cannot always be told: `q=%2520&r=%5B` is what a client sends for a
/// literal `%20`, and what Foundation makes of `q=%20&r=[`. The rule taken: a target was
/// re-encoded when it holds a `%25` and another escape (of a raw `[`, a space, ...) anywhere in
/// its path or query, and every `%25` in it is followed by two hexadecimal digits, as the
/// re-encoding of a client's escape is. A `%25` followed by anything else (`%25%5D`, a `%25` at
/// the end) is a client's own escape of a literal `%`, so such a target is read as sent, like
/// every target without both kinds of escape. The spelling still read wrongly is a fully
/// encoded target that escapes a literal `%` just before two hexadecimal digits (`%2520`, a
/// literal `%20`) and holds another escape: it is read as re-encoded.
enum RequestTarget {
    /// `component` of `url` (its path or its query) as the client spelled it, deciding from the
    /// whole target whether Foundation re-encoded it.
    static func clientSpelling(of component: String, in url: URI) -> String {
        guard wasReencoded(url.query.map { "\(url.path)?\($0)" } ?? url.path) else { return component }
        return undoingReencoding(component)
    }

    /// Whether `text` shows the marks of Foundation's re-encoding (see ``RequestTarget``).
    static func wasReencoded(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sawEscapedPercent = false
        var sawOtherMark = false
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "%") else { continue }
            if isEscapedPercent(bytes, at: index) {
                // The re-encoding of a client's escape is `%25` and two hexadecimal digits.
                guard index + 4 < bytes.count, isHexDigit(bytes[index + 3]), isHexDigit(bytes[index + 4]) else {
                    return false
                }
                sawEscapedPercent = true
            } else {
                sawOtherMark = true
            }
        }
        return sawEscapedPercent && sawOtherMark
    }

    /// `text` with every `%25` read back as `%`.
    static func undoingReencoding(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            result.append(bytes[index])
            index += isEscapedPercent(bytes, at: index) ? 3 : 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    private static func isEscapedPercent(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 2 < bytes.count && bytes[index] == UInt8(ascii: "%") && bytes[index + 1] == UInt8(ascii: "2")
            && bytes[index + 2] == UInt8(ascii: "5")
    }
}
