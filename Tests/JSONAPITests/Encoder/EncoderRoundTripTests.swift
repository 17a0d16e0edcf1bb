import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels
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

    @Test("python3 -m json.tool accepts the encoder's streamed, pretty and sorted output")
    func pythonAcceptsEncoderOutput() throws {
        let document = try Document(parsing: CompoundDocumentGenerator(resources: 300, seed: 5).generate())
        let articles = try document.primary(as: GeneratedModels.Article.self).decodeAll()
        let included: [any Encodable] =
            try document.included(of: GeneratedModels.Person.self).decodeAll()
            + document.included(of: GeneratedModels.Comment.self).decodeAll()
            + document.included(of: GeneratedModels.Tag.self).decodeAll()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonapi-encoder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var pretty = EncodingOptions()
        pretty.prettyPrinted = true
        var sorted = EncodingOptions()
        sorted.sortsKeys = true
        var files: [URL] = []
        for (index, options) in [EncodingOptions(), pretty, sorted].enumerated() {
            let bytes = try JSONAPIEncoder(options: options).encode(articles, included: included)
            _ = try parseStrictly(bytes)
            let file = directory.appendingPathComponent("\(index).json")
            try Data(bytes).write(to: file)
            files.append(file)
        }
        guard let rejected = DocumentEquivalence.rejectedByPythonJSONTool(files) else {
            withKnownIssue("python3 is not available") { throw CocoaError(.fileNoSuchFile) }
            return
        }
        #expect(rejected.isEmpty, "json.tool rejected: \(rejected)")
    }

    @Test func generatedDocumentRoundTrips() throws {
        let bytes = CompoundDocumentGenerator(resources: 500).generate()
        let document = try Document(parsing: bytes)
        let articles = try document.primary(as: GeneratedModels.Article.self).decodeAll()
        let people = try document.included(of: GeneratedModels.Person.self).decodeAll()
        let comments = try document.included(of: GeneratedModels.Comment.self).decodeAll()
        let tags = try document.included(of: GeneratedModels.Tag.self).decodeAll()
        #expect(articles.count > 10)
        let included: [any Encodable] = people + comments + tags
        let encoded = try JSONAPIEncoder().encode(articles, included: included)
        let reparsed = try parseStrictly(encoded)
        #expect(reparsed.primaryResources.count == articles.count)
        #expect(reparsed.included.count == people.count + comments.count + tags.count)

        let articles2 = try reparsed.primary(as: GeneratedModels.Article.self).decodeAll()
        let people2 = try reparsed.included(of: GeneratedModels.Person.self).decodeAll()
        let comments2 = try reparsed.included(of: GeneratedModels.Comment.self).decodeAll()
        let tags2 = try reparsed.included(of: GeneratedModels.Tag.self).decodeAll()
        // The models are not Equatable: the same bytes again prove the same values.
        let again = try JSONAPIEncoder().encode(articles2, included: people2 + comments2 + tags2 as [any Encodable])
        #expect(again == encoded)
        for (a, b) in zip(articles, articles2) {
            #expect(a.id == b.id)
            #expect(a.title == b.title)
            #expect(a.rating == b.rating)
            #expect(a.metrics == b.metrics)
            #expect(a.author == b.author)
            #expect(a.comments == b.comments)
            #expect(a.authorLinks == b.authorLinks)
            #expect(a.commentsMeta == b.commentsMeta)
            #expect(a.meta == b.meta)
        }
        // Every member of the original attributes survives (compared as Foundation objects);
        // a `null` one is left out, as synthesized `Encodable` does with nil optionals.
        let original = try jsonObject(bytes)
        let round = try jsonObject(encoded)
        let originalData = try #require(original["data"] as? [[String: Any]])
        let roundData = try #require(round["data"] as? [[String: Any]])
        for (a, b) in zip(originalData, roundData) {
            let attributes = (a["attributes"] as? [String: Any])?.filter { !($0.value is NSNull) }
            #expect(attributes.map { $0 as NSDictionary } == (b["attributes"] as? NSDictionary))
            #expect((a["relationships"] as? NSDictionary) == (b["relationships"] as? NSDictionary))
        }
    }
}
