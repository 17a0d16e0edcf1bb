import Foundation
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

// The projection's shortcuts (reused container boxes, strings copied run by run, cached key
// lookups) must decode exactly what the plain paths decode, including in the cases they skip.

@Suite("Projection fast paths")
struct ProjectionFastPathTests {
    // MARK: Strings

    struct Note: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "notes"
        var id: String
        var text: String
    }

    /// Decodes `text` written as the JSON string literal `literal`.
    func text(_ literal: String) throws -> String {
        try decode(Note.self, #"{"data":{"type":"notes","id":"1","attributes":{"text":"# + literal + #"}}}"#).text
    }

    @Test func escapedStringsDecodeLikeJSONSerialization() throws {
        let literals = [
            #""plain""#,
            #""a\"b""#,
            #""\\""#,
            #""\n\r\t\b\f\/""#,
            #""caf\u00e9 \u00d8resund""#,
            #""\ud83d\ude00 smile""#,
            #""\u2728 sparkle and a long tail of text after the escape that runs past sixteen bytes""#,
            #""head \"quoted\" middle \\ backslash \n newline and \u00e9 and \ud83d\udc69\u200d\ud83d\udcbb end""#,
            #""\"""#,
            #""x\"""#,
            #""é raw UTF-8 before an escape \t after""#,
        ]
        for literal in literals {
            let expected = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
            #expect(try text(literal) == expected as? String, "\(literal)")
        }
    }

    @Test func longEscapedStringKeepsEveryRun() throws {
        var literal = "\""
        var expected = ""
        for index in 0..<200 {
            literal += "run \(index) \\\"q\\\" \\u00e9 "
            expected += "run \(index) \"q\" é "
        }
        literal += "\""
        #expect(try text(literal) == expected)
    }

    /// Contents the scanner never lets through (it rejects them) still decode on the path that
    /// skips UTF-8 validation as on the validating one, U+FFFD included, without trapping.
    @Test(arguments: [
        #"a\ud800b"#, #"\udc00"#, #"\ud800\u0041"#, #"trailing\"#, #"\u12"#, #"\uZZZZ"#, #"\x\x\x"#,
        #"\"#, #"\\\"#, #"ok \n \u00e9 \ud83d\ude00"#, "",
    ])
    func malformedContentsDecodeLikeJSONStringDecoding(raw: String) {
        Array(raw.utf8).withUnsafeBytes { bytes in
            let validating = JSONStringDecoding.decode(bytes, hasEscapes: true)
            #expect(JSONStringDecoding.decode(validUTF8: bytes, hasEscapes: true) == validating)
            #expect(JSONStringDecoding.decode(validUTF8: bytes) == validating)
            #expect(
                JSONStringDecoding.decode(validUTF8: bytes, hasEscapes: false)
                    == JSONStringDecoding.decode(bytes, hasEscapes: false))
        }
    }

    // MARK: Reused containers

    /// A recursive attribute value: every level uses the same coding keys, so the outer
    /// container is alive (and must keep its object) while the inner ones decode.
    struct Tree: Decodable, Equatable {
        var name: String
        var child: Box?
        var after: String

        final class Box: Decodable, Equatable {
            let tree: Tree
            init(from decoder: any Decoder) throws { tree = try Tree(from: decoder) }
            static func == (lhs: Box, rhs: Box) -> Bool { lhs.tree == rhs.tree }
        }
    }

    struct Forest: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "forests"
        var id: String
        var tree: Tree
        var second: Tree
    }

    @Test func recursiveValuesKeepTheirOwnContainers() throws {
        let forest = try decode(
            Forest.self,
            #"""
            {"data":{"type":"forests","id":"1","attributes":{
              "tree":{"name":"a","child":{"name":"b","child":{"name":"c","after":"c2"},"after":"b2"},"after":"a2"},
              "second":{"name":"x","after":"x2"}}}}
            """#)
        #expect(forest.tree.name == "a")
        #expect(forest.tree.after == "a2")
        #expect(forest.tree.child?.tree.name == "b")
        #expect(forest.tree.child?.tree.after == "b2")
        #expect(forest.tree.child?.tree.child?.tree.name == "c")
        #expect(forest.tree.child?.tree.child?.tree.after == "c2")
        #expect(forest.second.name == "x")
        #expect(forest.second.after == "x2")
    }

    /// Resources of one type nested through relationships: the outer resource's container is
    /// alive while the related one (same coding keys) decodes.
    final class Employee: Decodable, JSONAPIResource, @unchecked Sendable {
        static let resourceType = "employees"
        let id: String
        let name: String
        let manager: Employee?
        let title: String
    }

    @Test func nestedResourcesOfOneTypeKeepTheirOwnContainers() throws {
        let nodes = try decode(
            [Employee].self,
            #"""
            {"data":[
              {"type":"employees","id":"1","attributes":{"name":"Ann","title":"CEO"}},
              {"type":"employees","id":"2","attributes":{"name":"Bob","title":"CTO"},
               "relationships":{"manager":{"data":{"type":"employees","id":"1"}}}},
              {"type":"employees","id":"3","attributes":{"name":"Cy","title":"Dev"},
               "relationships":{"manager":{"data":{"type":"employees","id":"2"}}}}]}
            """#)
        #expect(nodes.map(\.name) == ["Ann", "Bob", "Cy"])
        #expect(nodes.map(\.title) == ["CEO", "CTO", "Dev"])
        #expect(nodes.map { $0.manager?.name } == [nil, "Ann", "Bob"])
        #expect(nodes.map { $0.manager?.title } == [nil, "CEO", "CTO"])
    }

    /// Containers kept past `init(from:)`, read after other objects of the same keys decoded.
    final class Keeper: @unchecked Sendable {
        var containers: [KeyedDecodingContainer<Pair.CodingKeys>] = []
    }

    struct Pair: Decodable {
        enum CodingKeys: String, CodingKey { case left, right }
        var left: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            left = try container.decode(String.self, forKey: .left)
            if let key = ProjectionFastPathTests.keeperKey, let keeper = decoder.userInfo[key] as? Keeper {
                keeper.containers.append(container)
            }
        }
    }

    struct Pairs: Decodable, JSONAPIResource {
        static let resourceType = "pairs"
        var id: String
        var first: Pair
        var second: Pair
        var firstRight: String
        var secondRight: String

        enum CodingKeys: String, CodingKey { case id, first, second }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            first = try container.decode(Pair.self, forKey: .first)
            second = try container.decode(Pair.self, forKey: .second)
            guard let key = ProjectionFastPathTests.keeperKey, let keeper = decoder.userInfo[key] as? Keeper,
                keeper.containers.count >= 2
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no kept containers"))
            }
            let count = keeper.containers.count
            firstRight = try keeper.containers[count - 2].decode(String.self, forKey: .right)
            secondRight = try keeper.containers[count - 1].decode(String.self, forKey: .right)
        }
    }

    static let keeperKey = CodingUserInfoKey(rawValue: "keeper")

    @Test func keptContainersStillReadTheirObjects() throws {
        let keeper = Keeper()
        var options = DecodingOptions()
        options.userInfo = [try #require(Self.keeperKey): keeper]
        let document = try parse(
            #"""
            {"data":[
              {"type":"pairs","id":"1","attributes":{"first":{"left":"a","right":"b"},"second":{"left":"c","right":"d"}}},
              {"type":"pairs","id":"2","attributes":{"first":{"left":"e","right":"f"},"second":{"left":"g","right":"h"}}}]}
            """#)
        let pairs = try document.primary(as: Pairs.self, options: options).decodeAll()
        #expect(pairs.map(\.first.left) == ["a", "e"])
        #expect(pairs.map(\.second.left) == ["c", "g"])
        #expect(pairs.map(\.firstRight) == ["b", "f"])
        #expect(pairs.map(\.secondRight) == ["d", "h"])
    }

    /// The same key type decoded over resources and over plain objects.
    struct Named: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "named"
        var id: String
        var name: String
        var alias: Alias?

        struct Alias: Decodable, Equatable {
            var id: String
            var name: String
            var alias: String?
        }
    }

    @Test func oneKeyTypeOverResourcesAndObjects() throws {
        let named = try decode(
            [Named].self,
            #"""
            {"data":[
              {"type":"named","id":"1","attributes":{"name":"one","alias":{"id":"a1","name":"uno"}}},
              {"type":"named","id":"2","attributes":{"alias":{"id":"a2","name":"dos","alias":"deux"},"name":"two"}},
              {"type":"named","id":"3","attributes":{"name":"three"}}]}
            """#)
        #expect(named.map(\.name) == ["one", "two", "three"])
        #expect(named.map { $0.alias?.name } == ["uno", "dos", nil])
        #expect(named.map { $0.alias?.alias } == [nil, "deux", nil])
    }

    // MARK: Identifiers straight from linkage

    struct Tagged: Decodable, JSONAPIResource {
        static let resourceType = "posts"
        var id: String
        var owner: Identifier<Owner>
        var tags: [Identifier<Label>]

        struct Owner: Decodable, JSONAPIResource {
            static let resourceType = "owners"
            var id: String
        }

        struct Label: Decodable, JSONAPIResource {
            static let resourceType = "labels"
            var id: String
        }
    }

    @Test func identifierArraysKeepMetaLidAndEscapes() throws {
        let post = try decode(
            Tagged.self,
            #"""
            {"data":{"type":"posts","id":"1","relationships":{
              "owner":{"data":{"type":"owners","id":"o\"1"}},
              "tags":{"data":[{"type":"labels","id":"a"},{"type":"labels","id":"b","meta":{"weight":2}},
                              {"type":"labels","id":"c","lid":"local-c"},{"type":"labels","id":"d\u00e9"}]}}}}
            """#)
        #expect(post.owner.id == "o\"1")
        #expect(post.tags.map(\.id) == ["a", "b", "c", "d\u{e9}"])
        #expect(post.tags.map { $0.meta == nil } == [true, false, true, true])
        #expect(post.tags[1].meta?["weight"]?.int64Value == 2)
        #expect(post.tags.map(\.lid) == [nil, nil, "local-c", nil])
    }

    @Test func identifierArrayTypeIsCheckedWithTheElementIndex() throws {
        let error = decodingError {
            try decode(
                Tagged.self,
                #"""
                {"data":{"type":"posts","id":"1","relationships":{
                  "owner":{"data":{"type":"owners","id":"o1"}},
                  "tags":{"data":[{"type":"labels","id":"a"},{"type":"robots","id":"r"}]}}}}
                """#)
        }
        #expect(error?.debugDescription.contains("expected an identifier of type `labels`") == true)
        #expect(error?.debugDescription.contains("found `robots` (robots/r)") == true)
        #expect(error?.path == "tags.[1]")
        #expect(error?.jsonapiError?.pointer == "/data/relationships/tags/data/1")
    }

    // MARK: Member lookups

    struct Escaped: Decodable, JSONAPIResource {
        static let resourceType = "escaped"
        var id: String
        var name: String
        var title: String?
        var owner: Identifier<Tagged.Owner>
    }

    /// Escaped member names match their decoded names, and keys found elsewhere (relationships,
    /// `id`) are still found when the attributes' name filter is full.
    @Test func escapedMemberNamesStillMatch() throws {
        let value = try decode(
            Escaped.self,
            #"""
            {"data":{"type":"escaped","id":"1","attributes":{"na\u006de":"n","t\u0069tle":"t"},
              "relationships":{"owner":{"data":{"type":"owners","id":"o"}}}}}
            """#)
        #expect(value.name == "n")
        #expect(value.title == "t")
        #expect(value.owner == "o")
    }

    /// A key that shares its filter bit with an attribute (same first byte and length) is
    /// compared, not taken for it.
    @Test func filterCollisionsFallBackToComparison() throws {
        struct Pair: Decodable, JSONAPIResource {
            static let resourceType = "pairs"
            var id: String
            var ab: String?
            var ac: String?
        }
        let only = try decode(Pair.self, #"{"data":{"type":"pairs","id":"1","attributes":{"ab":"x"}}}"#)
        #expect(only.ab == "x")
        #expect(only.ac == nil)
    }

    // MARK: Key names kept between decodes

    struct Card: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "cards"
        var id: String
        var front: String
        var back: String?
        var level: Int
    }

    struct OtherCard: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "cards"
        var id: String
        var level: Int
        var front: String
    }

    @Test func keyNamesKeptByReusedDecodersServeTheNextDecode() async throws {
        // The second and later decodes reuse the decoders earlier ones put back, with the
        // key-name tables they filled, for the same key type and (separately) for another.
        let documents = [
            #"{"data":{"type":"cards","id":"1","attributes":{"front":"a","back":"b","level":1}}}"#,
            #"{"data":{"type":"cards","id":"2","attributes":{"level":2,"front":"c"}}}"#,
            #"{"data":{"type":"cards","id":"3","attributes":{"back":null,"level":3,"front":"d"}}}"#,
        ]
        for round in 0..<3 {
            for (n, text) in documents.enumerated() {
                let card = try decode(Card.self, text)
                #expect(card.id == String(n + 1) && card.level == n + 1, "round \(round)")
                #expect(card.front == ["a", "c", "d"][n])
                #expect(card.back == (n == 0 ? "b" : nil))
                let other = try decode(OtherCard.self, text)
                #expect(other.level == card.level && other.front == card.front)
            }
        }
        // Many decoders at once, each with a table of its own.
        let levels = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<32 {
                let text = documents[n % 3]
                group.addTask { try decode(Card.self, text).level }
            }
            return try await group.reduce(0, +)
        }
        #expect(levels == (0..<32).reduce(0) { $0 + $1 % 3 + 1 })
    }

    // MARK: Decoders reused between decodes

    struct Writer: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "writers"
        var id: String
        var name: String
    }

    struct Post: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "posts"
        var id: String
        var title: String
        var writer: Writer
        var editor: Writer?
    }

    /// A post whose writer (and editor, if `editor` is given) is the writer with id `w`, named
    /// `name`; the same ids and record positions in every document.
    private static func post(title: String, name: String, editor: String?) -> String {
        let editorLinkage = editor.map { #"{"type":"writers","id":"\#($0)"}"# } ?? "null"
        return #"""
            {"data":{"type":"posts","id":"1","attributes":{"title":"\#(title)"},
              "relationships":{"writer":{"data":{"type":"writers","id":"w"}},
                               "editor":{"data":\#(editorLinkage)}}},
             "included":[{"type":"writers","id":"w","attributes":{"name":"\#(name)"}}]}
            """#
    }

    @Test func aReusedDecoderKeepsNothingOfTheDocumentBefore() throws {
        // Decoders are put back after each decode and taken by the next: related resources
        // already decoded, skipped resources, and type indices of one document must not leak
        // into the next, where the same (type, record) names a different resource.
        var lenient = DecodingOptions()
        lenient.ignoresMissingResources = true
        for round in 0..<4 {
            let first = try Document(parsing: Self.post(title: "one", name: "Ann", editor: "missing"))
            let report = try first.primary(as: Post.self, options: lenient).decodeAllReporting()
            #expect(report.value.first?.writer.name == "Ann", "round \(round)")
            #expect(report.value.first?.editor == nil)
            #expect(report.skipped.map(\.identifier.id) == ["missing"])

            let second = try Document(parsing: Self.post(title: "two", name: "Bob", editor: "w"))
            let next = try second.primary(as: Post.self).decodeAllReporting()
            #expect(next.value.first?.title == "two")
            #expect(next.value.first?.writer.name == "Bob")
            #expect(next.value.first?.editor?.name == "Bob")
            #expect(next.skipped.isEmpty)

            // A document whose types come in another order gets its own type indices.
            let reordered = #"""
                {"data":{"type":"writers","id":"w","attributes":{"name":"Cy"}},
                 "included":[{"type":"posts","id":"1","attributes":{"title":"three"},
                   "relationships":{"writer":{"data":{"type":"writers","id":"w"}}}}]}
                """#
            let third = try Document(parsing: reordered)
            #expect(try third.primary(as: Writer.self).decodeAll().map(\.name) == ["Cy"])
            #expect(try third.included(of: Post.self).decodeAll().map(\.writer.name) == ["Cy"])
        }
    }

    // MARK: Linked ids

    /// Decoded through `init(from: Decoder)`; the macro tests check the reader path with the same
    /// documents.
    struct Remark: Decodable, LinkedRemark {
        static let resourceType = "remarks"
        var id: String
        var author: Identifier<LinkedAuthor>?
        var cosigners: [Identifier<LinkedAuthor>]?
    }

    @Test func linkedResourcesShareOneIDString() throws {
        try LinkedIDDocuments.expectLinkedResourcesShareOneIDString(Remark.self)
    }

    @Test func sharedIDsDoNotOutliveTheirDocument() throws {
        try LinkedIDDocuments.expectSharedIDsToEndWithTheirDocument(Remark.self)
    }
}
