@_spi(Backend) import JSONAPI
import Testing

@testable import JSONAPITestSupport

private func int64(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBytes { JSONNumberParsing.int64($0) } }
private func uint64(_ text: String) -> UInt64? { Array(text.utf8).withUnsafeBytes { JSONNumberParsing.uint64($0) } }
private func double(_ text: String) -> Double? { Array(text.utf8).withUnsafeBytes { JSONNumberParsing.double($0) } }

@Suite("JSONNumberParsing")
struct JSONNumberParsingTests {
    @Test("Int64 at its boundaries")
    func int64Boundaries() {
        #expect(int64("0") == 0)
        #expect(int64("-0") == 0)
        #expect(int64("42") == 42)
        #expect(int64("-42") == -42)
        #expect(int64("9223372036854775807") == .max)
        #expect(int64("-9223372036854775808") == .min)
        #expect(int64("9223372036854775808") == nil)
        #expect(int64("-9223372036854775809") == nil)
        #expect(int64("18446744073709551616") == nil)
        #expect(int64("99999999999999999999999") == nil)
    }

    @Test("UInt64 at its boundaries")
    func uint64Boundaries() {
        #expect(uint64("0") == 0)
        #expect(uint64("-0") == 0)
        #expect(uint64("18446744073709551615") == .max)
        #expect(uint64("18446744073709551616") == nil)
        #expect(uint64("-1") == nil)
        #expect(uint64("9223372036854775808") == 9_223_372_036_854_775_808)
    }

    @Test(
        "Anything but a JSON integer is not an integer",
        arguments: ["", "-", "1.0", "1e2", "01", "-01", "+1", "12a", " 1", "1 ", "0x10", "--1", "1.", "١"])
    func notIntegers(_ text: String) {
        #expect(int64(text) == nil)
        #expect(uint64(text) == nil)
    }

    @Test("Doubles on the fast path and off it")
    func doubles() throws {
        #expect(double("0") == 0)
        #expect(try #require(double("-0")).sign == .minus)
        #expect(try #require(double("-0.0e5")).sign == .minus)
        #expect(double("1.5") == 1.5)
        #expect(double("-2.5e3") == -2500)
        #expect(double("0.1") == 0.1)
        #expect(double("0.30000000000000004") == 0.30000000000000004)
        #expect(double("3.141592653589793") == 3.141592653589793)
        #expect(double("1e22") == 1e22)
        #expect(double("1e23") == 1e23)
        #expect(double("1E-7") == 1e-7)
        #expect(double("9007199254740993") == 9_007_199_254_740_992)  // 2^53 + 1 rounds to even
        #expect(double("123456789012345678901234567890") == 1.2345678901234568e29)
        #expect(double("1.7976931348623157e308") == .greatestFiniteMagnitude)
        #expect(double("4.9e-324") == .leastNonzeroMagnitude)
        #expect(double("2.2250738585072014e-308") == .leastNormalMagnitude)
        #expect(double("1e-400") == 0)
        #expect(double("0e999999999999999999999") == 0)
        #expect(double("0.000000000000000000000000000001") == 1e-30)
    }

    @Test("Doubles that overflow are nil", arguments: ["1e309", "-1e309", "1.8e308", "1e99999999999999999999"])
    func overflow(_ text: String) {
        #expect(double(text) == nil)
    }

    @Test(
        "Anything but a JSON number is nil",
        arguments: [
            "", "abc", "1.", ".5", "inf", "nan", "Infinity", "0x10", "1e", "1e+", "--1", " 1", "1 ", "+1",
            "01", "1.5.3", "0x1p3",
        ])
    func notNumbers(_ text: String) {
        #expect(double(text) == nil)
    }

    @Test("Random numbers agree with the standard library's correctly rounded conversion")
    func randomDoubles() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<5000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let digits = Int.random(in: 1...25, using: &rng)
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &rng)) }
            if Bool.random(using: &rng) {
                let point = Int.random(in: 1...text.count - (text.hasPrefix("-") ? 1 : 0), using: &rng)
                let body = text.hasPrefix("-") ? String(text.dropFirst()) : text
                let index = body.index(body.startIndex, offsetBy: min(point, body.count - 1))
                if index != body.startIndex && index != body.endIndex {
                    text = (text.hasPrefix("-") ? "-" : "") + body[..<index] + "." + body[index...]
                }
            }
            if Bool.random(using: &rng) { text += "e" + String(Int.random(in: -30...30, using: &rng)) }
            let reference = try #require(Double(text), "\(text)")
            #expect(double(text) == reference, "\(text)")
        }
    }

    @Test("Every exponent and up to 19 digits (Eisel-Lemire) agree bit for bit with the standard library")
    func eiselLemireAgainstTheStandardLibrary() throws {
        var rng = SplitMix64(seed: 20_261_201)
        for _ in 0..<60_000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let digits = Int.random(in: 1...19, using: &rng)
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &rng)) }
            if digits > 1 && Bool.random(using: &rng) {
                let body = text.hasPrefix("-") ? String(text.dropFirst()) : text
                let index = body.index(body.startIndex, offsetBy: Int.random(in: 1..<body.count, using: &rng))
                text = (text.hasPrefix("-") ? "-" : "") + body[..<index] + "." + body[index...]
            }
            text += "e" + String(Int.random(in: -360...330, using: &rng))
            let parsed = double(text)
            if let reference = Double(text), reference.isFinite {
                #expect(parsed?.bitPattern == reference.bitPattern, "\(text)")
            } else {
                #expect(parsed == nil, "\(text)")
            }
        }
    }

    @Test("Shortest descriptions of random doubles read back as the same bits")
    func shortestDescriptionsRoundTrip() {
        var rng = SplitMix64(seed: 53)
        var checked = 0
        while checked < 60_000 {
            let value = Double(bitPattern: rng.next())
            guard value.isFinite else { continue }
            checked += 1
            #expect(double(value.description)?.bitPattern == value.bitPattern, "\(value)")
        }
    }

    @Test("Boundaries of the Eisel-Lemire path: subnormals, the largest double, rounding to even")
    func eiselLemireBoundaries() throws {
        let cases = [
            "4.9406564584124654e-324", "2.4703282292062328e-324", "2.4703282292062327e-324",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072009e-308",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "9007199254740993e10", "9007199254740995e-10", "1e-342", "1e-343", "1e308", "1e-324",
            "7.2057594037927933e16", "3.0e-44", "1.448997445238699e-308", "8.98846567431158e307",
            "123456789012345678e-60", "9999999999999999999e-325", "9999999999999999999e290",
        ]
        for text in cases {
            let reference = try #require(Double(text), "\(text)")
            if reference.isFinite {
                #expect(double(text)?.bitPattern == reference.bitPattern, "\(text)")
            } else {
                #expect(double(text) == nil, "\(text)")
            }
        }
    }
}
