import Foundation
import PropertyBased
import Testing

@testable @_spi(Backend) import JSONAPI

/// Decodes the raw contents `raw` (the bytes between the quotes).
private func decode(_ raw: String, hasEscapes: Bool = true) -> String {
    Array(raw.utf8).withUnsafeBytes { JSONStringDecoding.decode($0, hasEscapes: hasEscapes) }
}

private func decode(bytes raw: [UInt8], hasEscapes: Bool) -> String {
    raw.withUnsafeBytes { JSONStringDecoding.decode($0, hasEscapes: hasEscapes) }
}

@Suite("JSONStringDecoding")
struct JSONStringDecodingTests {
    @Test("Plain contents are taken as they are")
    func plain() {
        #expect(decode("hello, world", hasEscapes: false) == "hello, world")
        #expect(decode("café 日本 🙂", hasEscapes: false) == "café 日本 🙂")
        #expect(decode("", hasEscapes: false) == "")
        #expect(decode("", hasEscapes: true) == "")
    }

    @Test("Every simple escape")
    func simpleEscapes() {
        #expect(decode(#"a\"b\\c\/d\be\ff\ng\rh\ti"#) == "a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti")
    }

    @Test("\\u escapes, surrogate pairs and NUL")
    func unicodeEscapes() {
        #expect(decode(#"\u0041\u00e9\u65E5\uD83D\uDE00"#) == "Aé日😀")
        #expect(decode(#"\uDBFF\uDFFF"#) == "\u{10FFFF}")
        #expect(decode(#"x\u0000y"#) == "x\u{0}y")
        #expect(decode(#"\u007F\u0080\u07FF\u0800\uFFFF"#) == "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}")
    }

    @Test("Malformed escapes and unpaired surrogates become U+FFFD, without trapping")
    func malformed() {
        #expect(decode(#"\uD800"#) == "\u{FFFD}")
        #expect(decode(#"\uDC00x"#) == "\u{FFFD}x")
        #expect(decode(#"\uD800\u0041"#) == "\u{FFFD}A")
        #expect(decode(#"\u12"#) == "\u{FFFD}12")
        #expect(decode(#"\x\x\x"#) == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(decode(#"abc\"#) == "abc\u{FFFD}")
        #expect(decode(#"\"#) == "\u{FFFD}")
        #expect(decode(bytes: [0x61, 0xFF, 0x62], hasEscapes: false) == "a\u{FFFD}b")
        #expect(decode(bytes: [0x5C, 0x6E, 0xC3], hasEscapes: true) == "\n\u{FFFD}")
    }

    @Test("unescape appends to what the buffer holds")
    func unescapeAppends() {
        var out = Array("prefix:".utf8)
        Array(#"a\tb\u00e9"#.utf8).withUnsafeBytes { JSONStringDecoding.unescape($0, into: &out) }
        #expect(out == Array("prefix:a\tbé".utf8))
    }

    @Test("A long escaped string decodes whole")
    func longEscaped() {
        let raw = String(repeating: #"ab\n\u00e9\uD83D\uDE00"#, count: 1000)
        let value = String(repeating: "ab\né😀", count: 1000)
        #expect(decode(raw) == value)
    }

    @Test("equals compares values, escaped or not")
    func equals() {
        func equals(_ raw: String, _ hasEscapes: Bool, _ expected: StaticString) -> Bool {
            Array(raw.utf8).withUnsafeBytes { JSONStringDecoding.equals($0, hasEscapes: hasEscapes, expected) }
        }
        func equals(_ raw: String, _ hasEscapes: Bool, bytes expected: String) -> Bool {
            Array(raw.utf8).withUnsafeBytes {
                JSONStringDecoding.equals($0, hasEscapes: hasEscapes, Array(expected.utf8))
            }
        }
        #expect(equals("type", false, "type"))
        #expect(!equals("type", false, "typ"))
        #expect(!equals("typ", false, "type"))
        #expect(!equals("tYpe", false, "type"))
        #expect(equals(#"t\u0079pe"#, true, "type"))
        #expect(!equals(#"t\u0079pe"#, true, "typo"))
        #expect(!equals(#"t\u0079pe"#, true, "types"))
        #expect(!equals(#"t\u0079pes"#, true, "type"))
        #expect(equals(#"\uD83D\uDE00"#, true, "😀"))
        #expect(equals(#"\uD83D\uDE00"#, true, bytes: "😀"))
        #expect(!equals(#"\uD83D\uDE01"#, true, bytes: "😀"))
        #expect(equals(#"a\/b"#, true, bytes: "a/b"))
        #expect(equals("", true, ""))
        #expect(!equals(#"\n"#, true, ""))
        #expect(equals("é", false, "é"))
    }
}

// MARK: - Differential: random strings against Foundation

/// A piece of a random string: one scalar, or a run of plain ASCII, and how to write it.
struct StringPiece: Sendable, CustomStringConvertible {
    var scalars: [Unicode.Scalar]
    /// 0: as it is where JSON allows it, 1: the short escape where there is one, 2: `\u` with
    /// lowercase hex, 3: `\u` with uppercase hex (a surrogate pair above U+FFFF).
    var form: Int

    var description: String { "\(scalars.map { String($0.value, radix: 16) }) form \(form)" }

    /// Characters JSON must escape, has a short escape for, or that sit at a boundary of a UTF-8
    /// length or of the surrogate range.
    static let specials: [Unicode.Scalar] = [
        "\"", "\\", "/", "\u{8}", "\u{C}", "\n", "\r", "\t", "\u{0}", "\u{1F}", " ", "\u{7F}", "\u{80}",
        "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}",
        "\u{2028}", "\u{FEFF}",
    ]

    /// `kind` picks the class (a special, ASCII, two-, three- and four-byte UTF-8, a run of
    /// text), `value` the member of the class.
    init(kind: Int, value: UInt32, form: Int) {
        self.form = form
        let scalar: UInt32
        switch kind {
        case 0: scalar = Self.specials[Int(value % UInt32(Self.specials.count))].value
        case 1: scalar = value % 0x80
        case 2: scalar = 0x80 + value % 0x780
        case 3:
            // Three-byte UTF-8 outside the surrogates.
            let v = 0x800 + value % (0x10000 - 0x800 - 0x800)
            scalar = v >= 0xD800 ? v + 0x800 : v
        case 4: scalar = 0x10000 + value % 0x10_0000
        default:
            scalars = Array("plain words between the escapes, ".unicodeScalars.prefix(Int(value % 34) + 1))
            return
        }
        scalars = [Unicode.Scalar(scalar) ?? "?"]
    }

    static let generator = zip(Gen<Int>.int(in: 0...5), Gen<UInt32>.value(in: 0...0xF_FFFF), Gen<Int>.int(in: 0...3))
        .map { StringPiece(kind: $0, value: $1, form: $2) }

    static func escape(_ scalar: Unicode.Scalar, form: Int) -> String {
        func hex(_ unit: UInt32, uppercase: Bool) -> String {
            let digits = String(unit, radix: 16, uppercase: uppercase)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        func unicode(uppercase: Bool) -> String {
            guard scalar.value > 0xFFFF else { return hex(scalar.value, uppercase: uppercase) }
            let offset = scalar.value - 0x10000
            return hex(0xD800 + (offset >> 10), uppercase: uppercase)
                + hex(0xDC00 + (offset & 0x3FF), uppercase: uppercase)
        }
        let short: String? =
            switch scalar {
            case "\"": #"\""#
            case "\\": #"\\"#
            case "/": #"\/"#
            case "\u{8}": #"\b"#
            case "\u{C}": #"\f"#
            case "\n": #"\n"#
            case "\r": #"\r"#
            case "\t": #"\t"#
            default: nil
            }
        let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
        switch form {
        case 0 where !mustEscape: return String(scalar)
        case 0, 1: return short ?? unicode(uppercase: form == 1)
        default: return unicode(uppercase: form == 3)
        }
    }
}

@Suite("JSONStringDecoding: random strings against Foundation")
struct JSONStringDecodingDifferentialTests {
    struct Item: Decodable, JSONAPIResource {
        static let resourceType = "items"
        var id: String
        var text: String
    }

    /// Every way the library decodes string contents `raw` gives exactly the UTF-8 `expected`:
    /// the functions themselves, and a view and a typed view of a document holding the string.
    /// Compared as bytes, since `String` equality would let a differently normalized result pass.
    func checkEveryPath(raw: [UInt8], expected: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let hasEscapes = raw.contains(UInt8(ascii: "\\"))
        raw.withUnsafeBytes { raw in
            let decoded = [
                JSONStringDecoding.decode(raw, hasEscapes: true),
                JSONStringDecoding.decode(raw, hasEscapes: hasEscapes),
                JSONStringDecoding.decode(validUTF8: raw, hasEscapes: true),
                JSONStringDecoding.decode(validUTF8: raw, hasEscapes: hasEscapes),
                JSONStringDecoding.decode(validUTF8: raw),
            ]
            for (path, value) in decoded.enumerated() {
                #expect(Array(value.utf8) == expected, "decode path \(path)", sourceLocation: sourceLocation)
            }
            var unescaped = Array("kept".utf8)
            JSONStringDecoding.unescape(raw, into: &unescaped)
            #expect(unescaped == Array("kept".utf8) + expected, sourceLocation: sourceLocation)
            #expect(JSONStringDecoding.equals(raw, hasEscapes: true, expected), sourceLocation: sourceLocation)
            #expect(
                !JSONStringDecoding.equals(raw, hasEscapes: true, expected + [0x41]), sourceLocation: sourceLocation)
        }
        let json =
            Array(#"{"data": {"type": "items", "id": "1", "attributes": {"text": ""#.utf8) + raw
            + Array(#""}}}"#.utf8)
        do throws(any Error) {
            let document = try Document(parsing: json)
            let view = document.primaryResources[0].attributes["text"]
            #expect(view?.stringValue.map { Array($0.utf8) } == expected, sourceLocation: sourceLocation)
            if let view, case .string(let copied) = JSON(view) {
                #expect(Array(copied.utf8) == expected, sourceLocation: sourceLocation)
            } else {
                Issue.record("JSON(view) is not a string", sourceLocation: sourceLocation)
            }
            for readers in [true, false] {
                var options = DecodingOptions()
                options.usesResourceReaders = readers
                let item = try document.primary(as: Item.self, options: options).element(at: 0)
                #expect(Array(item.text.utf8) == expected, sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    /// Short escapes, `\u` in either case, surrogate pairs, `\/`, and characters left as they are.
    @Test("Strings written with every escape form decode as Foundation decodes them")
    func everyEscapeForm() async {
        await propertyCheck(count: 400, input: StringPiece.generator.array(of: 0...120)) { pieces in
            var value = ""
            var contents = ""
            // What Foundation on Linux gives: it drops a U+FEFF written as it is at the start of the
            // string or right after an escape (it takes it for a byte order mark, which RFC 8259
            // allows only before the text; inside a string it is content).
            var foundationValue = ""
            var afterEscape = true
            for piece in pieces {
                for scalar in piece.scalars {
                    let written = StringPiece.escape(scalar, form: piece.form)
                    value.unicodeScalars.append(scalar)
                    contents += written
                    if !(afterEscape && written == "\u{FEFF}") { foundationValue.unicodeScalars.append(scalar) }
                    afterEscape = written.hasPrefix("\\")
                }
            }
            let expected = Array(value.utf8)
            // Foundation reads the contents back as the value: the escaping above is right.
            let foundation = try JSONSerialization.jsonObject(
                with: Data(("\"" + contents + "\"").utf8), options: .fragmentsAllowed)
            let answer = (foundation as? String).map { Array($0.utf8) }
            #expect(answer == expected || answer == Array(foundationValue.utf8))
            checkEveryPath(raw: Array(contents.utf8), expected: expected)
        }
    }

    @Test("Strings encoded by JSONEncoder and JSONSerialization decode to themselves")
    func foundationEncoded() async {
        await propertyCheck(count: 300, input: StringPiece.generator.array(of: 0...120)) { pieces in
            var value = ""
            for piece in pieces { value.unicodeScalars.append(contentsOf: piece.scalars) }
            let expected = Array(value.utf8)
            let encoder = JSONEncoder()
            let unescapedSlashes = JSONEncoder()
            unescapedSlashes.outputFormatting = .withoutEscapingSlashes
            let array = try JSONSerialization.data(withJSONObject: [value])
            for encoded in [
                try encoder.encode(value), try unescapedSlashes.encode(value), array.dropFirst().dropLast(),
            ] {
                let bytes = Array(encoded)
                // The contents of the one JSON string: between its quotes.
                guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
                    Issue.record("not a JSON string: \(String(decoding: bytes, as: UTF8.self))")
                    continue
                }
                checkEveryPath(raw: Array(bytes.dropFirst().dropLast()), expected: expected)
            }
        }
    }
}
