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
        let data = Self.data
        let decoder = JSONAPIDecoder()
        decoder.keyDecodingStrategy = .convertFromKebabCase
        decoder.ignoresMissingResources = true
        let report = try decoder.decodeReporting([Article].self, from: data)
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
        let document = try decoder.document(from: data)
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
        let lenient = try decoder.decodeReporting([Article].self, from: data)
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

    struct Writer: Codable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var firstName: String
    }

    struct Remark: Codable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Writer
    }

    struct Draft: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var authorName: String
        var author: Writer?
        var comments: [Remark]
        var tags: [Identifier<Tag>]
    }

    struct DraftPatch: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: Field<String> = .absent
        var authorName: Field<String> = .absent
    }

    @Test("encoder example")
    func encoder() throws {
        let dan = Writer(id: "9", firstName: "Dan")
        let ann = Writer(id: "10", firstName: "Ann")
        let articles = [
            Draft(
                id: "1", title: "T", authorName: "Dan", author: dan,
                comments: [Remark(id: "5", body: "First!", author: ann)], tags: [Identifier<Tag>(id: "7")])
        ]
        let newArticle = Draft(id: "", title: "New", authorName: "Ann", author: ann, comments: [], tags: [])
        let patch = DraftPatch(id: "1", title: .value("Renamed"), authorName: .null)
        let error: any Error
        do {
            _ = try Document(parsing: #"{"data": {"type": "articles", "id": 1}}"#)
            Issue.record("the document should not parse")
            return
        } catch let thrown {
            error = thrown
        }

        // The README's lines, as written there.
        let encoder = JSONAPIEncoder()
        encoder.keyEncodingStrategy = .convertToKebabCase
        encoder.includePaths = ["author", "comments.author"]
        let response = try encoder.encode(articles, meta: ["total": 2])  // compound document
        let create = try encoder.encodeCreate(newArticle)  // no id, a client id, or a 1.1 lid
        let update = try encoder.encodeUpdate(patch)  // Field<T>: .absent is left out, .null written
        // POST /articles/1/relationships/tags
        let tags = try encoder.encode(RelationshipUpdate.add([Identifier<Tag>(id: "7")]))

        let body = try JSONAPIErrorDocument(describing: error).jsonBytes()  // any error, with its HTTP status
        // End of the README's lines.

        let document = try Document(parsing: response)
        #expect(document.primaryResources[0].attributes["author-name"]?.stringValue == "Dan")
        #expect(document.meta?["total"]?.int64Value == 2)
        let included: [String] = document.included.map { "\($0.type)/\($0.id ?? "")" }
        #expect(included.sorted() == ["comments/5", "people/10", "people/9"])
        let created = try Document(parsing: create, options: ParsingOptions(kind: .createRequest))
        #expect(created.primaryResources[0].id == nil)
        #expect(created.included.isEmpty)
        let updated = try Document(parsing: update, options: ParsingOptions(kind: .updateRequest))
        #expect(updated.primaryResources[0].attributes["title"]?.stringValue == "Renamed")
        #expect(updated.primaryResources[0].attributes["author-name"]?.kind == .null)
        #expect(updated.primaryResources[0].attributes.count == 2)
        let relationship = try Document(parsing: tags, options: ParsingOptions(kind: .relationshipUpdate))
        #expect(relationship.primaryIdentifiers.map(\.id) == ["7"])
        let errors = try Document(parsing: body)
        #expect(errors.errors.first?.status == "400")
        #expect(errors.errors.first?.source?.pointer == "/data/id")
    }
}
