import JSONAPI
import Testing

@testable import JSONAPIExample

/// The example store against a reference model written the obvious way (an array per type in
/// creation order, searched for each id), under random sequences of creates, replacements and
/// issued ids.
@Suite struct ExampleStoreTests {
    /// The reference: what the store must answer.
    struct Model {
        var rows: [String: [(id: String, resource: JSONAPIResourceObject)]] = [:]
        var nextID = 1

        mutating func put(_ resource: JSONAPIResourceObject) {
            guard let id = resource.id else { return }
            if let index = rows[resource.type]?.firstIndex(where: { $0.id == id }) {
                rows[resource.type]?[index].resource = resource
            } else {
                rows[resource.type, default: []].append((id, resource))
            }
        }
    }

    static let types = ["articles", "people"]

    func resource(_ type: String, _ id: String, _ version: Int) -> JSONAPIResourceObject {
        JSONAPIResourceObject(type: type, id: id, attributes: ["version": JSON(Double(version))])
    }

    func expectSame(_ store: ExampleStore, _ model: Model, sourceLocation: SourceLocation = #_sourceLocation) {
        store.read { state in
            #expect(state.nextID == model.nextID, sourceLocation: sourceLocation)
            for type in Self.types {
                let expected = model.rows[type] ?? []
                #expect(state.count(type) == expected.count, sourceLocation: sourceLocation)
                #expect(state.all(type) == expected.map(\.resource), sourceLocation: sourceLocation)
                for size in [1, 3, 7, Int.max] {
                    for number in 1...(expected.count / min(size, 1_000) + 2) {
                        let (start, overflow) = (number - 1).multipliedReportingOverflow(by: size)
                        let slice =
                            !overflow && start < expected.count
                            ? Array(expected[start..<min(expected.count, start + min(size, expected.count))]) : []
                        #expect(
                            state.page(type, number: number, size: size) == slice.map(\.resource),
                            "page \(number) of \(size)", sourceLocation: sourceLocation)
                    }
                }
                for row in expected {
                    #expect(state.resource(type, row.id) == row.resource, sourceLocation: sourceLocation)
                }
            }
            #expect(state.page("articles", number: 0, size: 3).isEmpty, sourceLocation: sourceLocation)
            #expect(state.page("articles", number: 1, size: 0).isEmpty, sourceLocation: sourceLocation)
            #expect(state.resource("tags", "1") == nil, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: 0..<24) func randomWritesMatchTheReference(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let store = ExampleStore(state: .init())
        var model = Model()
        var version = 0
        for _ in 0..<60 {
            store.write { state in
                for _ in 0..<(1 + Int(random.next() % 6)) {
                    let type = Self.types[Int(random.next() % 2)]
                    // Few ids, so puts replace.
                    let id = "\(random.next() % 12)"
                    version += 1
                    if random.next() % 3 == 0 {
                        let issued = state.newID()
                        #expect(issued == "n\(model.nextID)")
                        model.nextID += 1
                        state.put(resource(type, issued, version))
                        model.put(resource(type, issued, version))
                    } else {
                        state.put(resource(type, id, version))
                        model.put(resource(type, id, version))
                    }
                }
            }
            expectSame(store, model)
        }
    }

    /// The seed is the same for the same arguments, and links only to resources it holds.
    @Test func seededDataIsReproducibleAndLinked() {
        let first = ExampleStore.seeded(articles: 30, seed: 4)
        let again = ExampleStore.seeded(articles: 30, seed: 4)
        first.read { state in
            again.read { other in
                for type in ["articles", "people", "comments", "tags"] {
                    #expect(state.all(type) == other.all(type))
                }
            }
            #expect(state.count("articles") == 30)
            for article in state.all("articles") {
                for member in article.relationships.members {
                    let linked: [ResourceIdentifier]
                    switch member.value.data {
                    case .one(let identifier)?: linked = [identifier]
                    case .many(let identifiers)?: linked = identifiers
                    default: linked = []
                    }
                    for identifier in linked {
                        #expect(state.resource(identifier.type, identifier.id ?? "") != nil, "\(identifier)")
                    }
                }
            }
        }
    }
}
