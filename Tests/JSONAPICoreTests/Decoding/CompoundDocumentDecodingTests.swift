import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding compound documents")
struct CompoundDocumentDecodingTests {
    struct PageMeta: Decodable, Equatable, Sendable {
        var totalPages: Int
        var currentPage: Int
    }

    struct PageLinks: Decodable, Sendable {
        var first: Link
        var next: Link?
        var prev: Link?
    }

    static let page = #"""
        {"jsonapi":{"version":"1.1","ext":["https://jsonapi.org/ext/atomic"],"profile":["https://example.com/p"]},
         "meta":{"totalPages":13,"currentPage":3},
         "links":{"self":"http://example.com/articles?page[number]=3",
                  "first":"http://example.com/articles?page[number]=1",
                  "next":{"href":"http://example.com/articles?page[number]=4","title":"Next page","hreflang":["en","de"]}},
         "data":[{"type":"articles","id":"1","attributes":{"title":"JSON:API paints my bikeshed!"},
                  "relationships":{"author":{"data":{"type":"people","id":"9"}},"comments":{"data":[]}}}],
         "included":[{"type":"people","id":"9","attributes":{"firstName":"Dan","lastName":"Gebhardt","twitter":"dgeb"}}]}
        """#

    @Test func typedMetaAndLinks() throws {
        let document = try decode(CompoundDocument<[SpecArticle], PageMeta, PageLinks>.self, Self.page)
        #expect(document.data.map(\.title) == ["JSON:API paints my bikeshed!"])
        #expect(document.data.first?.author.twitter == "dgeb")
        #expect(document.meta == PageMeta(totalPages: 13, currentPage: 3))
        #expect(document.links?.first.href == "http://example.com/articles?page[number]=1")
        #expect(document.links?.next?.title == "Next page")
        #expect(document.links?.next?.hreflang == ["en", "de"])
        #expect(document.links?.prev == nil)
        #expect(document.jsonapi?.version == "1.1")
        #expect(document.jsonapi?.extensions == ["https://jsonapi.org/ext/atomic"])
        #expect(document.jsonapi?.profiles == ["https://example.com/p"])
        #expect(document.skipped.isEmpty)
        #expect(try document.document.included(of: SpecPerson.self).decodeAll().map(\.lastName) == ["Gebhardt"])
    }

    @Test func untypedMetaAndLinks() throws {
        let document = try decode(CompoundDocument<[SpecArticle], JSONObject, Links>.self, Self.page)
        #expect(document.meta?["totalPages"]?.int64Value == 13)
        #expect(document.links?["next"]?.href == "http://example.com/articles?page[number]=4")
        #expect(document.links?.names == ["self", "first", "next"])
        let ignored = try decode(CompoundDocument<[SpecArticle], NoMeta, NoLinks>.self, Self.page)
        #expect(ignored.meta == NoMeta())
    }

    @Test func primaryShapes() throws {
        let one = try decode(
            CompoundDocument<SpecPerson, NoMeta, NoLinks>.self,
            #"{"data":{"type":"people","id":"9","attributes":{"firstName":"D","lastName":"G"}}}"#)
        #expect(one.data.firstName == "D")
        let null = try decode(CompoundDocument<SpecPerson?, NoMeta, NoLinks>.self, #"{"data":null,"meta":{"x":1}}"#)
        #expect(null.data == nil)
        #expect(null.meta == NoMeta())
        let metaOnly = try decode(CompoundDocument<[SpecPerson]?, JSONObject, NoLinks>.self, #"{"meta":{"count":0}}"#)
        #expect(metaOnly.data == nil)
        #expect(metaOnly.meta?["count"]?.int64Value == 0)
        #expect(throws: DecodingError.self) {
            try decode(CompoundDocument<[SpecPerson], NoMeta, NoLinks>.self, #"{"meta":{"count":0}}"#)
        }
    }

    enum Searchable: ResourceUnion, Sendable {
        case person(SpecPerson)
        case comment(SpecComment)

        static let members: [ResourceUnionMember<Searchable>] = [
            .member(SpecPerson.self, Searchable.person),
            .member(SpecComment.self, Searchable.comment),
        ]
    }

    @Test func unionPrimaryData() throws {
        let text = #"""
            {"data":[{"type":"comments","id":"1","attributes":{"body":"Hi"}},
                     {"type":"people","id":"2","attributes":{"firstName":"A","lastName":"B"}},
                     {"type":"tags","id":"3"}]}
            """#
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        let result = try decoder.decode(CompoundDocument<[Searchable], NoMeta, NoLinks>.self, from: Array(text.utf8))
        #expect(result.data.count == 2)
        guard case .comment(let comment) = result.data[0], case .person(let person) = result.data[1] else {
            Issue.record("unexpected members \(result.data)")
            return
        }
        #expect(comment.body == "Hi")
        #expect(person.lastName == "B")
        #expect(result.skipped.map(\.identifier) == [ResourceIdentifier(type: "tags", id: "3")])
        #expect(result.skipped.first?.pointer == "/data/2")
    }

    @Test func relationshipDocument() throws {
        let document = try parse(
            #"{"data":[{"type":"tags","id":"2"},{"type":"tags","id":"3"}],"links":{"self":"/articles/1/relationships/tags"}}"#,
            options: ParsingOptions(kind: .relationshipUpdate))
        struct Tag: Decodable, JSONAPIResource {
            static let resourceType = "tags"
            var id: String
        }
        let decoded = try JSONAPIDecoder().decode(
            CompoundDocument<[Identifier<Tag>], NoMeta, Links>.self, from: document)
        #expect(decoded.data == ["2", "3"])
        #expect(decoded.links?["self"]?.href == "/articles/1/relationships/tags")
    }

    @Test func onlyJSONAPIDecoderDecodesIt() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                CompoundDocument<[SpecPerson], NoMeta, NoLinks>.self, from: Data(#"{"data":[]}"#.utf8))
        }
    }
}
