import Foundation
import JSONAPI
import JSONAPIClient
import PropertyBased
import Synchronization
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

    /// A resource of many versions: each version sets every member to its number, so a read
    /// that mixes two versions shows.
    struct Thing: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var a: Int
        var b: Int
        var c: Int
        var owner: Person?
    }

    static func version(_ key: Int, _ version: Int) -> JSONAPIResourceObject {
        var thing = JSONAPIResourceObject(
            type: "things", id: String(key), attributes: ["a": JSON(version), "b": JSON(version), "c": JSON(version)])
        thing.relationships["owner"] = JSONAPIRelationship(
            data: .one(ResourceIdentifier(type: "people", id: String(version))))
        return thing
    }

    /// What a read of things/`id` found wrong, if anything: every member must come from one version
    /// that was written.
    static func mix(in read: JSONAPIResourceObject, written: (Int) -> Bool) -> String? {
        let values = ["a", "b", "c"].map { read.attributes[$0] }
        guard case .int(let first)? = values[0], values.allSatisfy({ $0 == .int(first) }), written(Int(first)),
            case .one(let owner)? = read.relationships["owner"]?.data, owner.id == String(first)
        else { return "things/\(read.id ?? "") read as a mix: \(read)" }
        return nil
    }

    @Test("threads merging, reading, decoding and evicting at once: every read is one version")
    func concurrentUse() {
        // Threads rather than tasks: the operating system preempts them anywhere, so a reader can
        // run while a writer is in the middle of whatever it does.
        let writers = 4
        let readers = 4
        let rounds = 2000
        let keys = 40
        let bound = 32
        let store = ResourceStore(maximumResources: bound)
        /// A version `writer * 10_000 + round` was written by a writer that exists, in a round it ran.
        @Sendable func written(_ version: Int) -> Bool {
            version >= 0 && version / 10_000 < writers && version % 10_000 < rounds
        }
        let problems = Mutex<[String]>([])
        let reads = Atomic<Int>(0)
        let writing = Atomic<Int>(writers)
        @Sendable func work(_ thread: Int) {
            var found: [String] = []
            defer { problems.withLock { $0 += found } }
            guard thread >= writers else {
                defer { writing.subtract(1, ordering: .releasing) }
                for round in 0..<rounds {
                    let key = (thread * 7 + round * 3) % keys
                    let version = thread * 10_000 + round
                    if round % 4 == 0 {
                        // The owner in its own response, as a related resource arrives.
                        store.merge(
                            JSONAPIResourceObject(
                                type: "people", id: String(version), attributes: ["name": JSON("P\(version)")]))
                    }
                    if round % 5 == 0 {
                        // Several resources at once, as one response brings them.
                        store.merge([Self.version(key, version), Self.version((key + 1) % keys, version)])
                    } else {
                        store.merge(Self.version(key, version))
                    }
                    if round % 50 == 49 { store.remove(type: "things", id: String((key + 1) % keys)) }
                }
                return
            }
            var decoding = DecodingOptions()
            decoding.ignoresMissingResources = true
            var scan = 0
            while writing.load(ordering: .acquiring) > 0, found.isEmpty {
                scan += 1
                for key in 0..<keys {
                    let id = String((key + thread) % keys)
                    reads.add(1, ordering: .relaxed)
                    if let read = store.resource(type: "things", id: id), let mix = Self.mix(in: read, written: written)
                    {
                        found.append(mix)
                    }
                    for owner in store.related(type: "things", id: id, relationship: "owner") {
                        if owner.attributes["name"] != JSON("P\(owner.id ?? "")") {
                            found.append("the owner of things/\(id) is a mix: \(owner)")
                        }
                    }
                    let count = store.count
                    if count > bound { found.append("\(count) resources held, over the bound of \(bound)") }
                    guard (scan + key) % 8 == 0 else { continue }
                    do {
                        if let thing = try store.model(Thing.self, id: id, options: decoding) {
                            if thing.a != thing.b || thing.b != thing.c || !written(thing.a) {
                                found.append("things/\(id) decoded as a mix: \(thing)")
                            }
                            if let owner = thing.owner, owner.id != String(thing.a) || owner.name != "P\(thing.a)" {
                                found.append("things/\(id) decoded with another version's owner: \(owner)")
                            }
                        }
                    } catch {
                        found.append("things/\(id) did not decode: \(error)")
                    }
                }
            }
        }
        // Readers first, so that they are reading while the writers write.
        let finished = DispatchGroup()
        for thread in (0..<(writers + readers)).reversed() {
            finished.enter()
            Thread {
                work(thread)
                finished.leave()
            }.start()
        }
        finished.wait()
        let seen = problems.withLock { $0 }
        #expect(seen.isEmpty, "\(seen.count) problems: \(seen.prefix(3))")
        #expect(reads.load(ordering: .relaxed) > 0)
        // Full, but for the resources the last rounds removed (at most one per writer).
        #expect((bound - writers)...bound ~= store.count)
        // Whatever survived is one version a writer wrote, whole.
        for key in store.keys where key.type == "things" {
            let read = store.resource(type: key.type, id: key.id)
            #expect(read.flatMap { Self.mix(in: $0, written: written) } == nil)
        }
    }
}
