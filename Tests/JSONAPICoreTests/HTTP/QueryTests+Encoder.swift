import JSONAPI
import Testing

/// A parsed query drives the encoder: `include` chooses `included`, `fields` trims resources,
/// and the response is still a valid document.
@Suite("Query: answering a query with the encoder")
struct QueryEncoderTests {
    struct Person: Codable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var email: String
    }

    struct Comment: Codable, Sendable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Person
    }

    struct Article: Codable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var body: String
        var author: Person
        var comments: [Comment]
    }

    static let ann = Person(id: "9", name: "Ann", email: "ann@example.com")
    static let bob = Person(id: "2", name: "Bob", email: "bob@example.com")
    static let article = Article(
        id: "1", title: "JSON:API paints my bikeshed!", body: "…", author: ann,
        comments: [
            Comment(id: "5", body: "First!", author: bob), Comment(id: "12", body: "I like XML better", author: ann),
        ])

    static let rules = QueryRules(
        includePaths: ["author", "comments.author"],
        fieldsets: [
            "articles": ["title", "body", "author", "comments"], "people": ["name", "email"],
            "comments": ["body", "author"],
        ])

    /// Parses `query`, encodes the article with it, and parses the response strictly.
    func respond(_ query: String, pretty: Bool = false) throws -> Document {
        let parsed = try JSONAPIQuery(parsing: query, rules: Self.rules)
        var options = EncodingOptions(query: parsed)
        options.prettyPrinted = pretty
        let bytes = try JSONAPIEncoder(options: options).encode([Self.article])
        let document = try Document(parsing: bytes, options: ParsingOptions(kind: .response))
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        return document
    }

    func included(_ document: Document) -> [String] {
        document.included.map { "\($0.type)/\($0.id ?? "")" }
    }

    @Test(arguments: [false, true])
    func includeChoosesIncluded(pretty: Bool) throws {
        let document = try respond("include=author", pretty: pretty)
        #expect(included(document) == ["people/9"])
        let deeper = try respond("include=comments.author", pretty: pretty)
        #expect(Set(included(deeper)) == ["comments/5", "comments/12", "people/2", "people/9"])
    }

    @Test(arguments: [false, true])
    func sparseFieldsetsTrimAttributesAndRelationships(pretty: Bool) throws {
        let document = try respond("include=author&fields[articles]=title,author&fields[people]=name", pretty: pretty)
        let article = try #require(document.primaryResources.first)
        #expect(article.attributes.keys == ["title"])
        #expect(article.relationships.map(\.name) == ["author"])
        let person = try #require(document.resource(type: "people", id: "9"))
        #expect(person.attributes.keys == ["name"])
    }

    @Test(arguments: [false, true])
    func emptyFieldsetWritesNoFields(pretty: Bool) throws {
        let document = try respond("fields[articles]=", pretty: pretty)
        let article = try #require(document.primaryResources.first)
        #expect(article.attributes.keys == [])
        #expect(article.relationships.isEmpty)
    }

    /// A relationship hidden by a sparse fieldset is not followed, so the response keeps full
    /// linkage even when `include` names it.
    @Test func hiddenRelationshipsAreNotIncluded() throws {
        let document = try respond("include=comments.author&fields[articles]=title")
        #expect(included(document) == [])
        // JSON:API 1.1: the response to a request with `include` has `included`, even empty.
        #expect(document.hasIncluded)
        let partly = try respond("include=comments.author&fields[comments]=body")
        #expect(Set(included(partly)) == ["comments/5", "comments/12"])
    }

    /// Sparse fieldsets are the one reason a compound document may lack full linkage; the parser
    /// accepts such a document strictly and says so in a warning.
    @Test func sparseFieldsetExceptionToFullLinkage() throws {
        let bytes = #"""
            {"data": {"type": "articles", "id": "1", "attributes": {"title": "t"}},
             "included": [{"type": "people", "id": "9", "attributes": {"name": "Ann"}}]}
            """#
        let document = try Document(parsing: bytes)
        #expect(document.included.count == 1)
        #expect(document.diagnostics.map(\.severity) == [.warning])
    }

    @Test func noIncludeKeepsTheEndpointDefault() throws {
        var options = EncodingOptions()
        options.includePaths = ["author"]
        options.fields = ["comments": ["body"]]
        options.apply(try JSONAPIQuery(parsing: "fields[people]=name", rules: Self.rules))
        #expect(options.includePaths == ["author"])
        #expect(options.fields == ["comments": ["body"], "people": ["name"]])
        options.apply(try JSONAPIQuery(parsing: "include=&fields[comments]=author", rules: Self.rules))
        #expect(options.includePaths == [])
        #expect(options.fields == ["comments": ["author"], "people": ["name"]])
        #expect(EncodingOptions(query: JSONAPIQuery()).includePaths == nil)
    }
}
