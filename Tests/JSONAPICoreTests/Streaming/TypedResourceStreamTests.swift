import Foundation
import JSONAPIGenerator
import Testing

@testable import JSONAPI
@testable import JSONAPITestSupport

/// Typed streaming: models decoded from each streamed resource equal those decoded from the
/// whole document; a union takes its members' types; decoding errors are located in the document.
@Suite("Resource stream: typed models and the async front end")
struct TypedResourceStreamTests {
    struct Person: JSONAPIResource, Decodable, Equatable, Sendable {
        static let resourceType = "people"
        var id: String
        var firstName: String
        var age: Int
    }

    struct Comment: JSONAPIResource, Decodable, Equatable, Sendable {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Identifier<Person>?
    }

    struct Article: JSONAPIResource, Decodable, Equatable, Sendable {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Identifier<Person>?
        var comments: [Identifier<Comment>]
    }

    enum PersonOrComment: ResourceUnion, Equatable, Sendable {
        case person(Person)
        case comment(Comment)

        static let members: [ResourceUnionMember<PersonOrComment>] = [
            .member(Person.self, PersonOrComment.person), .member(Comment.self, PersonOrComment.comment),
        ]
    }

    /// Chunks of a byte array as an `AsyncSequence`, as a network body would arrive.
    struct Chunks: AsyncSequence, Sendable {
        let bytes: [UInt8]
        let size: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            let size: Int
            var offset = 0
            mutating func next() async -> ArraySlice<UInt8>? {
                guard offset < bytes.count else { return nil }
                let end = Swift.min(bytes.count, offset + size)
                defer { offset = end }
                return bytes[offset..<end]
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes, size: size) }
    }

    static let bytes = CompoundDocumentGenerator(resources: 300, seed: 21).generate()

    @Test("models from the stream equal the whole document's, for a model and for a union")
    func typedModels() async throws {
        let document = try Document(parsing: Self.bytes)
        var options = ResourceStream.Options()
        options.windowBytes = 4096
        let stream = AsyncResourceStream(Chunks(bytes: Self.bytes, size: 1000), options: options)

        var articles: [Article] = []
        for try await article in stream.resources(of: Article.self) { articles.append(article) }
        #expect(articles == (try document.resources(of: Article.self).decodeAll()))
        #expect(articles.count == document.primaryResources.count)

        var mixed: [PersonOrComment] = []
        for try await item in stream.resources(of: PersonOrComment.self) { mixed.append(item) }
        let people = try document.resources(of: Person.self).decodeAll()
        let comments = try document.resources(of: Comment.self).decodeAll()
        #expect(mixed.count == people.count + comments.count)
        #expect(mixed.compactMap { if case .person(let p) = $0 { p } else { nil } } == people)
        #expect(mixed.compactMap { if case .comment(let c) = $0 { c } else { nil } } == comments)
    }

    @Test("every part of the async stream in document order, and the same first error as the synchronous one")
    func asyncParts() async throws {
        var count = 0
        var lastOffset = -1
        for try await part in AsyncResourceStream(Chunks(bytes: Self.bytes, size: 777)) {
            if case .resource(let resource) = part {
                #expect(resource.offset > lastOffset)
                lastOffset = resource.offset
                count += 1
            }
        }
        #expect(count == 300)

        let first = #"{"data":[{"type":"people","id":"1","attributes":{"firstName":"A","age":1}},"#
        let broken = Array((first + #"{"type":"people","id":"1"}]}"#).utf8)
        var seen = 0
        let error = await #expect(throws: JSONAPIError.self) {
            for try await part in AsyncResourceStream(Chunks(bytes: broken, size: 5)) {
                if case .resource = part { seen += 1 }
            }
        }
        #expect(seen == 1)
        #expect(error?.code == .duplicateResource)
        #expect(error?.pointer == "/data/1")
        #expect(error?.offset == first.utf8.count)
    }

    @Test("a decoding error names the resource's place in the document, not in the window")
    func locatedDecodingErrors() throws {
        var text = #"{"data":["#
        for i in 0..<200 {
            text += #"{"type":"people","id":"\#(i)","attributes":{"firstName":"P\#(i)","age":\#(i)}},"#
        }
        text += #"{"type":"people","id":"x","attributes":{"firstName":"Q","age":"old"}}]}"#
        let bytes = Array(text.utf8)
        var options = ResourceStream.Options()
        options.windowBytes = 256
        var stream = try ResourceStream(options: options)
        var decoded = 0
        var failure: (any Error)?
        try bytes.withUnsafeBytes { try stream.feed($0) }
        try stream.finish()
        while let part = try stream.next() {
            guard case .resource(let resource) = part else { continue }
            do {
                _ = try resource.decode(as: Person.self)
                decoded += 1
            } catch {
                failure = error
            }
        }
        #expect(decoded == 200)
        let located = try #require((failure as? DecodingError)?.jsonapiError)
        #expect(located.pointer == "/data/200/attributes/age")
        #expect(located.offset == text.utf8.count - 9)
        #expect(located.line == 1)
    }

    @Test("forEachPart reads a file in windows")
    func fileFrontEnd() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stream-\(UUID().uuidString).json")
        try Data(Self.bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = ResourceStream.Options()
        options.windowBytes = 8192
        var types: [String: Int] = [:]
        let summary = try ResourceStream.forEachPart(inFileAt: url.path, options: options) { part in
            if case .resource(let resource) = part { types[resource.object.type, default: 0] += 1 }
        }
        let document = try Document(parsing: Self.bytes)
        var expected: [String: Int] = [:]
        for resource in Array(document.primaryResources) + Array(document.included) {
            expected[resource.type, default: 0] += 1
        }
        #expect(types == expected)
        #expect(summary.diagnostics.isEmpty)
        #expect(summary.statistics.slides > 0)
        #expect(summary.statistics.bytesFed == Self.bytes.count)
        #expect(throws: JSONAPIError.self) {
            _ = try ResourceStream.forEachPart(inFileAt: "/nonexistent/x.json") { _ in }
        }
    }
}
