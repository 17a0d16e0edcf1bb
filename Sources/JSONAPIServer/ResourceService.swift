import JSONAPI

/// Serves declared resources with all of JSON:API: the collection, resource, related and
/// relationship endpoints of each type, with `include`, sparse fieldsets, sort, pagination and
/// filters, the specification's statuses, `self` and `related` links, validation, authorization
/// and conditional requests.
///
/// Declare each type once (``ResourceDeclaration``), hand the service to an adapter
/// (`router.addJSONAPIService(service)` in `JSONAPIHummingbird`, `app.jsonapiService(service)` in
/// `JSONAPIVapor`), or call ``respond(to:)`` yourself:
///
/// ```swift
/// var service = ResourceService()
/// service.serve(ResourceDeclaration(source: InMemoryDataSource<Book>()))
/// service.serve(ResourceDeclaration(source: InMemoryDataSource<Author>()))
///
/// let response = try await service.respond(
///     to: ResourceRequest(method: "GET", type: "books", endpoint: .collection, query: "include=author"))
/// response.status   // 200
/// ```
///
/// | Request | Answer |
/// |---|---|
/// | `GET /TYPE`, `GET /TYPE/ID`, related, relationship | 200, 404, 304 with `If-None-Match` |
/// | `POST /TYPE` | 201 with `Location`; 403 for a client id when not allowed; 409 for a taken id or another type |
/// | `PATCH /TYPE/ID` | 200; 404; 409 when `type` or `id` differ from the URL; 412, 428 for `If-Match` |
/// | `DELETE /TYPE/ID` | 204; 404 |
/// | relationship `PATCH`, `POST`, `DELETE` | 200 with the linkage; 403 for a read-only relationship; 405 for `POST`/`DELETE` on a to-one |
///
/// A request that names a related resource that does not exist is a 404; a body whose values do
/// not fit the model, a member the model does not have, or a failing validation is one 422
/// listing every problem at its pointer; query parameters the declaration does not allow are a
/// 400 naming each. Errors are thrown as `JSONAPIErrorConvertible` values, which the adapters'
/// middleware writes as error documents.
public struct ResourceService: Sendable {
    /// Limits and options shared with the adapters (query limits, writing options).
    public var configuration: JSONAPIConfiguration { didSet { responseCache = ResponseCache() } }
    /// The prefix of the links the service writes (`self` of each resource, `self` and `related`
    /// of each relationship): `""` (the default) writes root-relative links such as
    /// `/books/1`, `"https://api.example.com/v1"` absolute ones, nil none.
    public var linkBase: String? = "" { didSet { responseCache = ResponseCache() } }
    /// How many relationships an `include` path may chain (`comments.author` is 2), and a filter
    /// field may go through (`reviews.book.title` goes through 2). Default 3, at most 16.
    public var maximumIncludeDepth = 3 { didSet { responseCache = ResponseCache() } }
    /// How deeply the calls of a `filter` expression may nest (``FilterExpression``). Default 16,
    /// at most 64.
    public var maximumFilterNesting = 16 { didSet { responseCache = ResponseCache() } }
    /// How many operations an Atomic Operations request may hold (``perform(_:request:)``).
    /// Default 100, at most 10,000.
    public var maximumAtomicOperations = 100 { didSet { responseCache = ResponseCache() } }
    /// The transaction an Atomic Operations request runs in; nil (the default) undoes the writes
    /// of a failed request through the data sources instead.
    public var transaction: (any ResourceTransaction)? { didSet { responseCache = ResponseCache() } }
    /// Writes the service's OpenAPI document from its declarations and the path of its Atomic
    /// Operations endpoint (nil for none); the adapters serve what it writes at
    /// `GET /openapi.json`. Nil (the default) serves no document. `JSONAPIOpenAPI` sets it:
    /// `service.serveOpenAPIDocument(title: "Library", version: "1.0")`.
    public var openAPIDocument: (@Sendable (ResourceService, _ operationsPath: String?) throws -> [UInt8])? {
        didSet { responseCache = ResponseCache() }
    }

    /// How many bytes of answers to reads the service keeps to answer the same read again, while
    /// every data source it serves keeps its ``ResourceDataSource/version``. Default 8 MiB; 0
    /// keeps none; at most 1 GiB. Answers are reused only when every source tells its version
    /// and no declaration has an authorization rule; a write through any source moves its
    /// version, so no answer outlives the data it was written from.
    public var responseCacheLimit = 8 << 20 { didSet { responseCache = ResponseCache() } }

    private(set) var resources: [String: any ServedResource] = [:] { didSet { responseCache = ResponseCache() } }
    /// Replaced whenever a setting or a declaration changes.
    private(set) var responseCache = ResponseCache()

    /// A service serving nothing yet.
    public init(configuration: JSONAPIConfiguration = JSONAPIConfiguration()) {
        self.configuration = configuration
    }

    /// Serves `declaration`'s type, replacing an earlier declaration of the same type.
    public mutating func serve<Source>(_ declaration: ResourceDeclaration<Source>) {
        resources[declaration.type] = declaration
    }

    /// The types served, in order.
    public var resourceTypes: [String] { resources.keys.sorted() }

    /// The 405 that ``respond(to:)`` answers a request with `method` (upper case) to `endpoint`
    /// of the served `type` with, listing the methods it allows (``methods(type:endpoint:)``;
    /// `HEAD` goes where `GET` goes), or nil when the endpoint serves the method. The adapters
    /// ask it before they read a request, and answer the refusal with its `Allow` header.
    public func methodRefusal(_ method: String, type: String, endpoint: ResourceRequest.Endpoint) -> JSONAPIHTTPError? {
        let allowed = methods(type: type, endpoint: endpoint)
        return allowed.contains(method == "HEAD" ? "GET" : method)
            ? nil : JSONAPIHTTPError.methodNotAllowed(method, allowed: allowed)
    }

    /// Answers one request.
    ///
    /// - Throws: A `JSONAPIErrorConvertible` error for every refusal (404, 405, 400, 409, 412,
    ///   422, ...), and what the data source or a hook throws.
    public func respond(to request: ResourceRequest) async throws -> ResourceResponse {
        try validate()
        guard let resource = resources[request.type] else {
            throw JSONAPIHTTPError.notFound("no resource type `\(request.type)`")
        }
        if let refusal = methodRefusal(request.method, type: request.type, endpoint: request.endpoint) {
            throw refusal
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        if method == "GET", case .collection = request.endpoint, resource.streamsCollections {
            return try await streamedCollection(resource, request)
        }
        if method == "GET" {
            // Reads, answered again from the cache while the data they read is unchanged.
            return try await cachedRead(request) { request in
                switch request.endpoint {
                case .collection: try await collection(resource, request)
                case .resource(let id): try await show(resource, id: id, request)
                case .related(let id, let name): try await related(resource, id: id, name: name, request)
                case .relationship(let id, let name): try await relationship(resource, id: id, name: name, request)
                }
            }
        }
        // Writes: the methods left after GET, each in one transaction of the data source, so
        // that what it checks (the current resource for If-Match, linkage) is what it writes
        // over, and a hook's writes go with the request's.
        return try await resource.transaction { try await self.write(resource, method, request) }
    }

    /// A write request, inside its transaction.
    private func write(_ resource: any ServedResource, _ method: String, _ request: ResourceRequest) async throws
        -> ResourceResponse
    {
        switch (request.endpoint, method) {
        case (.collection, _): return try await create(resource, request)
        case (.resource(let id), "PATCH"): return try await update(resource, id: id, request)
        case (.resource(let id), _): return try await delete(resource, id: id, request)
        case (.related, _):
            // Not reached: a related endpoint allows GET alone, refused above otherwise.
            throw JSONAPIHTTPError.methodNotAllowed(
                request.method, allowed: methods(type: request.type, endpoint: request.endpoint))
        case (.relationship(let id, let name), _):
            return try await changeRelationship(resource, id: id, name: name, request)
        }
    }

    /// Checks the service's limits.
    ///
    /// - Throws: `JSONAPIError` with code `invalidOption` for a limit out of its range.
    public func validate() throws(JSONAPIError) {
        guard (0...16).contains(maximumIncludeDepth) else {
            throw JSONAPIError(
                .invalidOption,
                "invalid option: ResourceService.maximumIncludeDepth is \(maximumIncludeDepth); it must be between 0 and 16"
            )
        }
        guard (1...10_000).contains(maximumAtomicOperations) else {
            throw JSONAPIError(
                .invalidOption,
                "invalid option: ResourceService.maximumAtomicOperations is \(maximumAtomicOperations); it must be between 1 and 10000"
            )
        }
        guard (0...(1 << 30)).contains(responseCacheLimit) else {
            throw JSONAPIError(
                .invalidOption,
                "invalid option: ResourceService.responseCacheLimit is \(responseCacheLimit); it must be between 0 and 1073741824"
            )
        }
        guard (1...64).contains(maximumFilterNesting) else {
            throw JSONAPIError(
                .invalidOption,
                "invalid option: ResourceService.maximumFilterNesting is \(maximumFilterNesting); it must be between 1 and 64"
            )
        }
    }

    // MARK: Rules derived from the declarations

    /// The query rules of an endpoint whose primary data is of `resource`'s type.
    func rules(for resource: any ServedResource, collection: Bool) -> QueryRules {
        var rules = QueryRules()
        rules.includePaths = .only(includePaths(from: resource.type))
        var fieldsets: [String: Set<String>] = [:]
        for (type, served) in resources {
            fieldsets[type] = Set(
                (served.shape.attributes.map(\.name) + served.shape.relationships.map(\.name))
                    .filter { !served.fields.hidden.contains($0) })
        }
        rules.fieldsets = .only(fieldsets)
        if collection {
            rules.sortFields = .only(resource.fields.sortable.subtracting(resource.fields.hidden))
            rules.pagination = resource.streamsCollections ? nil : resource.pagination
            let service = self
            rules.filter = { filter throws(QueryFailure) in
                var problems: [QueryProblem] = []
                for entry in filter { problems += service.problems(of: entry, resource) }
                guard problems.isEmpty else { throw QueryFailure(problems) }
            }
        }
        return rules
    }

    /// Every include path from `type` up to ``maximumIncludeDepth`` relationships long, through
    /// the includable relationships of served types.
    func includePaths(from type: String) -> Set<String> {
        var paths: Set<String> = []
        var frontier: [(path: String, type: String)] = [("", type)]
        for _ in 0..<max(maximumIncludeDepth, 0) {
            var next: [(path: String, type: String)] = []
            for (prefix, type) in frontier {
                guard let resource = resources[type] else { continue }
                for relationship in resource.shape.relationships
                where resource.fields.includable.contains(relationship.name)
                    && !resource.fields.hidden.contains(relationship.name)
                {
                    let path = prefix.isEmpty ? relationship.name : prefix + "." + relationship.name
                    paths.insert(path)
                    for target in relationship.targetResourceTypes where resources[target] != nil {
                        next.append((path, target))
                    }
                }
            }
            frontier = next
        }
        return paths
    }

    /// Throws 403 or 404 unless `resource` allows `action`.
    func authorize(_ resource: any ServedResource, _ action: ResourceAction, _ request: ResourceRequest) async throws {
        switch try await resource.decide(action, request) {
        case .allow: return
        case .forbid(let detail): throw JSONAPIHTTPError.forbidden(detail)
        case .hide: throw JSONAPIHTTPError.notFound(Self.notFoundDetail(resource.type, action))
        }
    }

    static func notFoundDetail(_ type: String, _ action: ResourceAction) -> String {
        switch action {
        case .read(let id), .update(let id), .delete(let id), .changeRelationship(let id, _):
            "no `\(type)` resource with id `\(id)`"
        case .list, .create: "no resource type `\(type)`"
        }
    }
}
