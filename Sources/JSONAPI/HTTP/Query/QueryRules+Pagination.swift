extension QueryRules {
    /// How an endpoint paginates: its strategy, the page size it uses when the request gives none,
    /// and the largest it allows.
    ///
    /// Each strategy has its own `page` parameters; the others get 400:
    ///
    /// | Strategy | Parameters | Values |
    /// |---|---|---|
    /// | ``Strategy/pageNumber`` | `page[number]`, `page[size]` | number ≥ 1 (default 1), size 1...maximum |
    /// | ``Strategy/offset`` | `page[offset]`, `page[limit]` | offset ≥ 0 (default 0), limit 1...maximum |
    /// | ``Strategy/cursor`` | `page[after]`, `page[before]`, `page[size]` | cursors not empty, size 1...maximum |
    ///
    /// Numbers are decimal digits only (`^[0-9]+$`, as the cursor pagination profile defines a
    /// positive integer), so `-1`, `+1`, `1.0` and ` 1` are refused. A size or limit over the
    /// maximum is a ``QueryProblem/Code/maxSizeExceeded`` problem whose error carries
    /// `meta.page.maxSize`, as the cursor pagination profile specifies (with the profile's
    /// `links.type` for the cursor strategy).
    ///
    /// ```swift
    /// var rules = QueryRules()
    /// rules.pagination = .offsets(defaultLimit: 25, maximumLimit: 200)
    /// try JSONAPIQuery(parsing: "page[offset]=50", rules: rules).page   // .offset(50, limit: 25)
    /// try JSONAPIQuery(parsing: "page[limit]=500", rules: rules)
    /// // 400 max-size-exceeded, source.parameter "page[limit]", meta {"page":{"maxSize":200}}
    /// ```
    public struct Pagination: Sendable, Hashable {
        /// A pagination strategy.
        public enum Strategy: Sendable, Hashable {
            /// `page[number]` and `page[size]`.
            case pageNumber
            /// `page[offset]` and `page[limit]`.
            case offset
            /// The cursor pagination profile: `page[after]`, `page[before]` and `page[size]`.
            case cursor
        }

        /// The strategy.
        public var strategy: Strategy
        /// The page size (or limit) when the request gives none; between 1 and ``maximumSize``.
        public var defaultSize: Int
        /// The largest page size (or limit) a request may ask for.
        public var maximumSize: Int
        /// Cursor strategy: whether `page[after]` and `page[before]` may be used together (range
        /// pagination). When they are, the page size defaults to ``maximumSize``, as the profile
        /// requires. Default false: such a request gets 400
        /// (``QueryProblem/Code/rangePaginationNotSupported``).
        public var allowsRangePagination: Bool

        /// Creates a pagination configuration.
        public init(strategy: Strategy, defaultSize: Int, maximumSize: Int, allowsRangePagination: Bool = false) {
            self.strategy = strategy
            self.defaultSize = defaultSize
            self.maximumSize = maximumSize
            self.allowsRangePagination = allowsRangePagination
        }

        /// Page-based pagination: `page[number]` and `page[size]`.
        public static func pages(defaultSize: Int = 20, maximumSize: Int = 100) -> Pagination {
            Pagination(strategy: .pageNumber, defaultSize: defaultSize, maximumSize: maximumSize)
        }

        /// Offset-based pagination: `page[offset]` and `page[limit]`.
        public static func offsets(defaultLimit: Int = 20, maximumLimit: Int = 100) -> Pagination {
            Pagination(strategy: .offset, defaultSize: defaultLimit, maximumSize: maximumLimit)
        }

        /// Cursor-based pagination per the cursor pagination profile: `page[after]`,
        /// `page[before]` and `page[size]`.
        public static func cursors(
            defaultSize: Int = 20, maximumSize: Int = 100, allowsRangePagination: Bool = false
        ) -> Pagination {
            Pagination(
                strategy: .cursor, defaultSize: defaultSize, maximumSize: maximumSize,
                allowsRangePagination: allowsRangePagination)
        }

        /// The URI of the cursor pagination profile, which its errors' `type` links start with.
        public static let cursorProfileURI = "https://jsonapi.org/profiles/ethanresnick/cursor-pagination"

        /// The names of the strategy's `page` parameters (inside the brackets).
        var parameterNames: [String] {
            switch strategy {
            case .pageNumber: ["number", "size"]
            case .offset: ["offset", "limit"]
            case .cursor: ["after", "before", "size"]
            }
        }
    }
}
