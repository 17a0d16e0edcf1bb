import JSONAPI
import JSONAPIClient
import Testing

/// `JSONAPIClientError.problems(for:)`: the error objects about one property, for forms.
@Suite struct ErrorProblemsTests {
    struct Draft: Encodable, JSONAPIResource {
        static let resourceType = "articles"
        var id = ""
        var wordCount: Int
        var metrics: [String: Int]
    }

    static func error(_ pointers: [String?]) -> JSONAPIClientError {
        JSONAPIClientError(
            .errorResponse, method: "POST", url: "http://127.0.0.1/articles", status: 422,
            errors: pointers.enumerated().map { index, pointer in
                JSONAPIErrorObject(
                    status: 422, code: "invalid-value", title: "Invalid value", detail: "problem \(index)",
                    source: pointer.map { .pointer($0) })
            }, message: "the server refused the body")
    }

    @Test func attributesRelationshipsAndPlacesInside() {
        let error = Self.error([
            "/data/attributes/title", "/data/attributes/titles", "/data/relationships/author",
            "/data/relationships/author/data", "/data/attributes", nil, "/data/attributes/title",
        ])
        #expect(error.problems(for: \Article.title).compactMap(\.detail) == ["problem 0", "problem 6"])
        #expect(error.problems(for: \Article.author).compactMap(\.detail) == ["problem 2", "problem 3"])
        #expect(error.problems(for: \Article.body).isEmpty)
        // A key path that names no member matches nothing, not every problem at `/data`.
        #expect(error.problems(for: \Article.self).isEmpty)
    }

    @Test func throughTheKeyStrategyAndInOperations() {
        let error = Self.error([
            "/data/attributes/word-count", "/atomic:operations/1/data/attributes/metrics/views",
            "/data/attributes/wordCount",
        ])
        #expect(
            error.problems(for: \Draft.wordCount, keys: .convertToKebabCase).compactMap(\.detail) == ["problem 0"])
        #expect(error.problems(for: \Draft.wordCount).compactMap(\.detail) == ["problem 2"])
        #expect(
            error.problems(for: \Draft.metrics, resourcePointer: "/atomic:operations/1/data").compactMap(\.detail) == [
                "problem 1"
            ])
    }
}
