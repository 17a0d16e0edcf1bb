@_spi(Backend) import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// Generates random valid JSON text together with what a scan of it must report.
struct RandomJSON {
    /// An expected event, by value rather than position.
    enum Expected: Equatable {
        case beginObject, endObject, beginArray, endArray
        case key(String, escaped: Bool)
        case string(String, escaped: Bool)
        case number(String, isInteger: Bool)
        case literal(JSONLiteral)
    }

    var rng: SplitMix64
    var text: [UInt8] = []
    var expected: [Expected] = []

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func whitespace() {
        guard chance(30) else { return }
        for _ in 0..<int(1...3) { text.append([0x20, 0x0A, 0x09, 0x0D][int(0...3)]) }
    }

    mutating func document() {
        whitespace()
        value(depth: 0)
        whitespace()
    }

    mutating func value(depth: Int) {
        switch int(depth < 6 ? 0...9 : 2...9) {
        case 0:
            text.append(UInt8(ascii: "{"))
            expected.append(.beginObject)
            let count = int(0...5)
            for k in 0..<count {
                if k > 0 { text.append(UInt8(ascii: ",")) }
                whitespace()
                let (key, escaped) = string()
                expected.append(.key(key, escaped: escaped))
                whitespace()
                text.append(UInt8(ascii: ":"))
                whitespace()
                value(depth: depth + 1)
                whitespace()
            }
            if count == 0 { whitespace() }
            text.append(UInt8(ascii: "}"))
            expected.append(.endObject)
        case 1:
            text.append(UInt8(ascii: "["))
            expected.append(.beginArray)
            let count = int(0...5)
            for k in 0..<count {
                if k > 0 { text.append(UInt8(ascii: ",")) }
                whitespace()
                value(depth: depth + 1)
                whitespace()
            }
            if count == 0 { whitespace() }
            text.append(UInt8(ascii: "]"))
            expected.append(.endArray)
        case 2, 3, 4:
            let (value, escaped) = string()
            expected.append(.string(value, escaped: escaped))
        case 5, 6, 7:
            number()
        default:
            let literal = [JSONLiteral.true, .false, .null][int(0...2)]
            text.append(contentsOf: Array("\(literal)".utf8))
            expected.append(.literal(literal))
        }
    }

    /// Appends a string token; returns its value and whether it has escapes.
    mutating func string() -> (String, Bool) {
        text.append(UInt8(ascii: "\""))
        var value = ""
        var escaped = false
        let pieces = chance(20) ? int(10...60) : int(0...6)
        for _ in 0..<pieces {
            switch int(0...9) {
            case 0...3:
                let run = String((0..<int(1...12)).map { _ in Character(Unicode.Scalar(UInt8(int(0x20...0x7E)))) })
                    .replacingOccurrences(of: "\\", with: "/").replacingOccurrences(of: "\"", with: "'")
                text.append(contentsOf: Array(run.utf8))
                value += run
            case 4:
                let simple: [(String, String)] = [
                    ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\u{08}"), ("\\f", "\u{0C}"),
                    ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"),
                ]
                let (escape, decoded) = simple[int(0...simple.count - 1)]
                text.append(contentsOf: Array(escape.utf8))
                value += decoded
                escaped = true
            case 5:
                // A \u escape of a BMP scalar (not a surrogate).
                var scalar = UInt32(int(0...0xFFFF))
                if (0xD800...0xDFFF).contains(scalar) { scalar = 0xE000 }
                text.append(contentsOf: Array("\\u".utf8) + hex(scalar))
                value.unicodeScalars.append(Unicode.Scalar(scalar) ?? "?")
                escaped = true
            case 6:
                // A surrogate pair escape.
                let scalar = UInt32(int(0x10000...0x10FFFF))
                let high = 0xD800 + ((scalar - 0x10000) >> 10)
                let low = 0xDC00 + ((scalar - 0x10000) & 0x3FF)
                text.append(contentsOf: Array("\\u".utf8) + hex(high) + Array("\\u".utf8) + hex(low))
                value.unicodeScalars.append(Unicode.Scalar(scalar) ?? "?")
                escaped = true
            default:
                // Raw UTF-8 of 2, 3 or 4 bytes.
                let ranges: [ClosedRange<Int>] = [0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
                let scalar = Unicode.Scalar(UInt32(int(ranges[int(0...3)]))) ?? "?"
                text.append(contentsOf: Array(String(scalar).utf8))
                value.unicodeScalars.append(scalar)
            }
        }
        text.append(UInt8(ascii: "\""))
        return (value, escaped)
    }

    mutating func hex(_ value: UInt32) -> [UInt8] {
        let digits = Array((chance(50) ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        return [12, 8, 4, 0].map { digits[Int((value >> $0) & 0xF)] }
    }

    mutating func number() {
        var number = chance(30) ? "-" : ""
        number +=
            chance(20) ? "0" : String(int(1...9)) + String((0..<int(0...18)).map { _ in Character("\(int(0...9))") })
        var isInteger = true
        if chance(35) {
            number += "." + String((0..<int(1...8)).map { _ in Character("\(int(0...9))") })
            isInteger = false
        }
        if chance(20) {
            number += ["e", "E"][int(0...1)] + ["", "+", "-"][int(0...2)] + String(int(0...400))
            isInteger = false
        }
        text.append(contentsOf: Array(number.utf8))
        expected.append(.number(number, isInteger: isInteger))
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}

/// What the events of a scan say, by value: strings decoded, numbers as text.
func expectedEvents(of outcome: ScanOutcome, in bytes: [UInt8]) -> [RandomJSON.Expected] {
    bytes.withUnsafeBytes { buffer in
        outcome.events.map { event in
            switch event {
            case .beginObject: return .beginObject
            case .endObject: return .endObject
            case .beginArray: return .beginArray
            case .endArray: return .endArray
            case .key(let token):
                let raw = UnsafeRawBufferPointer(rebasing: buffer[token.start..<token.end])
                return .key(JSONStringDecoding.decode(raw, hasEscapes: token.hasEscapes), escaped: token.hasEscapes)
            case .string(let token):
                let raw = UnsafeRawBufferPointer(rebasing: buffer[token.start..<token.end])
                return .string(
                    JSONStringDecoding.decode(raw, hasEscapes: token.hasEscapes), escaped: token.hasEscapes)
            case .number(let token):
                return .number(
                    String(decoding: bytes[token.start..<token.end], as: UTF8.self), isInteger: token.isInteger)
            case .literal(let literal, _):
                return .literal(literal)
            }
        }
    }
}

/// Random ascending cut points inside `count` bytes.
func randomCuts(_ count: Int, using rng: inout SplitMix64) -> [Int] {
    guard count > 1 else { return [] }
    return (0..<Int.random(in: 1...8, using: &rng)).map { _ in Int.random(in: 0...count, using: &rng) }.sorted()
}

@Suite("JSONScanner: randomized")
struct JSONScannerRandomTests {
    @Test("Random valid documents: events match the generator, chunked scans match whole ones")
    func randomValidDocuments() {
        var rng = SplitMix64(seed: 0x5CA7_7E5)
        for seed in UInt64(1)...400 {
            var generator = RandomJSON(seed: seed)
            generator.document()
            let bytes = generator.text
            let whole = scan(bytes)
            #expect(whole.error == nil, "seed \(seed): \(whole)")
            #expect(expectedEvents(of: whole, in: bytes) == generator.expected, "seed \(seed)")
            for _ in 0..<12 {
                let cuts = randomCuts(bytes.count, using: &rng)
                let chunked = scan(bytes, cuts: cuts)
                #expect(chunked == whole, "seed \(seed) cuts \(cuts)")
            }
            if seed % 10 == 0 { #expect(scanBytewise(bytes) == whole, "seed \(seed) bytewise") }
        }
    }

    @Test("Random mutations never crash, and chunked verdicts equal whole ones")
    func randomMutations() {
        let interesting: [UInt8] =
            Array(#""\{}[],:0-+.eEu1 tfn"#.utf8) + [
                0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC2, 0xC3,
                0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x0A,
            ]
        var rng = SplitMix64(seed: 0xBAD_C0DE)
        var rejected = 0
        for seed in UInt64(1)...600 {
            var generator = RandomJSON(seed: seed &* 7919)
            generator.document()
            var bytes = generator.text
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0...bytes.count, using: &rng)
                let byte =
                    Bool.random(using: &rng)
                    ? interesting[Int.random(in: 0..<interesting.count, using: &rng)]
                    : UInt8.random(in: 0...255, using: &rng)
                switch Int.random(in: 0...2, using: &rng) {
                case 0 where at < bytes.count: bytes[at] = byte
                case 1 where at < bytes.count: bytes.remove(at: at)
                default: bytes.insert(byte, at: at)
                }
            }
            // Small limits on some documents, so those errors meet chunk boundaries too.
            let depth = seed % 3 == 0 ? 3 : 512
            let strings = seed % 4 == 0 ? 9 : 1 << 30
            let whole = scan(bytes, maximumDepth: depth, maximumStringBytes: strings)
            if let error = whole.error {
                rejected += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
            for _ in 0..<6 {
                let cuts = randomCuts(bytes.count, using: &rng)
                let chunked = scan(bytes, cuts: cuts, maximumDepth: depth, maximumStringBytes: strings)
                #expect(chunked == whole, "seed \(seed) cuts \(cuts): \(chunked) vs \(whole)")
            }
            if seed % 5 == 0 {
                let bytewise = scanBytewise(bytes, maximumDepth: depth, maximumStringBytes: strings)
                #expect(bytewise == whole, "seed \(seed) bytewise")
            }
        }
        // The mutations must actually break most documents, or this test proves little.
        #expect(rejected > 300)
    }

    @Test("Random byte soup never crashes")
    func randomBytes() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let count = Int.random(in: 0...64, using: &rng)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let whole = scan(bytes)
            #expect(scanBytewise(bytes) == whole)
        }
    }
}
