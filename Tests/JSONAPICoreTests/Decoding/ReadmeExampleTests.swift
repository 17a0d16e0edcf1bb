import Foundation
import JSONAPI
import Testing

/// The README's examples of typed views, document views and the encoder, compiled and run against
/// real documents, so the README cannot drift from the API. (The `@ResourceReadable` example is
/// with the macro's tests.)
@Suite("README examples")
struct ReadmeExampleTests {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var firstName: String
        var twitter: String?
    }

    struct Tag: Decodable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
    }

    struct Comment: Decodable, JSONAPIResource {
        static let resourceType = "comments"
        var id: Int
        var body: String
        var author: Person?
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var createdAt: Date
        var author: Lazy<Person>
        var comments: [Comment]
        var tags: [Identifier<Tag>]
        var subtitle: Field<String>
    }

    static let data = Data(
        #"""
        {"data": [{"type": "articles", "id": "1",
                   "attributes": {"title": "JSON:API paints my bikeshed!", "created-at": "2026-11-21T06:00:00Z",
                                  "subtitle": null},
                   "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                     "comments": {"data": [{"type": "comments", "id": "5"},
                                                           {"type": "comments", "id": "404"}]},
                                     "tags": {"data": [{"type": "tags", "id": "t1"}]}}}],
         "included": [{"type": "people", "id": "9", "attributes": {"first-name": "Dan", "twitter": "dgeb"}},
                      {"type": "comments", "id": "5", "attributes": {"body": "First!"},
                       "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}]}
        """#.utf8)

    @Test("typed views example")
    func typedViews() throws {
        let decoder = JSONAPIDecoder()
        decoder.keyDecodingStrategy = .convertFromKebabCase
        decoder.ignoresMissingResources = true
        let report = try decoder.decodeReporting([Article].self, from: Self.data)
        let article = try #require(report.value.first)
        #expect(article.title == "JSON:API paints my bikeshed!")
        #expect(article.createdAt == Date(timeIntervalSince1970: 1_795_240_800))
        #expect(try article.author.resolve().firstName == "Dan")
        #expect(article.comments.map(\.id) == [5])  // 404 is not included: skipped and reported
        #expect(article.comments.first?.author?.twitter == "dgeb")
        #expect(article.tags.map(\.id) == ["t1"])
        guard case .null = article.subtitle else {
            Issue.record("subtitle should be null")
            return
        }
        #expect(report.skipped.count == 1)

        // The README's sequence: the document keeps the decoder's settings.
        let document = try decoder.document(from: Self.data)
        let articles = document.primary(as: Article.self)
        let first = try articles.element(at: 0)
        #expect(first.title == "JSON:API paints my bikeshed!")
        let dan = try document.resource(Person.self, id: "9")
        #expect(dan?.firstName == "Dan")

        // One at a time, with the report.
        var store: [String] = []
        let walk = try articles.forEachDecodedReporting { article in
            store.append(article.title)
        }
        #expect(store == ["JSON:API paints my bikeshed!"])
        #expect(walk.value == 1)

        decoder.tolerance = .lenient
        let lenient = try decoder.decodeReporting([Article].self, from: Self.data)
        #expect(lenient.value.count == 1)
        #expect(lenient.problems.map(\.kind) == [.missingResource])
        #expect(lenient.problems.map(\.pointer) == lenient.skipped.map(\.pointer))
        #expect(walk.skipped.map(\.identifier) == [ResourceIdentifier(type: "comments", id: "404")])
    }

    @Test("document views example")
    func documentViews() throws {
        let document = try Document(
            parsing: #"""
                {"data": {"type": "articles", "id": "1",
                          "attributes": {"title": "JSON:API paints my bikeshed!", "rating": 4.5},
                          "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                            "comments": {"data": [{"type": "comments", "id": "5"}]}}},
                 "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}},
                              {"type": "comments", "id": "5", "attributes": {"body": "First!"}}]}
                """#)
        let article = document.primaryResources[0]
        #expect(article.type == "articles" && article.id == "1")
        #expect(article.attributes["title"]?.stringValue == "JSON:API paints my bikeshed!")
        #expect(article.attributes["rating"]?.number == .double(4.5))
        let author = article.relationship("author")?.resolvedResource
        #expect(author?.attributes["name"]?.stringValue == "Dan")
        #expect(article.relationship("comments")?.resolvedResources.map(\.id) == ["5"])
        #expect(document.resource(type: "comments", id: "5") != nil)
        #expect(document.included.count == 2)
    }

    struct Draft: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var authorName: String
        var tags: [Identifier<Tag>]
    }

    @Test("encoder example")
    func encoder() throws {
        let encoder = JSONAPIEncoder()
        encoder.keyEncodingStrategy = .convertToKebabCase
        let articles = [Draft(id: "1", title: "T", authorName: "Dan", tags: [Identifier<Tag>(id: "7")])]
        let response = try encoder.encode(articles, meta: ["total": 2])
        let document = try Document(parsing: response)
        #expect(document.primaryResources[0].attributes["author-name"]?.stringValue == "Dan")
        #expect(document.meta?["total"]?.int64Value == 2)
        let create = try encoder.encodeCreate(Draft(id: "", title: "New", authorName: "Ann", tags: []))
        let created = try Document(parsing: create, options: ParsingOptions(kind: .createRequest))
        #expect(created.primaryResources[0].id == nil)
        let tags = try encoder.encode(RelationshipUpdate.add([Identifier<Tag>(id: "7")]))
        let update = try Document(parsing: tags, options: ParsingOptions(kind: .relationshipUpdate))
        #expect(update.primaryIdentifiers.map(\.id) == ["7"])
    }
}
