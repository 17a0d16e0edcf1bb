import Foundation
import JSONAPI
import JSONAPITesting
import PropertyBased
import Testing

// The README's testing example and the examples of the "Testing your code" article, written as
// there, so that they compile and pass.

private struct Person: Codable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String
}

private struct Article: Codable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var tags: [String]
    var author: Identifier<Person>
}

@Suite("README and article: testing your own code")
struct ReadmeTestingExampleTests {
    // README.md, "Testing your own code".

    @Test func articleModel() throws {
        try ModelCheck(Article.self).requireClean()  // optional arrays, a `type` property, bad names…
    }

    @Test func writesArticle() throws {
        let article = Article(id: "1", title: "Hello", tags: [], author: 9)  // author: Identifier<Person>
        let written = try String(decoding: JSONAPIEncoder().encode(article), as: UTF8.self)
        expectEquivalentDocuments(
            written,
            #"{"data": {"id": "1", "type": "articles", "attributes": {"tags": [], "title": "Hello"}, "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}}"#
        )
    }

    @Test func decodesEveryValidDocument() async throws {
        let generators = try DocumentGenerators(Article.self, Person.self)
        await propertyCheck(input: generators.validDocument) { document in
            _ = try JSONAPIDecoder().decode([Article].self, from: document.bytes)
        }
    }

    // TestingYourCode.md.

    @Test func models() throws {
        try ModelCheck(Article.self).requireClean()
        try ModelCheck(Person.self).requireClean()
    }

    @Test func writesArticleAsInTheArticle() throws {
        let article = Article(id: "1", title: "Hello", tags: [], author: 9)
        let written = try String(decoding: JSONAPIEncoder().encode(article), as: UTF8.self)
        expectEquivalentDocuments(
            written,
            #"""
            {"data": {"type": "articles", "id": "1", "attributes": {"title": "Hello", "tags": []},
                      "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}}
            """#)
    }

    @Test(arguments: SpecExample.all.filter(\.isStrictDocument))
    func readsEveryExample(_ example: SpecExample) throws {
        let document = try Document(parsing: example.bytes, options: ParsingOptions(kind: example.parsingKind))
        #expect(document.jsonValue.kind == .object)
    }

    @Test func decodesEveryValidDocumentAsInTheArticle() async throws {
        let generators = try DocumentGenerators(Article.self, Person.self)
        await propertyCheck(count: 100, input: generators.validDocument) { document in
            let articles = try JSONAPIDecoder().decode([Article].self, from: document.bytes)
            #expect(!articles.isEmpty)
        }
    }

    @Test func rejectsEveryInvalidDocument() async throws {
        let generators = try DocumentGenerators(Article.self, Person.self)
        await propertyCheck(count: 100, input: generators.invalidDocument) { document in
            let rule = try #require(document.brokenRule)
            do {
                let parsed = try Document(parsing: document.bytes)
                // Only a rule reported as a warning gets here (an unreachable included resource).
                #expect(parsed.diagnostics.map(\.code) == [rule.expectedCode])
                #expect(parsed.diagnostics.map(\.pointer) == [document.brokenRulePointer])
            } catch let error as JSONAPIError {
                // The one place that breaks the rule.
                #expect(error.code == rule.expectedCode && error.pointer == document.brokenRulePointer)
            }
        }
    }
}
