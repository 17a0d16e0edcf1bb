import JSONAPI
import JSONAPIClient
import Testing

@testable import JSONAPIExample

/// The client against the example service on a loopback port, served by each front
/// (Hummingbird, Vapor) and reached through each transport: every operation, pagination, the
/// store, and the service's error answers.
@Suite struct ExampleServiceClientTests {
    static let fronts = ExampleServiceFront.allCases
    static let transports = TransportKind.allCases

    @Test(arguments: fronts, transports)
    func listWithQueries(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let articles = transport.client(base).resources(Article.self)
            let first = try await articles.list()
            #expect(first.status == 200)
            #expect(first.value.count == 10)
            #expect(first.meta?["total"] == JSON(12))
            #expect(first.skipped.isEmpty)

            let all = try await articles.list(JSONAPIQuery().paged(number: 1, size: 12))
            let page = try await articles.list(JSONAPIQuery().sorted(by: "-title").paged(number: 2, size: 5))
            let titles: [String] = all.value.map(\.title).sorted(by: >)
            #expect(page.value.map(\.title) == Array(titles.dropFirst(5).prefix(5)))
            #expect(page.next != nil)
            #expect(page.links?["next"] != nil)

            let full = try await transport.client(base).resources(FullArticle.self)
                .list(JSONAPIQuery().including("author", "tags").fields(Person.self, "name"))
            #expect(full.value.count == 10)
            #expect(full.value.allSatisfy { !$0.author.name.isEmpty })
            #expect(full.document.included.isEmpty == false)

            let sparse = try await articles.get(id: "1", query: JSONAPIQuery().fields(Article.self, "title"))
            #expect(sparse.value.id == "1")
            #expect(sparse.value.body == nil)
            #expect(sparse.value.author == nil)

            let tagged = try await transport.client(base).resources(Tag.self)
                .list(JSONAPIQuery().filtered("name", equals: "swift"))
            #expect(tagged.value.map(\.name) == ["swift"])
        }
    }

    @Test(arguments: fronts, transports)
    func pagesFollowNextLinks(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 23, seed: 7))) { base in
            let articles = transport.client(base).resources(Article.self)
            var sizes: [Int] = []
            var ids: [String] = []
            for try await page in articles.pages(JSONAPIQuery().paged(number: 1, size: 5)) {
                sizes.append(page.value.count)
                ids += page.value.map(\.id)
            }
            #expect(sizes == [5, 5, 5, 5, 3])
            // Every article once, in the service's order (by id).
            #expect(ids == (1...23).map(String.init).sorted())
            let limited = try await articles.pages(JSONAPIQuery().paged(number: 1, size: 5), maximumPages: 2).models()
            #expect(limited.count == 10)
        }
    }

    @Test(arguments: fronts, transports)
    func readOneRelatedAndLinkage(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let articles = transport.client(base).resources(Article.self)
            let article = try await articles.get(id: "1").value
            let author = try #require(article.author)
            let related = try await articles.related(id: "1", "author", as: Person.self)
            #expect(related.value.map(\.id) == [author.id])
            let linkage = try await articles.relationship(id: "1", "tags")
            #expect(linkage.value.map(\.id) == (article.tags ?? []).map(\.id))
            #expect(linkage.value.allSatisfy { $0.type == "tags" })

            // A to-many relationship's related resources, in linkage order, as the service holds them.
            let all = try await articles.list(JSONAPIQuery().paged(number: 1, size: 100)).value
            let commented = try #require(all.first { ($0.comments ?? []).count >= 2 })
            let comments = try await articles.related(id: commented.id, "comments", as: Comment.self)
            #expect(comments.status == 200)
            #expect(comments.value.map(\.id) == (commented.comments ?? []).map(\.id))
            let comment = try await transport.client(base).resources(Comment.self).get(id: comments.value[0].id)
            #expect(comments.value[0] == comment.value)
            let none = try #require(all.first { ($0.comments ?? []).isEmpty })
            let noComments = try await articles.related(id: none.id, "comments", as: Comment.self)
            #expect(noComments.value.isEmpty)

            let missing = await #expect(throws: JSONAPIClientError.self) { try await articles.get(id: "999") }
            #expect(missing?.kind == .errorResponse)
            #expect(missing?.status == 404)
            #expect(missing?.errors.first?.status == "404")
        }
    }

    @Test(arguments: fronts, transports)
    func createUpdateDelete(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let client = transport.client(base)
            let articles = client.resources(Article.self)

            let created = try await articles.create(NewArticle(lid: "a", title: "New", body: "Text", author: "1"))
            #expect(created.status == 201)
            let id = try #require(created.resource?.id)
            #expect(created.location?.hasSuffix("/articles/\(id)") == true)
            #expect(created.resource?.author?.id == "1")

            let mine = try await articles.create(NewArticle(id: "cg-1", title: "Mine"))
            #expect(mine.resource?.id == "cg-1")

            // Absent members stay as they are; null ones are cleared.
            let retitled = try await articles.update(ArticlePatch(id: id, title: .value("Renamed")))
            #expect(retitled.resource?.title == "Renamed")
            #expect(retitled.resource?.body == "Text")
            let cleared = try await articles.update(ArticlePatch(id: id, body: .null))
            #expect(cleared.resource?.title == "Renamed")
            #expect(cleared.resource?.body == nil)

            try await articles.changeRelationship(
                id: id, "tags", .toMany([Identifier<Tag>("1"), Identifier<Tag>("2")]))
            try await articles.changeRelationship(id: id, "tags", .remove([Identifier<Tag>("1")]))
            try await articles.changeRelationship(id: id, "tags", .add([Identifier<Tag>("3")]))
            #expect(try await articles.relationship(id: id, "tags").value.map(\.id) == ["2", "3"])
            try await articles.changeRelationship(id: id, "author", .toOne(Identifier<Person>?.none))
            #expect(try await articles.get(id: id).value.author == nil)

            let deleted = try await articles.delete(id: id)
            #expect(deleted.status == 204)
            #expect(deleted.document == nil)
            let gone = await #expect(throws: JSONAPIClientError.self) { try await articles.get(id: id) }
            #expect(gone?.status == 404)
        }
    }

    @Test(arguments: fronts, transports)
    func atomicOperations(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let store = ResourceStore()
            let client = transport.client(base, store: store)
            var batch = AtomicOperationsDocument()
            try batch.add(NewPerson(lid: "p", name: "Zed"))
            try batch.add(NewArticle(title: "T", author: Identifier(id: "", lid: "p")))
            batch.remove(ResourceIdentifier(type: "articles", id: "2"))
            let results = try await client.operations(batch)
            #expect(results.results.count == 3)
            guard case .resource(let person)? = results.results.first?.data else {
                Issue.record("no created person in \(results)")
                return
            }
            #expect(person.attributes["name"] == "Zed")
            // The store took in what the batch created.
            #expect(store.resource(type: "people", id: person.id ?? "")?.attributes["name"] == "Zed")
            #expect(store.resources(ofType: "articles").contains { $0.attributes["title"] == "T" })
            let article = try #require(
                try await client.resources(FullArticle.self).list(
                    JSONAPIQuery().including("author", "tags")
                        .filtered("title", equals: "T")
                ).value.first)
            #expect(article.author.id == person.id)

            // A failing batch: the error document names the operation.
            var bad = AtomicOperationsDocument()
            bad.remove(ResourceIdentifier(type: "articles", id: "999"))
            let failure = await #expect(throws: JSONAPIClientError.self) { try await client.operations(bad) }
            #expect(failure?.kind == .errorResponse)
            #expect(failure?.errors.isEmpty == false)
        }
    }

    @Test(arguments: fronts, transports)
    func serviceErrors(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let client = transport.client(base)
            let articles = client.resources(Article.self)
            let unknownInclude = await #expect(throws: JSONAPIClientError.self) {
                try await articles.list(JSONAPIQuery().including("nope"))
            }
            #expect(unknownInclude?.kind == .errorResponse)
            #expect(unknownInclude?.status == 400)
            #expect(unknownInclude?.errors.first?.source?.parameter == "include")

            let conflict = await #expect(throws: JSONAPIClientError.self) {
                try await client.resources(Person.self).update(ArticlePatch(id: "1", title: .value("x")))
            }
            #expect(conflict?.kind == .invalidRequest)

            struct Untitled: Encodable, JSONAPIResource {
                static let resourceType = "articles"
                var id = ""
                var body: String
            }
            let invalid = await #expect(throws: JSONAPIClientError.self) {
                try await articles.create(Untitled(body: "no title"))
            }
            #expect(invalid?.kind == .errorResponse)
            #expect(invalid?.status == 422)
            // The member is not there to point at: the resource that lacks it is.
            #expect(invalid?.errors.first?.source?.pointer == "/data")
            #expect(invalid?.errors.first?.detail?.contains("title") == true)

            let empty = await #expect(throws: JSONAPIClientError.self) { try await articles.get(id: "") }
            #expect(empty?.kind == .invalidRequest)

            // The service's own failures as the description shows them.
            let description = String(describing: try #require(unknownInclude))
            #expect(description.contains("GET http://127.0.0.1:"))
            #expect(description.contains("(400)"))
        }
    }

    @Test(arguments: fronts, transports)
    func storeMergesAcrossResponses(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let store = ResourceStore()
            let client = transport.client(base, store: store)
            let articles = try await client.resources(Article.self).list().value
            _ = try await client.resources(Person.self).list(JSONAPIQuery().paged(number: 1, size: 100))
            _ = try await client.resources(Tag.self).list()
            #expect(store.count >= articles.count)

            // The author and tags came in other responses; the store resolves them.
            let first = try #require(try store.model(FullArticle.self, id: "1"))
            #expect(first.author.id == articles[0].author?.id)
            #expect(first.tags.map(\.id) == (articles[0].tags ?? []).map(\.id))

            // A sparse response adds to what is known.
            _ = try await client.resources(Article.self).get(
                id: "1", query: JSONAPIQuery().fields(Article.self, "title"))
            #expect(try store.model(Article.self, id: "1")?.body == articles[0].body)

            // A delete removes it from the store.
            _ = try await client.resources(Article.self).delete(id: "1")
            #expect(try store.model(Article.self, id: "1") == nil)
            #expect(try store.models(of: Article.self).count == articles.count - 1)
        }
    }

    /// An article whose tags the decoder must find in the document.
    struct TaggedArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var author: Person?
        var tags: [Tag]
    }

    @Test(arguments: fronts, transports)
    func skippedResourcesOfARealResponse(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 12, seed: 7))) { base in
            let linkage = try await transport.client(base).resources(Article.self)
                .list(JSONAPIQuery().paged(number: 1, size: 12)).value
            #expect(linkage.contains { ($0.tags ?? []).count >= 2 })

            // The authors are included, the tags are not: each tag is skipped, the articles stay.
            var lenient = JSONAPIClient.Configuration()
            lenient.decoding.ignoresMissingResources = true
            let response = try await transport.client(base, configuration: lenient).resources(TaggedArticle.self)
                .list(JSONAPIQuery().including("author").paged(number: 1, size: 12))
            #expect(response.value.map(\.id) == linkage.map(\.id))
            #expect(response.value.allSatisfy { $0.tags.isEmpty && $0.author != nil })
            var expected: [SkippedResource] = []
            for (index, article) in linkage.enumerated() {
                for (position, tag) in (article.tags ?? []).enumerated() {
                    expected.append(
                        SkippedResource(
                            identifier: ResourceIdentifier(type: "tags", id: tag.id), reason: .missing,
                            codingPath: "[\(index)].tags[\(position)]",
                            pointer: "/data/\(index)/relationships/tags/data/\(position)"))
                }
            }
            #expect(response.skipped.map(\.identifier) == expected.map(\.identifier))
            #expect(response.skipped.map(\.pointer) == expected.map(\.pointer))
            #expect(response.skipped.allSatisfy { $0.reason == .missing })

            // Without the option the same response is a decoding error.
            let strict = await #expect(throws: JSONAPIClientError.self) {
                try await transport.client(base).resources(TaggedArticle.self)
                    .list(JSONAPIQuery().including("author").paged(number: 1, size: 12))
            }
            #expect(strict?.kind == .decoding)
        }
    }

    @Test(arguments: fronts, transports)
    func responseOverTheClientsLimit(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 40, seed: 7))) { base in
            let query = JSONAPIQuery().including("author", "comments", "tags").paged(number: 1, size: 40)
            let whole = try await transport.client(base).resources(Article.self).list(query)
            let size = whole.document.statistics.inputByteCount
            #expect(size > 8192)

            var small = JSONAPIClient.Configuration()
            small.maximumResponseBytes = 8192
            let (client, log) = transport.observedClient(base, configuration: small)
            let tooLarge = await #expect(throws: JSONAPIClientError.self) {
                try await client.resources(Article.self).list(query)
            }
            #expect(tooLarge?.kind == .responseTooLarge)
            #expect(tooLarge?.status == 200)
            #expect(log.byteCount <= 8192)
            #expect(!log.reachedEnd)

            // A limit the body fits is no error.
            small.maximumResponseBytes = size
            let fits = try await transport.client(base, configuration: small).resources(Article.self).list(query)
            #expect(fits.value.count == 40)
        }
    }

    @Test(arguments: fronts)
    func maximumPageSizeIsAnOptionOfTheService(_ front: ExampleServiceFront) async throws {
        await #expect(throws: ExampleServer.InvalidOption.self) {
            try await ExampleService(store: .seeded(articles: 1, seed: 1), maximumPageSize: 0)
        }
        await #expect(throws: ExampleServer.InvalidOption.self) {
            try await ExampleService(
                store: .seeded(articles: 1, seed: 1), maximumPageSize: ExampleServer.maximumPageSizes.upperBound + 1)
        }
        let service = try await ExampleService(store: .seeded(articles: 300, seed: 7), maximumPageSize: 250)
        try await front.serve(service) { base in
            let articles = TransportKind.asyncHTTPClient.client(base).resources(Article.self)
            let defaultPage = try await articles.list()
            #expect(defaultPage.value.count == 10)
            let largest = try await articles.list(JSONAPIQuery().paged(number: 1, size: 250))
            #expect(largest.value.count == 250)
            let over = await #expect(throws: JSONAPIClientError.self) {
                try await articles.list(JSONAPIQuery().paged(number: 1, size: 251))
            }
            #expect(over?.status == 400)
            #expect(over?.errors.first?.source?.parameter == "page[size]")
            #expect(over?.errors.first?.meta?["page"] == ["maxSize": 250])
        }
    }
}
