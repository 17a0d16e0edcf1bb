import Foundation
import JSONAPI
import Testing

@Suite("Encoder: models, strategies and graphs")
struct EncoderModelTests {
    typealias F = EncoderFixtures

    struct Profile: Codable, Equatable, JSONAPIResource {
        static let resourceType = "profiles"
        var id: UUID
        var firstName: String
        var homePageUrl: String
        var joinedAt: Date
        var avatar: Data
        var scores: [String: Int]
    }

    @Test func keyStrategiesMirrorTheDecoder() throws {
        let profile = Profile(
            id: UUID(), firstName: "Ada", homePageUrl: "https://x",
            joinedAt: Date(timeIntervalSince1970: 1_432_306_589),
            avatar: Data([1, 2, 3]), scores: ["someKey": 1])
        for (encoding, decoding, name) in [
            (
                EncodingOptions.KeyEncodingStrategy.convertToSnakeCase,
                DecodingOptions.KeyDecodingStrategy.convertFromSnakeCase, "first_name"
            ),
            (.convertToKebabCase, .convertFromKebabCase, "first-name"),
        ] {
            var options = EncodingOptions()
            options.keyEncodingStrategy = encoding
            let bytes = try JSONAPIEncoder(options: options).encode(profile)
            #expect(text(bytes).contains("\"\(name)\":\"Ada\""))
            #expect(text(bytes).contains(#""scores":{"someKey":1}"#))
            var decoderOptions = DecodingOptions()
            decoderOptions.keyDecodingStrategy = decoding
            #expect(try JSONAPIDecoder(options: decoderOptions).decode(Profile.self, from: bytes) == profile)
        }
        #expect(convertCaseForTest("homePageURL") == "home_page_url")
    }

    private func convertCaseForTest(_ key: String) -> String? {
        var options = EncodingOptions()
        options.keyEncodingStrategy = .convertToSnakeCase
        struct One: Encodable, JSONAPIResource {
            static let resourceType = "x"
            var id = "1"
            var homePageURL = 1
        }
        guard let bytes = try? JSONAPIEncoder(options: options).encode(One()),
            let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let data = json["data"] as? [String: Any], let attributes = data["attributes"] as? [String: Any]
        else { return nil }
        return attributes.keys.first
    }

    @Test(arguments: [
        (
            EncodingOptions.DateEncodingStrategy.iso8601, DecodingOptions.DateDecodingStrategy.iso8601,
            "\"2015-05-22T14:56:29Z\""
        ),
        (.iso8601WithFractionalSeconds, .iso8601, "\"2015-05-22T14:56:29.250Z\""),
        (.secondsSince1970, .secondsSince1970, "1432306589.25"),
        (.millisecondsSince1970, .millisecondsSince1970, "1432306589250.0"),
    ])
    func dateStrategies(
        encoding: EncodingOptions.DateEncodingStrategy, decoding: DecodingOptions.DateDecodingStrategy,
        expected: String
    ) throws {
        struct Event: Codable, JSONAPIResource {
            static let resourceType = "events"
            var id: String
            var at: Date
        }
        var options = EncodingOptions()
        options.dateEncodingStrategy = encoding
        let date = Date(timeIntervalSince1970: 1_432_306_589.25)
        let bytes = try JSONAPIEncoder(options: options).encode(Event(id: "1", at: date))
        #expect(text(bytes).contains("\"at\":\(expected)"))
        var decoderOptions = DecodingOptions()
        decoderOptions.dateDecodingStrategy = decoding
        let back = try JSONAPIDecoder(options: decoderOptions).decode(Event.self, from: bytes)
        let precision: TimeInterval = encoding.isWholeSeconds ? 1 : 0.001
        #expect(abs(back.at.timeIntervalSince1970 - date.timeIntervalSince1970) < precision)
    }

    @Test func iso8601BeforeTheEpoch() throws {
        struct Event: Encodable, JSONAPIResource {
            static let resourceType = "events"
            var id = "1"
            var at = Date(timeIntervalSince1970: -1.5)
        }
        var options = EncodingOptions()
        options.dateEncodingStrategy = .iso8601WithFractionalSeconds
        #expect(text(try JSONAPIEncoder(options: options).encode(Event())).contains("1969-12-31T23:59:58.500Z"))
    }

    @Test func customDateStrategy() throws {
        struct Event: Encodable, JSONAPIResource {
            static let resourceType = "events"
            var id = "1"
            var at = Date(timeIntervalSince1970: 0)
        }
        var options = EncodingOptions()
        options.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("t\(Int(date.timeIntervalSince1970))")
        }
        #expect(text(try JSONAPIEncoder(options: options).encode(Event())).contains(#""at":"t0""#))
    }

    // MARK: Unions, Related, Lazy

    enum Contributor: ResourceUnion, Encodable, Equatable {
        case person(F.Person)
        case tag(F.Tag)
        static let members: [ResourceUnionMember<Contributor>] = [
            .member(F.Person.self, Contributor.person), .member(F.Tag.self, Contributor.tag),
        ]
    }

    struct Book: Codable, Equatable, JSONAPIResource {
        static let resourceType = "books"
        var id: String
        var contributors: [Contributor]
        var reviewer: Contributor?
        var editor: Related<F.Person, F.CountMeta, F.LinksObject>
    }

    @Test func unionsAndRelated() throws {
        let book = Book(
            id: "b", contributors: [.person(F.ada), .tag(F.Tag(id: 1, label: "x"))], reviewer: .person(F.bob),
            editor: Related(value: F.bob, meta: F.CountMeta(count: 1), links: F.LinksObject(related: "/e")))
        let bytes = try JSONAPIEncoder().encode(book)
        _ = try parseStrictly(bytes)
        #expect(
            text(bytes).contains(
                #""editor":{"data":{"type":"people","id":"10"},"links":{"related":"/e"},"meta":{"count":1}}"#))
        #expect(try JSONAPIDecoder().decode(Book.self, from: bytes) == book)
        // A union as primary data.
        let mixed: [Contributor] = [.person(F.ada), .tag(F.Tag(id: 1, label: "x"))]
        #expect(try JSONAPIDecoder().decode([Contributor].self, from: try JSONAPIEncoder().encode(mixed)) == mixed)
    }

    struct Writer: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var books: [Lazy<Novel>]
    }

    struct Novel: Decodable, JSONAPIResource {
        static let resourceType = "novels"
        var id: String
        var author: Writer
    }

    struct WriterOut: Encodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var books: [Lazy<Novel>]
    }

    @Test func lazyReferencesAreLinkage() throws {
        let input = #"""
            {"data":{"type":"novels","id":"n","relationships":{"author":{"data":{"type":"people","id":"p"}}}},
             "included":[{"type":"people","id":"p","attributes":{"name":"W"},
               "relationships":{"books":{"data":[{"type":"novels","id":"n"}]}}}]}
            """#
        let novel = try JSONAPIDecoder().decode(Novel.self, from: Array(input.utf8))
        let out = WriterOut(id: novel.author.id, name: novel.author.name, books: novel.author.books)
        let bytes = try JSONAPIEncoder().encode(out)
        #expect(
            text(bytes)
                == #"{"data":{"type":"people","id":"p","attributes":{"name":"W"},"relationships":{"books":{"data":[{"type":"novels","id":"n"}]}}}}"#
        )
    }

    // MARK: Cycles

    final class Node: Encodable, JSONAPIResource {
        static let resourceType = "nodes"
        let id: String
        var next: [Node] = []
        init(_ id: String) { self.id = id }
    }

    @Test func cyclicGraphsTerminate() throws {
        let a = Node("a")
        let b = Node("b")
        let c = Node("c")
        a.next = [b]
        b.next = [c, a]
        c.next = [a, b, c]
        let bytes = try JSONAPIEncoder().encode(a)
        _ = try parseStrictly(bytes)
        let json = try jsonObject(bytes)
        let included = try #require(json["included"] as? [[String: Any]])
        #expect(included.compactMap { $0["id"] as? String }.sorted() == ["b", "c"])
        // A long chain: no recursion, so no stack overflow.
        var head = Node("0")
        for index in 1..<5_000 {
            let node = Node(String(index))
            node.next = [head]
            head = node
        }
        let long = try JSONAPIEncoder().encode(head)
        #expect(try Document(parsing: long).included.count == 4_999)
        // Break the cycles so the objects are freed.
        a.next = []
        b.next = []
        c.next = []
    }

    @Test func primaryResourcesRelatedToEachOtherAreNotIncluded() throws {
        let a = Node("a")
        let b = Node("b")
        let c = Node("c")
        a.next = [b, c]
        b.next = [a]
        let bytes = try JSONAPIEncoder().encode([a, b])
        _ = try parseStrictly(bytes)
        let json = try jsonObject(bytes)
        let included = try #require(json["included"] as? [[String: Any]])
        #expect(included.compactMap { $0["id"] as? String } == ["c"])
        a.next = []
        b.next = []
    }

    @Test func nonResourcePrimaryDataThrows() {
        #expect(throws: EncodingError.self) { try JSONAPIEncoder().encode(["plain"]) }
    }

    @Test func nonFiniteNumbersThrow() {
        struct Bad: Encodable, JSONAPIResource {
            static let resourceType = "bad"
            var id = "1"
            var value = Double.nan
        }
        #expect(throws: (any Error).self) { try JSONAPIEncoder().encode(Bad()) }
    }
}

extension EncodingOptions.DateEncodingStrategy {
    fileprivate var isWholeSeconds: Bool {
        if case .iso8601 = self { return true }
        return false
    }
}
