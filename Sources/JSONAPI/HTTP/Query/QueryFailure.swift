/// Why a request's query parameters are refused: every ``QueryProblem`` found, in the order of
/// the query. Answer with 400 and one error object per problem.
///
/// ``JSONAPIQuery/init(parsing:rules:options:)`` throws it after reading the whole query, so a
/// client learns of all its mistakes at once. It is a ``JSONAPIErrorConvertible``, so
/// ``JSONAPIErrorDocument/init(describing:jsonapi:)`` turns it into the error document.
///
/// ```swift
/// do {
///     let query = try JSONAPIQuery(parsing: "include=autor&sort=age&foo=1", rules: rules)
///     ...
/// } catch {
///     let errors = JSONAPIErrorDocument(describing: error)
///     errors.httpStatus   // 400
///     errors.errors.map(\.source?.parameter)   // ["include", "sort", "foo"]
/// }
/// ```
public struct QueryFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, at least one, in the order of the query.
    public var problems: [QueryProblem]

    /// Creates a failure from problems.
    public init(_ problems: [QueryProblem]) { self.problems = problems }

    /// Creates a failure from problems.
    ///
    /// ```swift
    /// throw QueryFailure(QueryProblem(code: .invalidFilter, parameter: "filter[age]", detail: "not a number"))
    /// ```
    public init(_ problems: QueryProblem...) { self.problems = problems }

    /// Always 400 (Bad Request).
    public var status: Int { 400 }

    /// The problems, one a line.
    public var description: String {
        "400 Bad Request: " + problems.map(\.description).joined(separator: "\n")
    }
}

extension QueryFailure: JSONAPIErrorConvertible {
    /// One 400 error object per problem, with `source.parameter` naming its parameter; see
    /// ``QueryProblem/errorObject``.
    public var jsonapiErrors: [JSONAPIErrorObject] {
        problems.isEmpty
            ? [JSONAPIErrorObject(status: 400, code: "invalid-query", title: "Invalid query parameter")]
            : problems.map(\.errorObject)
    }
}
