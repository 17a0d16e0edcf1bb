import JSONAPI
import JSONAPIServer

#if SQL
    import JSONAPISQL
#endif

/// The example's four types as plain `Codable` models, declared once and served by
/// `ResourceService` (`JSONAPIServer`): the whole of ``ExampleService``. The load benchmark
/// also serves them keeping no answers (under `/uncached/`) beside the `Codable` baseline.
enum ExampleResources {
    struct Person: Codable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Tag: Codable, Sendable, JSONAPIResource {
        static let resourceType = "tags"
        var id: String
        var name: String
    }

    struct Comment: Codable, Sendable, JSONAPIResource {
        static let resourceType = "comments"
        var id: String
        var body: String
        var author: Identifier<Person>?
    }

    struct Article: Codable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var body: String?
        var createdAt: String?
        var author: Identifier<Person>?
        var comments: [Identifier<Comment>]
        var tags: [Identifier<Tag>]
    }

    /// An article made up from its number, never stored: the resources of the streamed
    /// collection the load benchmark reads whole (`/streamed-articles`).
    struct StreamedArticle: Codable, Sendable, JSONAPIResource {
        static let resourceType = "streamed-articles"
        var id: String
        var title: String
        var body: String
        var author: Identifier<Person>

        /// The article numbered `index` (from 1), by one of `people` authors.
        init(index: Int, people: Int) {
            id = String(index)
            title = "Streamed article number \(index)"
            body = String(repeating: "A paragraph of the streamed article, the same for every one. ", count: 6)
            author = Identifier(String(1 + index % max(people, 1)))
        }
    }

    /// `count` generated articles, made as they are read: a collection of any size in the
    /// memory of one.
    struct GeneratedArticles: ResourceDataSource {
        let count: Int
        let people: Int

        func list(_ query: ResourceListQuery) async throws -> ResourceList<StreamedArticle> {
            let range: Range<Int>
            switch query.page {
            case .number(let number, let size)?:
                let start = min(max(number - 1, 0) * size, count)
                range = start..<min(start + size, count)
            default: range = 0..<count
            }
            return ResourceList(models: range.map { StreamedArticle(index: $0 + 1, people: people) }, total: count)
        }

        func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<StreamedArticle, any Error> {
            let next = Counter()
            let (count, people) = (count, people)
            return AsyncThrowingStream(unfolding: {
                let index = next.take()
                return index <= count ? StreamedArticle(index: index, people: people) : nil
            })
        }

        func fetch(id: String) async throws -> StreamedArticle? {
            guard let index = Int(id), (1...max(count, 1)).contains(index), index <= count else { return nil }
            return StreamedArticle(index: index, people: people)
        }

        func makeID() async throws -> String { throw ResourceDataSourceError.notFound("") }
        func create(_ model: StreamedArticle) async throws -> StreamedArticle {
            throw ResourceDataSourceError.notFound(model.id)
        }
        func update(_ model: StreamedArticle) async throws -> StreamedArticle {
            throw ResourceDataSourceError.notFound(model.id)
        }
        func delete(id: String) async throws -> Bool { false }
    }

    /// Hands out 1, 2, 3, ...
    final class Counter: Sendable {
        private let value = Locked(1)
        func take() -> Int {
            value.withLock { value in
                defer { value += 1 }
                return value
            }
        }
    }

    /// The service of the four types over `store`'s resources as they are now, kept in `storage`,
    /// under `configuration`, with pages of 10 unless `page[size]` asks for up to
    /// `maximumPageSize`. Clients may choose ids; an article created without `createdAt` is
    /// stamped with the service's fixed creation date. With `streamedArticles` above 0, it also
    /// serves that many generated articles as a streamed, read-only collection. Answers the
    /// service and what closes its storage.
    static func service(
        store: ExampleStore, storage: ExampleStorage, maximumPageSize: Int, configuration: JSONAPIConfiguration,
        streamedArticles: Int = 0
    ) async throws -> (ResourceService, close: @Sendable () async -> Void) {
        let (people, tags, comments, articles) = store.read { state in
            (
                state.all("people").map { Person(id: $0.id ?? "", name: $0.string("name") ?? "") },
                state.all("tags").map { Tag(id: $0.id ?? "", name: $0.string("name") ?? "") },
                state.all("comments").map {
                    Comment(id: $0.id ?? "", body: $0.string("body") ?? "", author: $0.toOne("author"))
                },
                state.all("articles").map {
                    Article(
                        id: $0.id ?? "", title: $0.string("title") ?? "", body: $0.string("body"),
                        createdAt: $0.string("createdAt"), author: $0.toOne("author"), comments: $0.toMany("comments"),
                        tags: $0.toMany("tags"))
                }
            )
        }
        var service = ResourceService(configuration: configuration)
        var close: @Sendable () async -> Void = {}
        switch storage {
        case .memory:
            // Linked as the tables below are: a deleted person leaves comments and articles
            // without an author, a deleted comment or tag leaves no article naming it.
            let sources = (
                people: try InMemoryDataSource(people), tags: try InMemoryDataSource(tags),
                comments: try InMemoryDataSource(comments), articles: try InMemoryDataSource(articles)
            )
            try sources.comments.toOne("author", in: sources.people, onDelete: .setNull)
            try sources.articles.toOne("author", in: sources.people, onDelete: .setNull)
            try sources.articles.toMany("comments", in: sources.comments)
            try sources.articles.toMany("tags", in: sources.tags)
            declare(
                &service, people: sources.people, tags: sources.tags, comments: sources.comments,
                articles: sources.articles, maximumPageSize: maximumPageSize)
        #if SQL
            case .sqlite, .postgres:
                let database = try await storage.database()
                close = { await database.shutdown() }
                // Clients choose ids of any text, and every page says how many resources match.
                func table<Model>(_ model: Model.Type) -> SQLTable<Model> {
                    var table = SQLTable(model)
                    table.idKind = .text
                    table.countsTotal = true
                    return table
                }
                var commentTable = table(Comment.self)
                commentTable.toOne("author", column: "author_id", onDelete: .setNull)
                var articleTable = table(Article.self)
                articleTable.column("createdAt", "created_at")
                articleTable.toOne("author", column: "author_id", onDelete: .setNull)
                articleTable.toMany(
                    "comments", joinTable: "article_comments", ownColumn: "article_id", otherColumn: "comment_id")
                articleTable.toMany("tags", joinTable: "article_tags", ownColumn: "article_id", otherColumn: "tag_id")
                let sources = (
                    people: database.source(table(Person.self)), tags: database.source(table(Tag.self)),
                    comments: database.source(commentTable), articles: database.source(articleTable)
                )
                try await database.createTables()
                // The seed goes into empty tables; a database that holds resources already (a
                // file or a server from an earlier run) is served as it is.
                let first = ResourceListQuery(page: .number(1, size: 1))
                var empty = true
                for source in [sources.people, sources.tags, sources.comments, sources.articles]
                    as [any ResourceRecordSource]
                where empty {
                    empty = try await source.listRecords(first).models.isEmpty
                }
                if empty {
                    try await database.transaction {
                        try await sources.people.insert(people)
                        try await sources.tags.insert(tags)
                        try await sources.comments.insert(comments)
                        try await sources.articles.insert(articles)
                    }
                }
                declare(
                    &service, people: sources.people, tags: sources.tags, comments: sources.comments,
                    articles: sources.articles, maximumPageSize: maximumPageSize)
                service.transaction = database
        #endif
        }
        if streamedArticles > 0 {
            var streamed = ResourceDeclaration(
                source: GeneratedArticles(count: streamedArticles, people: people.count))
            streamed.operations = .readOnly
            streamed.streamsCollections = true
            streamed.fields.sortable = []
            streamed.fields.filterable = []
            service.serve(streamed)
        }
        try service.validate()
        return (service, close)
    }

    /// Serves the four types from these sources, with the same rules whatever keeps them.
    static func declare<People, Tags, Comments, Articles>(
        _ service: inout ResourceService, people: People, tags: Tags, comments: Comments, articles: Articles,
        maximumPageSize: Int
    )
    where
        People: ResourceDataSource<Person>, Tags: ResourceDataSource<Tag>, Comments: ResourceDataSource<Comment>,
        Articles: ResourceDataSource<Article>
    {
        let pagination = QueryRules.Pagination.pages(
            defaultSize: min(10, maximumPageSize), maximumSize: maximumPageSize)
        var declarations = (
            people: ResourceDeclaration(source: people), tags: ResourceDeclaration(source: tags),
            comments: ResourceDeclaration(source: comments), articles: ResourceDeclaration(source: articles)
        )
        declarations.people.pagination = pagination
        declarations.tags.pagination = pagination
        declarations.comments.pagination = pagination
        declarations.articles.pagination = pagination
        declarations.people.clientIDs = .allowed
        declarations.tags.clientIDs = .allowed
        declarations.comments.clientIDs = .allowed
        declarations.articles.clientIDs = .allowed
        declarations.articles.validation.length(\.title, 1...500)
        declarations.articles.beforeWrite = { article, write, _ in
            if write == .create, article.createdAt == nil { article.createdAt = creationDate }
        }
        service.serve(declarations.people)
        service.serve(declarations.tags)
        service.serve(declarations.comments)
        service.serve(declarations.articles)
    }
}

extension ExampleResources {
    /// The `createdAt` of an article created without one.
    static let creationDate = "2024-02-01T00:00:00Z"

    /// `service` over the same data sources, keeping no answers, served under `/uncached/`:
    /// every read written anew, for the load benchmark.
    static func uncached(_ service: ResourceService) -> ResourceService {
        var uncached = service
        uncached.linkBase = "/uncached"
        uncached.responseCacheLimit = 0
        return uncached
    }
}

extension JSONAPIResourceObject {
    fileprivate func string(_ name: String) -> String? { attributes[name]?.stringValue }

    fileprivate func toOne<Model>(_ name: String) -> Identifier<Model>? {
        guard case .one(let identifier)? = relationships[name]?.data, let id = identifier.id else { return nil }
        return Identifier(id)
    }

    fileprivate func toMany<Model>(_ name: String) -> [Identifier<Model>] {
        guard case .many(let identifiers)? = relationships[name]?.data else { return [] }
        return identifiers.compactMap { $0.id.map { Identifier($0) } }
    }
}

/// The load benchmark's ceiling: the bytes the layer answers to one request, computed on the
/// first request and then returned as they are, so the framework's own cost is all that is left.
final class PrecomputedAnswer: Sendable {
    let service: ResourceService
    let request: ResourceRequest
    private let bytes = Locked<[UInt8]?>(nil)

    init(service: ResourceService, query: String) {
        self.service = service
        request = ResourceRequest(method: "GET", type: "articles", endpoint: .collection, query: query)
    }

    func body() async throws -> [UInt8] {
        if let bytes = bytes.withLock({ $0 }) { return bytes }
        let computed = try await service.respond(to: request).body ?? []
        bytes.withLock { $0 = computed }
        return computed
    }
}
