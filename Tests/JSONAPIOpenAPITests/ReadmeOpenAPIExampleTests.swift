import Foundation
import JSONAPI
import JSONAPIOpenAPI
import OpenAPIKit
import Testing

/// The README's OpenAPI example and the Generating OpenAPI article's program, written as there
/// (their models in a namespace, since the test target has models of the same names).
@Suite struct ReadmeOpenAPIExampleTests {
    enum Readme {
        struct Person: Decodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
        }

        struct Article: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var title: String
            var author: Identifier<Person>?
        }
    }

    enum Blog {
        struct Person: Decodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
            var twitter: String?
        }

        struct Comment: Decodable, JSONAPIResource {
            static let resourceType = "comments"
            var id: String
            var body: String
            var author: Identifier<Person>?
        }

        struct Article: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var title: String
            var publishedAt: Date?
            var author: Identifier<Person>?
            var comments: [Identifier<Comment>]
        }
    }

    @Test func readmeExample() throws {
        typealias Article = Readme.Article
        typealias Person = Readme.Person
        // The README's lines from `JSONAPIComponents` on.
        let api = JSONAPIComponents(models: [Article.self, Person.self])
        let document = OpenAPI.Document(
            openAPIVersion: .v3_1_1, info: .init(title: "Blog", version: "1.0"), servers: [],
            paths: api.paths { _ in QueryRules(includePaths: ["author"], sortFields: ["title"], pagination: .pages()) },
            components: api.components)
        let json = try JSONEncoder().encode(document)  // ArticleDocument, ArticleCreateDocument, ... and /articles

        let encoded = try Encoded(json: json)
        for name in ["ArticleDocument", "ArticleCreateDocument", "ArticleUpdateDocument", "PersonCollectionDocument"] {
            #expect(!encoded["components"]["schemas"][name].isAbsent, "no \(name)")
        }
        // include, fields[articles], fields[people], sort, page[number], page[size]
        #expect(encoded["paths"]["/articles"]["get"]["parameters"].count == 6)
        try document.validate()
    }

    @Test func articleProgram() throws {
        typealias Article = Blog.Article
        typealias Person = Blog.Person
        typealias Comment = Blog.Comment
        var options = JSONAPISchemaOptions()
        options.encoding.keyEncodingStrategy = .convertToKebabCase  // publishedAt -> "published-at"

        let api = JSONAPIComponents(models: [Article.self, Person.self, Comment.self], options: options)
        let paths = api.paths { type in
            switch type {
            case "articles":
                QueryRules(
                    includePaths: ["author", "comments.author"], sortFields: ["title", "published-at"],
                    pagination: .pages(defaultSize: 20, maximumSize: 100))
            default:
                QueryRules()
            }
        }
        let document = OpenAPI.Document(
            openAPIVersion: .v3_1_1, info: .init(title: "Blog", version: "1.0"), servers: [],
            paths: paths, components: api.components)
        try document.validate()  // OpenAPIKit's checks: every reference resolves, ids are unique

        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(document), as: UTF8.self))
        let text = try #require(printed.first)

        let encoded = try Encoded(json: Data(text.utf8))
        let schemas = encoded["components"]["schemas"]
        #expect(
            schemas["Article"]["properties"]["attributes"]["properties"].keys == ["published-at", "title"])
        for name in [
            "Article", "ArticleDocument", "ArticleCollectionDocument", "ArticleCreateDocument",
            "ArticleUpdateDocument", "ArticleAuthorRelationshipDocument", "ArticleCommentsRelationshipDocument",
            "JSONAPIErrorDocument", "JSONAPIErrorObject", "JSONAPIMeta", "JSONAPILink", "JSONAPIObject",
        ] {
            #expect(!schemas[name].isAbsent, "no \(name)")
        }
        // The article's parameters example.
        let rules = QueryRules(includePaths: ["author"], sortFields: ["title"], pagination: .cursors())
        printed = []
        for parameter in rules.openAPIParameters { print(parameter.name) }
        #expect(
            printed == [
                "include", "fields", "sort", "page[after]", "page[before]", "page[size]",
            ])
    }
}
