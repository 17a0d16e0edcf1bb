import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// The Getting Started article's examples, as written there, in the article's order, with what
/// their comments say checked. (`scripts/docs` fails when a line of the article's examples is in
/// no test.)
@Suite("Getting Started examples")
struct GettingStartedExampleTests {
    struct Person: Codable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Comment: Codable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
    }

    struct Article: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var rating: Double
        var author: Person  // to-one, resolved through `included`
        var comments: [Comment]  // to-many, resolved
    }

    struct Review: Decodable, JSONAPIResource {
        static let resourceType = "reviews"
        var id: String
        var rating: Double?
    }

    struct Organization: Codable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
    }

    enum Contributor: ResourceUnion {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Contributor.person),
            .member(Contributor.organization),
        ]
    }

    enum Polymorphic {
        struct Article: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var contributors: [Contributor]  // resolved through `included`
            var reviewer: Contributor.ID?  // linkage only
        }
    }

    @Test func parseReadDecodeAndWrite() async throws {
        let document = try Document(
            parsing: #"""
                {"data": {"type": "articles", "id": "1",
                          "attributes": {"title": "JSON:API paints my bikeshed!", "rating": 4.5},
                          "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                            "comments": {"data": [{"type": "comments", "id": "5"}]}}},
                 "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}},
                              {"type": "comments", "id": "5", "attributes": {"body": "First!"}}]}
                """#)

        // Parse a document: a body in pieces.
        let input = document.jsonBytes()
        let contentLength = input.count
        let body = AsyncStream<ArraySlice<UInt8>> { continuation in
            var offset = 0
            while offset < input.count {
                continuation.yield(input[offset..<min(input.count, offset + 7)])
                offset += 7
            }
            continuation.finish()
        }
        var parser = DocumentParser(expectedByteCount: contentLength)
        for try await chunk in body { try parser.feed(chunk) }
        let streamed = try parser.finish()
        #expect(try streamed.jsonBytes() == input)

        // Read it through views.
        let article = document.primaryResources[0]
        #expect(article.type == "articles")
        #expect(article.id == "1")
        #expect(article.attributes["title"]?.stringValue == "JSON:API paints my bikeshed!")
        #expect(article.attributes["rating"]?.number == .double(4.5))
        let author = article.relationship("author")?.resolvedResource  // through the index, O(1)
        #expect(author?.attributes["name"]?.stringValue == "Dan")
        #expect(article.relationship("comments")?.resolvedResources.map(\.id) == ["5"])
        #expect(document.resource(type: "comments", id: "5") != nil)
        #expect(document.included.count == 2)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        switch document.primary {
        case .one(let resource): print(resource.identifier)
        case .many(let resources): print(resources.count)
        case .null, .absent, .identifier, .identifiers: break
        }
        #expect(printed == ["\(ResourceIdentifier(type: "articles", id: "1"))"])

        // Decode into your types.
        let decoder = JSONAPIDecoder()
        decoder.ignoresMissingResources = true  // leave out linkage whose resource is not included
        let report = try decoder.decodeReporting(Article.self, from: document)
        #expect(report.value.author.name == "Dan")
        #expect(report.skipped.isEmpty)

        let reviews = try Document(
            parsing: #"""
                {"data": [{"type": "reviews", "id": "1", "attributes": {"rating": 4.5}},
                          {"type": "reviews", "id": "2", "attributes": {"rating": "high"}}]}
                """#)
        decoder.tolerance = .lenient
        let lenient = try decoder.decodeReporting([Review].self, from: reviews)
        #expect(lenient.value.map(\.rating) == [4.5, nil])
        printed = []
        for problem in lenient.problems {
            print(problem)
        }
        #expect(printed == [Self.reviewProblem])
        decoder.tolerance = .strict

        // A request body: refused with every problem at once.
        struct NewReview: Decodable, JSONAPIResource {
            static let resourceType = "reviews"
            var id: String?
            var rating: Double
            var body: String
        }
        let request = try Document(
            parsing: #"{"data": {"type": "reviews", "attributes": {"rating": "high"}}}"#,
            options: ParsingOptions(kind: .createRequest))
        do {
            _ = try JSONAPIDecoder().decodeListingProblems(NewReview.self, from: request)
            Issue.record("a body that does not fit was decoded")
        } catch let failure as DecodingFailure {
            #expect(failure.problems.map(\.pointer) == ["/data/attributes/rating", "/data"])
            #expect(JSONAPIErrorDocument(describing: failure).errors.map(\.status) == ["422", "422"])
        }

        let articles = document.primary(as: Article.self)  // nothing decoded yet
        let first = try articles.element(at: 0)
        #expect(first.title == "JSON:API paints my bikeshed!")
        printed = []
        try articles.forEachDecoded { print($0.title) }
        #expect(printed == ["JSON:API paints my bikeshed!"])
        let dan = try document.resource(Person.self, id: "9")  // one lookup, one decode
        #expect(dan?.name == "Dan")

        // Write a document.
        let compact = document.jsonBytes()
        let pretty = document.jsonString(options: JSONWritingOptions(prettyPrinted: true, sortsKeys: true))
        let resourceJSON = document.primaryResources[0].jsonString()
        #expect(try Document(parsing: compact).jsonBytes() == compact)
        #expect(
            try Document(parsing: pretty).jsonBytes(options: JSONWritingOptions(sortsKeys: true))
                == (try document.jsonBytes(options: JSONWritingOptions(sortsKeys: true))))
        #expect(resourceJSON.hasPrefix(#"{"type":"articles","id":"1""#))

        let encoder = JSONAPIEncoder()
        encoder.keyEncodingStrategy = .convertToKebabCase
        encoder.includePaths = ["author", "comments"]
        let response = try encoder.encode([report.value], meta: ["total": 1])
        let create = try encoder.encodeCreate(report.value)  // a POST body
        let tags = try encoder.encode(RelationshipUpdate.add([Identifier<Comment>(id: "7")]))
        let written = try Document(parsing: response)
        #expect(written.included.map(\.type).sorted() == ["comments", "people"])
        #expect(written.meta?["total"]?.int64Value == 1)
        let created = try Document(parsing: create, options: ParsingOptions(kind: .createRequest))
        #expect(created.primaryResources.first?.attributes["rating"]?.number == .double(4.5))
        #expect(text(tags) == #"{"data":[{"type":"comments","id":"7"}]}"#)
    }

    static let reviewProblem =
        #"[1].rating read as absent: expected a number, found a string ("high") at /data/1/attributes/rating (line 2, column 67)"#

    @Test func polymorphicRelationships() throws {
        let document = try Document(
            parsing: #"""
                {"data": {"type": "articles", "id": "1",
                          "relationships": {"contributors": {"data": [{"type": "people", "id": "12"},
                                                                      {"type": "organizations", "id": "24"}]},
                                            "reviewer": {"data": {"type": "organizations", "id": "99"}}}},
                 "included": [{"type": "people", "id": "12", "attributes": {"name": "Ann"}},
                              {"type": "organizations", "id": "24", "attributes": {"name": "Acme"}}]}
                """#)
        let article = try JSONAPIDecoder().decode(Polymorphic.Article.self, from: document)
        guard case .person(let person) = article.contributors.first,
            case .organization(let acme) = article.contributors.last
        else {
            Issue.record("contributors: \(article.contributors)")
            return
        }
        #expect(person.name == "Ann")
        #expect(acme.name == "Acme")
        #expect(article.reviewer == UnionIdentifier(Contributor.organization, id: "99"))
    }

    @Test func limitsAndErrors() throws {
        let body = Array(
            #"{"data": {"type": "articles", "attributes": {"title": "New"}}, "included": [{"type": "people", "id": "9"}]}"#
                .utf8)
        var options = ParsingOptions()
        options.kind = .createRequest  // .response (default), .createRequest, .updateRequest, .relationshipUpdate
        options.isLenient = true  // keep what can be kept; problems become warnings
        options.maximumDepth = 64
        let checked = try Document(parsing: body, options: options)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        for warning in checked.diagnostics { print(warning) }
        #expect(checked.primaryResources.first?.attributes["title"]?.stringValue == "New")
        #expect(printed.count == checked.diagnostics.count)
        #expect(printed.isEmpty == false)  // a create request must not have `included`

        // Handle errors: the strict default.
        printed = []
        do {
            let parsed = try Document(parsing: body)
            for warning in parsed.diagnostics { print(warning) }
        } catch {
            print(error.code, error.pointer, error.line, error.column, error.message)
        }
        #expect(printed.count == 1)
        #expect(printed.first?.contains("/data") == true)
    }

    @Test func negotiation() throws {
        var responses: [(Int, [UInt8])] = []
        func respond(status: Int, body: [UInt8]) { responses.append((status, body)) }
        for contentType in ["application/vnd.api+json", "application/vnd.api+json; charset=utf-8"] {
            switch JSONAPINegotiation.checkContentType(
                contentType, supportedExtensions: [AtomicOperations.extensionURI])
            {
            case .failure(let failure):
                respond(status: failure.status, body: try JSONAPIErrorDocument(describing: failure).jsonBytes())
            case .success: break
            }
        }
        #expect(responses.map(\.0) == [415])
        let errors = try Document(parsing: try #require(responses.first).1)
        #expect(errors.errors.first?.status == "415")
    }
}

/// The example on the landing page of the DocC catalog, as written there.
@Suite("Landing page example")
struct LandingPageExampleTests {
    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
    }

    @Test func overview() throws {
        let bytes = Array(
            #"""
            {"data": [{"type": "articles", "id": "1", "attributes": {"title": "Hello"},
                       "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}],
             "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
            """#.utf8)
        var printed: [String] = []
        func print(_ text: String) { printed.append(text) }

        let document = try Document(parsing: bytes)
        for article in document.primaryResources {
            print(article.attributes["title"]?.stringValue ?? "")
            print(article.relationship("author")?.resolvedResource?.attributes["name"]?.stringValue ?? "")
        }
        let articles = try JSONAPIDecoder().decode([Article].self, from: bytes)

        #expect(printed == ["Hello", "Dan"])
        #expect(articles.map(\.title) == ["Hello"])
    }
}
