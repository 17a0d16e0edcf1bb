import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoding: JSONWriter numbers")
struct EncodingWriterNumberTests {
    typealias Support = EncodingTestSupport

    @Test func integerExtremes() throws {
        #expect(try Support.written { $0.number(Int64.min) } == "-9223372036854775808")
        #expect(try Support.written { $0.number(Int64.max) } == "9223372036854775807")
        #expect(try Support.written { $0.number(UInt64.max) } == "18446744073709551615")
        #expect(try Support.written { $0.number(Int.min) } == "-9223372036854775808")
        #expect(try Support.written { $0.number(Int.max) } == "9223372036854775807")
        #expect(try Support.written { $0.number(Int32.min) } == "-2147483648")
        #expect(try Support.written { $0.number(UInt32.max) } == "4294967295")
        #expect(try Support.written { $0.number(Int16.min) } == "-32768")
        #expect(try Support.written { $0.number(Int8.min) } == "-128")
        #expect(try Support.written { $0.number(UInt8.max) } == "255")
        #expect(try Support.written { $0.number(0) } == "0")
        #expect(try Support.written { $0.number(-1) } == "-1")
        #expect(try Support.written { $0.number(UInt(10)) } == "10")
        #expect(try Support.written { $0.number(-10) } == "-10")
        #expect(try Support.written { $0.number(99) } == "99")
        #expect(try Support.written { $0.number(100) } == "100")
        #expect(try Support.written { $0.number(-100) } == "-100")
    }

    @Test func wideIntegers() throws {
        #expect(try Support.written { $0.number(Int128.min) } == "-170141183460469231731687303715884105728")
        #expect(try Support.written { $0.number(Int128.max) } == "170141183460469231731687303715884105727")
        #expect(try Support.written { $0.number(UInt128.max) } == "340282366920938463463374607431768211455")
        #expect(try Support.written { $0.number(UInt128(UInt64.max) + 1) } == "18446744073709551616")
        // A 19-digit inner chunk with leading zeros.
        let padded = UInt128(10_000_000_000_000_000_000) * 5 + 7
        #expect(try Support.written { $0.number(padded) } == "50000000000000000007")
        #expect(try Support.written { $0.number(-Int128(padded)) } == "-50000000000000000007")
    }

    @Test func randomIntegersMatchTheStandardLibrary() throws {
        var generator = Support.SeededGenerator(seed: 1)
        for _ in 0..<20_000 {
            let shift = UInt64.random(in: 0..<64, using: &generator)
            let signed = Int64(bitPattern: generator.next()) >> shift
            let unsigned = generator.next() >> shift
            let wide = Int128(Int64(bitPattern: generator.next())) * Int128(generator.next() >> shift)
            let text = try Support.written { w in
                w.beginArray()
                w.number(signed)
                w.number(unsigned)
                w.number(Int(truncatingIfNeeded: signed))
                w.number(Int32(truncatingIfNeeded: signed))
                w.number(wide)
                w.endArray()
            }
            #expect(text == "[\(signed),\(unsigned),\(signed),\(Int32(truncatingIfNeeded: signed)),\(wide)]")
        }
    }

    /// Writes `value` and checks the text is a JSON number that reads back as the same bits.
    private func expectRoundTrip(_ value: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try Support.written { try $0.number(value) }
        #expect(Support.isJSONNumber(text), "\(text) is not a JSON number", sourceLocation: sourceLocation)
        #expect(Double(text)?.bitPattern == value.bitPattern, "\(text) != \(value)", sourceLocation: sourceLocation)
    }

    @Test func doubleEdgeCases() throws {
        #expect(try Support.written { try $0.number(5.0) } == "5.0")
        #expect(try Support.written { try $0.number(-5.0) } == "-5.0")
        #expect(try Support.written { try $0.number(0.0) } == "0.0")
        #expect(try Support.written { try $0.number(-0.0) } == "-0.0")
        #expect(try Support.written { try $0.number(0.1) } == "0.1")
        #expect(try Support.written { try $0.number(1e300) } == "1e+300")
        #expect(try Support.written { try $0.number(Double.leastNonzeroMagnitude) } == "5e-324")
        #expect(try Support.written { try $0.number(1e-5) } == "1e-05")
        #expect(try Support.written { try $0.number(1e16) } == "1e+16")
        #expect(try Support.written { try $0.number(9_007_199_254_740_991.0) } == "9007199254740991.0")
        #expect(try Support.written { try $0.number(9_007_199_254_740_992.0) } == "9007199254740992.0")
        #expect(try Support.written { try $0.number(1_000_000.0) } == "1000000.0")
        #expect(try Support.written { try $0.number(Double.greatestFiniteMagnitude) } == "1.7976931348623157e+308")
        #expect(try Support.written { try $0.number(0.30000000000000004) } == "0.30000000000000004")
        for value: Double in [
            0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e300, -1e300, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude,
            .leastNormalMagnitude, .leastNonzeroMagnitude, Double.leastNormalMagnitude.nextDown, 1, -1, 0.1, 1e-7,
            123_456_789.125, 4_503_599_627_370_495.5, 9_007_199_254_740_994, 1e15, 1e21, 1e22, 1e23,
        ] {
            try expectRoundTrip(value)
        }
    }

    @Test func randomBitPatternsRoundTrip() throws {
        var generator = Support.SeededGenerator(seed: 2024)
        var checked = 0
        while checked < 100_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            checked += 1
            try expectRoundTrip(value)
        }
        // Subnormals: exponent bits zero.
        for _ in 0..<10_000 {
            let value = Double(bitPattern: generator.next() & 0x800F_FFFF_FFFF_FFFF)
            try expectRoundTrip(value)
        }
    }

    /// The writer prints doubles itself (the Schubfach shortest decimal, no `String`): its text
    /// must be `description`'s, byte for byte, which is the shortest that reads back (the closest
    /// of those) in `description`'s layout.
    @Test func doublesAreWrittenAsDescriptionWritesThem() throws {
        var values: [Double] = [0.0001, 0.00009999, 1e-05, 9_007_199_254_740_994, 1.5e16, 8e-323, 1e-323, 5e-324]
        var generator = Support.SeededGenerator(seed: 7)
        while values.count < 60_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        for _ in 0..<20_000 {
            // Subnormals, and decimals of the kind documents carry (a few digits, some exponent).
            values.append(Double(bitPattern: generator.next() & 0x800F_FFFF_FFFF_FFFF))
            let digits = Double(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 60))
            values.append(digits * pow(10, Double(Int(generator.next() % 40) - 20)))
        }
        for exponent in Double.leastNonzeroMagnitude.exponent...Double.greatestFiniteMagnitude.exponent {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, power.nextUp, power.nextDown]
        }
        for exponent in -325...308 {
            if let power = Double("1e\(exponent)") { values += [power, power.nextUp, power.nextDown] }
        }
        for value in values {
            var writer = JSONWriter()
            try writer.number(value)
            let text = String(decoding: try writer.finish(), as: UTF8.self)
            #expect(text == value.description)
            #expect(try Support.written { try $0.number(-value) } == (-value).description)
        }
    }

    @Test func doublesReadBackByFoundation() throws {
        var generator = Support.SeededGenerator(seed: 99)
        var values: [Double] = []
        while values.count < 2000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        var writer = JSONWriter()
        writer.beginArray()
        for value in values { try writer.number(value) }
        writer.endArray()
        let parsed = try #require(try Support.parse(try writer.finish()) as? [Any])
        #expect(parsed.count == values.count)
        for (value, back) in zip(values, parsed) {
            #expect(Support.doubleValue(of: back)?.bitPattern == value.bitPattern)
        }
    }

    @Test(arguments: [Double.nan, -Double.nan, Double.signalingNaN, Double.infinity, -Double.infinity])
    func nonFiniteDoublesAreRejected(_ value: Double) throws {
        var writer = JSONWriter()
        writer.beginArray()
        #expect {
            try writer.number(value)
        } throws: { error in
            (error as? JSONAPIError)?.code == .encodingFailed
        }
        // Nothing was written and the writer goes on.
        #expect(writer.bytes == Array("[".utf8))
        #expect(writer.misuse == nil)
        writer.number(1)
        writer.endArray()
        #expect(try writer.finish() == Array("[1]".utf8))
    }

    @Test func floats() throws {
        #expect(try Support.written { try $0.number(Float(0.1)) } == "0.1")
        #expect(try Support.written { try $0.number(Float(5)) } == "5.0")
        #expect(try Support.written { try $0.number(Float.greatestFiniteMagnitude) } == "3.4028235e+38")
        #expect(throws: JSONAPIError.self) { _ = try Support.written { try $0.number(Float.nan) } }
        var generator = Support.SeededGenerator(seed: 5)
        for _ in 0..<20_000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            guard value.isFinite else { continue }
            let text = try Support.written { try $0.number(value) }
            #expect(Support.isJSONNumber(text))
            #expect(Float(text)?.bitPattern == value.bitPattern)
        }
    }

    @Test func decimalsAreExact() throws {
        let cases = [
            "3.14", "-0.001", "0", "12345678901234567890.123456789", "1e100", "-1e-100",
            "0.1000000000000000055511151231257827",
        ]
        for text in cases {
            let decimal = try #require(Decimal(string: text))
            let written = try Support.written { try $0.number(decimal) }
            #expect(Support.isJSONNumber(written), "\(written)")
            #expect(Decimal(string: written) == decimal)
        }
        #expect(try Support.written { try $0.number(Decimal(string: "3.14") ?? 0) } == "3.14")
        #expect(throws: JSONAPIError.self) { _ = try Support.written { try $0.number(Decimal.nan) } }
    }

    @Test func numberTextIsCopiedVerbatim() throws {
        let valid = ["0", "-0", "1", "-1.5", "0.000", "1e5", "1E+5", "-2.5e-3", "123456789012345678901234567890.5"]
        for text in valid {
            #expect(try Support.written { try $0.number(text: text) } == text)
            #expect(try Support.written { try $0.number(text: text[...]) } == text)
            let fromBytes = try Support.written { w in
                try Array(text.utf8).withUnsafeBytes { bytes in try w.number(textBytes: bytes) }
            }
            #expect(fromBytes == text)
        }
    }

    @Test func invalidNumberTextIsRejected() throws {
        let invalid = [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "1 ", " 1", "1,2", "--1", "1.5.5",
        ]
        for text in invalid {
            var writer = JSONWriter()
            #expect(throws: JSONAPIError.self, "\(text.debugDescription)") { try writer.number(text: text) }
            #expect(writer.bytes.isEmpty)
            #expect(!writer.isComplete)
        }
    }
}
