import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

/// The examples of the article "Reading documents of any size", as written there, run on a
/// generated document (in a file named as in the article, and as chunks of an async body).
@Suite("Article examples: documents of any size")
struct StreamingArticleExampleTests {
    struct Person: Decodable, JSONAPIResource, Sendable {
        static let resourceType = "people"
        var id: String
    }

    struct Comment: Decodable, JSONAPIResource, Sendable {
        static let resourceType = "comments"
        var id: String
        var body: String
    }

    struct Article: Decodable, JSONAPIResource, Sendable {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Identifier<Person>
    }

    enum Included: ResourceUnion {
        case person(Person)
        case comment(Comment)
        static let members: [ResourceUnionMember<Included>] = [
            .member(Person.self, Included.person), .member(Comment.self, Included.comment),
        ]
    }

    actor Database {
        var articles: [Article] = []
        func insert(_ article: Article) throws { articles.append(article) }
    }

    static let generator = CompoundDocumentGenerator(resources: 1_500, seed: 8)
    static let bytes = generator.generate()

    /// Every part of the document, as `Document(parsing:)` sees it: resources by section, then
    /// the top-level members.
    static func expectedCounts() throws -> [String: Int] {
        let document = try Document(parsing: bytes)
        var counts: [String: Int] = [:]
        for resource in document.primaryResources + Array(document.included) {
            counts[resource.type, default: 0] += 1
        }
        return counts
    }

    @Test func fromAFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(Self.bytes).write(to: directory.appendingPathComponent("catalogue.json"))
        let previous = FileManager.default.currentDirectoryPath
        #expect(FileManager.default.changeCurrentDirectoryPath(directory.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }

        var types: [String: Int] = [:]
        let summary = try ResourceStream.forEachPart(inFileAt: "catalogue.json") { part in
            guard case .resource(let resource) = part else { return }
            types[resource.object.type, default: 0] += 1
        }
        print(types, summary.diagnostics)  // e.g. unreachable included resources (warnings)

        #expect(types == (try Self.expectedCounts()))
    }

    @Test func pushAndPull() throws {
        let chunks = stride(from: 0, to: Self.bytes.count, by: 4_096).map {
            Self.bytes[$0..<min(Self.bytes.count, $0 + 4_096)]
        }
        var types: [String: Int] = [:]
        func handle(_ part: StreamPart) {
            guard case .resource(let resource) = part else { return }
            types[resource.object.type, default: 0] += 1
        }

        var stream = try ResourceStream()
        for chunk in chunks {
            try stream.feed(chunk)
            while let part = try stream.next() { handle(part) }
        }
        try stream.finish()
        while let part = try stream.next() { handle(part) }

        #expect(types == (try Self.expectedCounts()))
    }

    @Test func asyncPartsModelsAndUnions() async throws {
        let body = TypedResourceStreamTests.Chunks(bytes: Self.bytes, size: 10_000)
        let database = Database()
        var types: [String: Int] = [:]
        func handle(_ part: StreamPart) {
            guard case .resource(let resource) = part else { return }
            types[resource.object.type, default: 0] += 1
        }

        for try await part in AsyncResourceStream(body) { handle(part) }

        for try await article in AsyncResourceStream(body).resources(of: Article.self) {
            try await database.insert(article)
        }

        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        for try await resource in AsyncResourceStream(body).resources(of: Included.self) {
            switch resource {
            case .person(let person): print(person.id)
            case .comment(let comment): print(comment.body)
            }
        }

        let expected = try Self.expectedCounts()
        #expect(types == expected)
        #expect(await database.articles.count == expected["articles"])
        #expect(printed.count == (expected["people"] ?? 0) + (expected["comments"] ?? 0))
    }
}
