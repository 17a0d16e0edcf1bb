import Foundation
import JSONAPIYajl
import Testing

@testable @_spi(Backend) import JSONAPI

/// The views and the typed views make strings without the standard library validating their
/// UTF-8 again (`JSONStringDecoding.decode(validUTF8:hasEscapes:)`), which is sound only because no
/// `Document` ever holds a string that is not valid UTF-8. These tests hold every way of building
/// a document to that, and check the strings made against the validating path.
@Suite("String making from validated documents")
struct StringMakingTests {
    /// Malformed UTF-8: a stray continuation byte, an overlong encoding, an encoded surrogate, a
    /// code point above U+10FFFF, a truncated sequence, bytes never valid in UTF-8.
    static let malformed: [[UInt8]] = [
        [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xF0, 0x9F, 0x98], [0xE2, 0x82], [0xC3], [0xFE], [0xFF], [0xF8, 0x88, 0x80, 0x80, 0x80],
    ]

    static func document(value: [UInt8], key: [UInt8] = Array("title".utf8)) -> [UInt8] {
        Array(#"{"data": {"type": "articles", "id": "1", "attributes": {""#.utf8) + key + Array(#"": "a"#.utf8)
            + value + Array(#"b"}}}"#.utf8)
    }

    @Test(arguments: malformed)
    func noParserAcceptsMalformedUTF8InAnyMode(bytes: [UInt8]) {
        for bytes in [Self.document(value: bytes), Self.document(value: [], key: Array("t".utf8) + bytes)] {
            for lenient in [false, true] {
                var options = ParsingOptions()
                options.isLenient = lenient
                if case .success = parseEverywhere(bytes, options: options, everySplit: false) {
                    Issue.record("accepted \(bytes) (lenient: \(lenient))")
                }
                options.backend = .yajl
                #expect(throws: JSONAPIError.self) { try Document(parsing: bytes, options: options) }
            }
        }
    }

    /// Random text (ASCII, accented Latin, CJK, emoji, controls, quotes and backslashes) written
    /// with escapes the way servers write it, read back through the typed views.
    @Test func stringsReadBackExactlyWithAndWithoutEscapes() throws {
        struct Item: Decodable, JSONAPIResource {
            static let resourceType = "items"
            var id: String
            var text: String
        }
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "ñ", "ß", "Ω", "Ж", "中", "文",
            "😀", "🎉", "\u{FFFD}", "\u{10FFFF}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}",
        ]
        var generator = EncodingTestSupport.SeededGenerator(seed: 42)
        var texts: [String] = ["", "plain ascii only", "café", String(repeating: "naïve ", count: 200)]
        for length in [1, 2, 3, 7, 15, 16, 17, 31, 100, 700] {
            for _ in 0..<12 {
                var text = ""
                for _ in 0..<length {
                    text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
                }
                texts.append(text)
            }
        }
        var json = #"{"data": ["#
        for (index, text) in texts.enumerated() {
            // JSONEncoder escapes quotes, backslashes, controls and "/" (as "\/").
            let encoded = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
            json +=
                (index == 0 ? "" : ",") + #"{"type": "items", "id": "\#(index)", "attributes": {"text": \#(encoded)}}"#
        }
        json += "]}"
        let document = try Document(parsing: json)
        let items = try document.primary(as: Item.self).decodeAll()
        #expect(items.map(\.text) == texts)
        // Escapes the encoder does not write: \u forms and surrogate pairs (the parser rejects
        // unpaired surrogates).
        let escapes = try Document(
            parsing:
                #"{"data": {"type": "items", "id": "1", "attributes": {"text": "\u00e9\ud83d\ude00x\u0041\b\f\r\u4e2d"}}}"#
        )
        #expect(try escapes.primary(as: Item.self).element(at: 0).text == "é😀xA\u{8}\u{C}\r中")
    }

    @Test func madeStringsEqualTheValidatingPath() {
        let samples = ["", "a", "ascii text", "café", "中文 and 😀", String(repeating: "é", count: 300)]
        for sample in samples {
            var bytes = Array(sample.utf8)
            bytes.withUnsafeMutableBytes { raw in
                let made = JSONStringDecoding.fromValidUTF8(UnsafeRawBufferPointer(raw))
                #expect(made == sample)
                #expect(made.utf8.count == sample.utf8.count)
                #expect(Array(made.unicodeScalars) == Array(sample.unicodeScalars))
            }
        }
    }

    /// Decoded strings carry the standard library's ASCII flag as a validating initializer sets
    /// it: a string not known to be ASCII compares and hashes through Unicode normalization.
    @Test func decodedStringsKnowWhetherTheyAreASCII() throws {
        struct Item: Decodable, JSONAPIResource {
            static let resourceType = "items"
            var id: String
            var text: String
        }
        let ascii = String(repeating: "abcdefghij", count: 10)  // 100 bytes
        var texts: [(json: String, value: String)] = [
            ("short", "short"), ("short é", "short é"), ("sixteen bytes ok", "sixteen bytes ok"),
            (ascii, ascii), (#"a \"quoted\" line\nand a \u0041 "# + ascii, "a \"quoted\" line\nand a A " + ascii),
            (#"escaped \u00e9 "# + ascii, "escaped é " + ascii), ("raw é " + ascii, "raw é " + ascii),
        ]
        // One non-ASCII letter at every position of strings of whole and partial 16-byte steps
        // (the last step overlaps the one before), and the same lengths all ASCII.
        for length in [16, 17, 63, 64, 65, 71, 72, 73, 130] {
            let plain = String(repeating: "x", count: length)
            texts.append((plain, plain))
            for position in 0..<(length - 1) {
                var scalars = Array(plain.unicodeScalars)
                scalars[position] = "\u{E9}"
                scalars.removeLast()  // "é" is two bytes: the same byte length
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                texts.append((text, text))
            }
        }
        var json = #"{"data": ["#
        for (index, text) in texts.enumerated() {
            json += index == 0 ? "" : ","
            json += #"{"type": "items", "id": "\#(index)", "attributes": {"text": "\#(text.json)"}}"#
        }
        json += "]}"
        for readers in [true, false] {
            var options = DecodingOptions()
            options.usesResourceReaders = readers
            let items = try Document(parsing: json).primary(as: Item.self, options: options).decodeAll()
            #expect(items.map(\.text) == texts.map(\.value))
            for item in items {
                let isASCII = item.text.utf8.allSatisfy { $0 < 0x80 }
                #expect(item.text.utf8Span.isKnownASCII == isASCII, "\(item.text)")
            }
        }
    }
}
