import JSONAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Values of a `ValueShape`: the recursion follows the shape, which is at most
/// `ResourceShape.maximumNesting` levels deep.
enum ValueGenerator {
    /// Characters of generated strings: letters, digits, and what JSON must escape or writes as
    /// more than one byte.
    static let characters: [Character] = Array("abcxyzABC019 -_\"\\/\n\té€😀")

    /// A member's value, or nil to leave an optional member out.
    static func member(_ shape: ValueShape, _ random: inout RandomSource) -> JSON? {
        if shape.isOptional {
            if case .opaque = shape.kind { return nil }
            switch random.int(in: 0...9) {
            case 0: return nil
            case 1: return .null
            default: break
            }
        }
        return value(shape, &random)
    }

    static func value(_ shape: ValueShape, _ random: inout RandomSource) -> JSON {
        switch shape.kind {
        case .string(let format):
            return .string(string(format, &random))
        case .integer:
            return .int(Int64(random.int(in: 0...100)))
        case .number:
            return .double(Double(random.int(in: -1000...1000)) / 8)
        case .boolean:
            return .bool(random.chance(0.5))
        case .array(let element):
            var elements: [JSON] = []
            for _ in 0..<random.int(in: 0...3) { elements.append(member(element, &random) ?? .null) }
            return .array(elements)
        case .object(let members):
            var object = JSON.Object()
            for member in members {
                if let value = self.member(member.value, &random) { object[member.name] = value }
            }
            return .object(object)
        case .dictionary(let element):
            var object = JSON.Object()
            for index in 0..<random.int(in: 0...2) { object["k\(index)"] = member(element, &random) ?? .null }
            return .object(object)
        case .enumeration(let values):
            return random.element(values) ?? .null
        case .any:
            return anyValue(&random)
        case .link:
            return .string("https://example.com/\(random.int(in: 1...99))")
        case .opaque:
            return .null
        }
    }

    /// An object for a `meta`: the shape's own when it is an object, else a small one.
    static func object(_ shape: ValueShape, _ random: inout RandomSource) -> JSON {
        switch shape.kind {
        case .object, .dictionary: value(shape, &random)
        default: ["generated": .bool(true), "n": .int(Int64(random.int(in: 0...9)))]
        }
    }

    private static func anyValue(_ random: inout RandomSource) -> JSON {
        switch random.int(in: 0...5) {
        case 0: .null
        case 1: .bool(random.chance(0.5))
        case 2: .int(Int64(random.int(in: -50...50)))
        case 3: .string(string(nil, &random))
        case 4: .array([.int(1), .string("two")])
        default: ["k0": .int(Int64(random.int(in: 0...9)))]
        }
    }

    private static func string(_ format: StringFormat?, _ random: inout RandomSource) -> String {
        if format == .dateTime {
            let day = random.int(in: 10...28)
            let hour = random.int(in: 10...23)
            return "2024-05-\(day)T\(hour):08:09Z"
        }
        if format == .uri { return "https://example.com/p/\(random.int(in: 1...999))" }
        if format == .uuid {
            // Twelve decimal digits (hex digits too), in two halves: `Int` has 32 bits on watchOS.
            let high = random.int(in: 100_000...999_999)
            let low = String(random.int(in: 0...999_999))
            return "00000000-0000-4000-8000-\(high)\(String(repeating: "0", count: 6 - low.count))\(low)"
        }
        if format == .byte {
            let bytes = (0..<random.int(in: 0...8)).map { _ in UInt8(random.int(in: 0...255)) }
            return Data(bytes).base64EncodedString()
        }
        return String((0..<random.int(in: 0...12)).compactMap { _ in random.element(characters) })
    }
}
