import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

/// The README's resource-stream example, compiled and run on a generated document written to a
/// file and served as an `AsyncSequence` of chunks.
@Suite("README examples: documents of any size")
struct ReadmeStreamExampleTests {
    struct Article: Decodable, JSONAPIResource, Sendable {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Identifier<Person>
    }

    struct Person: Decodable, JSONAPIResource, Sendable {
        static let resourceType = "people"
        var id: String
    }

    actor Database {
        var articles: [Article] = []
        func insert(_ article: Article) throws { articles.append(article) }
    }

    @Test func readmeExample() async throws {
        let generator = CompoundDocumentGenerator(resources: 2_000, seed: 4)
        let bytes = generator.generate()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("catalogue.json").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let body = TypedResourceStreamTests.Chunks(bytes: bytes, size: 16_384)
        let database = Database()

        // The README's example, as written there.
        var types: [String: Int] = [:]
        let summary = try ResourceStream.forEachPart(inFileAt: path) { part in
            guard case .resource(let resource) = part else { return }
            types[resource.object.type, default: 0] += 1  // resource.pointer: "/included/123456"
        }
        print(types, summary.diagnostics)

        for try await article in AsyncResourceStream(body).resources(of: Article.self) {
            try await database.insert(article)  // relationships as Identifier<…>
        }
        // End of the example.

        #expect(types["articles"] == generator.primaryCount)
        #expect(types["people"] == generator.personCount)
        #expect(types["comments"] == generator.commentCount)
        #expect(summary.diagnostics.isEmpty)
        let inserted = await database.articles
        #expect(inserted.count == generator.primaryCount)
        #expect(inserted.first?.id == generator.identifier(ofResourceAt: 0).id)
    }

    @Test func chunkedParsingExample() async throws {
        let generator = CompoundDocumentGenerator(resources: 300, seed: 5)
        let bytes = generator.generate()
        let body = TypedResourceStreamTests.Chunks(bytes: bytes, size: 1_000)
        let contentLength = bytes.count

        // The README's example, as written there.
        var parser = DocumentParser(expectedByteCount: contentLength)  // the hint is optional
        for try await chunk in body { try parser.feed(chunk) }  // any sizes, split anywhere
        let document = try parser.finish()
        // End of the example.

        #expect(try document.jsonBytes() == Document(parsing: bytes).jsonBytes())
        #expect(document.primaryResources.count == generator.primaryCount)
    }
}
