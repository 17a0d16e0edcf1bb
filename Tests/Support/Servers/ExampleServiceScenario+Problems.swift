import Foundation
import JSONAPI
import Testing

/// A create request's model as users write it (plain `Codable`), for the request helpers that
/// list every problem of a body: each front serves it at `POST /notes` through its
/// `jsonapiDecode`, echoing the note back.
struct ListedNote: Codable, Sendable, JSONAPIResource {
    static let resourceType = "notes"
    var id: String?
    var title: String
    var views: Int
    var tags: [String]
    var author: Identifier<Author>

    struct Author: Codable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
    }
}

extension ExampleServiceScenario {
    /// A body with four problems gets one 422 error document listing all four, each with its
    /// pointer; a body of another type gets 409 alone; a body that fits is created.
    func everyProblemOfABodyAtOnce(path: String = "/notes") async throws {
        let broken = """
            {"data":{"type":"notes","attributes":{"title":5,"tags":["a",7]},\
            "relationships":{"author":{"data":{"type":"robots","id":"r1"}}}}}
            """
        let errors = try await send("POST", path, body: broken, expect: 422)?.errors ?? []
        #expect(
            errors.map { $0.source?.pointer } == [
                "/data/attributes/title", "/data", "/data/attributes/tags/1", "/data/relationships/author/data",
            ])
        #expect(errors.allSatisfy { $0.status == "422" })
        #expect(errors.allSatisfy { $0.detail?.isEmpty == false })

        let conflict = broken.replacingOccurrences(of: #""type":"notes""#, with: #""type":"posts""#)
        let refused = try await send("POST", path, body: conflict, expect: 409)?.errors ?? []
        #expect(refused.map { $0.source?.pointer } == ["/data/type"])

        let fits = """
            {"data":{"type":"notes","attributes":{"title":"T","views":1,"tags":[]},\
            "relationships":{"author":{"data":{"type":"people","id":"9"}}}}}
            """
        let created = try await send("POST", path, body: fits, expect: 201)
        #expect(created?.primaryResources.first?.attributes["title"]?.stringValue == "T")
    }
}
