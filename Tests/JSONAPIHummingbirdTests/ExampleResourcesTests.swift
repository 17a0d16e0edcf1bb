import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPIExample

/// The example service, declared on the resource layer, answers from the seed it started from:
/// checked against a reference that walks the seeded store's resource objects directly (pages in
/// creation order in memory, in id order in SQLite, every resource the `include` paths reach
/// once, attributes trimmed to the fieldset).
@Suite struct ExampleResourcesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var query: String
        var page: (number: Int, size: Int)
        var include: [String]
        var fields: Set<String>?
        var testDescription: String { query }
    }

    /// Each storage, and the order a collection without `sort` comes in from it.
    enum Storage: String, Sendable, CaseIterable {
        case memory, sqlite

        var storage: ExampleStorage {
            switch self {
            case .memory: .memory
            case .sqlite: .sqlite(path: nil)
            }
        }

        func inDefaultOrder(_ resources: [JSONAPIResourceObject]) -> [JSONAPIResourceObject] {
            switch self {
            case .memory: resources
            case .sqlite: resources.sorted { Array(($0.id ?? "").utf8).lexicographicallyPrecedes(($1.id ?? "").utf8) }
            }
        }
    }

    @Test(
        "the seed's resources, included ones and attributes for a request",
        arguments: Storage.allCases,
        [
            Case(query: "include=author,comments&page[size]=100", page: (1, 100), include: ["author", "comments"]),
            Case(
                query: "include=tags,comments.author&page[size]=7&page[number]=3", page: (3, 7),
                include: ["tags", "comments.author"]),
            Case(query: "fields[articles]=title&page[size]=5", page: (1, 5), include: [], fields: ["title"]),
        ])
    func answersFromTheSeed(_ storage: Storage, _ test: Case) async throws {
        let service = try await ExampleService(store: .seeded(articles: 120, seed: 3), storage: storage.storage)
        let answer = try await service.resources.respond(
            to: ResourceRequest(method: "GET", type: "articles", endpoint: .collection, query: test.query))
        let document = try Document(parsing: try #require(answer.body))

        let (expected, included) = service.store.read { state in
            let page = Array(
                storage.inDefaultOrder(state.all("articles")).dropFirst((test.page.number - 1) * test.page.size).prefix(
                    test.page.size))
            var seen = Set(page.map(\.identifier))
            var included: Set<ResourceIdentifier> = []
            for path in test.include {
                var level = page
                for name in path.split(separator: ".").map(String.init) {
                    var next: [JSONAPIResourceObject] = []
                    for resource in level {
                        let linked: [ResourceIdentifier]
                        switch resource.relationships[name]?.data {
                        case .one(let identifier)?: linked = [identifier]
                        case .many(let identifiers)?: linked = identifiers
                        default: linked = []
                        }
                        for identifier in linked {
                            guard let related = state.resource(identifier.type, identifier.id ?? "") else { continue }
                            next.append(related)
                            if seen.insert(related.identifier).inserted { included.insert(related.identifier) }
                        }
                    }
                    level = next
                }
            }
            return (page, included)
        }
        #expect(document.primaryResources.count == expected.count)
        for (answered, seeded) in zip(document.primaryResources, expected) {
            #expect(answered.identifier == seeded.identifier)
            var attributes = seeded.attributes
            if let fields = test.fields {
                for name in attributes.keys where !fields.contains(name) { attributes[name] = nil }
            }
            #expect(JSON(answered.attributes) == JSON(attributes))
        }
        #expect(Set(document.included.map(\.identifier)) == included)
        #expect(document.hasIncluded == !test.include.isEmpty)
    }
}
