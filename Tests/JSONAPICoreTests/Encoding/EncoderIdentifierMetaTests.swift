import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// A resource identifier's `meta` is written in linkage, kept by lazy references and request bodies,
/// and read back by the decoder.
@Suite("Encoder: identifier meta")
struct EncoderIdentifierMetaTests {
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
}
