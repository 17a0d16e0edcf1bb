import Testing

@testable import JSONAPI
@testable import JSONAPITestSupport

/// `ValueReader.valueEnd` skips 16 bytes at a time; a plain byte loop, the way the rule reads, is
/// the reference it must agree with, on values of every kind and on bytes that are not JSON.
@Suite struct ValueReaderTests {
    /// The end of the value at `start`, byte by byte.
    static func referenceEnd(_ bytes: [UInt8], _ start: Int) -> Int {
        guard start >= 0, start < bytes.count else { return bytes.count }
        func stringEnd(_ from: Int) -> Int {
            var i = from + 1
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "\"") { return i + 1 }
                i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
            }
            return bytes.count
        }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    i = stringEnd(i)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default:
                    break
                }
                i += 1
            }
            return bytes.count
        default:
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return i
                default: i += 1
                }
            }
            return i
        }
    }

    static func actualEnd(_ bytes: [UInt8], _ start: Int) -> Int {
        bytes.withUnsafeBytes { raw in ValueReader.valueEnd(unsafe ByteView(unsafeBytes: raw), start) }
    }

    /// A random JSON value: long and short strings with escaped quotes and brackets inside,
    /// numbers of every form, literals, and nested containers with whitespace.
    static func value(_ random: inout SplitMix64, depth: Int = 0) -> String {
        let pick = depth > 3 ? random.next() % 4 : random.next() % 6
        switch pick {
        case 0:
            let pieces = ["a", "é", "\\\"", "\\\\", "[", "]", "{", "}", ",", " ", "\\u005d", "x\u{1F600}"]
            let length = Int(random.next() % 40)
            return "\"" + (0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() + "\""
        case 1:
            let numbers = ["0", "-1", "12345678901234567890", "3.25", "-0.5e-7", "6.02E+23", "1e400", "-9"]
            return numbers[Int(random.next() % UInt64(numbers.count))]
        case 2:
            return ["true", "false", "null"][Int(random.next() % 3)]
        case 3:
            return String(repeating: "7", count: Int(random.next() % 40) + 1)
        case 4:
            let count = Int(random.next() % 5)
            let members = (0..<count).map { index in
                "\"k\(index)\"" + space(&random) + ":" + space(&random) + value(&random, depth: depth + 1)
            }
            return "{" + space(&random) + members.joined(separator: "," + space(&random)) + space(&random) + "}"
        default:
            let count = Int(random.next() % 6)
            let elements = (0..<count).map { _ in space(&random) + value(&random, depth: depth + 1) }
            return "[" + elements.joined(separator: ",") + space(&random) + "]"
        }
    }

    static func space(_ random: inout SplitMix64) -> String {
        ["", "", " ", "\n\t", "   \r\n  "][Int(random.next() % 5)]
    }

    @Test func agreesWithTheByteLoopOnJSONValues() {
        var random = SplitMix64(seed: 20_261_202)
        for _ in 0..<3_000 {
            let prefix = String(repeating: " ", count: Int(random.next() % 20))
            let text = Self.value(&random)
            let after = ["", ",", "}", "]", " ", "\n", ",\"next\":1}"][Int(random.next() % 7)]
            let bytes = Array((prefix + text + after).utf8)
            let start = prefix.utf8.count
            let expected = Self.referenceEnd(bytes, start)
            #expect(Self.actualEnd(bytes, start) == expected, "\(prefix + text + after)")
            #expect(expected == start + text.utf8.count || after.isEmpty, "\(prefix + text + after)")
        }
    }

    /// On bytes that are not JSON (control bytes, unbalanced brackets, a cut string), and from
    /// every start, the answer is the reference's and inside the buffer.
    @Test func agreesWithTheByteLoopOnAnyBytes() {
        var random = SplitMix64(seed: 7)
        let alphabet: [UInt8] = Array("{}[]\",:\\ \t\n\r0123456789-+.eEtrufalsn".utf8) + [0x00, 0x01, 0x1F, 0x7F, 0xFF]
        for _ in 0..<2_000 {
            let count = Int(random.next() % 70)
            let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            for start in 0...count {
                let end = Self.actualEnd(bytes, start)
                #expect(end == Self.referenceEnd(bytes, start), "\(bytes) from \(start)")
                #expect(end <= bytes.count)
            }
        }
    }
}
