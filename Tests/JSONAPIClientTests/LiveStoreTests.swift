import Foundation
import JSONAPI
import JSONAPIClient
import Observation
import Synchronization
import Testing

/// The store as the client keeps it live: change streams, Observation, deletes that remove
/// linkages, accepted relationship changes, `lid`s replaced by ids, optimistic writes and their
/// roll-back, alone and through the client against scripted server answers.
@Suite struct LiveStoreTests {
    typealias Key = ResourceStore.Key
    typealias Change = ResourceStore.Change

    static func article(_ id: String, title: String, author: String?, tags: [String]) -> JSONAPIResourceObject {
        var article = JSONAPIResourceObject(type: "articles", id: id)
        article.attributes["title"] = JSON(title)
        article.relationships["author"] = JSONAPIRelationship(
            data: author.map { .one(ResourceIdentifier(type: "people", id: $0)) } ?? .null)
        article.relationships["tags"] = JSONAPIRelationship(
            data: .many(tags.map { ResourceIdentifier(type: "tags", id: $0) }))
        return article
    }

    static func person(_ id: String, _ name: String) -> JSONAPIResourceObject {
        var person = JSONAPIResourceObject(type: "people", id: id)
        person.attributes["name"] = JSON(name)
        return person
    }

    /// Reads `count` changes from `stream`.
    static func take(_ count: Int, from stream: AsyncStream<Change>) async -> [Change] {
        var changes: [Change] = []
        for await change in stream {
            changes.append(change)
            if changes.count == count { break }
        }
        return changes
    }

    static func linkage(_ store: ResourceStore, _ id: String, _ relationship: String) -> JSONAPIRelationship.Linkage? {
        store.resource(type: "articles", id: id)?.relationships[relationship]?.data
    }

    @Test("each stream gets the changes its filter names, in order, and a merge that changes nothing is no change")
    func streams() async {
        let store = ResourceStore()
        let one = store.changes(of: Key(type: "articles", id: "1"))
        let people = store.changes(ofType: "people")
        let result = store.changes(of: [Key(type: "articles", id: "2"), Key(type: "people", id: "9")])
        let all = store.changes()
        store.merge([Self.article("1", title: "A", author: "9", tags: []), Self.person("9", "Ada")])
        store.merge(Self.article("1", title: "A", author: "9", tags: []))  // the same copy: no change
        store.merge(Self.article("2", title: "B", author: nil, tags: ["4"]))
        store.merge(Self.article("1", title: "A2", author: "9", tags: []))
        store.remove(type: "people", id: "9")
        store.removeAll()
        let articles1 = Key(type: "articles", id: "1")
        let articles2 = Key(type: "articles", id: "2")
        let people9 = Key(type: "people", id: "9")
        #expect(
            await Self.take(3, from: one) == [
                Change(key: articles1, kind: .inserted), Change(key: articles1, kind: .updated),
                Change(key: articles1, kind: .removed),
            ])
        #expect(
            await Self.take(2, from: people) == [
                Change(key: people9, kind: .inserted), Change(key: people9, kind: .removed),
            ])
        #expect(
            await Self.take(4, from: result) == [
                Change(key: people9, kind: .inserted), Change(key: articles2, kind: .inserted),
                Change(key: people9, kind: .removed), Change(key: articles2, kind: .removed),
            ])
        let every = await Self.take(7, from: all)
        #expect(
            Array(every.prefix(5)) == [
                Change(key: articles1, kind: .inserted), Change(key: people9, kind: .inserted),
                Change(key: articles2, kind: .inserted), Change(key: articles1, kind: .updated),
                Change(key: people9, kind: .removed),
            ])
        #expect(
            Set(every.suffix(2)) == [Change(key: articles1, kind: .removed), Change(key: articles2, kind: .removed)])
    }

    @Test("tasks merging at once: every change reaches every stream, each resource's in order")
    func concurrentMerges() async {
        let store = ResourceStore()
        let all = store.changes()
        let people = store.changes(ofType: "people")
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        store.merge(Self.person(String(task), "name \(round)"))
                        store.merge(Self.article("\(task)-\(round)", title: "t", author: String(task), tags: []))
                    }
                }
            }
        }
        let changes = await Self.take(8 * 100, from: all)
        #expect(changes.count == 800)
        for task in 0..<8 {
            let person = changes.filter { $0.key == Key(type: "people", id: String(task)) }.map(\.kind)
            #expect(person == [.inserted] + Array(repeating: .updated, count: 49))
        }
        #expect(await Self.take(400, from: people).count == 400)
    }

    @Test("eviction is reported as a removal")
    func eviction() async {
        let store = ResourceStore(maximumResources: 1)
        let all = store.changes()
        store.merge(Self.person("1", "A"))
        store.merge(Self.person("2", "B"))
        #expect(
            await Self.take(3, from: all) == [
                Change(key: Key(type: "people", id: "1"), kind: .inserted),
                Change(key: Key(type: "people", id: "2"), kind: .inserted),
                Change(key: Key(type: "people", id: "1"), kind: .removed),
            ])
    }

    @Test("a stream whose consumer has gone does not stop the others")
    func endedStreams() async {
        let store = ResourceStore()
        let kept = store.changes()
        let task = Task { for await _ in store.changes() {} }
        task.cancel()
        await task.value
        store.merge(Self.person("1", "A"))
        #expect(await Self.take(1, from: kept) == [Change(key: Key(type: "people", id: "1"), kind: .inserted)])
    }

    @Test("Observation sees a change of the store read inside withObservationTracking, and only a change")
    func observation() {
        let store = ResourceStore()
        store.merge(Self.person("9", "Ada"))
        let fired = Mutex(0)
        func track() {
            withObservationTracking {
                _ = store.resource(type: "people", id: "9")
            } onChange: {
                fired.withLock { $0 += 1 }
            }
        }
        track()
        let before = store.revision
        store.merge(Self.person("9", "Ada"))  // the same copy: nothing changed, nobody told
        #expect(fired.withLock { $0 } == 0 && store.revision == before)
        store.merge(Self.person("9", "Ada Lovelace"))
        #expect(fired.withLock { $0 } == 1 && store.revision > before)
        track()
        store.delete(type: "people", id: "9")
        #expect(fired.withLock { $0 } == 2)
    }

    @Test("a deleted resource leaves every linkage: a to-one becomes null, a to-many loses the member")
    func deleteRemovesLinkages() async {
        let store = ResourceStore()
        store.merge([
            Self.article("1", title: "A", author: "9", tags: ["4", "5"]),
            Self.article("2", title: "B", author: "8", tags: ["4"]),
            Self.person("9", "Ada"),
        ])
        let all = store.changes()
        store.delete(type: "people", id: "9")
        store.delete(type: "tags", id: "4")  // not held itself, but linked
        #expect(store.resource(type: "people", id: "9") == nil)
        #expect(Self.linkage(store, "1", "author") == .null)
        #expect(Self.linkage(store, "2", "author") == .one(ResourceIdentifier(type: "people", id: "8")))
        #expect(Self.linkage(store, "1", "tags") == .many([ResourceIdentifier(type: "tags", id: "5")]))
        #expect(Self.linkage(store, "2", "tags") == .many([]))
        let changes = await Self.take(4, from: all)
        #expect(
            Array(changes.prefix(2)) == [
                Change(key: Key(type: "people", id: "9"), kind: .removed),
                Change(key: Key(type: "articles", id: "1"), kind: .updated),
            ])
        #expect(
            Set(changes.suffix(2)) == [
                Change(key: Key(type: "articles", id: "1"), kind: .updated),
                Change(key: Key(type: "articles", id: "2"), kind: .updated),
            ])
        // `remove` only forgets: the resource may still exist, so linkages to it stay.
        store.remove(type: "articles", id: "2")
        store.merge(Self.article("3", title: "C", author: "7", tags: []))
        store.remove(type: "people", id: "7")
        #expect(Self.linkage(store, "3", "author") == .one(ResourceIdentifier(type: "people", id: "7")))
    }

    @Test("an accepted relationship change updates the stored linkage")
    func relationshipChanges() {
        let store = ResourceStore()
        store.merge(Self.article("1", title: "A", author: "9", tags: ["4"]))
        let key = Key(type: "articles", id: "1")
        let tag = { (id: String) in ResourceIdentifier(type: "tags", id: id) }
        store.apply(.toOne(Identifier<Person>("8")), to: key, relationship: "author")
        #expect(Self.linkage(store, "1", "author") == .one(ResourceIdentifier(type: "people", id: "8")))
        store.apply(.toOne(Identifier<Person>?.none), to: key, relationship: "author")
        #expect(Self.linkage(store, "1", "author") == .null)
        store.apply(.add([Identifier<Tag>("4"), "5"]), to: key, relationship: "tags")
        #expect(Self.linkage(store, "1", "tags") == .many([tag("4"), tag("5")]))
        store.apply(.remove([Identifier<Tag>("4")]), to: key, relationship: "tags")
        #expect(Self.linkage(store, "1", "tags") == .many([tag("5")]))
        store.apply(.toMany([Identifier<Tag>("6"), "7"]), to: key, relationship: "tags")
        #expect(Self.linkage(store, "1", "tags") == .many([tag("6"), tag("7")]))
        store.apply(.add([Identifier<Tag>("1")]), to: key, relationship: "related")  // a relationship not held yet
        #expect(Self.linkage(store, "1", "related") == .many([tag("1")]))
        // A resource the store does not hold stays unknown.
        store.apply(.toOne(Identifier<Person>("8")), to: Key(type: "articles", id: "2"), relationship: "author")
        #expect(store.resource(type: "articles", id: "2") == nil)
    }

    @Test("a created resource's id replaces the lid the store's linkages carried")
    func localIdentifiers() {
        let store = ResourceStore()
        var article = Self.article("1", title: "A", author: nil, tags: [])
        article.relationships["author"] = JSONAPIRelationship(
            data: .one(ResourceIdentifier(type: "people", lid: "new")))
        article.relationships["tags"] = JSONAPIRelationship(
            data: .many([
                ResourceIdentifier(type: "tags", lid: "new"), ResourceIdentifier(type: "people", lid: "other"),
            ]))
        store.merge(article)
        store.replaceLocalIdentifier("new", type: "people", with: "42")
        #expect(Self.linkage(store, "1", "author") == .one(ResourceIdentifier(type: "people", id: "42")))
        // Another type's `lid`, and another `lid`, are left as they are.
        #expect(
            Self.linkage(store, "1", "tags")
                == .many([
                    ResourceIdentifier(type: "tags", lid: "new"), ResourceIdentifier(type: "people", lid: "other"),
                ]))
    }

    @Test("an optimistic merge or delete is rolled back to the copies it replaced")
    func rollBack() async {
        let store = ResourceStore()
        store.merge([Self.article("1", title: "A", author: "9", tags: []), Self.person("9", "Ada")])
        var patch = JSONAPIResourceObject(type: "articles", id: "1")
        patch.attributes["title"] = JSON("optimistic")
        let update = store.mergeOptimistically(patch)
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"] == JSON("optimistic"))
        store.rollBack(update)
        #expect(store.resource(type: "articles", id: "1") == Self.article("1", title: "A", author: "9", tags: []))

        let inserted = store.mergeOptimistically(Self.person("10", "New"))
        store.rollBack(inserted)
        #expect(store.resource(type: "people", id: "10") == nil)

        let deletion = store.deleteOptimistically(type: "people", id: "9")
        #expect(store.resource(type: "people", id: "9") == nil && Self.linkage(store, "1", "author") == .null)
        store.rollBack(deletion)
        #expect(store.resource(type: "people", id: "9") == Self.person("9", "Ada"))
        #expect(Self.linkage(store, "1", "author") == .one(ResourceIdentifier(type: "people", id: "9")))
    }

    // MARK: - Through the client

    static let error422 =
        #"{"errors":[{"status":"422","title":"Invalid","source":{"pointer":"/data/attributes/title"}}]}"#

    static func client(_ answers: [ScriptedTransport.Answer], store: ResourceStore) -> (
        JSONAPIClient, ScriptedTransport
    ) {
        let transport = ScriptedTransport(answers)
        return (JSONAPIClient(baseURL: "https://api.example.com", transport: transport, store: store), transport)
    }

    @Test("an optimistic update is seen before the answer and rolled back by an error document or a lost connection")
    func optimisticUpdate() async throws {
        let store = ResourceStore()
        store.merge(Self.article("1", title: "A", author: "9", tags: []))
        let (client, _) = Self.client(
            [.status(422, body: Self.error422), .failing, .status(204), .status(200, body: #"{"data":"#)], store: store)
        let articles = client.resources(Article.self)
        let changes = store.changes(of: Key(type: "articles", id: "1"))
        await #expect(throws: JSONAPIClientError.self) {
            try await articles.update(ArticlePatch(id: "1", title: .value("refused")), optimistic: true)
        }
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"] == JSON("A"))
        await #expect(throws: JSONAPIClientError.self) {
            try await articles.update(ArticlePatch(id: "1", title: .value("lost")), optimistic: true)
        }
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"] == JSON("A"))
        _ = try await articles.update(ArticlePatch(id: "1", title: .value("kept")), optimistic: true)
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"] == JSON("kept"))
        // A success whose body is no JSON:API document: the server did write, so no roll-back.
        await #expect(throws: JSONAPIClientError.self) {
            try await articles.update(ArticlePatch(id: "1", title: .value("written")), optimistic: true)
        }
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"] == JSON("written"))
        // Observers saw each optimistic copy and each roll-back.
        #expect(await Self.take(6, from: changes).map(\.kind) == Array(repeating: .updated, count: 6))
    }

    @Test("a delete through the client removes the resource and the linkages to it; a 202 leaves both")
    func deleteThroughTheClient() async throws {
        let store = ResourceStore()
        store.merge([Self.article("1", title: "A", author: "9", tags: []), Self.person("9", "Ada")])
        let (client, _) = Self.client(
            [.status(202), .status(500, body: #"{"errors":[{"status":"500"}]}"#), .status(204)], store: store)
        let people = client.resources(Person.self)
        _ = try await people.delete(id: "9")
        #expect(store.resource(type: "people", id: "9") != nil)
        await #expect(throws: JSONAPIClientError.self) { try await people.delete(id: "9", optimistic: true) }
        #expect(store.resource(type: "people", id: "9") != nil)
        #expect(Self.linkage(store, "1", "author") == .one(ResourceIdentifier(type: "people", id: "9")))
        _ = try await people.delete(id: "9")
        #expect(store.resource(type: "people", id: "9") == nil)
        #expect(Self.linkage(store, "1", "author") == .null)
    }

    @Test("a relationship change the server accepts updates the stored linkage, from its answer when it sends one")
    func relationshipThroughTheClient() async throws {
        let store = ResourceStore()
        store.merge(Self.article("1", title: "A", author: "9", tags: ["4"]))
        let (client, transport) = Self.client(
            [
                .status(204),
                .status(
                    200, body: #"{"data":[{"type":"tags","id":"4"},{"type":"tags","id":"5"},{"type":"tags","id":"6"}]}"#
                ),
                .status(202),
            ], store: store)
        let articles = client.resources(Article.self)
        try await articles.changeRelationship(id: "1", "author", .toOne(Identifier<Person>("8")))
        #expect(Self.linkage(store, "1", "author") == .one(ResourceIdentifier(type: "people", id: "8")))
        // The server added a member of its own: its answer is the linkage kept.
        try await articles.changeRelationship(id: "1", "tags", .add([Identifier<Tag>("5")]))
        #expect(
            Self.linkage(store, "1", "tags") == .many(["4", "5", "6"].map { ResourceIdentifier(type: "tags", id: $0) }))
        try await articles.changeRelationship(id: "1", "tags", .remove([Identifier<Tag>("4")]))
        #expect(
            Self.linkage(store, "1", "tags") == .many(["4", "5", "6"].map { ResourceIdentifier(type: "tags", id: $0) }))
        #expect(transport.requests.map(\.method) == ["PATCH", "POST", "DELETE"])
    }

    @Test("a create answered with an id replaces the lid the body carried in the store's linkages")
    func createReplacesLid() async throws {
        let store = ResourceStore()
        var article = Self.article("1", title: "A", author: nil, tags: [])
        article.relationships["author"] = JSONAPIRelationship(
            data: .one(ResourceIdentifier(type: "people", lid: "ada")))
        store.merge(article)
        let (client, _) = Self.client(
            [.status(201, body: #"{"data":{"type":"people","id":"77","attributes":{"name":"Ada"}}}"#)], store: store)
        let created = try await client.resources(Person.self).create(NewPerson(lid: "ada", name: "Ada"))
        #expect(created.resource?.id == "77")
        #expect(Self.linkage(store, "1", "author") == .one(ResourceIdentifier(type: "people", id: "77")))
        #expect(store.resource(type: "people", id: "77")?.attributes["name"] == JSON("Ada"))
    }
}
