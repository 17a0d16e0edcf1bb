import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding that lists every problem")
struct ListingProblemsTests {
    struct Person: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Stats: Codable, Equatable, Sendable {
        var words: Int
        var language: String
        var pages: Int?
    }

    struct Topic: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "topics"
        var id: String
    }

    enum Status: String, Codable, Sendable, CaseIterable {
        case draft, published
    }

    /// A create request's model as users write it: plain `Codable`, synthesized `init(from:)`.
    struct Article: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var views: Int
        var body: String
        var status: Status
        var stats: Stats
        var tags: [String]
        var subtitle: String?
        var author: Identifier<Person>
        var topics: [Identifier<Topic>]
    }

    static let valid = """
        {"data":{"type":"articles","id":"1","attributes":{"title":"T","views":3,"body":"B","status":"draft",\
        "stats":{"words":10,"language":"en","pages":2},"tags":["a","b"],"subtitle":"S"},\
        "relationships":{"author":{"data":{"type":"people","id":"9"}},\
        "topics":{"data":[{"type":"topics","id":"1"},{"type":"topics","id":"2"}]}}}}
        """

    /// Six problems in one body, in declaration order.
    static let broken = """
        {"data":{"type":"articles","id":"1","attributes":{"title":5,"views":"many","status":"gone",\
        "stats":{"words":"ten","language":"en"},"tags":["a",2],"subtitle":7},\
        "relationships":{"author":{"data":{"type":"robots","id":"r1"}},"topics":{"data":[]}}}}
        """

    func decodeBoth<T: Decodable>(_ type: T.Type, _ text: String, options: DecodingOptions = DecodingOptions())
        -> (strict: Result<T, any Error>, listing: Result<T, any Error>)
    {
        let decoder = JSONAPIDecoder(options: options)
        let strict = Result { try decoder.decode(T.self, from: text) }
        let listing = Result { try decoder.decodeListingProblems(T.self, from: text) }
        return (strict, listing)
    }

    @Test func aDocumentThatFitsDecodesAsADecodeDoes() throws {
        let (strict, listing) = decodeBoth(Article.self, Self.valid)
        #expect(try listing.get() == strict.get())
    }

    @Test func listsEveryValueThatDoesNotFit() throws {
        let failure = try #require(
            throws: DecodingFailure.self,
            performing: { try JSONAPIDecoder().decodeListingProblems(Article.self, from: Self.broken) })
        #expect(
            failure.problems.map(\.pointer) == [
                "/data/attributes/title", "/data/attributes/views", "/data", "/data/attributes/status",
                "/data/attributes/stats/words", "/data/attributes/tags/1", "/data/attributes/subtitle",
                "/data/relationships/author/data",
            ])
        #expect(
            failure.problems.map(\.codingPath) == [
                "title", "views", "body", "status", "stats.words", "tags[1]", "subtitle", "author",
            ])
        #expect(
            failure.problems.map(\.kind) == [
                .invalidValue, .invalidValue, .missingValue, .invalidValue, .invalidValue, .invalidValue,
                .invalidValue, .wrongResourceType,
            ])
        #expect(failure.problems.allSatisfy { $0.action == .rejected && $0.line == 1 && $0.column > 0 })
        #expect(failure.errors.count == failure.problems.count)
        #expect(String(describing: failure).hasPrefix("The document does not fit the model (8 problems):"))

        // The first is what the strict decode throws.
        let strict = try #require(decodingError { try JSONAPIDecoder().decode(Article.self, from: Self.broken) })
        #expect(failure.errors.first?.jsonapiError?.pointer == strict.jsonapiError?.pointer)
        #expect(failure.errors.first?.jsonapiError?.message == strict.jsonapiError?.message)
    }

    @Test func theErrorDocumentHasOneObjectPerProblem() throws {
        let failure = try #require(
            throws: DecodingFailure.self,
            performing: { try JSONAPIDecoder().decodeListingProblems(Article.self, from: Self.broken) })
        let errors = JSONAPIErrorDocument(describing: failure)
        #expect(errors.errors.count == 8)
        #expect(errors.errors.allSatisfy { $0.status == "422" })
        #expect(errors.httpStatus == 422)
        #expect(errors.errors.map { $0.source?.pointer } == failure.problems.map { $0.pointer })

        // A primary resource of another type is the endpoint's conflict (409): its members are
        // not this model's, so nothing else is listed.
        let conflict = Self.broken.replacingOccurrences(of: #""type":"articles""#, with: #""type":"posts""#)
        let second = try #require(
            throws: DecodingFailure.self,
            performing: { try JSONAPIDecoder().decodeListingProblems(Article.self, from: conflict) })
        #expect(JSONAPIErrorDocument(describing: second).errors.map(\.status) == ["409"])
        #expect(second.problems.map(\.pointer) == ["/data"])
    }

    /// An enum that is not `CaseIterable` has no placeholder: the listing ends at it, with what
    /// it found before.
    @Test func aValueWithNoPlaceholderEndsTheListing() throws {
        enum Mood: String, Codable { case calm, angry }
        struct Note: Codable, JSONAPIResource {
            static let resourceType = "notes"
            var id: String
            var title: String
            var mood: Mood
            var views: Int
        }
        let text = #"{"data":{"type":"notes","id":"1","attributes":{"title":1,"mood":"sad","views":"x"}}}"#
        let failure = try #require(
            throws: DecodingFailure.self,
            performing: { try JSONAPIDecoder().decodeListingProblems(Note.self, from: text) })
        #expect(failure.problems.map(\.pointer) == ["/data/attributes/title", "/data/attributes/mood"])
    }

    /// A model read through its reader initializer lists the same problems as through its
    /// containers.
    struct ReadableArticle: ResourceReadable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var views: Int
        var tags: [String]
        var author: Identifier<Person>

        init(from reader: borrowing ResourceReader) throws {
            id = try reader.decode("id")
            title = try reader.decode("title")
            views = try reader.decode("views")
            tags = try reader.decode("tags")
            author = try reader.decode("author")
        }

        enum CodingKeys: String, CodingKey { case id, title, views, tags, author }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            title = try container.decode(String.self, forKey: .title)
            views = try container.decode(Int.self, forKey: .views)
            tags = try container.decode([String].self, forKey: .tags)
            author = try container.decode(Identifier<Person>.self, forKey: .author)
        }
    }

    @Test(arguments: [true, false])
    func readersAndContainersListAlike(usesReaders: Bool) throws {
        let text = """
            {"data":{"type":"articles","id":"1","attributes":{"title":null,"tags":[1,"b"]},\
            "relationships":{"author":{"data":{"type":"robots","id":"r1"}}}}}
            """
        var options = DecodingOptions()
        options.usesResourceReaders = usesReaders
        let failure = try #require(
            throws: DecodingFailure.self,
            performing: { try JSONAPIDecoder(options: options).decodeListingProblems(ReadableArticle.self, from: text) }
        )
        #expect(
            failure.problems.map(\.pointer) == [
                "/data/attributes/title", "/data", "/data/attributes/tags/0",
                "/data/relationships/author/data",
            ])
    }

    /// Errors that are not about the model pass through unchanged.
    @Test func documentAndOptionErrorsAreNotListed() throws {
        #expect(throws: DecodingError.self) {
            try JSONAPIDecoder().decodeListingProblems(Article.self, from: #"{"data":{"type":"#)
        }
        var options = DecodingOptions()
        options.maximumDepth = 0
        #expect(throws: JSONAPIError.self) {
            try JSONAPIDecoder(options: options).decodeListingProblems(Article.self, from: Self.valid)
        }
    }

    /// The strict decoder is the reference: for random sets of independent breakages of a valid
    /// document, the listing fails exactly when the strict decode does, its first error is the
    /// strict one, and it lists exactly the places the strict decode reports when each breakage
    /// is made alone.
    @Test func agreesWithTheStrictDecodeBreakageByBreakage() throws {
        // Each breakage replaces one member's value (or drops it) in the valid document.
        let breakages: [(name: String, from: String, to: String)] = [
            ("title", #""title":"T""#, #""title":["T"]"#),
            ("views", #""views":3"#, #""views":3.5"#),
            ("body", #""body":"B","#, ""),
            ("status", #""status":"draft""#, #""status":"late""#),
            ("words", #""words":10"#, #""words":null"#),
            ("language", #","language":"en""#, ""),
            ("pages", #""pages":2"#, #""pages":"two""#),
            ("topic", #"{"type":"topics","id":"2"}"#, #"{"type":"tags","id":"2"}"#),
            ("tags", #""tags":["a","b"]"#, #""tags":["a",{}]"#),
            ("subtitle", #""subtitle":"S""#, #""subtitle":false"#),
            ("author", #""type":"people""#, #""type":"robots""#),
        ]
        func pointers(_ result: Result<Article, any Error>) -> [String]? {
            switch result {
            case .success: return nil
            case .failure(let error as DecodingFailure): return error.problems.map(\.pointer)
            case .failure(let error as DecodingError): return [error.jsonapiError?.pointer ?? "?"]
            case .failure(let error): return ["unexpected \(error)"]
            }
        }
        var random = SplitMix64(seed: 20_261_202)
        for _ in 0..<200 {
            let chosen = breakages.indices.filter { _ in random.next() % 3 == 0 }
            var text = Self.valid
            for index in chosen {
                text = text.replacingOccurrences(of: breakages[index].from, with: breakages[index].to)
            }
            let (strict, listing) = decodeBoth(Article.self, text)
            let listed = pointers(listing)
            #expect((listed == nil) == chosen.isEmpty)
            guard let listed else { continue }
            var alone: [String] = []
            for index in chosen {
                let single = Self.valid.replacingOccurrences(of: breakages[index].from, with: breakages[index].to)
                alone += pointers(decodeBoth(Article.self, single).strict) ?? []
            }
            #expect(Set(listed) == Set(alone), "breakages \(chosen.map { breakages[$0].name })")
            #expect(listed.first == pointers(strict)?.first)
        }
    }
}
