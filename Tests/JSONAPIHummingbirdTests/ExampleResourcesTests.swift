import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPIExample

/// The example's types declared on the resource layer answer what the hand-written service
/// answers from the same data: the load benchmark compares the two on that premise.
@Suite struct ExampleResourcesTests {
    @Test(
        "the same resources, included ones and attributes for the same request",
        arguments: [
            "include=author,comments&page[size]=100", "include=tags,comments.author&page[size]=7&page[number]=3",
            "fields[articles]=title&page[size]=5",
        ])
    func sameAnswers(query: String) async throws {
        let service = try ExampleService(store: .seeded(articles: 120, seed: 3))
        let layer = try ExampleResources.service(store: service.store, linkBase: "")
        let handWritten = try Document(
            parsing: try #require(service.list(type: "articles", rawQuery: query, target: "/articles").body))
        let declared = try Document(
            parsing: try #require(
                try await layer.respond(
                    to: ResourceRequest(method: "GET", type: "articles", endpoint: .collection, query: query)
                ).body))
        #expect(handWritten.primaryResources.count == declared.primaryResources.count)
        for (left, right) in zip(handWritten.primaryResources, declared.primaryResources) {
            #expect(left.identifier == right.identifier)
            #expect(JSON(left.attributes) == JSON(right.attributes))
        }
        let handWrittenIncluded = Set(handWritten.included.map(\.identifier))
        #expect(handWrittenIncluded == Set(declared.included.map(\.identifier)))
    }
}
