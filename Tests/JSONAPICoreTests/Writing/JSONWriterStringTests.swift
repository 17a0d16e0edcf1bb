import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoding: JSONWriter string escaping")
struct EncodingWriterStringTests {
    typealias Support = EncodingTestSupport

    /// Reference escaping, byte by byte, as the writer documents it.
    static func referenceEscapeBytes(_ text: String, slashes: Bool) -> String {
        var out: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C: out += [0x5C, byte]
            case 0x2F where slashes: out += [0x5C, byte]
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: 0..<0x20)
    func everyControlByteIsEscaped(_ code: Int) throws {
        let scalar = try #require(Unicode.Scalar(code))
        let expected: String
        switch code {
        case 0x08: expected = #""\b""#
        case 0x09: expected = #""\t""#
        case 0x0A: expected = #""\n""#
        case 0x0C: expected = #""\f""#
        case 0x0D: expected = #""\r""#
        default:
            let hex = String(code, radix: 16)
            expected = "\"\\u00" + (hex.count == 1 ? "0" : "") + hex + "\""
        }
        let text = try Support.written { $0.string(String(Character(scalar))) }
        #expect(text == expected)
        // Also inside a longer string, past the 8-byte fast path, and in a key.
        let long = "abcdefghij" + String(Character(scalar)) + "klmnopqrstuvwxyz"
        let inner = String(expected.dropFirst().dropLast())
        #expect(try Support.written { $0.string(long) } == "\"abcdefghij\(inner)klmnopqrstuvwxyz\"")
        let key = try Support.written { w in
            w.beginObject()
            w.key(long)
            w.null()
            w.endObject()
        }
        #expect(key == "{\"abcdefghij\(inner)klmnopqrstuvwxyz\":null}")
    }

    @Test func allControlBytesTogether() throws {
        let text = String(decoding: Array(0..<0x20 as Range<UInt8>), as: UTF8.self)
        #expect(
            try Support.written { $0.string(text) }
                == #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
                + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#)
    }

    @Test func quotesBackslashesAndDelete() throws {
        #expect(try Support.written { $0.string(#"say "hi" \ bye"#) } == #""say \"hi\" \\ bye""#)
        #expect(try Support.written { $0.string("\"\"\"\"\"\"\"\"\"") } == #""\"\"\"\"\"\"\"\"\"""#)
        #expect(try Support.written { $0.string("\\\\\\\\\\\\\\\\") } == #""\\\\\\\\\\\\\\\\""#)
        #expect(try Support.written { $0.string("\u{7F}") } == "\"\u{7F}\"")
    }

    @Test func slashesOnlyWhenAsked() throws {
        let url = "https://jsonapi.org/format/"
        #expect(try Support.written { $0.string(url) } == #""https://jsonapi.org/format/""#)
        let escaped = try Support.written(JSONWritingOptions(escapesSlashes: true)) { w in
            w.beginObject()
            w.key("a/b")
            w.string(url)
            w.endObject()
        }
        #expect(escaped == #"{"a\/b":"https:\/\/jsonapi.org\/format\/"}"#)
    }

    @Test func multiByteUTF8IsCopied() throws {
        let text = "héllo wörld 中文 😀 👩‍💻 \u{2028}\u{2029} \u{10FFFF}"
        let written = try Support.written { $0.string(text) }
        #expect(written == "\"\(text)\"")
        #expect(Array(written.utf8) == [0x22] + Array(text.utf8) + [0x22])
        let emoji = try Support.written { $0.string("😀") }
        #expect(Array(emoji.utf8) == [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])
    }

    @Test func byteOrderMarkIsCopied() throws {
        let written = try Support.written { $0.string("a\u{FEFF}b") }
        #expect(Array(written.utf8) == [0x22, 0x61, 0xEF, 0xBB, 0xBF, 0x62, 0x22])
        var generator = Support.SeededGenerator(seed: 3)
        for _ in 0..<500 {
            let text = Support.randomString(maxLength: 30, includingBOM: true, using: &generator)
            #expect(try Support.written { $0.string(text) } == Self.referenceEscapeBytes(text, slashes: false))
        }
    }

    @Test func substringsAndBridgedStrings() throws {
        let whole = "xx\"tab\there\"xx"
        let middle = whole.dropFirst(2).dropLast(2)
        #expect(try Support.written { $0.string(middle) } == #""\"tab\there\"""#)
        let bridged = NSString(string: "ns \"string\" é").description
        #expect(try Support.written { $0.string(bridged) } == #""ns \"string\" é""#)
    }

    @Test func randomStringsMatchTheReferenceAndParseBack() throws {
        var generator = Support.SeededGenerator(seed: 7)
        for round in 0..<3000 {
            let text = Support.randomString(maxLength: 40, using: &generator)
            let slashes = round % 2 == 0
            let options = JSONWritingOptions(escapesSlashes: slashes)
            let written = try Support.written(options) { $0.string(text) }
            #expect(written == Self.referenceEscapeBytes(text, slashes: slashes))
            let parsed = try Support.parse(Array(written.utf8))
            #expect(parsed as? String == text)
        }
    }

    @Test func escapesAtEveryOffsetOfTheFastPath() throws {
        // Lengths around the 8-byte words and the 48-byte single-append path for short strings.
        for length in [0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 46, 47, 48, 49, 50, 63, 64, 65] {
            for position in 0..<max(length, 1) {
                for special in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "/", "é"] {
                    var characters = Array(repeating: Character("a"), count: length)
                    if length > 0 { characters[position] = Character(special) }
                    let text = String(characters)
                    for slashes in [false, true] {
                        let written = try Support.written(JSONWritingOptions(escapesSlashes: slashes)) {
                            $0.string(text)
                        }
                        #expect(written == Self.referenceEscapeBytes(text, slashes: slashes))
                        let key = try Support.written(JSONWritingOptions(escapesSlashes: slashes)) { w in
                            w.beginObject()
                            w.key(text)
                            w.null()
                            w.endObject()
                        }
                        #expect(key == "{" + Self.referenceEscapeBytes(text, slashes: slashes) + ":null}")
                    }
                }
            }
        }
    }
}
