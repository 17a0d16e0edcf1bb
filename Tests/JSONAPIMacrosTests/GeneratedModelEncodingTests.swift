import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels
import Testing

@testable import JSONAPITestSupport

/// The generated documents' `@ResourceReadable` models, decoded and written again by the encoder:
/// the output is strict JSON:API, plain JSON to other parsers, and the same values.
@Suite("Encoder: round trips of the generated models")
struct GeneratedModelEncodingTests {
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
