/// One thing wrong with a request's query parameters: a stable ``code``, the parameter it concerns
/// (as the client wrote it, decoded), and a human-readable ``detail``. Always a 400.
///
/// A ``QueryFailure`` carries every problem of a query; each becomes one error object.
///
/// ```swift
/// let problem = QueryProblem(code: .unsupportedSort, parameter: "sort", detail: "cannot sort by `age`")
/// print(try problem.errorObject.jsonString())
/// // {"status":"400","code":"unsupported-sort","title":"Unsupported sort field",
/// //  "detail":"cannot sort by `age`","source":{"parameter":"sort"}}   (one line)
/// ```
public struct QueryProblem: Sendable, Hashable, CustomStringConvertible {
    /// The error object's `code`: what kind of problem this is.
    ///
    /// An open set of kebab-case strings: the codes below are the ones the parser reports, and an
    /// endpoint's filter rule may use its own (`QueryProblem.Code("unknown-status")`).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as it appears in the error object.
        public var rawValue: String

        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// The query string is longer than ``QueryOptions/maximumQueryBytes``.
        public static let queryTooLong = Code("query-too-long")
        /// The query has more parameters than ``QueryOptions/maximumParameters``.
        public static let tooManyParameters = Code("too-many-parameters")
        /// A `%` is not followed by two hexadecimal digits.
        public static let invalidPercentEncoding = Code("invalid-percent-encoding")
        /// A name or value does not decode to UTF-8 text.
        public static let invalidUTF8 = Code("invalid-utf8")
        /// A parameter name breaks JSON:API's naming rules: not a family name (a base name, then
        /// bracketed member names), or a base name that is not a legal member name.
        public static let invalidParameterName = Code("invalid-parameter-name")
        /// The endpoint does not support the parameter: a name JSON:API reserves (all `a-z`, such
        /// as `include` on an endpoint without it, or `foo`), a form of a family the endpoint
        /// does not use (`page[cursor]`), an unsupported extension's parameter, or an
        /// implementation-specific parameter the endpoint does not accept.
        public static let unsupportedParameter = Code("unsupported-parameter")
        /// A parameter that takes one value (`include`, `sort`, `fields[TYPE]`, `page[...]`)
        /// appears more than once.
        public static let repeatedParameter = Code("repeated-parameter")
        /// An `include` path is malformed: empty, or with a part that is not a member name.
        public static let invalidInclude = Code("invalid-include")
        /// An `include` path the endpoint does not support.
        public static let unsupportedInclude = Code("unsupported-include")
        /// An `include` path is longer than ``QueryOptions/maximumIncludeDepth``.
        public static let includeTooDeep = Code("include-too-deep")
        /// `include` lists more paths than ``QueryOptions/maximumIncludePaths``.
        public static let tooManyIncludePaths = Code("too-many-include-paths")
        /// A `fields[TYPE]` value names a field that is not a member name (or an empty one).
        public static let invalidFieldset = Code("invalid-fieldset")
        /// A `fields[TYPE]` parameter names a type or field the endpoint does not have.
        public static let unsupportedFieldset = Code("unsupported-fieldset")
        /// A `sort` value is malformed: empty, or a field that is not a (dotted) member name.
        public static let invalidSort = Code("invalid-sort")
        /// A sort field the endpoint cannot sort by.
        public static let unsupportedSort = Code("unsupported-sort")
        /// `sort` lists more fields than ``QueryOptions/maximumSortFields``.
        public static let tooManySortFields = Code("too-many-sort-fields")
        /// A `page[...]` value is not a valid number (or an empty cursor).
        public static let invalidPageValue = Code("invalid-page-value")
        /// The page size or limit is larger than the endpoint's maximum; the error's
        /// `meta.page.maxSize` gives the maximum, as the cursor pagination profile specifies.
        public static let maxSizeExceeded = Code("max-size-exceeded")
        /// `page[after]` and `page[before]` together, on an endpoint that does not support range
        /// pagination.
        public static let rangePaginationNotSupported = Code("range-pagination-not-supported")
        /// A `filter` name nests more brackets than ``QueryOptions/maximumFilterDepth``.
        public static let filterTooDeep = Code("filter-too-deep")
        /// The endpoint's filter rule rejects a filter.
        public static let invalidFilter = Code("invalid-filter")

        /// The title written for problems of this code: fixed for each code, as JSON:API asks
        /// of an error's `title`.
        var title: String {
            switch self {
            case .queryTooLong: "Query string too long"
            case .tooManyParameters: "Too many query parameters"
            case .invalidPercentEncoding: "Invalid percent-encoding"
            case .invalidUTF8: "Invalid UTF-8 in query"
            case .invalidParameterName: "Invalid query parameter name"
            case .unsupportedParameter: "Unsupported query parameter"
            case .repeatedParameter: "Repeated query parameter"
            case .invalidInclude: "Invalid include path"
            case .unsupportedInclude: "Unsupported include path"
            case .includeTooDeep: "Include path too deep"
            case .tooManyIncludePaths: "Too many include paths"
            case .invalidFieldset: "Invalid sparse fieldset"
            case .unsupportedFieldset: "Unsupported sparse fieldset"
            case .invalidSort: "Invalid sort"
            case .unsupportedSort: "Unsupported sort field"
            case .tooManySortFields: "Too many sort fields"
            case .invalidPageValue: "Invalid page parameter"
            case .maxSizeExceeded: "Page size requested is too large"
            case .rangePaginationNotSupported: "Range pagination not supported"
            case .filterTooDeep: "Filter nested too deeply"
            case .invalidFilter: "Invalid filter"
            default: "Invalid query parameter"
            }
        }
    }

    /// What kind of problem this is.
    public var code: Code
    /// The parameter at fault, named as the client wrote it after percent-decoding
    /// (`fields[articles]`); nil for problems of the whole query (too long, too many parameters).
    public var parameter: String?
    /// A short summary that is the same for every problem of this code.
    public var title: String
    /// What is wrong, for the client's developer.
    public var detail: String
    /// Extra members for the error's `meta` (`{"page": {"maxSize": 100}}`).
    public var meta: JSON.Object?
    /// A URI identifying the kind of error, written as the error's `links.type`.
    public var typeLink: String?

    /// Creates a problem; `title` defaults to the code's fixed title.
    ///
    /// ```swift
    /// QueryProblem(code: .invalidFilter, parameter: "filter[age]", detail: "`age` must be a number")
    /// ```
    public init(
        code: Code, parameter: String?, detail: String, title: String? = nil, meta: JSON.Object? = nil,
        typeLink: String? = nil
    ) {
        self.code = code
        self.parameter = parameter
        self.title = title ?? code.title
        self.detail = detail
        self.meta = meta
        self.typeLink = typeLink
    }

    /// A problem with one filter entry, named by the entry's parameter; for filter rules.
    ///
    /// ```swift
    /// rules.filter = { filter throws(QueryFailure) in
    ///     let bad = filter.entries.filter { $0.path != ["status"] }
    ///     guard bad.isEmpty else {
    ///         throw QueryFailure(bad.map { QueryProblem.invalidFilter($0, detail: "only filter[status] is supported") })
    ///     }
    /// }
    /// ```
    public static func invalidFilter(
        _ entry: JSONAPIQuery.Filter.Entry, detail: String, code: Code = .invalidFilter
    ) -> QueryProblem {
        QueryProblem(code: code, parameter: entry.parameter, detail: detail)
    }

    /// The error object describing this problem: `status` "400", `code`, `title`, `detail`,
    /// `source.parameter`, and `meta` and `links.type` when set.
    public var errorObject: JSONAPIErrorObject {
        JSONAPIErrorObject(
            status: 400, code: code.rawValue, title: title, detail: detail,
            source: parameter.map(JSONAPIErrorObject.Source.parameter),
            links: typeLink.map { JSONAPIErrorObject.Links(type: JSONAPILink(href: $0)) }, meta: meta)
    }

    /// `PARAMETER: DETAIL (CODE)`.
    public var description: String { (parameter.map { $0 + ": " } ?? "") + detail + " (\(code))" }
}
