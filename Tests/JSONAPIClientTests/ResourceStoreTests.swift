import JSONAPI
import JSONAPIClient
import PropertyBased
import Testing

/// The resource store against a reference model: merging member by member, least-recently-used
/// eviction, typed reads across merges, and many tasks at once.
@Suite struct ResourceStoreTests {
    /// What the store should hold for one resource: every attribute and relationship ever merged,
    /// the latest value of each.
    struct ModelResource: Equatable {
        var attributes: [String: JSON] = [:]
        var relationships: [String: JSONAPIRelationship.Linkage] = [:]
    }

    static let names = ["a", "b", "c", "d"]

    /// A resource `type`/`id` with the members the random choices pick.
    static func resource(type: String, id: Int, attributes: [Int], relationships: [Int]) -> JSONAPIResourceObject {
        var resource = JSONAPIResourceObject(type: type, id: String(id))
        for value in attributes {
            resource.attributes[names[value % names.count]] = JSON(value)
        }
        for value in relationships {
            let linkage: JSONAPIRelationship.Linkage =
                value % 3 == 0
                ? .null : .one(ResourceIdentifier(type: "people", id: String(value)))
            resource.relationships[names[value % names.count]] = JSONAPIRelationship(data: linkage)
        }
        return resource
    }

    @Test("merging agrees with the reference model, and eviction keeps the most recently used")
    func mergeAgreesWithModel() async {
        let step = zip(
            Gen.int(in: 0...5), Gen.int(in: 0...1), Gen.int(in: 0...20).array(of: 0...4),
            Gen.int(in: 0...20).array(of: 0...3), Gen.int(in: 0...3))
        await propertyCheck(count: 200, input: step.array(of: 1...40), Gen.int(in: 1...8)) { steps, bound in
            let store = ResourceStore(maximumResources: bound)
            var model: [ResourceStore.Key: ModelResource] = [:]
            var recency: [ResourceStore.Key] = []  // least recent first
            func use(_ key: ResourceStore.Key) {
                recency.removeAll { $0 == key }
                recency.append(key)
                while recency.count > bound { model[recency.removeFirst()] = nil }
            }
            for (id, typeChoice, attributes, relationships, action) in steps {
                let type = typeChoice == 0 ? "articles" : "people"
                let key = ResourceStore.Key(type: type, id: String(id))
                if action == 0 {
                    // A read counts as a use.
                    let found = store.resource(type: type, id: String(id))
                    #expect((found != nil) == (model[key] != nil))
                    if found != nil { use(key) }
                    continue
                }
                let resource = Self.resource(
                    type: type, id: id, attributes: attributes, relationships: relationships)
                store.merge(resource)
                var expected = model[key] ?? ModelResource()
                for member in resource.attributes { expected.attributes[member.key] = member.value }
                for member in resource.relationships {
                    expected.relationships[member.key] = member.value.data
                }
                model[key] = expected
                use(key)
            }
            #expect(store.count == model.count)
            for (key, expected) in model {
                guard let stored = store.resource(type: key.type, id: key.id) else {
                    Issue.record("\(key) was evicted too early")
                    continue
                }
                #expect(
                    Dictionary(uniqueKeysWithValues: stored.attributes.map { ($0.key, $0.value) })
                        == expected.attributes)
                var linkage: [String: JSONAPIRelationship.Linkage] = [:]
                for member in stored.relationships { linkage[member.key] = member.value.data }
                #expect(linkage == expected.relationships)
            }
        }
    }

    struct Person: Decodable, Equatable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var email: String?
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person
    }

    @Test("typed reads resolve relationships across documents, and sparse fieldsets add up")
    func typedReadsAcrossDocuments() throws {
        let store = ResourceStore()
        store.merge(
            try Document(
                parsing:
                    #"{"data":[{"type":"articles","id":"1","attributes":{"title":"T"},"relationships":{"author":{"data":{"type":"people","id":"9"}}}}]}"#
            ))
        #expect(throws: (any Error).self) { try store.model(Article.self, id: "1") }
        store.merge(
            try Document(
                parsing: #"{"data":{"type":"people","id":"9","attributes":{"name":"Ann","email":"a@x"}}}"#))
        store.merge(try Document(parsing: #"{"data":{"type":"people","id":"9","attributes":{"name":"Bea"}}}"#))
        let article = try #require(try store.model(Article.self, id: "1"))
        #expect(article.author == Person(id: "9", name: "Bea", email: "a@x"))
        #expect(try store.model(Article.self, id: "2") == nil)
        #expect(try store.models(of: Person.self) == [Person(id: "9", name: "Bea", email: "a@x")])
        #expect(store.related(type: "articles", id: "1", relationship: "author").map(\.id) == ["9"])

        var lenient = DecodingOptions()
        lenient.ignoresMissingResources = true
        store.remove(type: "people", id: "9")
        #expect(throws: (any Error).self) { try store.model(Article.self, id: "1", options: lenient) }
    }

    @Test("streamed resources go into the store, and typed reads resolve their relationships there")
    func streamedResources() throws {
        let text = #"""
            {"data":[{"type":"articles","id":"1","attributes":{"title":"T"},
                      "relationships":{"author":{"data":{"type":"people","id":"9"}}}}],
             "included":[{"type":"people","id":"9","attributes":{"name":"Ann","email":"a@x"}}]}
            """#
        let store = ResourceStore()
        var stream = try ResourceStream()
        try stream.feed(Array(text.utf8))
        try stream.finish()
        while let part = try stream.next() {
            if case .resource(let resource) = part { store.merge(resource.object) }
        }
        let article = try #require(try store.model(Article.self, id: "1"))
        #expect(article.author == Person(id: "9", name: "Ann", email: "a@x"))
    }

    @Test("many tasks merging and reading at once")
    func concurrentUse() async {
        let store = ResourceStore(maximumResources: 500)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<400 {
                        store.merge(
                            JSONAPIResourceObject(
                                type: "things", id: "\(task)-\(index)", attributes: ["n": JSON(index)]))
                        _ = store.resource(type: "things", id: "\(task)-\(index / 2)")
                    }
                }
            }
        }
        #expect(store.count == 500)
    }
}
