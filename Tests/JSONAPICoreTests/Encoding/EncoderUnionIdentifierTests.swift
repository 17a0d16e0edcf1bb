import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoder: union identifiers and resource identifiers")
struct EncoderUnionIdentifierTests {
    typealias Person = UnionIdentifierTests.Person
    typealias Organization = UnionIdentifierTests.Organization
    typealias Contributor = UnionIdentifierTests.Contributor
    typealias Credit = UnionIdentifierTests.Credit

    struct NewArticle: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String = ""
        var title: String
        var contributors: [Credit.ID]
        var reviewer: UnionIdentifier<Contributor>?
    }

    struct ArticlePatch: Encodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var contributors: Field<[Contributor.ID]> = .absent
        var reviewer: Field<Credit.ID> = .absent
    }

    struct LinkedArticle: Codable, Equatable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var contributors: [UnionIdentifier<Contributor>]
        var credits: [Credit.ID]
        var reviewer: Credit.ID?
        var tags: [ResourceIdentifier]
        var source: ResourceIdentifier?
    }

    /// Compact unsorted output is streamed, sorted output goes through the tree encoder: the
    /// same text with the keys in another order.
    func encodeBoth<T: Encodable>(
        _ value: T, sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ encode: (JSONAPIEncoder, T) throws -> [UInt8]
    ) throws -> [UInt8] {
        let streamed = try encode(JSONAPIEncoder(), value)
        var options = EncodingOptions()
        options.formatting.sortsKeys = true
        let tree = try encode(JSONAPIEncoder(options: options), value)
        let a = try JSONSerialization.jsonObject(with: Data(streamed)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(tree)) as? NSDictionary
        #expect(a != nil && a == b, "\(text(streamed))\n\(text(tree))", sourceLocation: sourceLocation)
        return streamed
    }

    @Test func createWithPolymorphicToMany() throws {
        let article = NewArticle(
            title: "Hi", contributors: [.person("12"), .organization("24")],
            reviewer: UnionIdentifier(Contributor.organization, id: "", lid: "org-1"))
        let bytes = try encodeBoth(article) { try $0.encodeCreate($1) }
        #expect(
            text(bytes)
                == #"{"data":{"type":"articles","attributes":{"title":"Hi"},"relationships":{"contributors":{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]},"reviewer":{"data":{"type":"organizations","lid":"org-1"}}}}}"#
        )
        _ = try parseStrictly(bytes, kind: .createRequest)
    }

    @Test func updateBodyWithUnionIdentifiers() throws {
        let patch = ArticlePatch(
            id: "1", contributors: .value([.init(Contributor.person, id: "12"), .init(Contributor.person, id: "66")]),
            reviewer: .null)
        let bytes = try encodeBoth(patch) { try $0.encodeUpdate($1) }
        #expect(
            text(bytes)
                == #"{"data":{"type":"articles","id":"1","relationships":{"contributors":{"data":[{"type":"people","id":"12"},{"type":"people","id":"66"}]},"reviewer":{"data":null}}}}"#
        )
        _ = try parseStrictly(bytes, kind: .updateRequest)
    }

    @Test func relationshipBodies() throws {
        let encoder = JSONAPIEncoder()
        let replace = RelationshipUpdate.toMany([Credit.ID.person("12"), .organization("24")])
        #expect(replace.method == "PATCH")
        #expect(
            text(try encoder.encode(replace))
                == #"{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]}"#)
        #expect(
            text(try encoder.encode(RelationshipUpdate.toOne(UnionIdentifier(Contributor.person, id: "9"))))
                == #"{"data":{"type":"people","id":"9"}}"#)
        #expect(text(try encoder.encode(RelationshipUpdate.toOne(Credit.ID?.none))) == #"{"data":null}"#)
        #expect(RelationshipUpdate.add([Credit.ID.person("1")]).method == "POST")
        #expect(RelationshipUpdate.remove([Credit.ID.person("1")]).method == "DELETE")
        var tagged = Identifier<Person>("7")
        tagged.meta = JSONObject(["role": "editor"])
        let withMeta = RelationshipUpdate.toMany([Credit.ID.person(tagged), .organization("24")])
        #expect(
            text(try encoder.encode(withMeta))
                == #"{"data":[{"type":"people","id":"7","meta":{"role":"editor"}},{"type":"organizations","id":"24"}]}"#
        )
    }

    @Test func roundTripThroughADocument() throws {
        var reviewer = Identifier<Organization>("24")
        reviewer.meta = JSONObject(["primary": true])
        let article = LinkedArticle(
            id: "1",
            contributors: [UnionIdentifier(Contributor.person, id: "12"), .init(Contributor.organization, id: "24")],
            credits: [.organization("24"), .person("12")], reviewer: .organization(reviewer),
            tags: [ResourceIdentifier(type: "tags", id: "2")], source: ResourceIdentifier(type: "feeds", lid: "f"))
        let bytes = try encodeBoth(article) { try $0.encode($1) }
        #expect(
            text(bytes)
                == #"{"data":{"type":"articles","id":"1","relationships":{"contributors":{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]},"credits":{"data":[{"type":"organizations","id":"24"},{"type":"people","id":"12"}]},"reviewer":{"data":{"type":"organizations","id":"24","meta":{"primary":true}}},"tags":{"data":[{"type":"tags","id":"2"}]},"source":{"data":{"type":"feeds","lid":"f"}}}}}"#
        )
        let decoded = try JSONAPIDecoder().decode(LinkedArticle.self, from: bytes)
        #expect(decoded == article)
        guard case .organization(let decodedReviewer) = decoded.reviewer else {
            Issue.record("expected an organization, got \(String(describing: decoded.reviewer))")
            return
        }
        #expect(decodedReviewer.meta?["primary"]?.boolValue == true)
        // As primary data: a relationship document.
        #expect(
            text(try JSONAPIEncoder().encode(article.credits))
                == #"{"data":[{"type":"organizations","id":"24"},{"type":"people","id":"12"}]}"#)
        #expect(
            text(try JSONAPIEncoder().encode(ResourceIdentifier(type: "people", id: "9")))
                == #"{"data":{"type":"people","id":"9"}}"#)
    }

    /// The example of the Getting Started article's section on polymorphic relationships.
    @Test func gettingStartedExample() throws {
        struct ArticleUpdate: Encodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var contributors: Field<[Contributor.ID]> = .absent
            var reviewer: Field<Contributor.ID> = .absent
        }

        let update = ArticleUpdate(
            id: "1",
            contributors: .value([
                UnionIdentifier(Contributor.person, id: "12"), UnionIdentifier(Contributor.organization, id: "24"),
            ]),
            reviewer: .null)
        let body = try JSONAPIEncoder().encodeUpdate(update)
        #expect(
            text(body)
                == #"{"data":{"type":"articles","id":"1","relationships":{"contributors":{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]},"reviewer":{"data":null}}}}"#
        )
        let replace = try JSONAPIEncoder().encode(
            RelationshipUpdate.toMany([UnionIdentifier(Contributor.person, id: "66")]))
        #expect(text(replace) == #"{"data":[{"type":"people","id":"66"}]}"#)
    }

    @Test func foundationJSONEncoderWritesResourceIdentifierObjects() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json<T: Encodable>(_ value: T) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        #expect(try json(ResourceIdentifier(type: "people", id: "9")) == #"{"id":"9","type":"people"}"#)
        #expect(try json(ResourceIdentifier(type: "people", lid: "p")) == #"{"lid":"p","type":"people"}"#)
        #expect(
            try json(ResourceIdentifier(type: "people", id: "9", lid: "p")) == #"{"id":"9","lid":"p","type":"people"}"#)
        #expect(try json(UnionIdentifier(Contributor.person, id: "12")) == #"{"id":"12","type":"people"}"#)
        #expect(try json(Credit.ID.organization("24")) == #"{"id":"24","type":"organizations"}"#)
        #expect(
            try json(UnionIdentifier(Contributor.organization, id: "", lid: "o"))
                == #"{"lid":"o","type":"organizations"}"#)
        #expect(
            try json(Identifier<Person>(id: "9", meta: ["n": 1])) == #"{"id":"9","meta":{"n":1},"type":"people"}"#)
        // Back through Foundation's decoder.
        let decoded = try JSONDecoder().decode(
            [ResourceIdentifier].self, from: encoder.encode([ResourceIdentifier(type: "people", id: "9")]))
        #expect(decoded == [ResourceIdentifier(type: "people", id: "9")])
        let credits = try JSONDecoder().decode([Credit.ID].self, from: encoder.encode([Credit.ID.person("1")]))
        #expect(credits == [.person("1")])
    }
}
