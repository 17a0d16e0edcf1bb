/// What one endpoint supports of JSON:API's query parameters: the `include` paths, sparse
/// fieldsets, sort fields, pagination strategy and filter rule, and which implementation-specific
/// and extension parameters it accepts.
///
/// A request that uses anything the endpoint does not support gets 400, as JSON:API requires
/// (``JSONAPIQuery/init(parsing:rules:options:)`` reports it). The defaults support nothing but
/// sparse fieldsets and implementation-specific parameters, so each family an endpoint serves
/// is turned on on purpose.
///
/// ```swift
/// var rules = QueryRules()
/// rules.includePaths = ["author", "comments.author"]     // and so `comments`
/// rules.fieldsets = ["articles": ["title", "body", "author", "comments"], "people": ["name"]]
/// rules.sortFields = ["created", "title", "author.name"]
/// rules.pagination = .cursors(defaultSize: 20, maximumSize: 100)
/// rules.filter = { filter throws(QueryFailure) in
///     for entry in filter where entry.path != ["status"] {
///         throw QueryFailure(.invalidFilter(entry, detail: "only filter[status] is supported"))
///     }
/// }
/// ```
public struct QueryRules: Sendable {
    /// The relationship paths `include` may name. Allowing a path allows each of its prefixes:
    /// `["comments.author"]` allows `comments` and `comments.author`. With ``Allowed/any``, any
    /// path of member names is accepted. Default ``Allowed/unsupported``: `include` gets 400.
    public var includePaths: Allowed {
        didSet { includeClosure = Self.closure(of: includePaths) }
    }

    /// The types and fields `fields[TYPE]` may name. Default ``Fieldsets/any``.
    public var fieldsets: Fieldsets

    /// The fields `sort` may name (without the `-`: allowing `created` allows `-created`).
    /// Default ``Allowed/unsupported``: `sort` gets 400.
    public var sortFields: Allowed

    /// The endpoint's pagination strategy and page sizes; nil (the default) when it does not
    /// paginate, and any `page` parameter gets 400.
    public var pagination: Pagination?

    /// The endpoint's filter rule: it receives the `filter` parameters when there are any, and
    /// throws a ``QueryFailure`` (built with ``QueryProblem/invalidFilter(_:detail:code:)``)
    /// for those it rejects. Nil (the default) when the endpoint does not filter: any `filter`
    /// parameter gets 400. `{ _ in }` accepts every filter.
    public var filter: (@Sendable (JSONAPIQuery.Filter) throws(QueryFailure) -> Void)?

    /// The implementation-specific parameters accepted, by base name (`withDrafts` allows
    /// `withDrafts` and `withDrafts[x]`). Default ``Allowed/any``: every legally named one is
    /// kept in ``JSONAPIQuery/parameters``. Names that break JSON:API's naming rules get 400
    /// whatever this says.
    public var customParameters: Allowed

    /// The namespaces of the extensions whose parameters the endpoint accepts: with `["version"]`,
    /// `version:at=...` is kept in ``JSONAPIQuery/parameters``. Default empty: every extension
    /// parameter gets 400.
    public var extensionNamespaces: Set<String>

    /// ``includePaths`` with every prefix of every path; nil for ``Allowed/any`` and
    /// ``Allowed/unsupported``.
    private(set) var includeClosure: Set<String>?

    /// Creates rules; by default only sparse fieldsets and implementation-specific parameters
    /// are supported.
    public init(
        includePaths: Allowed = .unsupported, fieldsets: Fieldsets = .any, sortFields: Allowed = .unsupported,
        pagination: Pagination? = nil, filter: (@Sendable (JSONAPIQuery.Filter) throws(QueryFailure) -> Void)? = nil,
        customParameters: Allowed = .any, extensionNamespaces: Set<String> = []
    ) {
        self.includePaths = includePaths
        self.fieldsets = fieldsets
        self.sortFields = sortFields
        self.pagination = pagination
        self.filter = filter
        self.customParameters = customParameters
        self.extensionNamespaces = extensionNamespaces
        includeClosure = Self.closure(of: includePaths)
    }

    /// Checks the pagination sizes: a default of at least 1 and at most the maximum.
    ///
    /// Parsing calls this first.
    ///
    /// ```swift
    /// let rules = QueryRules(pagination: .pages(defaultSize: 50, maximumSize: 10))
    /// try rules.validate()   // invalid option: QueryRules.Pagination.defaultSize is 50; it must be between 1 and 10
    /// ```
    ///
    /// - Throws: ``JSONAPIError`` with code ``JSONAPIError/Code/invalidOption``.
    public func validate() throws(JSONAPIError) {
        guard let pagination else { return }
        try ParsingOptions.check("maximumSize", pagination.maximumSize, in: 1...Int.max, of: "QueryRules.Pagination")
        try ParsingOptions.check(
            "defaultSize", pagination.defaultSize, in: 1...pagination.maximumSize, of: "QueryRules.Pagination")
    }

    private static func closure(of allowed: Allowed) -> Set<String>? {
        guard case .only(let paths) = allowed else { return nil }
        var closure: Set<String> = []
        for path in paths {
            var prefix = ""
            for part in QueryParameterName.split(path, at: UInt8(ascii: ".")) {
                prefix = prefix.isEmpty ? part : prefix + "." + part
                closure.insert(prefix)
            }
        }
        return closure
    }
}
