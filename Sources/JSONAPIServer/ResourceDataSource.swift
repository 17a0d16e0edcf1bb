import JSONAPI

/// Where the models of one resource type live: a database table, a remote service, memory.
///
/// A ``ResourceService`` reads and writes a declared resource only through its data source, and
/// does everything JSON:API asks of a server around it: query parameters, includes, sparse
/// fieldsets, links, statuses, validation, conditional requests. ``InMemoryDataSource`` is a
/// complete implementation.
///
/// Models are plain `Codable` structs; relationships are held as `Identifier`s (or arrays and
/// optionals of them), which the service resolves through the related type's own data source
/// when a request asks to include them.
///
/// ```swift
/// struct Book: Codable, Sendable, JSONAPIResource {
///     static let resourceType = "books"
///     var id: String
///     var title: String
///     var author: Identifier<Author>
/// }
///
/// let books = InMemoryDataSource<Book>()
/// _ = try await books.create(Book(id: "1", title: "Dune", author: "9"))
/// let page = try await books.list(ResourceListQuery(sort: ["title"], page: .number(1, size: 10)))
/// page.models.map(\.title)   // ["Dune"]
/// ```
public protocol ResourceDataSource<Model>: Sendable {
    /// The model of the resource type.
    associatedtype Model: JSONAPIResource & Codable & Sendable

    /// One page of the models that match `query`, in its order, with the total count when the
    /// source knows it. The service has checked every name in `query` against the declared
    /// capabilities before it calls this.
    func list(_ query: ResourceListQuery) async throws -> ResourceList<Model>

    /// The model with `id`, or nil.
    func fetch(id: String) async throws -> Model?

    /// The models with these ids that exist, in any order (used to resolve `include`).
    func fetch(ids: [String]) async throws -> [Model]

    /// A fresh id for a resource created without one.
    func makeID() async throws -> String

    /// Stores a new model; throws ``ResourceDataSourceError/duplicateID(_:)`` when its id is
    /// taken. Returns the model as stored.
    func create(_ model: Model) async throws -> Model

    /// Replaces the stored model that has `model`'s id; throws
    /// ``ResourceDataSourceError/notFound(_:)`` when there is none. Returns the model as stored.
    func update(_ model: Model) async throws -> Model

    /// Removes the model with `id`; false when there was none.
    func delete(id: String) async throws -> Bool

    /// Every model that matches `query` (its `page` is nil), in its order, read as the consumer
    /// asks for them: what a declaration with ``ResourceDeclaration/streamsCollections`` answers
    /// a collection with, in the memory of a few models at a time. A database source returns its
    /// cursor's rows. The default reads ``list(_:)`` once and hands its models out one by one,
    /// which holds the whole collection in memory.
    func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<Model, any Error>

    /// A number that changes whenever any model of the source changes, or nil (the default)
    /// when the source cannot tell. While every source a response reads from keeps its version,
    /// the service answers a repeated read with the bytes it wrote before
    /// (``ResourceService/responseCacheLimit``). Return one only if every change, including
    /// changes made outside this process, moves it.
    var version: UInt64? { get }

    /// The source's version as it is now, read from wherever the source keeps it: what
    /// ``version`` answers by default; a database source reads the change counter the database
    /// keeps, so that a change made through another process moves it too.
    func currentVersion() async throws -> UInt64?

    /// Runs `body`, which reads and writes through this source (and through other sources of the
    /// same store), as one unit: a database source runs it in one transaction, committed when
    /// `body` returns and rolled back when it throws, with every read and write of `body` on the
    /// transaction's connection. The service runs each write request in one: the checks of the
    /// current resource (`If-Match`, linkage), the hooks and the write. The default runs `body`
    /// as it is.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result

    /// Whether the source evaluates a filter through its `relationship` to the resources of
    /// `target` (``ResourceFilter/through(_:_:)``) itself, as a database does with a join: then
    /// the service hands it the condition on the related resources, instead of finding their ids
    /// first through `target`. Default false.
    func evaluatesFilter(through relationship: String, to target: any ResourceDataSource) -> Bool

    /// Whether the source refuses a text attribute holding U+0000 (PostgreSQL's text cannot
    /// store it): the service's description, and so its OpenAPI document, then says so of every
    /// plain string attribute. Default false.
    var refusesNullCharacterInText: Bool { get }
}

extension ResourceDataSource {
    /// Nil: the source cannot tell when it changed, and responses that read it are not reused.
    public var version: UInt64? { nil }

    /// False: the service finds the related resources' ids first.
    public func evaluatesFilter(through relationship: String, to target: any ResourceDataSource) -> Bool { false }

    /// False: the source stores any text.
    public var refusesNullCharacterInText: Bool { false }

    /// ``version``.
    public func currentVersion() async throws -> UInt64? { version }

    /// Runs `body` as it is: a source without transactions.
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        try await body()
    }

    /// Lists the whole collection once, then hands its models out one at a time.
    public func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<Model, any Error> {
        var whole = query
        whole.page = nil
        return unfoldingStream((models: [Model]?.none, index: 0)) { [whole] state in
            if state.models == nil { state.models = try await list(whole).models }
            guard let models = state.models, state.index < models.count else { return nil }
            state.index += 1
            return models[state.index - 1]
        }
    }

    /// Fetches each id in turn; override it when the source can fetch many at once.
    public func fetch(ids: [String]) async throws -> [Model] {
        var models: [Model] = []
        models.reserveCapacity(ids.count)
        for id in ids {
            if let model = try await fetch(id: id) { models.append(model) }
        }
        return models
    }
}

/// A data source that reads resource objects itself, without going through models: a database
/// source turns its rows into resource objects directly, the in-memory source hands out the ones
/// it kept. The service reads through these methods when the source has them, and through the
/// models of ``ResourceDataSource`` (encoded into resource objects) otherwise.
///
/// The resource objects hold the model's attributes and relationships as the model's encoding
/// would (every optional attribute present, `null` when unset; every relationship with its
/// linkage), so that the service answers the same either way.
public protocol ResourceRecordSource: ResourceDataSource {
    /// The resource objects of one page of ``ResourceDataSource/list(_:)``.
    func listRecords(_ query: ResourceListQuery) async throws -> ResourceList<JSONAPIResourceObject>

    /// The resource objects of the models with these ids that exist, in any order.
    func records(ids: [String]) async throws -> [JSONAPIResourceObject]

    /// ``ResourceDataSource/stream(_:)`` as resource objects.
    func streamRecords(_ query: ResourceListQuery) -> AsyncThrowingStream<JSONAPIResourceObject, any Error>

    /// The resource object of `id` as a write inside ``ResourceDataSource/transaction(_:)`` is
    /// about to replace it, held so that no other writer changes it before the transaction ends
    /// (a row lock): what `If-Match` is compared with is what the write replaces, even when two
    /// service instances write the same resource at once. The default reads it as
    /// ``records(ids:)`` does.
    func recordForUpdate(id: String) async throws -> JSONAPIResourceObject?
}

extension ResourceRecordSource {
    /// ``records(ids:)`` of `id`: a source whose writes are serialized anyway.
    public func recordForUpdate(id: String) async throws -> JSONAPIResourceObject? {
        try await records(ids: [id]).first
    }
}

/// What a data source refuses.
public enum ResourceDataSourceError: Error, Sendable, Hashable, JSONAPIErrorConvertible {
    /// A create with an id that is taken (409).
    case duplicateID(String)
    /// An update of a resource that does not exist (404).
    case notFound(String)

    public var jsonapiErrors: [JSONAPIErrorObject] {
        switch self {
        case .duplicateID(let id):
            [
                JSONAPIErrorObject(
                    status: 409, code: "duplicate-id", title: "Conflict",
                    detail: "a resource with id `\(id)` exists", source: .pointer("/data/id"))
            ]
        case .notFound(let id):
            [JSONAPIErrorObject(status: 404, code: "not-found", title: "Not Found", detail: "no resource `\(id)`")]
        }
    }
}

/// What a collection request asks of a data source: the sort fields, the filter and the page,
/// already checked against the resource's declared capabilities (names are member names).
public struct ResourceListQuery: Sendable, Hashable {
    /// Sort fields, most significant first.
    public var sort: [JSONAPIQuery.SortField]
    /// The filter; an empty one matches every resource.
    public var filter: ResourceFilter
    /// The page; nil for every matching resource.
    public var page: JSONAPIQuery.Page?
    /// A keyset page (`JSONAPIQuery.Page.cursor`): the resources after this
    /// position in the order of ``sort`` then the id, read from `page[after]` and checked
    /// against ``sort`` by the service. Nil for the first page.
    public var after: ResourcePosition?
    /// A keyset page: the resources before this position (the last `size` of them), read from
    /// `page[before]`.
    public var before: ResourcePosition?
    /// The members the response reads of each resource, or nil for all of them: the request's
    /// sparse fieldset for the type, the relationships its `include` paths start with, and the
    /// sort fields of a keyset page. A source may read only these (a database selects only
    /// their columns) or more; the service writes only what the request asked for either way.
    public var fields: Set<String>?

    /// Creates a query.
    public init(
        sort: [JSONAPIQuery.SortField] = [], filter: ResourceFilter = ResourceFilter(), page: JSONAPIQuery.Page? = nil,
        after: ResourcePosition? = nil, before: ResourcePosition? = nil, fields: Set<String>? = nil
    ) {
        self.sort = sort
        self.filter = filter
        self.page = page
        self.after = after
        self.before = before
        self.fields = fields
    }
}

/// One page of a collection, as a data source answers it.
public struct ResourceList<Model: Sendable>: Sendable {
    /// The models of the page, in order.
    public var models: [Model]
    /// The number of models that match the query across all pages, when the source knows it
    /// (it gives the `last` pagination link and `meta.total`).
    public var total: Int?
    /// Whether a page follows this one, when the source knows it without counting (a database
    /// reads one row past the page): it decides the `next` link when ``total`` is nil.
    public var hasNextPage: Bool?
    /// Whether a page comes before this one, when the source knows it: it decides the `prev`
    /// link of a keyset page (nil includes it).
    public var hasPreviousPage: Bool?

    /// Creates a page.
    public init(models: [Model], total: Int? = nil, hasNextPage: Bool? = nil, hasPreviousPage: Bool? = nil) {
        self.models = models
        self.total = total
        self.hasNextPage = hasNextPage
        self.hasPreviousPage = hasPreviousPage
    }
}
