import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoder: request bodies")
struct EncoderRequestBodyTests {
    typealias F = EncoderFixtures

    struct NewArticle: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String = ""
        var lid: String?
        var title: String
        var author: Identifier<F.Person>
        var tags: [Identifier<F.Tag>] = []
    }

    struct ArticlePatch: Codable, JSONAPIResource, Equatable {
        static let resourceType = "articles"
        var id: String
        var title: Field<String> = .absent
        var subtitle: Field<String> = .absent
        var author: Field<Identifier<F.Person>> = .absent
        var tags: Field<[Identifier<F.Tag>]> = .absent
    }

    @Test func createWithoutId() throws {
        let bytes = try JSONAPIEncoder().encodeCreate(NewArticle(title: "Hi", author: "9"))
        #expect(
            text(bytes)
                == #"{"data":{"type":"articles","attributes":{"title":"Hi"},"relationships":{"author":{"data":{"type":"people","id":"9"}},"tags":{"data":[]}}}}"#
        )
        _ = try parseStrictly(bytes, kind: .createRequest)
    }

    @Test func createWithClientGeneratedId() throws {
        let bytes = try JSONAPIEncoder().encodeCreate(NewArticle(id: "abc", title: "Hi", author: "9"))
        #expect(text(bytes).hasPrefix(#"{"data":{"type":"articles","id":"abc","attributes""#))
        _ = try parseStrictly(bytes, kind: .createRequest)
    }

    @Test func createWithLocalIds() throws {
        let article = NewArticle(lid: "a1", title: "Hi", author: Identifier(id: "", lid: "p1"))
        let bytes = try JSONAPIEncoder().encodeCreate(article)
        #expect(
            text(bytes)
                == #"{"data":{"type":"articles","lid":"a1","attributes":{"title":"Hi"},"relationships":{"author":{"data":{"type":"people","lid":"p1"}},"tags":{"data":[]}}}}"#
        )
    }

    @Test func updateWritesOnlySetMembers() throws {
        var patch = ArticlePatch(id: "1")
        patch.title = .value("New")
        patch.subtitle = .null
        patch.author = .null
        let bytes = try JSONAPIEncoder().encodeUpdate(patch)
        #expect(
            text(bytes)
                == #"{"data":{"type":"articles","id":"1","attributes":{"title":"New","subtitle":null},"relationships":{"author":{"data":null}}}}"#
        )
        _ = try parseStrictly(bytes, kind: .updateRequest)
        #expect(try JSONAPIDecoder().decode(ArticlePatch.self, from: bytes) == patch)

        patch = ArticlePatch(id: "1", tags: .value(["2", "3"]))
        let tags = try JSONAPIEncoder().encodeUpdate(patch)
        #expect(
            text(tags)
                == #"{"data":{"type":"articles","id":"1","relationships":{"tags":{"data":[{"type":"tags","id":"2"},{"type":"tags","id":"3"}]}}}}"#
        )
        #expect(try JSONAPIDecoder().decode(ArticlePatch.self, from: tags) == patch)
    }

    @Test func updateNeedsAnId() {
        #expect(throws: EncodingError.self) { try JSONAPIEncoder().encodeUpdate(ArticlePatch(id: "")) }
    }

    @Test func relationshipUpdates() throws {
        let encoder = JSONAPIEncoder()
        #expect(
            text(try encoder.encode(RelationshipUpdate.toOne(Identifier<F.Person>("9"))))
                == #"{"data":{"type":"people","id":"9"}}"#)
        #expect(text(try encoder.encode(RelationshipUpdate.toOne(Identifier<F.Person>?.none))) == #"{"data":null}"#)
        let replace = RelationshipUpdate.toMany([Identifier<F.Tag>("2"), "3"])
        #expect(
            text(try encoder.encode(replace)) == #"{"data":[{"type":"tags","id":"2"},{"type":"tags","id":"3"}]}"#)
        #expect(replace.method == "PATCH")
        #expect(RelationshipUpdate.add([Identifier<F.Tag>("4")]).method == "POST")
        let remove = RelationshipUpdate.remove([Identifier<F.Tag>("4")])
        #expect(remove.method == "DELETE")
        let bytes = try encoder.encode(remove)
        #expect(text(bytes) == #"{"data":[{"type":"tags","id":"4"}]}"#)
        _ = try parseStrictly(bytes, kind: .relationshipUpdate)
        #expect(text(try encoder.encode(RelationshipUpdate.toMany([Identifier<F.Tag>]()))) == #"{"data":[]}"#)
    }
}
