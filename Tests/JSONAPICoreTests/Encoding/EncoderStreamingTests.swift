import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// Compact, unsorted output is streamed (`StreamingEncoder`); pretty or sorted output goes
/// through the tree encoder. Both must write the same document.
@Suite("Encoder: streamed and tree output agree")
struct EncoderStreamingTests {
    typealias F = EncoderFixtures

    struct Metrics: Codable, Equatable {
        var views: Int
        var ratio: Double
        var history: [Int]
        var nested: [String: [Bool?]]
    }

    struct Gadget: Codable, Equatable, JSONAPIResource {
        static let resourceType = "gadgets"
        var id: String
        var name: String?
        var metrics: Metrics
        var points: [Metrics]
        var empty: Empty
        var created: Date
        var blob: Data
        var site: URL
        var extra: JSON
        var owner: F.Person
        var ownerMeta: F.CountMeta
        var links: [String: String]

        struct Empty: Codable, Equatable {}

        enum CodingKeys: String, CodingKey {
            case id, name, metrics, points, empty, created, blob, site, extra, owner, links
            case ownerMeta = "owner.meta"
        }
    }

    static func gadget(_ id: String) -> Gadget {
        Gadget(
            id: id, name: id == "1" ? nil : "G\\\"\(id)\u{1}",
            metrics: Metrics(views: 3, ratio: 0.5, history: [1, -2], nested: ["a": [true, nil]]),
            points: [
                Metrics(views: 1, ratio: 1e-7, history: [], nested: [:]),
                Metrics(views: 2, ratio: 2, history: [Int.min], nested: ["z": []]),
            ],
            empty: Gadget.Empty(), created: Date(timeIntervalSince1970: 1_700_000_000.5),
            blob: Data([0, 1, 2, 255]), site: URL(fileURLWithPath: "/tmp/a b"),
            extra: ["deep": [["x": 1], [], nil], "big": .decimal("123456789012345678901234567890")],
            owner: id == "1" ? F.ada : F.bob, ownerMeta: F.CountMeta(count: Int(id) ?? 0),
            links: ["self": "/gadgets/\(id)"])
    }

    /// Encodes with compact unsorted output (streamed) and pretty output (tree), and checks
    /// both parse to the same JSON.
    func expectSameDocument<T: Encodable>(
        _ value: T, configure: (inout EncodingOptions) -> Void = { _ in },
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> [UInt8] {
        var streamed = EncodingOptions()
        configure(&streamed)
        var tree = streamed
        tree.prettyPrinted = true
        let streamedBytes = try JSONAPIEncoder(options: streamed).encode(value)
        let treeBytes = try JSONAPIEncoder(options: tree).encode(value)
        let a = try JSONSerialization.jsonObject(with: Data(streamedBytes)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(treeBytes)) as? NSDictionary
        #expect(a != nil && a == b, "\(text(streamedBytes))\n\(text(treeBytes))", sourceLocation: sourceLocation)
        #expect(!streamedBytes.contains(UInt8(ascii: "\n")), sourceLocation: sourceLocation)
        return streamedBytes
    }

    @Test func nestedValuesDatesDataJSONAndRelationships() throws {
        let gadgets = [Self.gadget("1"), Self.gadget("2")]
        let bytes = try expectSameDocument(gadgets)
        _ = try parseStrictly(bytes)
        let json = try jsonObject(bytes)
        let first = try #require((json["data"] as? [[String: Any]])?.first)
        let attributes = try #require(first["attributes"] as? [String: Any])
        #expect((attributes["empty"] as? [String: Any])?.isEmpty == true)
        #expect(attributes["name"] == nil)
        #expect(text(bytes).contains(#""big":123456789012345678901234567890"#))
        let owner = try #require((first["relationships"] as? [String: Any])?["owner"] as? [String: Any])
        #expect((owner["meta"] as? [String: Any])?["count"] as? Int == 1)
        #expect((first["links"] as? [String: Any])?["self"] as? String == "/gadgets/1")
    }

    @Test func snakeCaseKeysSparseFieldsetsAndIncludePaths() throws {
        _ = try expectSameDocument([F.article("1"), F.article("2")]) { options in
            options.keyEncodingStrategy = .convertToSnakeCase
        }
        let bytes = try expectSameDocument([F.article("1")]) { options in
            options.fields = ["articles": ["title", "author"], "people": ["name"]]
            options.includePaths = ["author"]
        }
        let json = try jsonObject(bytes)
        let data = try #require((json["data"] as? [[String: Any]])?.first)
        #expect((data["attributes"] as? [String: Any]).map { Array($0.keys) } == ["title"])
        #expect((data["relationships"] as? [String: Any]).map { Array($0.keys) } == ["author"])
        #expect((json["included"] as? [[String: Any]])?.count == 1)
    }

    @Test func requestBodiesStream() throws {
        let create = try JSONAPIEncoder().encodeCreate(F.Person(id: "", name: "N", age: nil))
        #expect(text(create) == #"{"data":{"type":"people","attributes":{"name":"N"}}}"#)
        #expect(throws: EncodingError.self) { try JSONAPIEncoder().encodeUpdate(F.Person(id: "", name: "N")) }
    }

    /// Writes to a nested container after its parent moved on: streaming cannot follow, so the
    /// model is encoded again through the tree encoder.
    struct OutOfOrder: Encodable, JSONAPIResource {
        static let resourceType = "odd"
        var id = "1"

        struct Inner: Encodable {
            enum Keys: String, CodingKey { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try container.encode(2, forKey: .b)
                try nested.encode("late", forKey: .c)
            }
        }

        enum CodingKeys: String, CodingKey { case id, inner, after }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(Inner(), forKey: .inner)
            try container.encode("x", forKey: .after)
        }
    }

    @Test func containersUsedOutOfOrderFallBackToTree() throws {
        let bytes = try expectSameDocument(OutOfOrder())
        #expect(
            text(bytes)
                == #"{"data":{"type":"odd","id":"1","attributes":{"inner":{"a":{"c":"late"},"b":2},"after":"x"}}}"#
        )
    }

    /// Opens containers on the resource itself, which only the tree encoder handles.
    struct HandWritten: Encodable, JSONAPIResource {
        static let resourceType = "hand"
        var id = "7"
        enum Keys: String, CodingKey { case id, meta, list }
        enum MetaKeys: String, CodingKey { case n }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(id, forKey: .id)
            var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
            try meta.encode(1, forKey: .n)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(true)
        }
    }

    @Test func containersOnTheResourceFallBackToTree() throws {
        let bytes = try expectSameDocument(HandWritten())
        #expect(text(bytes) == #"{"data":{"type":"hand","id":"7","attributes":{"list":[true]},"meta":{"n":1}}}"#)
    }

    struct Unkeyed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            var inner = container.nestedUnkeyedContainer()
            try inner.encode(1)
            try container.encode("after")
            var object = container.nestedContainer(keyedBy: AnyCodingKey.self)
            try object.encodeNil(forKey: AnyCodingKey("k"))
            let single = container.superEncoder()
            _ = single
        }
    }

    struct AnyCodingKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Holder: Encodable, JSONAPIResource {
        static let resourceType = "holders"
        var id = "1"
        var value = Unkeyed()
        var single = SingleWrapped()
    }

    struct SingleWrapped: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode([1.5, 2])
        }
    }

    @Test func unkeyedNestingSuperEncodersAndSingleValues() throws {
        let bytes = try expectSameDocument(Holder())
        let attributes = try #require(((try jsonObject(bytes))["data"] as? [String: Any])?["attributes"])
        #expect(
            (attributes as? NSDictionary)
                == ["value": [[1], "after", ["k": NSNull()], [String: Any]()], "single": [1.5, 2]] as NSDictionary)
    }

    /// Identifier linkage written straight to the stream: optional (nil and not), arrays,
    /// lids without ids, explicit `encode` of a nil optional.
    struct Linked: Encodable, JSONAPIResource {
        static let resourceType = "linked"
        var id = "1"
        var none: Identifier<F.Person>? = nil
        var some: Identifier<F.Person>? = Identifier("9")
        var local = Identifier<F.Person>(id: "", lid: "tmp")
        var many: [Identifier<F.Tag>] = [Identifier("1"), Identifier(id: "", lid: "new")]
        var empty: [Identifier<F.Tag>] = []

        enum CodingKeys: String, CodingKey { case id, none, some, local, many, empty }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(none, forKey: .none)
            try container.encode(some, forKey: .some)
            try container.encode(local, forKey: .local)
            try container.encode(many, forKey: .many)
            try container.encode(empty, forKey: .empty)
        }
    }

    @Test func identifierLinkageShapes() throws {
        let bytes = try expectSameDocument(Linked())
        #expect(
            text(bytes)
                == #"{"data":{"type":"linked","id":"1","relationships":{"none":{"data":null},"some":{"data":{"type":"people","id":"9"}},"local":{"data":{"type":"people","lid":"tmp"}},"many":{"data":[{"type":"tags","id":"1"},{"type":"tags","lid":"new"}]},"empty":{"data":[]}}}}"#
        )
    }

    struct Text: Encodable, JSONAPIResource {
        static let resourceType = "texts"
        var id = "1"
        var value: String
    }

    /// The stream's own buffer escapes exactly as `JSONWriter` does, at every offset of its
    /// word-at-a-time checks, with and without slash escaping.
    @Test(arguments: [false, true])
    func streamedStringsEscapeAsTheWriterDoes(slashes: Bool) throws {
        var options = EncodingOptions()
        options.formatting.escapesSlashes = slashes
        let encoder = JSONAPIEncoder(options: options)
        let specials: [Character] = ["\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "😀"]
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 48, 49, 70] {
            for position in Set([0, length / 2, max(length - 1, 0)]) {
                for special in specials {
                    var characters = Array(repeating: Character("a"), count: max(length, 1))
                    characters[position] = special
                    if length > 2 { characters[0] = special }
                    let value = String(characters)
                    var writer = JSONWriter(options: JSONWritingOptions(escapesSlashes: slashes))
                    writer.string(value)
                    let expected =
                        #"{"data":{"type":"texts","id":"1","attributes":{"value":"#
                        + text(writer.bytes) + "}}}"
                    #expect(text(try encoder.encode(Text(value: value))) == expected)
                }
            }
        }
    }

    @Test func nonFiniteAttributeThrows() throws {
        struct Bad: Encodable, JSONAPIResource {
            static let resourceType = "bad"
            var id = "1"
            var value = Double.nan
        }
        #expect(throws: (any Error).self) { try JSONAPIEncoder().encode(Bad()) }
    }
}
