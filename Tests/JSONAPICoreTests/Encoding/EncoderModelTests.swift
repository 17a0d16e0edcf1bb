import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

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

    struct Reading: Codable, JSONAPIResource {
        static let resourceType = "readings"
        var id: String
        var values: [Double]
        var single: Double
    }

    /// The encoder writes doubles as `JSONWriter` does: `description`'s text, printed without a
    /// `String` per number.
    @Test func doublesAreWrittenAsDescriptionWritesThem() throws {
        var generator = EncodingTestSupport.SeededGenerator(seed: 11)
        var values: [Double] = [0.0, -0.0, 1e-05, 0.1, 1e16, 9_007_199_254_740_992, 5e-324, -1.7976931348623157e+308]
        while values.count < 5_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        let bytes = try JSONAPIEncoder().encode(Reading(id: "1", values: values, single: values[1]))
        let written = text(bytes)
        let list = values.map(\.description).joined(separator: ",")
        #expect(written.contains(#""values":[\#(list)]"#))
        #expect(written.contains(#""single":-0.0"#))
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
    }

    /// Attributes named by the test, so one model carries any list of member names.
    struct NamedAttributes: Encodable, JSONAPIResource {
        static let resourceType = "x"
        var id = "1"
        var names: [String]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: Key(stringValue: "id"))
            for (index, name) in names.enumerated() { try container.encode(index, forKey: Key(stringValue: name)) }
        }
    }

    /// The same member names without JSON:API around them, for `JSONEncoder`.
    struct PlainNames: Encodable {
        var names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedAttributes.Key.self)
            for (index, name) in names.enumerated() {
                try container.encode(index, forKey: NamedAttributes.Key(stringValue: name))
            }
        }
    }

    /// Member names of a JSON object whose values number them, in that order.
    private func names(ofNumbered object: Any?) throws -> [String] {
        let members = try #require(object as? [String: Int])
        return members.sorted { $0.value < $1.value }.map(\.key)
    }

    private func attributeNames(_ bytes: [UInt8]) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        let data = try #require(json?["data"] as? [String: Any])
        return try names(ofNumbered: data["attributes"])
    }

    @Test func snakeAndKebabCaseFollowJSONEncoder() throws {
        let names = [
            "homePageURL", "URLString", "myHTTPServerID", "firstName", "already_snake", "_leading",
            "trailing_", "x", "ID", "userID2FA", "aB", "ÉcoleName", "straßeNummer", "καλημέραΚόσμε",
        ]
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let expected = try self.names(
            ofNumbered: JSONSerialization.jsonObject(with: foundation.encode(PlainNames(names: names))))
        #expect(expected.count == names.count)
        #expect(expected.first == "home_page_url")

        var options = EncodingOptions()
        options.keyEncodingStrategy = .convertToSnakeCase
        #expect(try attributeNames(JSONAPIEncoder(options: options).encode(NamedAttributes(names: names))) == expected)

        // Kebab case splits the same words; names that already hold `_` keep it.
        options.keyEncodingStrategy = .convertToKebabCase
        let kebab = try attributeNames(JSONAPIEncoder(options: options).encode(NamedAttributes(names: names)))
        #expect(kebab.count == names.count)
        for (name, (snake, written)) in zip(names, zip(expected, kebab)) where !name.contains("_") {
            #expect(written == snake.replacingOccurrences(of: "_", with: "-"), "\(name)")
        }
    }

    @Test func decimalsAreWrittenExactly() throws {
        struct Price: Codable, Equatable, JSONAPIResource {
            static let resourceType = "prices"
            var id = "1"
            var amount: Decimal
        }
        for literal in ["0.30000000000000000001", "12345678901234567890.123456789", "-0.001", "1000", "0"] {
            let price = Price(amount: try #require(Decimal(string: literal)))
            let bytes = try JSONAPIEncoder().encode(price)
            #expect(text(bytes).contains("\"amount\":\(literal)"), "\(literal)")
            #expect(try JSONAPIDecoder().decode(Price.self, from: bytes) == price)
        }
        #expect(throws: JSONAPIError.self) { _ = try JSONAPIEncoder().encode(Price(amount: .nan)) }
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
        let bytes = try JSONAPIEncoder(options: F.wholeGraph).encode(book)
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
        let bytes = try JSONAPIEncoder(options: F.wholeGraph).encode(a)
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
        let long = try JSONAPIEncoder(options: F.wholeGraph).encode(head)
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
        let bytes = try JSONAPIEncoder(options: F.wholeGraph).encode([a, b])
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
