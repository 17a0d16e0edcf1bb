@_spi(Backend) import JSONAPI
import Testing

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
