import Foundation
import JSONAPI
import Testing

/// Shared helpers of the `Encoding*` suites. The generator is `package`: a test file can name it
/// without importing this module `@testable`.
package enum EncodingTestSupport {
    /// SplitMix64: a tiny seeded generator, so random tests are reproducible.
    package struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        package init(seed: UInt64) { state = seed }
        package mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Runs `body` on a fresh writer and returns the finished text.
    static func written(
        _ options: JSONWritingOptions = JSONWritingOptions(), _ body: (inout JSONWriter) throws -> Void
    ) throws -> String {
        var writer = JSONWriter(options: options)
        try body(&writer)
        return String(decoding: try writer.finish(), as: UTF8.self)
    }

    /// Whether `text` follows the JSON number grammar of RFC 8259.
    ///
    /// Hand-written rather than a `Regex`: a regex literal shared by tests running in parallel
    /// crashes the Swift 6.3 runtime on Linux.
    static func isJSONNumber(_ text: String) -> Bool {
        let b = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == b.count
    }

    /// Parses JSON text with Foundation, fragments allowed.
    static func parse(_ bytes: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// The `Double` Foundation read: Linux Foundation returns `NSDecimalNumber` for long
    /// mantissas, whose `doubleValue` is not correctly rounded, so those go through their text.
    static func doubleValue(of parsed: Any) -> Double? {
        if let decimal = parsed as? NSDecimalNumber { return Double(decimal.stringValue) }
        return (parsed as? NSNumber)?.doubleValue
    }

    static func isBoolean(_ parsed: Any) -> Bool {
        guard let number = parsed as? NSNumber, !(parsed is NSDecimalNumber) else { return false }
        return String(cString: number.objCType) == "c"
    }

    /// A JSON value tree, for random round trips.
    indirect enum Value {
        case null
        case bool(Bool)
        case int(Int64)
        case double(Double)
        case string(String)
        case array([Value])
        case object([(key: String, value: Value)])

        /// Writes this value with `writer`.
        func write(to writer: inout JSONWriter) throws {
            switch self {
            case .null: writer.null()
            case .bool(let value): writer.bool(value)
            case .int(let value): writer.number(value)
            case .double(let value): try writer.number(value)
            case .string(let value): writer.string(value)
            case .array(let elements):
                writer.beginArray()
                for element in elements { try element.write(to: &writer) }
                writer.endArray()
            case .object(let members):
                writer.beginObject()
                for member in members {
                    writer.key(member.key)
                    try member.value.write(to: &writer)
                }
                writer.endObject()
            }
        }

        /// Whether Foundation's parse of the written text equals this value; a message when not.
        func mismatch(_ parsed: Any, at path: String = "$") -> String? {
            switch self {
            case .null:
                return parsed is NSNull ? nil : "\(path): expected null, got \(parsed)"
            case .bool(let value):
                return isBoolean(parsed) && (parsed as? Bool) == value
                    ? nil : "\(path): expected \(value), got \(parsed)"
            case .int(let value):
                if let decimal = parsed as? NSDecimalNumber {
                    return decimal.stringValue == String(value) ? nil : "\(path): expected \(value), got \(decimal)"
                }
                guard let number = parsed as? NSNumber, !isBoolean(parsed), number.int64Value == value else {
                    return "\(path): expected \(value), got \(parsed)"
                }
                return nil
            case .double(let value):
                guard !isBoolean(parsed), let back = EncodingTestSupport.doubleValue(of: parsed),
                    back.bitPattern == value.bitPattern
                else {
                    return "\(path): expected \(value), got \(parsed)"
                }
                return nil
            case .string(let value):
                return (parsed as? String) == value ? nil : "\(path): expected \(value.debugDescription), got \(parsed)"
            case .array(let elements):
                guard let array = parsed as? [Any], array.count == elements.count else {
                    return "\(path): expected an array of \(elements.count), got \(parsed)"
                }
                for (index, element) in elements.enumerated() {
                    if let problem = element.mismatch(array[index], at: "\(path)[\(index)]") { return problem }
                }
                return nil
            case .object(let members):
                guard let object = parsed as? [String: Any], object.count == members.count else {
                    return "\(path): expected an object of \(members.count), got \(parsed)"
                }
                for member in members {
                    guard let child = object[member.key] else { return "\(path): missing \(member.key)" }
                    if let problem = member.value.mismatch(child, at: "\(path).\(member.key)") { return problem }
                }
                return nil
            }
        }

        /// A random tree at most `depth` levels deep.
        static func random(depth: Int, using generator: inout SeededGenerator) -> Value {
            let kind = Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &generator)
            switch kind {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .int(Int64(bitPattern: generator.next()) >> UInt64.random(in: 0..<64, using: &generator))
            case 3: return .double(randomDouble(using: &generator))
            case 4, 5: return .string(randomString(maxLength: 24, using: &generator))
            case 6:
                return .array(
                    (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                        random(depth: depth - 1, using: &generator)
                    })
            default:
                var keys = Set<String>()
                var members: [(key: String, value: Value)] = []
                for _ in 0..<Int.random(in: 0...5, using: &generator) {
                    let key = randomString(maxLength: 8, using: &generator)
                    guard keys.insert(key).inserted else { continue }
                    members.append((key, random(depth: depth - 1, using: &generator)))
                }
                return .object(members)
            }
        }
    }

    /// A finite double: random bit patterns, small decimals, integers, or edge cases.
    static func randomDouble(using generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            let edges: [Double] = [
                0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e300, 2.2250738585072014e-308,
                .greatestFiniteMagnitude, 0.1, 5,
            ]
            return edges[Int.random(in: 0..<edges.count, using: &generator)]
        case 1:
            return Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 100
        case 2:
            return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator))
        default:
            while true {
                let value = Double(bitPattern: generator.next())
                if value.isFinite { return value }
            }
        }
    }

    /// Characters that stress escaping: controls, quote, backslash, slash, multi-byte scalars.
    ///
    /// U+FEFF is left out by default: Linux Foundation's `JSONSerialization` drops it from
    /// parsed strings, so it cannot be compared through Foundation (it is tested on its own).
    static let alphabet: [Unicode.Scalar] =
        (0..<0x20).compactMap(Unicode.Scalar.init) + ["\"", "\\", "/", "a", "b", "Z", "0", " ", "~", "\u{7F}"]
        + ["é", "ß", "中", "文", "😀", "👩‍💻", "\u{2028}", "\u{2029}", "\u{10FFFF}"].flatMap(\.unicodeScalars)

    static func randomString(
        maxLength: Int, includingBOM: Bool = false, using generator: inout SeededGenerator
    ) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...maxLength, using: &generator) {
            if includingBOM && Int.random(in: 0..<10, using: &generator) == 0 {
                text.append("\u{FEFF}")
            } else if Bool.random(using: &generator) {
                text.append(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator)))
            } else {
                text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
        }
        return String(text)
    }
}
