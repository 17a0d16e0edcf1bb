import Foundation
import JSONAPI
import Testing

@Suite("Encoder: identifier meta, the jsonapi object, JSON as Codable")
struct EncoderGapsTests {
    typealias F = EncoderFixtures

    struct Post: Codable, JSONAPIResource {
        static let resourceType = "posts"
        var id: String
        var author: Identifier<F.Person>
        var tags: [Identifier<F.Tag>]
    }

    static let post = Post(
        id: "1", author: Identifier(id: "9", meta: ["role": "editor", "since": 2020]),
        tags: [Identifier(id: "2", meta: ["primary": true]), Identifier("3")])

    // MARK: Identifier meta

    @Test(arguments: [false, true])
    func identifierMetaIsWrittenInLinkage(sorted: Bool) throws {
        var options = EncodingOptions()
        options.sortsKeys = sorted
        let bytes = try JSONAPIEncoder(options: options).encode(Self.post)
        // Sorting (the tree encoder) orders attributes and free-form objects, not the members of
        // resource objects and identifiers.
        let expected =
            #"{"data":{"type":"posts","id":"1","relationships":{"author":{"data":{"type":"people","id":"9","meta":{"role":"editor","since":2020}}},"tags":{"data":[{"type":"tags","id":"2","meta":{"primary":true}},{"type":"tags","id":"3"}]}}}}"#
        #expect(text(bytes) == expected)
        // Read back: the decoder keeps each identifier's meta.
        let back = try JSONAPIDecoder().decode(Post.self, from: bytes)
        #expect(back.author.meta?["role"]?.stringValue == "editor")
        #expect(back.tags[0].meta?["primary"]?.boolValue == true)
        #expect(back.tags[1].meta == nil)
    }

    @Test func identifierMetaSurvivesADecodeEncodeRoundTrip() throws {
        let input = #"""
            {"data":{"type":"posts","id":"1","relationships":{
              "author":{"data":{"type":"people","id":"9","meta":{ "a" : [1, 2.5, "x\n"] }}},
              "tags":{"data":[]}}}}
            """#
        let post = try JSONAPIDecoder().decode(Post.self, from: Array(input.utf8))
        let bytes = try JSONAPIEncoder().encode(post)
        #expect(text(bytes).contains(#"{"type":"people","id":"9","meta":{"a":[1,2.5,"x\n"]}}"#))
    }

    struct LazyPost: Codable, JSONAPIResource {
        static let resourceType = "posts"
        var id: String
        var author: Lazy<F.Person>
    }

    @Test func lazyReferencesKeepTheirIdentifierMeta() throws {
        let input = #"""
            {"data":{"type":"posts","id":"1","relationships":{
              "author":{"data":{"type":"people","id":"9","meta":{"seen":true}}}}},
             "included":[{"type":"people","id":"9","attributes":{"name":"Ada"}}]}
            """#
        let post = try JSONAPIDecoder().decode(LazyPost.self, from: Array(input.utf8))
        #expect(post.author.identifierMeta?["seen"]?.boolValue == true)
        let bytes = try JSONAPIEncoder().encode(post)
        #expect(
            text(bytes)
                == #"{"data":{"type":"posts","id":"1","relationships":{"author":{"data":{"type":"people","id":"9","meta":{"seen":true}}}}}}"#
        )
    }

    @Test func identifierMetaInRequestBodies() throws {
        let create = try JSONAPIEncoder().encodeCreate(Post(id: "", author: Self.post.author, tags: []))
        #expect(
            text(create)
                == #"{"data":{"type":"posts","relationships":{"author":{"data":{"type":"people","id":"9","meta":{"role":"editor","since":2020}}},"tags":{"data":[]}}}}"#
        )
        let update = try JSONAPIEncoder().encode(RelationshipUpdate.add(Self.post.tags))
        #expect(
            text(update) == #"{"data":[{"type":"tags","id":"2","meta":{"primary":true}},{"type":"tags","id":"3"}]}"#)
        let toOne = try JSONAPIEncoder().encode(RelationshipUpdate.toOne(Self.post.author))
        #expect(text(toOne) == #"{"data":{"type":"people","id":"9","meta":{"role":"editor","since":2020}}}"#)
        let plain = try JSONAPIEncoder().encode(RelationshipUpdate.toMany([Identifier<F.Tag>("4")]))
        #expect(text(plain) == #"{"data":[{"type":"tags","id":"4"}]}"#)
    }

    @Test func jsonObjectFromAnOwnedObject() throws {
        let view = try #require(JSONObject(["n": 1, "list": [nil, "a"], "big": .decimal("1e400")]))
        #expect(view.keys == ["n", "list", "big"])
        #expect(view["n"]?.rawJSON == "1")
        #expect(view["big"]?.rawJSON == "1e400")
        #expect(JSON(view) == ["n": 1, "list": [nil, "a"], "big": .decimal("1e400")])
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

    // MARK: JSON as Codable

    static let sample: JSON = [
        "int": -42, "bigInt": .decimal("18446744073709551616"), "uint64": .decimal("18446744073709551615"),
        "double": 0.25, "tiny": .double(.leastNonzeroMagnitude), "null": nil, "bool": false, "string": "é \"q\"\n",
        "nested": [[1, [2, [3]]], ["k": ["k2": [:]]], []],
    ]

    /// Objects with members sorted by key, for decoders that do not keep the order.
    static func sortedMembers(_ value: JSON) -> JSON {
        switch value {
        case .array(let elements): return .array(elements.map(sortedMembers))
        case .object(let object):
            let pairs = object.members.map { ($0.key, sortedMembers($0.value)) }.sorted { $0.0 < $1.0 }
            return .object(JSON.Object(pairs))
        default: return value
        }
    }

    @Test func jsonThroughFoundation() throws {
        let data = try JSONEncoder().encode(Self.sample)
        let back = try JSONDecoder().decode(JSON.self, from: data)
        #expect(Self.sortedMembers(back) == Self.sortedMembers(Self.sample))
        // What Foundation wrote is the same JSON our parser reads.
        let parsed = try Document(parsing: Array(#"{"meta":"#.utf8) + Array(data) + Array("}".utf8))
        #expect(Self.sortedMembers(JSON(try #require(parsed.meta))) == Self.sortedMembers(Self.sample))
    }

    @Test func jsonScalarsThroughFoundation() throws {
        for value: JSON in [nil, true, 1, -1.5, "s", [], [:], .decimal("12345678901234567890123")] {
            let back = try JSONDecoder().decode(JSON.self, from: try JSONEncoder().encode(value))
            #expect(back == value, "\(value)")
        }
    }

    struct Document1: Codable, Equatable, JSONAPIResource {
        static let resourceType = "notes"
        var id: String
        var fieldName: JSON
        var extra: [String: JSON]
        var meta: JSON?
    }

    @Test(arguments: [false, true])
    func jsonAttributesThroughJSONAPIEncoderAndDecoder(snakeCase: Bool) throws {
        var options = EncodingOptions()
        if snakeCase { options.keyEncodingStrategy = .convertToSnakeCase }
        let note = Document1(
            id: "1", fieldName: Self.sample, extra: ["camelKey": [1, "two"], "x": .decimal("1e400")],
            meta: ["camelMeta": 1])
        let bytes = try JSONAPIEncoder(options: options).encode(note)
        let json = text(bytes)
        // Member names inside JSON values are written as they are, even under a key strategy.
        #expect(json.contains(#""camelKey":[1,"two"]"#))
        #expect(json.contains(#""meta":{"camelMeta":1}"#))
        #expect(json.contains(#""bigInt":18446744073709551616"#))
        #expect(json.contains(snakeCase ? #""field_name":{"int":-42,"# : #""fieldName":{"int":-42,"#))
        let decoder = JSONAPIDecoder()
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        let back = try decoder.decode(Document1.self, from: bytes)
        // Exact: members in order, big numbers as their text.
        #expect(back == note)
        #expect(back.extra["x"] == .decimal("1e400"))
    }
}
