@_spi(Backend) import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// Locates `offsets` in `json`.
private func locate(_ offsets: [Int], in json: String) -> [JSONAPI.SourceLocation] {
    Array(json.utf8).withUnsafeBytes { SourceLocator.locate(offsets: offsets, in: $0) }
}

private func pointers(_ offsets: [Int], in json: String) -> [String] {
    locate(offsets, in: json).map(\.pointer)
}

/// The offset of the `occurrence`-th (0-based) `needle` in `json`.
private func offset(of needle: String, in json: String, occurrence: Int = 0) -> Int {
    let bytes = Array(json.utf8)
    let target = Array(needle.utf8)
    var seen = 0
    for start in 0...(bytes.count - target.count) where Array(bytes[start..<start + target.count]) == target {
        if seen == occurrence { return start }
        seen += 1
    }
    return -1
}

@Suite("SourceLocator")
struct SourceLocatorTests {
    @Test("Pointers of values, keys, brackets and separators")
    func pointersInAValidDocument() {
        let json = #"{"data":{"type":"a","id":1}}"#
        #expect(pointers([offset(of: "1", in: json)], in: json) == ["/data/id"])
        #expect(pointers([offset(of: #""id""#, in: json)], in: json) == ["/data/id"])
        #expect(pointers([offset(of: #"id""#, in: json)], in: json) == ["/data/id"])
        #expect(pointers([0], in: json) == [""])
        #expect(pointers([offset(of: #""data""#, in: json)], in: json) == ["/data"])
        #expect(pointers([offset(of: "{", in: json, occurrence: 1)], in: json) == ["/data"])
        #expect(pointers([offset(of: ",", in: json)], in: json) == ["/data"])
        #expect(pointers([offset(of: ":", in: json)], in: json) == [""])
        #expect(pointers([offset(of: ":", in: json, occurrence: 2)], in: json) == ["/data"])
        #expect(pointers([offset(of: #""a""#, in: json) + 2], in: json) == ["/data/type"])
        #expect(pointers([json.utf8.count - 2], in: json) == ["/data"])
        #expect(pointers([json.utf8.count - 1], in: json) == [""])
    }

    @Test("Array elements end with their index")
    func arrayIndices() {
        let json = #"{"included":[{},{"x":[1,2]}]}"#
        #expect(pointers([offset(of: "2", in: json)], in: json) == ["/included/1/x/1"])
        #expect(pointers([offset(of: "1", in: json)], in: json) == ["/included/1/x/0"])
        #expect(pointers([offset(of: "{}", in: json)], in: json) == ["/included/0"])
        #expect(pointers([offset(of: "[1", in: json)], in: json) == ["/included/1/x"])
        #expect(pointers([json.utf8.count - 2], in: json) == ["/included"])
        #expect(pointers([offset(of: ",", in: json, occurrence: 1)], in: json) == ["/included/1/x"])
    }

    @Test("Keys are decoded and escaped as RFC 6901 says")
    func escapedKeys() {
        let json = #"{"a/b":{"m~n":{"\u0041\u00e9":true}}}"#
        #expect(pointers([offset(of: "true", in: json)], in: json) == ["/a~1b/m~0n/Aé"])
        #expect(pointers([offset(of: #""m~n""#, in: json)], in: json) == ["/a~1b/m~0n"])
        #expect(pointers([offset(of: "true", in: #"{"":{"":true}}"#)], in: #"{"":{"":true}}"#) == ["//"])
    }

    @Test("Many offsets at once: unsorted, repeated, negative and past the end")
    func manyOffsets() {
        let json = "[10, 20,\n 30]"
        let locations = locate([10, -1, 1, 99, 1, 5], in: json)
        #expect(
            locations == [
                JSONAPI.SourceLocation(line: 2, column: 2, pointer: "/2"),
                JSONAPI.SourceLocation(line: 0, column: 0, pointer: ""),
                JSONAPI.SourceLocation(line: 1, column: 2, pointer: "/0"),
                JSONAPI.SourceLocation(line: 2, column: 5, pointer: ""),
                JSONAPI.SourceLocation(line: 1, column: 2, pointer: "/0"),
                JSONAPI.SourceLocation(line: 1, column: 6, pointer: "/1"),
            ])
        #expect(locate([], in: json).isEmpty)
    }

    @Test("Columns count Unicode scalars; lines count line feeds")
    func linesAndColumns() {
        let json = "{\n  \"é\": \"日本\",\n  \"x\": 1\n}"
        let one = locate([offset(of: "1", in: json)], in: json)[0]
        #expect(one == JSONAPI.SourceLocation(line: 3, column: 8, pointer: "/x"))
        let hon = locate([offset(of: "本", in: json)], in: json)[0]
        #expect(hon == JSONAPI.SourceLocation(line: 2, column: 10, pointer: "/é"))
        #expect(locate([0], in: json)[0] == JSONAPI.SourceLocation(line: 1, column: 1, pointer: ""))
        #expect(locate([1], in: json)[0].line == 1)
        #expect(locate([2], in: json)[0] == JSONAPI.SourceLocation(line: 2, column: 1, pointer: ""))
        // CR is not a line break: CRLF counts once.
        let crlf = "[1,\r\n2]"
        #expect(
            locate([offset(of: "2", in: crlf)], in: crlf)[0]
                == JSONAPI.SourceLocation(line: 2, column: 1, pointer: "/1"))
        // A long line with multi-byte characters on both sides of the 8-byte words.
        let long = "[\"" + String(repeating: "aé日🙂", count: 50) + "\",\n\"" + String(repeating: "é", count: 37) + "x\"]"
        let x = locate([offset(of: "x", in: long)], in: long)[0]
        #expect(x == JSONAPI.SourceLocation(line: 2, column: 39, pointer: "/1"))
        let end = locate([long.utf8.count], in: long)[0]
        #expect(end.line == 2 && end.column == 42)
    }

    @Test("Invalid documents: the path where the scan stopped")
    func invalidDocuments() {
        let missingElement = #"{"a": [1, x]}"#
        #expect(pointers([10, 9, 12, 7], in: missingElement) == ["/a/1", "/a", "/a/1", "/a/0"])
        let missingColon = #"{"a" 1}"#
        #expect(pointers([5, 1, 4], in: missingColon) == ["/a", "/a", ""])
        let missingComma = #"{"a":1 "b":2}"#
        #expect(pointers([7, 5, 12], in: missingComma) == ["", "/a", ""])
        let badLiteral = #"{"a":{"b":tru}}"#
        #expect(pointers([10, 13, 14], in: badLiteral) == ["/a/b", "/a/b", "/a/b"])
        let unterminated = #"{"a":{"b":"xyz"#
        #expect(pointers([12, 14], in: unterminated) == ["/a/b", "/a/b"])
        let badKey = #"{"a":{"b\x":1}}"#
        #expect(pointers([7, 13], in: badKey) == ["/a", "/a"])
        let trailing = #"{"a":1} x"#
        #expect(pointers([8], in: trailing) == [""])
        #expect(pointers([0, 3], in: "") == ["", ""])
    }

    @Test("Deep and hostile inputs never crash")
    func hostile() {
        let deep = String(repeating: "[", count: 10_000)
        let pointer = pointers([9_999], in: deep)[0]
        #expect(pointer == String(repeating: "/0", count: 9_999))
        var rng = SplitMix64(seed: 99)
        let alphabet = Array(#"{}[],:"a\ 1"#.utf8) + [0xC3, 0xA9, 0x0A]
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &rng)]
            }
            let offsets = (0..<4).map { _ in Int.random(in: -2...(bytes.count + 2), using: &rng) }
            let locations = bytes.withUnsafeBytes { SourceLocator.locate(offsets: offsets, in: $0) }
            #expect(locations.count == offsets.count)
            for (offset, location) in zip(offsets, locations) {
                guard offset >= 0 else {
                    #expect(location == JSONAPI.SourceLocation(line: 0, column: 0, pointer: ""))
                    continue
                }
                // The naive definition: line feeds before, scalars since the last one.
                let before = bytes[..<min(offset, bytes.count)]
                let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
                let line = 1 + before.filter { $0 == 0x0A }.count
                let column = 1 + before[lineStart...].filter { $0 & 0xC0 != 0x80 }.count
                #expect(location.line == line && location.column == column, "\(bytes) at \(offset)")
            }
        }
    }
}
