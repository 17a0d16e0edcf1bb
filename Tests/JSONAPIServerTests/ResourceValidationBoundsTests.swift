import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// `ResourceValidation.length` and `.range`: the check, where its 422 points, and the limit
/// recorded for descriptions under the member's name.
@Suite struct ResourceValidationBoundsTests {
    struct Review: Codable, Sendable, JSONAPIResource {
        static let resourceType = "reviews"
        var id: String
        var text: String
        var headline: String?
        var stars: Int
        var weight: UInt8?
    }

    static func review(text: String = "ok", headline: String? = nil, stars: Int = 3, weight: UInt8? = nil) -> Review {
        Review(id: "1", text: text, headline: headline, stars: stars, weight: weight)
    }

    static var validation: ResourceValidation<Review> {
        var validation = ResourceValidation<Review>()
        validation.length(\.text, 2...5)
        validation.length(\.headline, 1...3)
        validation.range(\.stars, 1...5)
        validation.range(\.weight, 10...20)
        return validation
    }

    @Test func limitsAreRecordedByMember() {
        #expect(
            Self.validation.bounds == [
                "text": ValueBounds(length: 2...5), "headline": ValueBounds(length: 1...3),
                "stars": ValueBounds(range: 1...5), "weight": ValueBounds(range: 10...20),
            ])
    }

    @Test(
        "each limit, at its ends and past them",
        arguments: [
            (review(), [String]()),
            (review(text: "a"), ["/data/attributes/text"]),
            (review(text: "abcde"), []),
            (review(text: "abcdef"), ["/data/attributes/text"]),
            // Unicode scalars, as JSON Schema counts: `é` written as e + U+0301 is two.
            (review(text: "e\u{301}e\u{301}e\u{301}"), ["/data/attributes/text"]),
            (review(text: "ééééé"), []),
            (review(headline: ""), ["/data/attributes/headline"]),
            (review(headline: "abcd"), ["/data/attributes/headline"]),
            (review(stars: 0), ["/data/attributes/stars"]),
            (review(stars: 5), []),
            (review(stars: 6), ["/data/attributes/stars"]),
            (review(weight: 9), ["/data/attributes/weight"]),
            (review(weight: 20), []),
            (
                review(text: "", headline: "", stars: 9, weight: 255),
                [
                    "/data/attributes/text", "/data/attributes/headline", "/data/attributes/stars",
                    "/data/attributes/weight",
                ]
            ),
        ])
    func checks(_ review: Review, _ pointers: [String]) {
        let problems = Self.validation.problems(of: review)
        #expect(problems.map(\.source?.pointer) == pointers)
        #expect(problems.allSatisfy { $0.status == "422" && $0.detail?.contains("to") == true })
    }

    @Test func aServiceAnswersOne422WithEveryLimit() async throws {
        var service = ResourceService()
        var reviews = ResourceDeclaration(source: InMemoryDataSource<Review>())
        reviews.validation = Self.validation
        service.serve(reviews)
        let answer = await service.send(
            "POST", "reviews", .collection, body: #"{"data":{"type":"reviews","attributes":{"text":"","stars":0}}}"#)
        #expect(answer.status == 422)
        #expect(answer.pointers == ["/data/attributes/text", "/data/attributes/stars"])
        #expect(answer.errors.first?.detail == "`text` is 2 to 5 characters long")
    }
}
