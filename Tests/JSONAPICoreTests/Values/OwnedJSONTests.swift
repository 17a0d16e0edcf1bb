import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The owned value types: JSON, ordered members, links, the jsonapi object, resource objects.
@Suite("Owned JSON values")
struct OwnedJSONTests {
    @Test("literals build values that write as the JSON they spell")
    func literals() throws {
        let value: JSON = [
            "requestId": "7f9c", "retryAfter": 30, "ratio": 0.25, "ok": true, "tags": ["a", "b"],
            "paging": ["next": nil], "big": .decimal("12345678901234567890"), "neg": -5,
        ]
        #expect(
            try value.jsonString()
                == #"{"requestId":"7f9c","retryAfter":30,"ratio":0.25,"ok":true,"tags":["a","b"],"paging":{"next":null},"big":12345678901234567890,"neg":-5}"#
        )
        #expect(value["retryAfter"]?.int64Value == 30)
        #expect(value["ratio"]?.doubleValue == 0.25)
        #expect(value["big"]?.doubleValue == Double("12345678901234567890"))
        #expect(value["tags"]?[1]?.stringValue == "b")
        #expect(value["tags"]?[2] == nil)
        #expect(value["paging"]?["next"]?.isNull == true)
        #expect(value["ok"]?.boolValue == true)
        #expect(value.description == (try value.jsonString()))
        #expect(try value.jsonString(options: JSONWritingOptions(sortsKeys: true)).hasPrefix(#"{"big":"#))
    }

    @Test("ordered members: set replaces in place, nil removes, repeated literal keys keep the last value")
    func orderedMembers() {
        var object: JSON.Object = ["b": 1, "a": 2, "b": 3]
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == 3)
        object["c"] = "x"
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        object.append(key: "a", value: 9)
        #expect(object.count == 3 && object["a"] == 2)
        var value = JSON.object(object)
        value["d"] = [1]
        #expect(value.objectValue?.keys == ["a", "c", "a", "d"])
        var notObject = JSON.int(1)
        notObject["x"] = 1
        #expect(notObject == .int(1))
    }

    @Test("values JSON cannot represent make finish() throw, and write null meanwhile")
    func unwritable() throws {
        #expect(throws: JSONAPIError.self) { try JSON.double(.nan).jsonBytes() }
        #expect(throws: JSONAPIError.self) { try JSON.array([.double(.infinity)]).jsonBytes() }
        #expect(throws: JSONAPIError.self) { try JSON.decimal("1.").jsonBytes() }
        do {
            _ = try JSON(["a": .double(-.infinity)]).jsonBytes()
        } catch {
            #expect(error.code == .encodingFailed)
        }
        #expect(JSON.array([.double(.nan), 1]).description == "[null,1]")
    }

    @Test("pretty output", arguments: [2, 4])
    func pretty(_ indent: Int) throws {
        let value: JSON = ["a": [1, ["b": []]], "c": [:]]
        let pad = String(repeating: " ", count: indent)
        let expected =
            "{\n\(pad)\"a\": [\n\(pad)\(pad)1,\n\(pad)\(pad){\n\(pad)\(pad)\(pad)\"b\": []\n\(pad)\(pad)}\n\(pad)],\n\(pad)\"c\": {}\n}"
        #expect(try value.jsonString(options: JSONWritingOptions(prettyPrinted: true, indent: indent)) == expected)
    }

    @Test("copying a view keeps every value; numbers in their narrowest exact form")
    func copyView() throws {
        let document = try Document(
            parsing: #"""
                {"meta": {"s": "caf\u00e9 \"q\"", "i": -42, "u": 18446744073709551615, "d": 2.50, "e": 1e2,
                          "long": 0.1000000000000000055511151231257827, "huge": 1e400, "t": true, "f": false,
                          "n": null, "a": [[], {}, [1, {"x": [null]}]], "o": {"k": {"k": {}}}}}
                """#)
        let meta = try #require(document.meta)
        let copy = JSON(meta)
        #expect(copy["s"] == "café \"q\"")
        #expect(copy["i"] == .int(-42))
        #expect(copy["u"] == .decimal("18446744073709551615"))
        #expect(copy["d"] == .double(2.5))
        #expect(copy["e"] == .double(100))
        #expect(copy["long"] == .decimal("0.1000000000000000055511151231257827"))
        #expect(copy["huge"] == .decimal("1e400"))
        #expect(copy["t"] == true && copy["f"] == false && copy["n"] == .null)
        #expect(copy["a"] == [[], [:], [1, ["x": [nil]]]])
        #expect(copy["o"] == ["k": ["k": [:]]])
        #expect(copy.objectValue?.keys == meta.keys)
        // Written again, the copy is the same JSON, numbers aside ("2.50" is now 2.5).
        let rewritten = try Document(parsing: #"{"meta":"# + (try copy.jsonString()) + "}")
        #expect(try #require(rewritten.meta?["a"]).isEquivalent(to: try #require(meta["a"])))
        #expect(rewritten.meta?["d"]?.numberText == "2.5")
        #expect(rewritten.meta?["huge"]?.numberText == "1e400")
        #expect(JSON(try #require(meta["i"])) == -42)
        // An absent object copies as an empty one.
        let bare = try Document(parsing: #"{"data":{"type":"a","id":"1"}}"#)
        #expect(JSON(bare.primaryResources[0].attributes) == [:])
    }

    @Test("links write as a URL string unless they have more than an href")
    func links() throws {
        var links: JSONAPILinks = ["self": "https://example.com/articles?page=2"]
        links["next"] = JSONAPILink(href: "https://example.com/articles?page=3", meta: ["page": 3])
        links["about"] = JSONAPILink(
            href: "/a", rel: "help", describedby: "/schema", title: "About", type: "text/html", hreflang: ["en"])
        links["langs"] = JSONAPILink(href: "/l", hreflang: ["en", "fr"])
        #expect(
            try links.jsonString()
                == #"{"self":"https://example.com/articles?page=2","next":{"href":"https://example.com/articles?page=3","meta":{"page":3}},"about":{"href":"/a","rel":"help","describedby":"/schema","title":"About","type":"text/html","hreflang":"en"},"langs":{"href":"/l","hreflang":["en","fr"]}}"#
        )
        // Any link name is allowed in a resource's links.
        let parsed = try Document(parsing: #"{"data":{"type":"a","id":"1","links":"# + (try links.jsonString()) + "}}")
        let resourceLinks = try #require(parsed.primaryResources[0].links)
        #expect(JSONAPILinks(resourceLinks) == links)
        #expect(try Link(href: "/x").jsonString() == #""/x""#)
        #expect(
            try #require(resourceLinks["next"]).jsonString()
                == #"{"href":"https://example.com/articles?page=3","meta":{"page":3}}"#)
    }

    @Test("the jsonapi object and resource identifiers")
    func smallObjects() throws {
        #expect(try JSONAPIImplementationInfo().jsonString() == #"{"version":"1.1"}"#)
        #expect(
            try JSONAPIImplementationInfo(version: nil, extensions: ["e"], profiles: ["p"], meta: ["m": 1]).jsonString()
                == #"{"ext":["e"],"profile":["p"],"meta":{"m":1}}"#)
        #expect(try ResourceIdentifier(type: "people", id: "9").jsonString() == #"{"type":"people","id":"9"}"#)
        #expect(try ResourceIdentifier(type: "people", lid: "l").jsonString() == #"{"type":"people","lid":"l"}"#)
        let parsed = try Document(
            parsing: #"{"meta":{},"jsonapi":{"version":"1.1","ext":["https://e.com/e"],"meta":{"m":[1]}}}"#)
        #expect(
            JSONAPIImplementationInfo(try #require(parsed.jsonapi))
                == JSONAPIImplementationInfo(extensions: ["https://e.com/e"], meta: ["m": [1]]))
    }

    @Test("resource objects copy a parsed resource and write it back as the same resource")
    func resourceObjects() throws {
        let document = try Document(
            parsing: #"""
                {"data": {"type": "articles", "id": "1", "attributes": {"title": "T", "n": 3},
                          "relationships": {"author": {"data": {"type": "people", "id": "9"}, "links": {"related": "/r"}},
                                            "tags": {"data": []}, "editor": {"data": null}, "x": {"meta": {"m": 1}}},
                          "links": {"self": "/articles/1"}, "meta": {"rank": 1}}}
                """#)
        let resource = JSONAPIResourceObject(document.primaryResources[0])
        #expect(
            resource.relationships["author"]
                == JSONAPIRelationship(
                    data: .one(ResourceIdentifier(type: "people", id: "9")), links: ["related": "/r"]))
        #expect(resource.relationships["tags"] == .toMany([]))
        #expect(resource.relationships["editor"] == .toOne(nil))
        #expect(resource.relationships["x"]?.data == nil)
        let written = try Document(parsing: #"{"data":"# + (try resource.jsonString()) + "}")
        #expect(written.jsonValue.isEquivalent(to: document.jsonValue))
        #expect(JSONAPIResourceObject(written.primaryResources[0]) == resource)
        #expect(try JSONAPIResourceObject(type: "a").jsonString() == #"{"type":"a"}"#)
    }

    @Test("equality and hashing are structural and ordered, and walk deep trees without recursion")
    func equalityAndHashing() {
        let values: [JSON] = [
            nil, true, false, 1, 1.0, .decimal("1"), "1", [], [1], [1, 2], [2, 1], [:], ["a": 1], ["a": 1.0],
            ["a": 1, "b": 2], ["b": 2, "a": 1], ["a": [1, ["b": nil]]], ["a": [1, ["b": false]]], [[[]]], [[[1]]],
        ]
        for (i, a) in values.enumerated() {
            for (j, b) in values.enumerated() {
                #expect((a == b) == (i == j), "\(a) vs \(b)")
                if i != j && a.hashValue == b.hashValue { Issue.record("\(a) and \(b) hash alike") }
            }
            #expect(a == a && Set([a, a]).count == 1)
        }
        // Trees as deep as any document can make them differ only at the bottom.
        var deep: JSON = 1
        var other: JSON = 2
        for _ in 0..<ParsingOptions.depthCeiling {
            deep = [deep]
            other = [other]
        }
        #expect(deep != other)
        #expect(deep.hashValue != other.hashValue)
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

    struct Note: Codable, Equatable, JSONAPIResource {
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
        let note = Note(
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
        let back = try decoder.decode(Note.self, from: bytes)
        // Exact: members in order, big numbers as their text.
        #expect(back == note)
        #expect(back.extra["x"] == .decimal("1e400"))
    }

    @Test func jsonObjectFromAnOwnedObject() throws {
        let view = try #require(JSONObject(["n": 1, "list": [nil, "a"], "big": .decimal("1e400")]))
        #expect(view.keys == ["n", "list", "big"])
        #expect(view["n"]?.rawJSON == "1")
        #expect(view["big"]?.rawJSON == "1e400")
        #expect(JSON(view) == ["n": 1, "list": [nil, "a"], "big": .decimal("1e400")])
    }
}
