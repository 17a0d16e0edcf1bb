import JSONAPI
import JSONAPIClient
import Testing

@testable import JSONAPIExample

/// The client against the example service answering one page of about 100 MB (every article of a
/// large store with its author, comments and tags included), decoded while it streams; and pages
/// of 12 MB read model by model, broken, cancelled and timed out while they stream. One at a
/// time: each holds up to a few hundred megabytes.
///
/// Each test runs twice, once per front and once per transport (Hummingbird with
/// AsyncHTTPClient, Vapor with URLSession), not through all four pairs: in a debug build one
/// 100 MB exchange takes about 20 seconds (half of it the service writing the page), and all four
/// pairs took 92 seconds for the decoding test alone.
@Suite(.serialized) struct LargeServiceResponseTests {
    /// Articles in the store: with `include=author,comments,tags` one page of all of them, with
    /// its `self` and `related` links, is about 100 MB (the test checks it is between 95 and 130
    /// MB).
    static let articleCount = 101_000
    /// Each front once and each transport once.
    static let pairs = Array(zip(ExampleServiceFront.allCases, TransportKind.allCases))
    /// Generated once for the suite (the same seed gives the same store).
    static let store = ExampleStore.seeded(articles: articleCount, seed: 5)
    static let everything = JSONAPIQuery().including("author", "comments", "tags").paged(
        number: 1, size: articleCount)
    /// A page of 20,000 articles with everything included, about 12 MB: hundreds of chunks, for
    /// what does not need the whole store (a break, a cancellation, a timeout, a stream's window).
    static let twentyThousand = JSONAPIQuery().including("author", "comments", "tags").paged(
        number: 1, size: 20_000)

    static func service() async throws -> ExampleService {
        try await ExampleService(store: store, storage: .memory, maximumPageSize: articleCount)
    }

    /// A store of 20,000 articles, for the tests that read one page of 12 MB: the service's work
    /// for a page grows with its store, and these tests need only the page.
    static let pageStore = ExampleStore.seeded(articles: 20_000, seed: 5)

    static func pageService() async throws -> ExampleService {
        try await ExampleService(store: pageStore, storage: .memory, maximumPageSize: 20_000)
    }

    /// An article with everything it points to resolved from `included`.
    struct LargeArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var body: String
        var author: Person
        var comments: [Comment]
        var tags: [Tag]
    }

    static func text(_ value: JSON?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    static func ids(_ resource: JSONAPIResourceObject, _ relationship: String) -> [String] {
        switch resource.relationships[relationship]?.data {
        case .one(let identifier): [identifier.id ?? ""]
        case .many(let identifiers): identifiers.map { $0.id ?? "" }
        default: []
        }
    }

    /// What differs between the decoded articles and the store (the first few differences).
    static func differences(_ articles: [LargeArticle]) -> (differences: [String], included: Int) {
        store.read { state in
            let stored = state.all("articles")
            var differences: [String] = []
            func differ(_ text: String) { if differences.count < 5 { differences.append(text) } }
            if articles.count != stored.count { differ("\(articles.count) articles, not \(stored.count)") }
            var people: Set<String> = []
            var comments = 0
            var tags: Set<String> = []
            for (article, resource) in zip(articles, stored) {
                let authorID = ids(resource, "author").first ?? ""
                let commentIDs = ids(resource, "comments")
                let tagIDs = ids(resource, "tags")
                people.insert(authorID)
                comments += commentIDs.count
                tags.formUnion(tagIDs)
                guard article.id == resource.id, article.title == text(resource.attributes["title"]),
                    article.body == text(resource.attributes["body"]), article.author.id == authorID,
                    article.author.name == text(state.resource("people", authorID)?.attributes["name"]),
                    article.comments.map(\.id) == commentIDs, article.tags.map(\.id) == tagIDs,
                    article.comments.allSatisfy({
                        $0.body == text(state.resource("comments", $0.id)?.attributes["body"])
                    }),
                    article.tags.allSatisfy({ $0.name == text(state.resource("tags", $0.id)?.attributes["name"]) })
                else {
                    differ("article \(article.id) differs from the store's \(resource.id ?? "-")")
                    continue
                }
            }
            return (differences, people.count + comments + tags.count)
        }
    }

    @Test(arguments: pairs)
    func decodedWhileItStreams(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await Self.service()) { base in
            let (client, log) = transport.observedClient(base)
            let response = try await client.resources(LargeArticle.self).list(Self.everything)
            let size = response.document.statistics.inputByteCount
            #expect(size > 95_000_000 && size < 130_000_000, "the page is \(size) bytes")
            // Every byte went through the parser chunk by chunk: the client asked for the next
            // chunk only after feeding the one before.
            #expect(log.byteCount == size)
            #expect(log.chunkCount > 100)
            #expect(log.reachedEnd)

            let (differences, included) = Self.differences(response.value)
            #expect(differences.isEmpty)
            #expect(response.value.count == Self.articleCount)
            #expect(response.document.included.count == included)
            #expect(response.skipped.isEmpty)
            #expect(response.meta?["total"] == JSON(Self.articleCount))
        }
    }

    /// An article as a stream decodes it: relationships as identifiers.
    struct StreamedArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var body: String
        var author: Identifier<Person>
        var comments: [Identifier<Comment>]
        var tags: [Identifier<Tag>]
    }

    /// A page of 20,000 articles (12 MB) read model by model (`stream`): each equal to the
    /// store's, every byte fed chunk by chunk, while the stream's window stays a small part of
    /// the page.
    @Test(arguments: pairs)
    func modelByModel(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await Self.pageService()) { base in
            let (client, log) = transport.observedClient(base)
            var iterator = client.resources(StreamedArticle.self).stream(Self.twentyThousand).makeAsyncIterator()
            var articles: [StreamedArticle] = []
            while let article = try await iterator.next() { articles.append(article) }
            #expect(articles.count == 20_000)
            let differences = Self.pageStore.read { state in
                zip(articles, state.all("articles")).filter { article, resource in
                    article.id != resource.id || article.title != Self.text(resource.attributes["title"])
                        || article.body != Self.text(resource.attributes["body"])
                        || [article.author.id] != Self.ids(resource, "author")
                        || article.comments.map(\.id) != Self.ids(resource, "comments")
                        || article.tags.map(\.id) != Self.ids(resource, "tags")
                }.count
            }
            #expect(differences == 0)
            #expect(log.reachedEnd)
            let statistics = try #require(iterator.statistics)
            #expect(statistics.bytesFed == log.byteCount)
            #expect(statistics.bytesFed > 10_000_000)
            #expect(statistics.windowCapacity <= 2 << 20, "the window grew to \(statistics.windowCapacity) bytes")
        }
    }

    /// A byte no JSON allows, slipped in after the first chunk of a real body (a page of 20,000
    /// articles, 12 MB), fails the parse at that byte: the client parses each chunk as it comes,
    /// and reads no further.
    @Test(arguments: pairs)
    func brokenWhileItStreams(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await Self.pageService()) { base in
            let (client, log) = transport.observedClient(base, steering: .insertAfterFirstChunk(0x01))
            let broken = await #expect(throws: JSONAPIClientError.self) {
                try await client.resources(LargeArticle.self).list(Self.twentyThousand)
            }
            #expect(broken?.kind == .invalidDocument)
            let first = log.firstChunkSize
            #expect(broken?.parsingError?.offset == first)
            #expect(log.chunkCount == 1)
            #expect(!log.reachedEnd)
            let tags = try await client.resources(Tag.self).list()
            #expect(tags.value.count == 5)
        }
    }

    @Test(arguments: pairs)
    func cancelledWhileItStreams(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await Self.pageService()) { base in
            let (client, log) = transport.observedClient(base, steering: .holdAfterFirstChunkUntilCancelled)
            let task = Task { try await client.resources(LargeArticle.self).list(Self.twentyThousand) }
            await log.waitForFirstChunk()
            task.cancel()
            let cancelled = await #expect(throws: JSONAPIClientError.self) { try await task.value }
            #expect(cancelled?.kind == .cancelled)
            // The chunk that ended the hold may have been read; nothing after it.
            #expect(log.chunkCount <= 2)
            #expect(!log.reachedEnd)

            // The service still answers, on the same client.
            let tags = try await client.resources(Tag.self).list()
            #expect(tags.value.count == 5)
            let article = try await client.resources(Article.self).get(id: "7")
            #expect(article.value.id == "7")
        }
    }

    /// A deadline no server can meet for this page (writing 12 MB takes far longer than 10 ms),
    /// so the timeout is certain, wherever in the exchange it falls.
    @Test(arguments: pairs)
    func timedOut(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await Self.pageService()) { base in
            var quick = JSONAPIClient.Configuration()
            quick.timeout = .milliseconds(10)
            let client = transport.client(base, configuration: quick)
            let late = await #expect(throws: JSONAPIClientError.self) {
                try await client.resources(LargeArticle.self).list(Self.twentyThousand)
            }
            #expect(late?.kind == .timeout)
            #expect(late?.url.contains("page%5Bsize%5D=20000") == true)
            let tags = try await transport.client(base).resources(Tag.self).list()
            #expect(tags.value.count == 5)
        }
    }
}
