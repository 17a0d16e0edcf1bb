import Testing

@testable import JSONAPI
@testable import JSONAPITestSupport

/// The streaming encoder's strings (`StreamBuffer`, sixteen bytes at a time) against a byte by
/// byte reference of the escaping rules: every length around the block size, an escapable
/// byte at every position, runs of escapes, text across a buffer's growth.
@Suite("Encoding: the streaming encoder's string escaping")
struct StreamBufferStringTests {
    /// What `buffer` holds after `prefix` and the string `text`.
    static func written(_ text: String, slashes: Bool, capacity: Int = 1, prefix: Int = 0) -> String {
        var buffer = StreamBuffer(capacity: capacity, escapeSlashes: slashes)
        for _ in 0..<prefix { buffer.appendByte(UInt8(ascii: "x")) }
        buffer.appendString(text)
        let bytes = buffer.withBytes { Array($0) }
        return String(decoding: bytes.dropFirst(prefix), as: UTF8.self)
    }

    static func reference(_ text: String, slashes: Bool) -> String {
        EncodingWriterStringTests.referenceEscapeBytes(text, slashes: slashes)
    }

    @Test("one escapable byte at every position of strings of every length up to 70")
    func everyPosition() {
        let escapable: [Character] = ["\"", "\\", "/", "\u{0}", "\u{1F}", "\n", "\t"]
        for length in 1...70 {
            for position in 0..<length {
                for character in escapable {
                    var characters = Array(repeating: Character("a"), count: length)
                    characters[position] = character
                    let text = String(characters)
                    for slashes in [false, true] {
                        #expect(
                            Self.written(text, slashes: slashes) == Self.reference(text, slashes: slashes),
                            "length \(length), position \(position), \(character.unicodeScalars.first?.value ?? 0)")
                    }
                }
            }
        }
    }

    @Test("plain, non-ASCII, empty and all-escape strings, at every offset in a growing buffer")
    func shapes() {
        let texts = [
            "", "a", String(repeating: "b", count: 15), String(repeating: "c", count: 16),
            String(repeating: "d", count: 17), String(repeating: "é", count: 40), "日本語のテキスト / \"quoted\"",
            String(repeating: "\"", count: 33), String(repeating: "\u{7}", count: 18), "\u{7F}\u{80}🙂",
            String(repeating: "x", count: 1000) + "\\" + String(repeating: "y", count: 1000),
        ]
        for text in texts {
            for prefix in [0, 1, 7, 63] {
                for capacity in [1, 64, 4096] {
                    for slashes in [false, true] {
                        #expect(
                            Self.written(text, slashes: slashes, capacity: capacity, prefix: prefix)
                                == Self.reference(text, slashes: slashes))
                    }
                }
            }
        }
    }

    @Test("random strings: mostly plain, with escapes and non-ASCII scattered")
    func random() {
        var generator = EncodingTestSupport.SeededGenerator(seed: 41)
        let alphabet: [Character] =
            Array("abcdefghijklmnopqrstuvwxyz0123456789 ") + ["\"", "\\", "/", "\n", "\u{1}", "é", "🙂"]
        for _ in 0..<2000 {
            let length = Int.random(in: 0...120, using: &generator)
            let text = String(
                (0..<length).map { _ in
                    Int.random(in: 0..<10, using: &generator) == 0
                        ? alphabet[Int.random(in: 37..<alphabet.count, using: &generator)]
                        : alphabet[Int.random(in: 0..<37, using: &generator)]
                })
            let slashes = Bool.random(using: &generator)
            #expect(Self.written(text, slashes: slashes) == Self.reference(text, slashes: slashes), "\(text)")
        }
    }
}
