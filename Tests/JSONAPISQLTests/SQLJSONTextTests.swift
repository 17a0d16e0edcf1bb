import Testing

@testable import JSONAPISQL
@testable import JSONAPITestSupport

/// The id arrays the database writes, read without the parser where they are plain: the same ids
/// as the parser reads from random arrays of integers and strings, and nil (so the parser reads
/// them) for everything else.
@Suite("SQL: id arrays read without the parser")
struct SQLJSONTextTests {
    static func element(_ random: inout SplitMix64) -> String {
        switch random.next() % 8 {
        case 0: return "0"
        case 1: return String(Int64(bitPattern: random.next()) >> Int64(random.next() % 63))
        case 2: return String(random.next() % 1000)
        case 3: return #""a\"b""#
        case 4: return #""\u00e9t\u00e9""#
        case 5: return "\"é ü 😀 \(random.next() % 100)\""
        case 6:
            return ["1.5", "1e3", "-0", "01", "true", "null", "\"\"", "123456789012345678901"][Int(random.next() % 8)]
        default: return "\"id-\(random.next() % 10_000)\""
        }
    }

    @Test("random arrays: the parser's ids, or nil")
    func agreesWithTheParser() {
        var random = SplitMix64(seed: 54)
        var plain = 0
        for _ in 0..<5000 {
            let count = Int(random.next() % 5)
            let spaces = ["", " ", "\n  ", "\t"]
            let space = spaces[Int(random.next() % 4)]
            let text =
                "[" + space + (0..<count).map { _ in Self.element(&random) }.joined(separator: "," + space) + space
                + "]"
            // Text the parser refuses is never read as ids.
            let parsed = try? SQLJSONText.parsedIDs(text)
            if let ids = SQLJSONText.plainIDs(text) {
                #expect(ids == parsed, "\(text)")
                plain += 1
            }
        }
        #expect(plain > 1000)
        for text in ["", "[", "[1,", "[1 2]", "[\"a]", "[1]x", "{}", "[[1]]", "[\"a\u{1}\"]"] {
            #expect(SQLJSONText.plainIDs(text) == nil, "\(text)")
        }
        #expect(SQLJSONText.plainIDs("[]") == [])
        #expect(SQLJSONText.plainIDs(" [ 1 , -2 , \"x y\" ] ") == ["1", "-2", "x y"])
    }
}
