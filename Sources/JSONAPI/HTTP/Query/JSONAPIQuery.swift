/// The JSON:API query parameters of a request: `include`, `fields[TYPE]`, `sort`, `page[...]`,
/// `filter[...]`, and the implementation-specific and extension parameters an endpoint accepts.
///
/// Parse one from a request's query string with ``init(parsing:rules:options:)``, which checks
/// it against what the endpoint supports (``QueryRules``) and the limits that keep hostile input
/// cheap (``QueryOptions``), and reports every problem at once as a ``QueryFailure`` (400).
/// Build one in code and write it with ``queryString``.
///
/// ```swift
/// var rules = QueryRules()
/// rules.includePaths = ["author", "comments.author"]
/// rules.sortFields = ["created", "title"]
/// rules.pagination = .pages(defaultSize: 20, maximumSize: 100)
///
/// let query = try JSONAPIQuery(
///     parsing: "include=author&fields%5Barticles%5D=title,author&sort=-created&page[number]=2",
///     rules: rules)
/// query.include          // ["author"]
/// query.fields           // ["articles": ["title", "author"]]
/// query.sort             // [-created]
/// query.page             // .number(2, size: 20)
/// query.queryString
/// // include=author&fields%5Barticles%5D=author,title&sort=-created&page%5Bnumber%5D=2&page%5Bsize%5D=20
/// ```
///
/// Two queries are equal when they ask for the same thing: parsing what ``queryString`` writes
/// gives back an equal query (for a query the rules accept).
public struct JSONAPIQuery: Sendable, Hashable {
    /// The relationship paths of `include` (`["comments.author", "ratings"]`), in the order
    /// given; nil when the request has no `include` parameter, empty for `include=` (include
    /// nothing).
    ///
    /// The difference matters: a response to a request with `include` must have an `included`
    /// member even when it is empty, and a request without it lets the endpoint choose.
    public var include: [String]?

    /// Sparse fieldsets: for each type named by a `fields[TYPE]` parameter, the attributes and
    /// relationships to return. An empty set (`fields[people]=`) asks for no fields of that type;
    /// a type not listed is returned as the endpoint chooses.
    public var fields: [String: Set<String>]

    /// The sort fields of `sort`, in order; empty when the request does not sort.
    public var sort: [SortField]

    /// The page asked for, with the endpoint's defaults filled in; nil when the endpoint does not
    /// paginate (``QueryRules/pagination`` is nil).
    public var page: Page?

    /// The `filter` parameters, in the order given; empty when there are none.
    public var filter: Filter

    /// Implementation-specific parameters (`camelCase`, `x-trace`) and parameters of supported
    /// extensions (`ns:name`), decoded, in the order given.
    public var parameters: [Parameter]

    /// Creates a query.
    ///
    /// ```swift
    /// let query = JSONAPIQuery(include: ["author"], sort: ["-created"], page: .number(1, size: 10))
    /// print(query.queryString)   // include=author&sort=-created&page%5Bnumber%5D=1&page%5Bsize%5D=10
    /// ```
    public init(
        include: [String]? = nil, fields: [String: Set<String>] = [:], sort: [SortField] = [], page: Page? = nil,
        filter: Filter = Filter(), parameters: [Parameter] = []
    ) {
        self.include = include
        self.fields = fields
        self.sort = sort
        self.page = page
        self.filter = filter
        self.parameters = parameters
    }

    /// The value of the first implementation-specific or extension parameter named `name`
    /// (decoded, brackets included), or nil.
    ///
    /// ```swift
    /// let query = try JSONAPIQuery(parsing: "withDrafts=1", rules: QueryRules())
    /// query.parameter("withDrafts")   // "1"
    /// ```
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }
}
