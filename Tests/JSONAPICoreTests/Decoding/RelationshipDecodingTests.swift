import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding relationships")
struct RelationshipDecodingTests {
    struct Person: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Organization: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
        var contactEmail: String
    }

    enum Contributor: ResourceUnion, Equatable, Sendable {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Person.self, Contributor.person),
            .member(Organization.self, Contributor.organization),
        ]
    }

    struct Comment: Decodable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Person?
    }

    struct Article: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person
        var editor: Person?
        var comments: [Comment]
        var contributors: [Contributor]
        var reviewer: Contributor?
    }

    static let document = #"""
        {"data":{"type":"articles","id":"1","attributes":{"title":"Unions"},
          "relationships":{
            "author":{"data":{"type":"people","id":"9"}},
            "editor":{"data":null},
            "comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"12"}]},
            "contributors":{"data":[{"type":"people","id":"9"},{"type":"organizations","id":"2"},{"type":"people","id":"3"}]},
            "reviewer":{"data":{"type":"organizations","id":"2"}}}},
         "included":[
          {"type":"people","id":"9","attributes":{"name":"Dan"}},
          {"type":"people","id":"3","attributes":{"name":"Ann"}},
          {"type":"organizations","id":"2","attributes":{"name":"ACME","contactEmail":"hi@acme.test"}},
          {"type":"comments","id":"5","attributes":{"body":"First!"},"relationships":{"author":{"data":{"type":"people","id":"3"}}}},
          {"type":"comments","id":"12","attributes":{"body":"Second"},"relationships":{"author":{"data":null}}}]}
        """#

    @Test func resolvedRelationships() throws {
        let article = try decode(Article.self, Self.document)
        #expect(article.author == Person(id: "9", name: "Dan"))
        #expect(article.editor == nil)
        #expect(article.comments.map(\.body) == ["First!", "Second"])
        #expect(article.comments[0].author?.name == "Ann")
        #expect(article.comments[1].author == nil)
        #expect(
            article.contributors == [
                .person(Person(id: "9", name: "Dan")),
                .organization(Organization(id: "2", name: "ACME", contactEmail: "hi@acme.test")),
                .person(Person(id: "3", name: "Ann")),
            ])
        #expect(article.reviewer == .organization(Organization(id: "2", name: "ACME", contactEmail: "hi@acme.test")))
    }

    /// The same resource reached twice side by side is not a cycle.
    @Test func sharedResourcesAreNotCycles() throws {
        let article = try decode(Article.self, Self.document)
        #expect(article.author.id == "9")
        guard case .person(let person) = article.contributors[0] else {
            Issue.record("expected a person")
            return
        }
        #expect(person == article.author)
    }

    static func replacing(_ old: String, with new: String) -> String {
        document.replacingOccurrences(of: old, with: new)
    }

    @Test func unhandledUnionTypeFails() throws {
        let text = Self.replacing(#"{"type":"people","id":"3"}]"#, with: #"{"type":"teams","id":"13"}]"#)
        let error = decodingError { try decode(Article.self, text) }
        #expect(
            error?.debugDescription.contains("resource type `teams` (teams/13) is not a member of Contributor") == true)
        #expect(error?.debugDescription.contains("people, organizations") == true)
        #expect(error?.jsonapiError?.code == .typeMismatch)
        #expect(error?.path == "contributors.[2]")
    }

    @Test func unhandledUnionTypeSkipped() throws {
        let text = Self.replacing(#"{"type":"people","id":"3"}]"#, with: #"{"type":"teams","id":"13"}]"#)
            .replacingOccurrences(
                of: #""reviewer":{"data":{"type":"organizations","id":"2"}}"#,
                with: #""reviewer":{"data":{"type":"teams","id":"13"}}"#
            )
            .replacingOccurrences(
                of: #"{"type":"people","id":"3","attributes":{"name":"Ann"}},"#,
                with: #"{"type":"people","id":"3","attributes":{"name":"Ann"}},{"type":"teams","id":"13"},"#)
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        let report = try decoder.decodeReporting(Article.self, from: Array(text.utf8))
        #expect(report.value.contributors.count == 2)
        #expect(report.value.reviewer == nil)
        #expect(report.skipped.count == 2)
        let skipped = report.skipped.first { $0.codingPath == "contributors[2]" }
        #expect(skipped?.identifier == ResourceIdentifier(type: "teams", id: "13"))
        #expect(skipped?.reason == .unhandledType(union: "Contributor"))
        #expect(skipped?.pointer == "/data/relationships/contributors/data/2")
        #expect(skipped?.line == 6)
        #expect(
            report.skipped.contains { $0.codingPath == "reviewer" && $0.pointer == "/data/relationships/reviewer/data" }
        )
    }

    @Test func missingToOneFails() throws {
        let text = Self.replacing(
            #""author":{"data":{"type":"people","id":"9"}}"#, with: #""author":{"data":{"type":"people","id":"99"}}"#)
        let error = decodingError { try decode(Article.self, text) }
        guard case .dataCorrupted? = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect(error?.jsonapiError?.code == .missingResource)
        #expect(error?.jsonapiError?.pointer == "/data/relationships/author/data")
        #expect(error?.jsonapiError?.line == 3)
        #expect(error?.debugDescription.contains("people/99") == true)
        #expect(error?.debugDescription.contains("relationship `author` of articles/1") == true)
        #expect(error?.path == "author")
        // ignoresMissingResources cannot help a non-optional to-one.
        #expect(throws: DecodingError.self) { try decode(Article.self, text) { $0.ignoresMissingResources = true } }
    }

    @Test func missingOptionalToOneIsNilAndReported() throws {
        let text = Self.replacing(#""editor":{"data":null}"#, with: #""editor":{"data":{"type":"people","id":"77"}}"#)
        let report = try JSONAPIDecoder().decodeReporting(Article.self, from: Array(text.utf8))
        #expect(report.value.editor == nil)
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.identifier == ResourceIdentifier(type: "people", id: "77"))
        #expect(report.skipped.first?.reason == .missing)
        #expect(report.skipped.first?.pointer == "/data/relationships/editor/data")
        #expect(report.skipped.first?.codingPath == "editor")
    }

    @Test func missingToManyElement() throws {
        let text = Self.replacing(#"{"type":"comments","id":"12"}"#, with: #"{"type":"comments","id":"404"}"#)
        let error = decodingError { try decode(Article.self, text) }
        #expect(error?.jsonapiError?.code == .missingResource)
        #expect(error?.jsonapiError?.pointer == "/data/relationships/comments/data/1")
        #expect(error?.path == "comments.[1]")
        #expect(error?.debugDescription.contains("comments/404") == true)

        let decoder = JSONAPIDecoder()
        decoder.ignoresMissingResources = true
        let report = try decoder.decodeReporting(Article.self, from: Array(text.utf8))
        #expect(report.value.comments.map(\.id) == ["5"])
        #expect(
            report.skipped.map(\.description) == [
                "comments/404 at /data/relationships/comments/data/1 (comments[1]): not in the document"
            ])
    }

    struct Linkage: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var author: Identifier<Person>
        var editor: Identifier<Person>?
        var comments: [Identifier<Comment>]
        var contributors: [ResourceIdentifier]
        var reviewer: ResourceIdentifier?
    }

    @Test func identifiersNeedNoIncluded() throws {
        let text = #"""
            {"data":{"type":"articles","id":"1","relationships":{
              "author":{"data":{"type":"people","id":"9","meta":{"role":"lead"}}},
              "editor":{"data":null},
              "comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"12"}]},
              "contributors":{"data":[{"type":"people","id":"9"},{"type":"teams","id":"1"}]},
              "reviewer":{"data":{"type":"organizations","id":"2"}}}}}
            """#
        let article = try decode(Linkage.self, text)
        #expect(article.author == "9")
        #expect(article.author.type == "people")
        #expect(article.author.meta?["role"]?.stringValue == "lead")
        #expect(article.editor == nil)
        #expect(article.comments == ["5", "12"])
        #expect(
            article.contributors == [
                ResourceIdentifier(type: "people", id: "9"), ResourceIdentifier(type: "teams", id: "1"),
            ])
        #expect(article.reviewer == ResourceIdentifier(type: "organizations", id: "2"))
        #expect(article.author.description == "people/9")
    }

    @Test func identifierTypeIsChecked() throws {
        let text = #"""
            {"data":{"type":"articles","id":"1","relationships":{
              "author":{"data":{"type":"robots","id":"9"}},
              "comments":{"data":[]},"contributors":{"data":[]}}}}
            """#
        let error = decodingError { try decode(Linkage.self, text) }
        #expect(error?.debugDescription.contains("expected an identifier of type `people`") == true)
        #expect(error?.debugDescription.contains("found `robots` (robots/9)") == true)
        #expect(error?.jsonapiError?.pointer == "/data/relationships/author/data")
        #expect(error?.path == "author")
    }

    struct CountMeta: Decodable, Equatable {
        var count: Int
    }

    struct WithRelationshipInfo: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var comments: Related<[Comment], CountMeta, Links>
        var author: Related<Person?, JSONObject, NoLinks>
        var editor: Related<Identifier<Person>?, NoMeta, Links>
    }

    @Test func relationshipMetaAndLinks() throws {
        let text = #"""
            {"data":{"type":"articles","id":"1","relationships":{
              "comments":{"data":[{"type":"comments","id":"5"}],"meta":{"count":1},
                          "links":{"self":"/articles/1/relationships/comments","related":{"href":"/articles/1/comments","title":"Comments"}}},
              "author":{"data":null,"meta":{"reason":"anonymous"}},
              "editor":{"links":{"related":"/articles/1/editor"}}}},
             "included":[{"type":"comments","id":"5","attributes":{"body":"Hi"}}]}
            """#
        let article = try decode(WithRelationshipInfo.self, text)
        #expect(article.comments.value.map(\.body) == ["Hi"])
        #expect(article.comments.meta == CountMeta(count: 1))
        #expect(article.comments.links?["self"]?.href == "/articles/1/relationships/comments")
        #expect(article.comments.links?["related"]?.title == "Comments")
        #expect(article.author.value == nil)
        #expect(article.author.meta?["reason"]?.stringValue == "anonymous")
        #expect(article.author.links == nil)
        #expect(article.editor.value == nil)
        #expect(article.editor.links?["related"]?.href == "/articles/1/editor")
    }

    @Test func relationshipWithoutDataNeedsOptional() throws {
        let text =
            #"{"data":{"type":"articles","id":"1","attributes":{"title":"x"},"relationships":{"author":{"links":{"related":"/a"}},"comments":{"data":[]},"contributors":{"data":[]}}}}"#
        let error = decodingError { try decode(Article.self, text) }
        #expect(error?.debugDescription.contains("relationship `author` has no `data`") == true)
        #expect(error?.jsonapiError?.pointer == "/data/relationships/author", "\(String(describing: error))")
    }

    @Test func toOneGivenForToManyFails() throws {
        let text = Self.replacing(
            #""comments":{"data":[{"type":"comments","id":"5"},{"type":"comments","id":"12"}]}"#,
            with: #""comments":{"data":{"type":"comments","id":"5"}}"#)
        let error = decodingError { try decode(Article.self, text) }
        #expect(
            error?.debugDescription.contains("expected a to-many relationship (an array), found a to-one relationship")
                == true)
    }

    // MARK: Lazy and cycles

    struct LazyArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Lazy<CyclicPerson>
        var comments: [Lazy<Comment>]
    }

    struct CyclicPerson: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var articles: [LazyArticle]
    }

    struct EagerArticle: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var author: EagerPerson
    }

    struct EagerPerson: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var articles: [EagerArticle]
    }

    static let cyclic = #"""
        {"data":{"type":"articles","id":"1","attributes":{"title":"Loop"},
          "relationships":{"author":{"data":{"type":"people","id":"9","meta":{"since":2019}}},
                           "comments":{"data":[{"type":"comments","id":"5"}]}}},
         "included":[
          {"type":"people","id":"9","attributes":{"name":"Dan"},
           "relationships":{"articles":{"data":[{"type":"articles","id":"1"}]}}},
          {"type":"comments","id":"5","attributes":{"body":"Hi"}}]}
        """#

    @Test func eagerCycleFailsWithTheChain() throws {
        let error = decodingError { try decode(EagerArticle.self, Self.cyclic) }
        #expect(
            error?.debugDescription.contains("cycle in the resource graph: articles/1 → people/9 → articles/1") == true)
        #expect(error?.debugDescription.contains("Lazy") == true)
        #expect(error?.path == "author.articles.[0]")
        #expect(error?.jsonapiError?.code == .decodingFailed)
    }

    @Test func lazyBreaksCycles() throws {
        let article = try decode(LazyArticle.self, Self.cyclic)
        #expect(article.title == "Loop")
        #expect(article.author.identifier == ResourceIdentifier(type: "people", id: "9"))
        #expect(article.author.identifierMeta?["since"]?.int64Value == 2019)
        let author = try article.author.resolve()
        #expect(author.name == "Dan")
        #expect(author.articles.first?.title == "Loop")
        let again = try author.articles[0].author.resolve().articles[0].comments[0].resolve()
        #expect(again.body == "Hi")
        #expect(article.comments.first?.resource.attributes["body"]?.stringValue == "Hi")
    }

    @Test func lazyToMissingResourceFailsAtDecode() throws {
        let text = Self.cyclic.replacingOccurrences(
            of: #"{"type":"comments","id":"5"}]"#, with: #"{"type":"comments","id":"6"}]"#)
        let error = decodingError { try decode(LazyArticle.self, text) }
        #expect(error?.jsonapiError?.code == .missingResource)
        #expect(error?.path == "comments.[0]")
        let skipped = try decode(LazyArticle.self, text) { $0.ignoresMissingResources = true }
        #expect(skipped.comments.isEmpty)
    }

    final class Node: Decodable, JSONAPIResource {
        static let resourceType = "nodes"
        let id: String
        let next: Node?
    }

    static func chain(_ length: Int) -> String {
        let nodes = (1...length).map { index in
            let next = index < length ? #"{"data":{"type":"nodes","id":"\#(index + 1)"}}"# : #"{"data":null}"#
            return #"{"type":"nodes","id":"\#(index)","relationships":{"next":\#(next)}}"#
        }
        return #"{"data":\#(nodes[0]),"included":[\#(nodes.dropFirst().joined(separator: ","))]}"#
    }

    @Test func relationshipDepthLimit() throws {
        let fine = try decode(Node.self, Self.chain(5))
        #expect(fine.next?.next?.next?.next?.id == "5")
        let error = decodingError { try decode(Node.self, Self.chain(40)) }
        #expect(error?.debugDescription.contains("maximumRelationshipDepth (32)") == true)
        let limited = decodingError { try decode(Node.self, Self.chain(5)) { $0.maximumRelationshipDepth = 3 } }
        #expect(limited?.debugDescription.contains("nodes/1 → nodes/2 → nodes/3 → nodes/4") == true)
    }

    indirect enum Nest: Decodable {
        case leaf(Int)
        case list([Nest])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .leaf(value)
            } else {
                self = .list(try container.decode([Nest].self))
            }
        }

        var depth: Int {
            switch self {
            case .leaf: 0
            case .list(let items): 1 + (items.map(\.depth).max() ?? 0)
            }
        }
    }

    struct Deep: Decodable, JSONAPIResource {
        static let resourceType = "deep"
        var id: String
        var value: Nest
    }

    @Test func valueDepthLimit() throws {
        func document(_ depth: Int) -> String {
            let value = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            return #"{"data":{"type":"deep","id":"1","attributes":{"value":\#(value)}}}"#
        }
        #expect(try decode(Deep.self, document(40)).value.depth == 40)
        let error = decodingError { try decode(Deep.self, document(400)) }
        #expect(error?.debugDescription.contains("maximumDepth (256)") == true)
        let strict = decodingError { try decode(Deep.self, document(40)) { $0.options.maximumDepth = 20 } }
        #expect(strict != nil)
    }

    // MARK: Relationship documents and lid

    @Test func relationshipDocuments() throws {
        let options = ParsingOptions(kind: .relationshipUpdate)
        let many = try parse(#"{"data":[{"type":"comments","id":"2"},{"type":"comments","id":"3"}]}"#, options: options)
        #expect(try JSONAPIDecoder().decode([Identifier<Comment>].self, from: many) == ["2", "3"])
        let none = try parse(#"{"data":null}"#, options: options)
        #expect(try JSONAPIDecoder().decode(Identifier<Person>?.self, from: none) == nil)
        let one = try parse(#"{"data":{"type":"people","id":"12"}}"#, options: options)
        #expect(try JSONAPIDecoder().decode(Identifier<Person>.self, from: one) == "12")
        #expect(try JSONAPIDecoder().decode(ResourceIdentifier.self, from: one).id == "12")
    }

    struct NewArticle: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var lid: String?
        var title: String
        var author: NewPerson
    }

    struct NewPerson: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var lid: String?
        var name: String
    }

    /// JSON:API 1.1 local ids link resources of a create request that have no ids yet.
    @Test func localIdentifiersResolve() throws {
        let text = #"""
            {"data":{"type":"articles","lid":"a1","attributes":{"title":"New"},
              "relationships":{"author":{"data":{"type":"people","lid":"p1"}}}},
             "included":[{"type":"people","lid":"p1","attributes":{"name":"Eve"}}]}
            """#
        let document = try parse(text, options: ParsingOptions(kind: .createRequest, lenient: true))
        let article = try JSONAPIDecoder().decode(NewArticle.self, from: document)
        #expect(article.lid == "a1")
        #expect(article.author.name == "Eve")
        #expect(article.author.lid == "p1")
    }

    /// Servers that break the shared-namespace rule (an attribute and a relationship with the
    /// same name; parsed leniently) are read with the `attributes.` / `relationships.` prefixes.
    @Test func sectionPrefixesDisambiguate() throws {
        struct Clashing: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var tags: [String]
            var tagLinks: [Identifier<Tag>]
            var labels: [String]

            enum CodingKeys: String, CodingKey {
                case id, tags
                case tagLinks = "relationships.tags"
                case labels = "attributes.tags"
            }
        }
        struct Tag: Decodable, JSONAPIResource {
            static let resourceType = "tags"
            var id: String
        }
        let text =
            #"{"data":{"type":"articles","id":"1","attributes":{"tags":["a","b"]},"relationships":{"tags":{"data":[{"type":"tags","id":"7"}]}}}}"#
        #expect(throws: DecodingError.self) { try decode(Clashing.self, text) }
        let article = try decode(Clashing.self, text) {
            $0.parsingOptions = ParsingOptions(kind: .response, lenient: true)
        }
        #expect(article.tags == ["a", "b"])
        #expect(article.labels == ["a", "b"])
        #expect(article.tagLinks == ["7"])
    }

    /// `name.meta` and `name.links` read a relationship's meta and links without `Related`.
    @Test func relationshipPartsByKey() throws {
        struct Article: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var comments: [Identifier<Comment>]
            var commentsMeta: CountMeta?
            var commentsLinks: Links?
            var authorMeta: CountMeta?

            enum CodingKeys: String, CodingKey {
                case id, comments
                case commentsMeta = "comments.meta"
                case commentsLinks = "comments.links"
                case authorMeta = "author.meta"
            }
        }
        let text = #"""
            {"data":{"type":"articles","id":"1","relationships":{
              "comments":{"data":[{"type":"comments","id":"5"}],"meta":{"count":1},"links":{"related":"/c"}},
              "author":{"data":null}}}}
            """#
        let article = try decode(Article.self, text)
        #expect(article.comments == ["5"])
        #expect(article.commentsMeta == CountMeta(count: 1))
        #expect(article.commentsLinks?["related"]?.href == "/c")
        #expect(article.authorMeta == nil)
    }
}
