import Foundation
import JSONAPI
import PropertyBased
import Testing

@testable import JSONAPITestSupport

@Suite("Encoder: round trips")
struct EncoderRoundTripTests {
    struct Inner: Codable, Equatable, Sendable {
        var label: String
        var values: [Double]
    }

    struct Sample: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "samples"
        var id: String
        var text: String
        var count: Int
        var ratio: Double
        var flag: Bool?
        var tags: [String]
        var note: String?
        var inner: Inner?
    }

    /// Characters that stress escaping: quotes, backslashes, control characters, slashes,
    /// non-ASCII letters, astral-plane emoji, line and paragraph separators.
    static let pool: [Character] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}", "é", "ß",
        "日", "本", "😀", "👩‍👩‍👧", "\u{2028}", "\u{2029}", "\u{FEFF}", "{", "}", ":", ",",
    ]

    static let strings = Gen<Int>.int(in: 0...(pool.count - 1)).map { pool[$0] }.string(of: 0...16)
    static let doubles = Gen<Double>.double(in: -1e15...1e15)

    @Test func generatedModelsRoundTrip() async {
        let samples = zip(
            Self.strings, Self.strings, Gen<Int>.int(), Self.doubles
        )
        .map { id, text, count, ratio in
            Sample(id: id, text: text, count: count, ratio: ratio, flag: nil, tags: [], note: nil, inner: nil)
        }
        let extras = zip(
            Gen.bool.optional, Self.strings.array(of: 0...4), Self.strings.optional,
            zip(Self.strings, Self.doubles.array(of: 0...3)).map { Inner(label: $0, values: $1) }.optional)
        await propertyCheck(count: 300, input: samples, extras) { base, extra in
            var sample = base
            sample.flag = extra.0
            sample.tags = extra.1
            sample.note = extra.2
            sample.inner = extra.3
            let bytes = try JSONAPIEncoder().encode([sample, sample])
            _ = try parseStrictly(bytes)
            let decoded = try JSONAPIDecoder().decode([Sample].self, from: bytes)
            #expect(decoded == [sample, sample])
            // And through Foundation, to check the bytes are plain JSON.
            #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any])
            // Compact output is streamed, pretty output goes through the tree encoder: same JSON.
            var pretty = EncodingOptions()
            pretty.prettyPrinted = true
            let tree = try JSONAPIEncoder(options: pretty).encode([sample, sample])
            let streamedJSON = try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
            let treeJSON = try JSONSerialization.jsonObject(with: Data(tree)) as? NSDictionary
            #expect(streamedJSON != nil && streamedJSON == treeJSON)
        }
    }
}
