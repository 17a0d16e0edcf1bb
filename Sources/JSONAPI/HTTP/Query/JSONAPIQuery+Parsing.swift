extension JSONAPIQuery {
    /// Parses a request's query string and checks it against what the endpoint supports.
    ///
    /// The query is the raw, percent-encoded text after the `?` of the request target (a
    /// leading `?` is skipped). It is read as JSON:API 1.1 requires, through
    /// `application/x-www-form-urlencoded` parsing:
    ///
    /// - Parameters are separated by `&` (empty pieces are skipped); a name runs to the first
    ///   `=`, and a parameter without `=` has an empty value.
    /// - Names and values are percent-decoded, and `+` is a space in both. Brackets may be
    ///   encoded or not: `fields%5Barticles%5D` and `fields[articles]` are the same parameter.
    ///   A `%` not followed by two hex digits, or decoded bytes that are not UTF-8, are refused
    ///   (the WHATWG algorithm would keep or replace them; a silent change helps no one).
    /// - Names follow JSON:API's conventions: a family's base name, then brackets holding
    ///   nothing, a member name or a dotted list of them. A base name of only `a-z` belongs to
    ///   the specification: `include`, `fields[TYPE]`, `sort`, `page[...]` and `filter[...]` are
    ///   read when the endpoint supports them, and every other one (`foo`) is refused. A base
    ///   name `namespace:name` belongs to an extension, accepted when
    ///   ``QueryRules/extensionNamespaces`` lists the namespace. Any other base name must be a
    ///   member name with at least one character outside `a-z` (`withDrafts`, `x-trace`): an
    ///   implementation-specific parameter, accepted per ``QueryRules/customParameters``.
    ///   Names that follow no convention (`_`, `a]`, `filter[_]`) are refused.
    /// - `include`, `sort`, `fields[TYPE]` and each `page[...]` may appear once; `filter`
    ///   parameters may repeat.
    ///
    /// Every problem in the query is collected, in the order of the query, and thrown together:
    /// one error object each, with `source.parameter` naming the parameter as the client wrote
    /// it after decoding. Only the whole-query limits (length, number of parameters) stop
    /// reading at once. See ``QueryProblem/Code`` for the codes.
    ///
    /// ```swift
    /// var rules = QueryRules()
    /// rules.includePaths = ["author"]
    /// rules.pagination = .pages(defaultSize: 10, maximumSize: 50)
    /// do {
    ///     let query = try JSONAPIQuery(parsing: "include=comments&page[size]=500&foo=1", rules: rules)
    /// } catch let failure as QueryFailure {
    ///     failure.problems.map(\.code)        // [unsupported-include, max-size-exceeded, unsupported-parameter]
    ///     failure.problems.map(\.parameter)   // ["include", "page[size]", "foo"]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - query: The query string, percent-encoded, without the `?`.
    ///   - rules: What the endpoint supports.
    ///   - options: Limits on the query's size.
    /// - Throws: ``QueryFailure`` (a 400) listing every problem of the query; ``JSONAPIError``
    ///   with code ``JSONAPIError/Code/invalidOption`` when `options` or `rules` are out of range
    ///   (the server's mistake; error mapping answers it with 500).
    /// - Complexity: O(*n*) in the length of the query, plus the endpoint's filter rule.
    public init(parsing query: some StringProtocol, rules: QueryRules, options: QueryOptions = QueryOptions()) throws {
        try options.validate()
        try rules.validate()
        var text = String(query)
        let result = text.withUTF8 { bytes in
            var parser = QueryParser(rules: rules, options: options)
            unsafe parser.parse(bytes)
            return parser.finish()
        }
        self = try result.get()
    }

    /// The base names (`sort`, `page`, `withDrafts`) of the parameters `query` names, for an
    /// endpoint whose rules depend on which families a request uses. Pieces whose name cannot
    /// be decoded or taken apart are left out: parsing the query reports them.
    package static func families(in query: some StringProtocol, options: QueryOptions = QueryOptions()) -> Set<String> {
        var text = String(query)
        return text.withUTF8 { bytes in
            var parser = QueryParser(rules: QueryRules(), options: options)
            parser.familiesOnly = true
            unsafe parser.parse(bytes)
            return parser.families
        }
    }
}
