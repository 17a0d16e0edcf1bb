import JSONAPIMacros
import Testing

@testable import JSONAPITestSupport

// The README's `@ResourceReadable` example (macros attach at file scope or in types; these are
// the README's declarations with a prefix, the author the specification example's person).
@ResourceReadable
struct ReadmeArticle: JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var subtitle: String?
    var metrics: ReadmeMetrics
    var author: Identifier<SpecPerson>
    var authorLinks: ReadmeLinks?

    enum CodingKeys: String, CodingKey {
        case id, title, subtitle, metrics, author
        case authorLinks = "author.links"
    }
}

@ResourceReadable
struct ReadmeMetrics: Decodable { var views: Int; var ratio: Double }

@ResourceReadable
struct ReadmeLinks: Decodable { var related: String? }

/// The README's `@ResourceReadable` example, compiled and run against a real document.
@Suite("README examples: @ResourceReadable")
struct ReadmeMacroExampleTests {
    @Test("@ResourceReadable example")
    func resourceReadable() throws {
        let document = try Document(
            parsing: #"""
                {"data": [{"type": "articles", "id": "1",
                  "attributes": {"title": "T", "metrics": {"views": 3, "ratio": 0.5}},
                  "relationships": {"author": {"data": {"type": "people", "id": "9"},
                                               "links": {"related": "/articles/1/author"}}}}]}
                """#)
        let articles = try document.primary(as: ReadmeArticle.self).decodeAll()
        let article = try #require(articles.first)
        #expect(article.title == "T")
        #expect(article.subtitle == nil)
        #expect(article.metrics.views == 3 && article.metrics.ratio == 0.5)
        #expect(article.author.id == "9")
        #expect(article.authorLinks?.related == "/articles/1/author")
    }
}

/// The Getting Started article's `@ResourceReadable` example, its declarations as written there.
enum GettingStartedMacroExample {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
    }

    @ResourceReadable
    struct Article: JSONAPIResource {  // Decodable comes with the macro's conformance
        static let resourceType = "articles"
        var id: String
        var title: String
        var subtitle: String?
        var metrics: Metrics
        var author: Identifier<Person>
    }

    @ResourceReadable
    struct Metrics: Decodable { var views: Int; var ratio: Double }

    static func run(_ document: Document) throws -> [Article] {
        let articles = try document.primary(as: Article.self).decodeAll()
        return articles
    }
}

@Suite("Getting Started examples: @ResourceReadable")
struct GettingStartedMacroExampleTests {
    @Test func resourceReadable() throws {
        let document = try Document(
            parsing: #"""
                {"data": [{"type": "articles", "id": "1",
                  "attributes": {"title": "T", "subtitle": null, "metrics": {"views": 3, "ratio": 0.5}},
                  "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}]}
                """#)
        let articles = try GettingStartedMacroExample.run(document)
        #expect(articles.map(\.title) == ["T"])
        #expect(articles.first?.metrics.views == 3)
        #expect(articles.first?.subtitle == nil)
        #expect(articles.first?.author.id == "9")
    }
}
