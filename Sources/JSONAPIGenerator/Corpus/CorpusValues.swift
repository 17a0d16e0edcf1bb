/// The spelled values of ``CorpusDocumentGenerator``'s documents: text, numbers and ids, each
/// written as JSON text from a ``SplitMix64``.
///
/// None of this shares code or word lists with ``CompoundDocumentGenerator``, so that the two
/// generators' blind spots differ.
enum CorpusValues {
    // MARK: - Text

    /// Words in raw UTF-8 (one to four bytes per character), none needing an escape.
    static let rawWords: [String] = [
        "ånd", "Brücke", "cœur", "Ça", "déjà", "Fjǫrðr", "Grüße", "Île", "jalapeño", "Kraków",
        "λόγος", "Σοφία", "Москва", "Київ", "ქართული", "Հայերեն", "עברית", "العربية", "فارسی", "हिन्दी",
        "বাংলা", "தமிழ்", "ไทย", "ລາວ", "မြန်မာ", "北京", "上海市", "東京都", "서울", "ひらがな",
        "カタカナ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𠜎𠜱", "🦀", "🧪", "🌍", "🏳️‍🌈", "👨‍👩‍👧", "🇯🇵", "∑∫√",
        "≠≤≥", "€£¥", "№", "†‡", "“curly”", "‘single’", "—", "…", "·", "ℵ",
        "plain", "text", "with", "ascii", "words", "between", "them", "so", "it", "reads",
    ]

    /// Characters written as `\uXXXX`, with lower- or upper-case hex: the BMP ones as one escape,
    /// the rest as a surrogate pair.
    static let escapedScalars: [UInt32] = [
        0x00E9, 0x00DF, 0x03A9, 0x0416, 0x4E2D, 0x00F1, 0x20AC, 0x2603, 0xFFFD, 0x05D0,
        0x0627, 0x0915, 0x3042, 0xAC00, 0x0001, 0x001F, 0x007F, 0x0080, 0x07FF, 0x0800,
        0x1F600, 0x1F680, 0x1F9EA, 0x10000, 0x10FFFF, 0x1D518, 0x20000, 0x1F1EF,
    ]

    /// Short escapes as they appear in JSON text.
    static let shortEscapes: [String] = [#"\n"#, #"\t"#, #"\""#, #"\\"#, #"\/"#, #"\r"#, #"\b"#, #"\f"#]

    static let hexDigits = Array("0123456789abcdef".utf8)
    static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends `\uXXXX` for one UTF-16 code unit.
    static func appendEscape(_ unit: UInt32, upper: Bool, to output: inout [UInt8]) {
        let digits = upper ? upperHexDigits : hexDigits
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(digits[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }

    /// Appends a scalar as one `\u` escape, or as a surrogate pair of them above the BMP.
    static func appendEscaped(scalar: UInt32, upper: Bool, to output: inout [UInt8]) {
        guard scalar >= 0x10000 else {
            appendEscape(scalar, upper: upper, to: &output)
            return
        }
        let value = scalar - 0x10000
        appendEscape(0xD800 + (value >> 10), upper: upper, to: &output)
        appendEscape(0xDC00 + (value & 0x3FF), upper: upper, to: &output)
    }

    /// Appends text of about `bytes` spelled bytes, a mix of raw UTF-8 words and escapes in the
    /// proportion `escapePercent` (0 to 100) of its tokens.
    static func appendText(bytes: Int, escapePercent: Int, random: inout SplitMix64, to output: inout [UInt8]) {
        let end = output.count + bytes
        var first = true
        while output.count < end {
            if !first { output.append(UInt8(ascii: " ")) }
            first = false
            guard random.chance(escapePercent) else {
                output.append(contentsOf: rawWords[random.next(below: rawWords.count)].utf8)
                continue
            }
            switch random.next(below: 4) {
            case 0:
                output.append(contentsOf: shortEscapes[random.next(below: shortEscapes.count)].utf8)
            default:
                let scalar = escapedScalars[random.next(below: escapedScalars.count)]
                appendEscaped(scalar: scalar, upper: random.chance(30), to: &output)
            }
        }
    }

    /// Text of about `bytes` spelled bytes, as ``appendText(bytes:escapePercent:random:to:)``.
    static func text(bytes: Int, escapePercent: Int, random: inout SplitMix64) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes + 16)
        appendText(bytes: bytes, escapePercent: escapePercent, random: &random, to: &output)
        return output
    }

    // MARK: - Numbers

    /// A JSON number that fits a `Double`: sign, 1 to 19 significant digits, a fraction or not,
    /// and often an exponent (`e`/`E`, with or without a sign), magnitude between about 1e-290
    /// and 1e290.
    static func double(_ random: inout SplitMix64) -> String {
        var text = random.chance(40) ? "-" : ""
        let digits = random.next(in: 1...19)
        let point = random.next(in: 0...digits)
        var mantissa = String(random.next(in: 1...9))
        for _ in 1..<digits { mantissa.append(Character(Unicode.Scalar(UInt8(48 + random.next(below: 10))))) }
        let hasExponent = random.chance(60)
        if point == 0 || point == digits {
            // An integer of 19 digits may be out of the 64-bit range, which some parsers
            // (simdjson 3.0) refuse without a fraction or an exponent; this is a double's text.
            text += mantissa + (random.chance(50) || (digits > 18 && !hasExponent) ? ".0" : "")
        } else {
            let split = mantissa.index(mantissa.startIndex, offsetBy: point)
            text += mantissa[..<split] + "." + mantissa[split...]
        }
        if hasExponent {
            text += random.chance(50) ? "e" : "E"
            let exponent = random.next(in: -270...270)
            if exponent >= 0 && random.chance(50) { text += "+" }
            text += String(exponent)
        }
        return text
    }

    /// A JSON integer that fits an `Int` (64 bits): small, medium or up to 19 digits, either sign.
    static func integer(_ random: inout SplitMix64) -> String {
        switch random.next(below: 4) {
        case 0: return String(random.next(in: -9...99))
        case 1: return String(random.next(in: -100_000...10_000_000))
        default:
            let magnitude = (random.next() >> 1) >> UInt64(random.next(below: 40))
            return random.chance(30) ? "-" + String(magnitude) : String(magnitude)
        }
    }

    // MARK: - Ids

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    /// The spelled id of resource `index` of one type, and its decoded value: unique per index.
    ///
    /// The scheme goes round with the index, and each keeps its ids apart from the others' by
    /// what it may contain: decimal ids only digits (distinct decimal values, some zero-padded);
    /// UUIDs hyphens; base64-like ids an `=` after the index's own digits; hexadecimal ids a
    /// leading `h`; escaped ids a quote, backslash or control character after `e` and the index;
    /// one-letter ids letters only, and only for the first 52 of their turn (then decimal).
    static func id(_ index: Int, key: UInt64, random: inout SplitMix64) -> (spelled: [UInt8], decoded: String) {
        let scrambled = SplitMix64.mix(UInt64(truncatingIfNeeded: index) ^ key)
        switch index % 6 {
        case 0:
            let digits = String(index)
            let width = random.next(in: digits.utf8.count...max(digits.utf8.count, 20))
            let text = String(repeating: "0", count: random.chance(50) ? width - digits.utf8.count : 0) + digits
            return (Array(text.utf8), text)
        case 1:
            var bytes: [UInt8] = []
            let high = scrambled
            let low = SplitMix64.mix(UInt64(truncatingIfNeeded: index) &+ key)
            // The index in the last group keeps the UUIDs distinct.
            let groups: [(UInt64, Int)] = [(high >> 32, 8), (high >> 16, 4), (high, 4), (low >> 48, 4)]
            for (value, digits) in groups {
                appendHex(value, digits: digits, to: &bytes)
                bytes.append(UInt8(ascii: "-"))
            }
            appendHex(UInt64(truncatingIfNeeded: index), digits: 12, to: &bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            return (bytes, text)
        case 2:
            var bytes: [UInt8] = []
            var value = index
            repeat {
                bytes.append(base64Alphabet[value & 63])
                value >>= 6
            } while value > 0
            bytes.append(UInt8(ascii: "="))
            let width = random.next(in: bytes.count...64)
            while bytes.count < width { bytes.append(base64Alphabet[random.next(below: 64)]) }
            return (bytes, String(decoding: bytes, as: UTF8.self))
        case 3:
            var bytes = Array("h".utf8)
            appendHex(scrambled, digits: 16, to: &bytes)
            let width = random.next(in: 17...64)
            while bytes.count < width { bytes.append(hexDigits[random.next(below: 16)]) }
            return (bytes, String(decoding: bytes, as: UTF8.self))
        case 4:
            var spelled = Array("e\(index)".utf8)
            var decoded = "e\(index)"
            let marks: [(String, String)] = [
                (#"\""#, "\""), (#"\\"#, "\\"), (#"\u0022"#, "\""), (#"\u005C"#, "\\"), (#"\t"#, "\t"),
                (#"\u0001"#, "\u{01}"),
            ]
            let mark = marks[random.next(below: marks.count)]
            spelled += Array(mark.0.utf8)
            decoded += mark.1
            if random.chance(50) {
                appendEscaped(scalar: 0x1F600, upper: random.chance(50), to: &spelled)
                decoded += "😀"
            }
            if random.chance(50) {
                spelled += Array("é/x".utf8)
                decoded += "é/x"
            }
            return (spelled, decoded)
        default:
            let turn = index / 6
            if turn < letters.count {
                return ([letters[turn]], String(UnicodeScalar(letters[turn])))
            }
            return (Array(String(index).utf8), String(index))
        }
    }

    static func appendHex(_ value: UInt64, digits: Int, to output: inout [UInt8]) {
        for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
            output.append(hexDigits[Int((value >> UInt64(shift)) & 0xF)])
        }
    }
}
