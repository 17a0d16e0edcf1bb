import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoder: documents")
struct EncoderDocumentTests {
    typealias F = EncoderFixtures

    @Test func singleModelWritesResourceObject() throws {
        let bytes = try JSONAPIEncoder().encode(F.ada)
        #expect(text(bytes) == #"{"data":{"type":"people","id":"9","attributes":{"name":"Ada","age":36}}}"#)
        _ = try parseStrictly(bytes)
    }

    @Test func optionalNilWritesNullData() throws {
        let bytes = try JSONAPIEncoder().encode(F.Person?.none)
        #expect(text(bytes) == #"{"data":null}"#)
        #expect(try JSONAPIDecoder().decode(F.Person?.self, from: bytes) == nil)
    }

    @Test func emptyArrayWritesEmptyData() throws {
        #expect(text(try JSONAPIEncoder().encode([F.Person]())) == #"{"data":[]}"#)
    }

    @Test func integerIdsAreStrings() throws {
        let bytes = try JSONAPIEncoder().encode(F.Tag(id: 3, label: "x"))
        #expect(text(bytes) == #"{"data":{"type":"tags","id":"3","attributes":{"label":"x"}}}"#)
        #expect(try JSONAPIDecoder().decode(F.Tag.self, from: bytes) == F.Tag(id: 3, label: "x"))
    }

    @Test func relatedModelsGoToIncludedOnceEach() throws {
        let articles = [F.article("1"), F.article("2")]
        let bytes = try JSONAPIEncoder(options: F.wholeGraph).encode(articles)
        let document = try parseStrictly(bytes)
        // people 9 and 10, comments 5 and 12: each once.
        let json = try jsonObject(bytes)
        let included = try #require(json["included"] as? [[String: Any]])
        let keys = included.map { "\($0["type"] ?? "")/\($0["id"] ?? "")" }
        #expect(Set(keys) == ["people/9", "people/10", "comments/5", "comments/12"])
        #expect(keys.count == 4)
        #expect(document.included.count == 4)
        let decoded = try JSONAPIDecoder().decode([F.Article].self, from: bytes)
        #expect(decoded == articles)
    }

    @Test func relationshipMetaAndLinksAndResourceMeta() throws {
        let bytes = try JSONAPIEncoder().encode(F.article())
        let json = try jsonObject(bytes)
        let data = try #require(json["data"] as? [String: Any])
        let relationships = try #require(data["relationships"] as? [String: Any])
        let author = try #require(relationships["author"] as? [String: Any])
        #expect((author["links"] as? [String: Any])?["related"] as? String == "/articles/1/author")
        let comments = try #require(relationships["comments"] as? [String: Any])
        #expect((comments["meta"] as? [String: Any])?["count"] as? Int == 2)
        let tags = try #require(relationships["tags"] as? [String: Any])
        #expect((tags["data"] as? [[String: Any]])?.first?["id"] as? String == "2")
        #expect((data["meta"] as? [String: Any])?["count"] as? Int == 7)
        #expect(data["attributes"].flatMap { $0 as? [String: Any] }?["meta"] == nil)
    }

    @Test func includePathsChooseWhatIsEmbedded() throws {
        let encoder = JSONAPIEncoder()
        encoder.includePaths = ["author"]
        var json = try jsonObject(try encoder.encode(F.article()))
        var included = try #require(json["included"] as? [[String: Any]])
        #expect(included.map { $0["type"] as? String } == ["people"])

        encoder.includePaths = ["comments.author"]
        let bytes = try encoder.encode(F.article())
        _ = try parseStrictly(bytes)
        json = try jsonObject(bytes)
        included = try #require(json["included"] as? [[String: Any]])
        let keys = Set(included.map { "\($0["type"] ?? "")/\($0["id"] ?? "")" })
        #expect(keys == ["comments/5", "comments/12", "people/10", "people/9"])

        encoder.includePaths = []
        json = try jsonObject(try encoder.encode(F.article()))
        #expect(json["included"] == nil)
    }

    @Test func aRequestedIncludeWritesIncludedEvenWhenEmpty() throws {
        let encoder = JSONAPIEncoder()
        encoder.includePaths = ["author"]
        // Nothing to include: a person has no `author`, and an empty array has no resources.
        #expect(
            text(try encoder.encode(F.ada))
                == #"{"data":{"type":"people","id":"9","attributes":{"name":"Ada","age":36}},"included":[]}"#)
        #expect(text(try encoder.encode([F.Person]())) == #"{"data":[],"included":[]}"#)
        _ = try parseStrictly(try encoder.encode(F.ada))
        // Without a requested include, no `included` member.
        encoder.includePaths = nil
        #expect(text(try encoder.encode([F.Person]())) == #"{"data":[]}"#)
        // Request bodies never have one.
        encoder.includePaths = ["author"]
        #expect(!text(try encoder.encodeCreate(F.ada)).contains("included"))
    }

    @Test func sparseFieldsets() throws {
        let encoder = JSONAPIEncoder(options: F.wholeGraph)
        encoder.fields = ["articles": ["title", "author"], "people": ["name"]]
        let bytes = try encoder.encode(F.article())
        let json = try jsonObject(bytes)
        let data = try #require(json["data"] as? [String: Any])
        #expect((data["attributes"] as? [String: Any]).map { Array($0.keys) } == ["title"])
        #expect((data["relationships"] as? [String: Any]).map { Array($0.keys) } == ["author"])
        let included = try #require(json["included"] as? [[String: Any]])
        #expect(included.count == 1)
        #expect((included.first?["attributes"] as? [String: Any]).map { Array($0.keys) } == ["name"])
        _ = try parseStrictly(bytes)
    }

    @Test func topLevelMetaLinksJSONAPI() throws {
        let bytes = try JSONAPIEncoder().encode(
            [F.ada], meta: ["total": 1], links: ["self": "/people"], jsonapiVersion: "1.1")
        #expect(
            text(bytes)
                == #"{"data":[{"type":"people","id":"9","attributes":{"name":"Ada","age":36}}],"meta":{"total":1},"links":{"self":"/people"},"jsonapi":{"version":"1.1"}}"#
        )
        _ = try parseStrictly(bytes)
    }

    @Test func extraIncludedModels() throws {
        let bytes = try JSONAPIEncoder().encode(
            F.Comment(id: "1", body: "b", author: nil), included: [F.ada])
        let json = try jsonObject(bytes)
        #expect((json["included"] as? [[String: Any]])?.count == 1)
    }

    @Test func identifiersAsPrimaryDataMakeARelationshipDocument() throws {
        let bytes = try JSONAPIEncoder().encode([Identifier<F.Tag>("1"), Identifier("2")])
        #expect(text(bytes) == #"{"data":[{"type":"tags","id":"1"},{"type":"tags","id":"2"}]}"#)
    }

    @Test func prettyPrintedAndSortedKeys() throws {
        var options = EncodingOptions()
        options.prettyPrinted = true
        options.sortsKeys = true
        let bytes = try JSONAPIEncoder(options: options).encode(F.ada)
        #expect(
            text(bytes) == """
                {
                  "data": {
                    "type": "people",
                    "id": "9",
                    "attributes": {
                      "age": 36,
                      "name": "Ada"
                    }
                  }
                }
                """)
    }

    @Test func dataRoundTrip() throws {
        let bytes = try JSONAPIEncoder(options: F.wholeGraph).encodeData(F.article())
        #expect(try JSONAPIDecoder().decode(F.Article.self, from: bytes) == F.article())
    }

    // MARK: The jsonapi object

    @Test func jsonapiObjectRoundTrips() throws {
        let info = JSONAPIImplementationInfo(
            version: "1.1", extensions: ["https://jsonapi.org/ext/atomic"],
            profiles: ["https://example.com/profiles/a", "https://example.com/profiles/b"],
            meta: ["build": "7f9c", "flags": [true, nil]])
        let bytes = try JSONAPIEncoder().encode(F.ada, jsonapi: info)
        #expect(
            text(bytes).hasSuffix(
                #","jsonapi":{"version":"1.1","ext":["https://jsonapi.org/ext/atomic"],"profile":["https://example.com/profiles/a","https://example.com/profiles/b"],"meta":{"build":"7f9c","flags":[true,null]}}}"#
            ))
        let document = try parseStrictly(bytes)
        let view = try #require(document.jsonapi)
        #expect(JSONAPIImplementationInfo(view) == info)
        let typed = try JSONAPIDecoder().decode(CompoundDocument<F.Person, NoMeta, NoLinks>.self, from: bytes)
        let typedView = try #require(typed.jsonapi)
        #expect(typedView.version == "1.1")
        #expect(typedView.extensions == info.extensions)
        #expect(typedView.profiles == info.profiles)
        #expect(typedView.meta.map(JSON.init) == .object(try #require(info.meta)))
    }

    @Test func jsonapiVersionShorthandAndPrecedence() throws {
        let short = try JSONAPIEncoder().encode(F.ada, jsonapiVersion: "1.0")
        #expect(text(short).hasSuffix(#""jsonapi":{"version":"1.0"}}"#))
        let both = try JSONAPIEncoder().encode(
            F.ada, jsonapi: JSONAPIImplementationInfo(version: nil, profiles: ["p"]), jsonapiVersion: "1.0")
        #expect(text(both).hasSuffix(#""jsonapi":{"profile":["p"]}}"#))
        var options = EncodingOptions()
        options.sortsKeys = true
        let sorted = try JSONAPIEncoder(options: options).encode(
            F.ada, jsonapi: JSONAPIImplementationInfo(version: "1.1", profiles: ["p"], meta: ["z": 1, "a": 2]))
        #expect(text(sorted).hasSuffix(#""jsonapi":{"meta":{"a":2,"z":1},"profile":["p"],"version":"1.1"}}"#))
    }
}
