import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// How the errors of decoding a request body with ``JSONAPIDecoder`` reach the client: the
/// status JSON:API requires and the pointer of the value at fault in the body.
@Suite("Request decoding errors")
struct RequestDecodingErrorTests {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
    }

    struct Tag: Decodable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Identifier<Person>
        var tags: [Identifier<Tag>]
    }

    /// The error objects a server answers a body with, when it does not decode as `T`.
    func errorObjects<T: Decodable>(_ type: T.Type, _ body: String) throws -> [JSONAPIErrorObject] {
        do {
            _ = try JSONAPIDecoder().decode(T.self, from: body)
        } catch {
            return JSONAPIErrorObject.errors(describing: error)
        }
        Issue.record("decoded \(T.self) from \(body)")
        return []
    }

    @Test("a primary resource of another type than the endpoint's is a 409 Conflict at its type")
    func primaryTypeConflict() throws {
        let body = #"""
            {"data": {"type": "people", "id": "1", "attributes": {"title": "T"},
                      "relationships": {"author": {"data": {"type": "people", "id": "9"}}, "tags": {"data": []}}}}
            """#
        let errors = try errorObjects(Article.self, body)
        #expect(errors.map(\.status) == ["409"])
        #expect(errors.first?.code == "resource-type-conflict")
        #expect(errors.first?.source?.pointer == "/data/type")
        #expect(JSONAPIErrorDocument(errors: errors).httpStatus == 409)

        // The Codable view is unchanged: a type mismatch, with a code that tells the two apart.
        let error = try #require(decodingError { try JSONAPIDecoder().decode(Article.self, from: body) })
        guard case .typeMismatch = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(error.jsonapiError?.code == .resourceTypeConflict)
        #expect(error.jsonapiError?.pointer == "/data")
    }

    @Test("a wrongly typed resource elsewhere stays a 422 type mismatch")
    func otherTypeMismatchesStay422() throws {
        let body = #"""
            {"data": {"type": "articles", "id": "1", "attributes": {"title": 5},
                      "relationships": {"author": {"data": {"type": "people", "id": "9"}}, "tags": {"data": []}}}}
            """#
        let errors = try errorObjects(Article.self, body)
        #expect(errors.map(\.status) == ["422"])
        #expect(errors.first?.code == "type-mismatch")
        #expect(errors.first?.source?.pointer == "/data/attributes/title")
    }

    @Test("a wrongly typed linkage is reported at the linkage, under relationships")
    func linkagePointers() throws {
        let toOne = #"""
            {"data": {"type": "articles", "id": "1", "attributes": {"title": "T"},
                      "relationships": {"author": {"data": {"type": "tags", "id": "9"}}, "tags": {"data": []}}}}
            """#
        let toOneErrors = try errorObjects(Article.self, toOne)
        #expect(toOneErrors.map(\.status) == ["422"])
        #expect(toOneErrors.first?.source?.pointer == "/data/relationships/author/data")

        let toMany = #"""
            {"data": {"type": "articles", "id": "1", "attributes": {"title": "T"},
                      "relationships": {"author": {"data": {"type": "people", "id": "9"}},
                                        "tags": {"data": [{"type": "tags", "id": "1"}, {"type": "people", "id": "2"}]}}}}
            """#
        let toManyErrors = try errorObjects(Article.self, toMany)
        #expect(toManyErrors.map(\.status) == ["422"])
        #expect(toManyErrors.first?.source?.pointer == "/data/relationships/tags/data/1")
    }

    struct Metrics: Codable {
        var views: Int
    }

    struct Post: Decodable, JSONAPIResource {
        static let resourceType = "posts"
        var id: String
        var wordCount: Int
        var metrics: Metrics
        var reviewer: Person?
    }

    @Test("a key path names its member's pointer, through the key strategy")
    func keyPathPointers() {
        #expect(JSONAPIErrorObject.pointer(to: \Article.title) == "/data/attributes/title")
        #expect(JSONAPIErrorObject.pointer(to: \Article.author) == "/data/relationships/author")
        #expect(JSONAPIErrorObject.pointer(to: \Article.tags) == "/data/relationships/tags")
        #expect(JSONAPIErrorObject.pointer(to: \Article.id) == "/data/id")
        #expect(JSONAPIErrorObject.pointer(to: \Post.reviewer) == "/data/relationships/reviewer")
        #expect(
            JSONAPIErrorObject.pointer(to: \Post.wordCount, keys: .convertToKebabCase) == "/data/attributes/word-count")
        #expect(JSONAPIErrorObject.pointer(to: \Post.metrics.views) == "/data/attributes/metrics/views")
        #expect(
            JSONAPIErrorObject.pointer(to: \Post.wordCount, resourcePointer: "/data/2")
                == "/data/2/attributes/wordCount")
        let error = JSONAPIErrorObject.unprocessable(\Article.title, detail: "a title is at most 200 characters")
        #expect(error.status == "422")
        #expect(error.code == "invalid-value")
        #expect(error.source?.pointer == "/data/attributes/title")
    }

    struct Draft: Decodable, JSONAPIResource {
        static let resourceType = "drafts"
        var id: String
        var title: String?
        var rating: Int?
        var author: Identifier<Person>?
    }

    @Test("every problem of a lenient decode is one error object of one 422 document")
    func everyProblemAtOnce() throws {
        let body = #"""
            {"data": {"type": "drafts", "id": "1", "attributes": {"title": 5, "rating": "high"},
                      "relationships": {"author": {"data": {"type": "tags", "id": "9"}}}}}
            """#
        var options = DecodingOptions()
        options.tolerance = .lenient
        let report = try JSONAPIDecoder(options: options).decodeReporting(Draft.self, from: body)
        #expect(report.problems.count == 3)
        let error = JSONAPIHTTPError.unprocessable(report.problems)
        #expect(error.httpStatus == 422)
        #expect(error.errors.map(\.status) == ["422", "422", "422"])
        #expect(
            error.errors.map(\.source?.pointer)
                == ["/data/attributes/title", "/data/attributes/rating", "/data/relationships/author/data"])
        #expect(error.errors.map(\.code) == ["invalid-value", "invalid-value", "wrong-resource-type"])
        #expect(error.errors.first?.meta?["line"] == JSON(1))
    }
}
