import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The string scan checks non-ASCII text sixteen bytes at a time when it can (whole blocks with
/// three bytes of the chunk before them). These tests put random mixes of valid characters and
/// one kind of bad sequence at every alignment and compare the verdict with the standard
/// library's UTF-8 validation, and the error offset with a byte-at-a-time parse (1-byte chunks
/// never reach the block check).
@Suite("Strings: UTF-8 checked a block at a time")
struct UTF8BlockTests {
    /// Valid characters, with the edges of every range the block check compares against.
    static let valid: [[UInt8]] = [
        [0xC2, 0x80], [0xC3, 0xA9], [0xDF, 0xBF],  // U+0080, é, U+07FF
        [0xE0, 0xA0, 0x80], [0xE2, 0x82, 0xAC], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
        Array("한국어".utf8), Array("Ангстрем".utf8),
    ]

    /// Bad sequences: overlong forms, surrogates, values past U+10FFFF, bytes that never occur,
    /// stray continuation bytes and leads without their continuations.
    static let invalid: [[UInt8]] = [
        [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
        [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0x80], [0xBF], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        [0xC3], [0xE2, 0x82, 0xC3, 0xA9], [0xC3, 0xC3, 0xA9],
    ]

    struct Case {
        var content: [UInt8] = []
        var corrupted = false
    }

    static func randomCase(_ rng: inout SplitMix64, corrupt: Bool) -> Case {
        var result = Case()
        let pieces = Int.random(in: 1...24, using: &rng)
        let badPiece = corrupt ? Int.random(in: 0..<pieces, using: &rng) : -1
        for piece in 0..<pieces {
            if piece == badPiece {
                result.content += invalid[Int.random(in: 0..<invalid.count, using: &rng)]
                result.corrupted = true
                continue
            }
            switch Int.random(in: 0...9, using: &rng) {
            case 0...3:
                for _ in 0..<Int.random(in: 0...19, using: &rng) {
                    result.content.append(UInt8(ascii: "a") + UInt8.random(in: 0...25, using: &rng))
                }
            case 4...8:
                result.content += valid[Int.random(in: 0..<valid.count, using: &rng)]
            default:
                // Escapes end a block's run the way the closing quote does.
                result.content += Array((Bool.random(using: &rng) ? #"\n"# : #"\u00e9"#).utf8)
            }
        }
        return result
    }

    @Test("Random text at every alignment: verdicts match the standard library and 1-byte chunks")
    func randomText() throws {
        var rng = SplitMix64(seed: 0x7574_6638)
        var accepted = 0
        var rejected = 0
        for round in 0..<1500 {
            let sample = Self.randomCase(&rng, corrupt: round % 3 == 0)
            // The padding moves the string against the sixteen-byte blocks.
            let padding = [UInt8](repeating: UInt8(ascii: " "), count: round % 17)
            let bytes =
                Array(#"{"data":{"type":"t","id":"1","attributes":{"#.utf8) + padding
                + Array(#""s":""#.utf8) + sample.content + Array(#""}},"meta":{"m":""#.utf8) + sample.content
                + Array(#""}}"#.utf8)
            let isValid = String(validating: sample.content, as: UTF8.self) != nil
            if !sample.corrupted { #expect(isValid, "a valid sample must be valid UTF-8: \(sample.content)") }
            let outcome = parseEverywhere(bytes, everySplit: false)
            switch outcome {
            case .success:
                #expect(isValid, "accepted invalid UTF-8: \(sample.content)")
                accepted += 1
            case .failure(let error):
                #expect(!isValid, "rejected valid UTF-8: \(sample.content): \(error)")
                #expect(error.code == .invalidUTF8, "\(error)")
                rejected += 1
            }
        }
        // Both verdicts were exercised, so neither branch above is vacuous.
        #expect(accepted > 500 && rejected > 200)
    }

    @Test("Long non-ASCII strings: one changed byte anywhere is judged as the standard library judges it")
    func longStrings() throws {
        let text = Array(String(repeating: "Łódź 한국어 🎉 café Ангстрем ", count: 40).utf8)
        let document = { (content: [UInt8]) in
            Array(#"{"data":{"type":"t","id":"1","attributes":{"s":""#.utf8) + content + Array(#""}}}"#.utf8)
        }
        let valid = try Document(parsing: document(text))
        #expect(valid.primaryResources.first?.attributes["s"]?.stringValue == String(decoding: text, as: UTF8.self))
        let prefix = document([]).count - 4
        for position in stride(from: 0, to: text.count, by: 7) {
            for bad: UInt8 in [0xFF, 0x80, 0xC0] {
                var content = text
                content[position] = bad
                // 0x80 in place of a continuation byte leaves valid text.
                let isValid = String(validating: content, as: UTF8.self) != nil
                do {
                    _ = try Document(parsing: document(content))
                    #expect(isValid, "byte \(bad) at \(position) accepted")
                } catch {
                    #expect(!isValid && error.code == .invalidUTF8, "byte \(bad) at \(position): \(error)")
                    // The error points into the character the bad byte broke, never past it.
                    #expect(error.offset <= prefix + position && error.offset >= prefix + position - 3)
                }
            }
        }
    }
}
