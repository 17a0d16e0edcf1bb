extension JSONAPIQuery {
    /// The page a request asks for, in the pagination strategy of the endpoint
    /// (``QueryRules/Pagination``), with the endpoint's defaults filled in.
    ///
    /// ```swift
    /// var rules = QueryRules()
    /// rules.pagination = .cursors(defaultSize: 20, maximumSize: 100)
    /// let query = try JSONAPIQuery(parsing: "page[after]=abc&page[size]=50", rules: rules)
    /// query.page   // .cursor(after: "abc", before: nil, size: 50)
    /// ```
    public enum Page: Sendable, Hashable {
        /// Page-based: `page[number]` (from 1) and `page[size]`.
        case number(Int, size: Int)
        /// Offset-based: `page[offset]` (from 0, the number of items to skip) and `page[limit]`.
        case offset(Int, limit: Int)
        /// Cursor-based, as the cursor pagination profile
        /// (`https://jsonapi.org/profiles/ethanresnick/cursor-pagination`) defines it: the items
        /// after the cursor `page[after]` and/or before the cursor `page[before]`, at most
        /// `page[size]` of them. Neither cursor asks for the first page.
        case cursor(after: String?, before: String?, size: Int)

        /// The number of items asked for: the page size or limit.
        ///
        /// ```swift
        /// JSONAPIQuery.Page.offset(40, limit: 20).size   // 20
        /// ```
        public var size: Int {
            switch self {
            case .number(_, let size), .offset(_, let size), .cursor(_, _, let size): size
            }
        }

        /// The parameters that ask for this page, in their canonical order, names and values
        /// decoded: `[("page[number]", "2"), ("page[size]", "20")]`.
        var parameters: [(name: String, value: String)] {
            switch self {
            case .number(let number, let size):
                return [("page[number]", String(number)), ("page[size]", String(size))]
            case .offset(let offset, let limit):
                return [("page[offset]", String(offset)), ("page[limit]", String(limit))]
            case .cursor(let after, let before, let size):
                var result: [(name: String, value: String)] = []
                if let after { result.append(("page[after]", after)) }
                if let before { result.append(("page[before]", before)) }
                result.append(("page[size]", String(size)))
                return result
            }
        }
    }
}
