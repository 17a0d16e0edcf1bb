extension JSONAPIQuery {
    /// The `filter` parameters of a request, kept as they came: one ``Entry`` per parameter, in
    /// order, each with the bracketed path of its name and its value.
    ///
    /// JSON:API reserves the `filter` family and leaves its meaning to the endpoint, so the
    /// filter is not interpreted here: nested brackets (`filter[author][name]=ann`), empty brackets
    /// (`filter[tags][]=a&filter[tags][]=b`), dotted paths (`filter[author.name]`) and repeated
    /// names are all kept, and the endpoint checks them with its ``QueryRules/filter`` rule.
    /// The path is flat, so a filter holds no nesting a reader must recurse into.
    ///
    /// ```swift
    /// var rules = QueryRules()
    /// rules.filter = { _ in }   // any filter
    /// let query = try JSONAPIQuery(
    ///     parsing: "filter[author][name]=ann&filter[tags][]=a&filter[tags][]=b", rules: rules)
    /// query.filter.value(at: "author", "name")      // "ann"
    /// query.filter.values(at: "tags", "")           // ["a", "b"]
    /// query.filter.entries(under: "author").count   // 1
    /// query.filter[0].parameter                     // "filter[author][name]"
    /// ```
    public struct Filter: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
        /// One `filter` parameter.
        public struct Entry: Sendable, Hashable {
            /// The bracket contents of the name, outermost first: `filter[author][name]` is
            /// `["author", "name"]`, `filter[tags][]` is `["tags", ""]`, `filter` is `[]`.
            public var path: [String]
            /// The decoded value.
            public var value: String

            /// Creates an entry.
            public init(path: [String], value: String) {
                self.path = path
                self.value = value
            }

            /// The parameter's name: `filter` followed by the path in brackets
            /// (`filter[author][name]`), as an error's `source.parameter` names it.
            public var parameter: String {
                var name = "filter"
                for segment in path { name += "[" + segment + "]" }
                return name
            }
        }

        /// The entries, in the order of the query.
        public var entries: [Entry]

        /// Creates a filter from entries.
        public init(_ entries: [Entry] = []) { self.entries = entries }

        /// Creates a filter from entries.
        public init(arrayLiteral entries: Entry...) { self.entries = entries }

        public var startIndex: Int { entries.startIndex }
        public var endIndex: Int { entries.endIndex }
        public subscript(position: Int) -> Entry { entries[position] }

        /// The values of the entries whose path is exactly `path`, in order.
        ///
        /// ```swift
        /// // filter[tags][]=a&filter[tags][]=b
        /// filter.values(at: "tags", "")   // ["a", "b"]
        /// ```
        public func values(at path: String...) -> [String] {
            entries.filter { $0.path == path }.map(\.value)
        }

        /// The value of the first entry whose path is exactly `path`, or nil.
        ///
        /// ```swift
        /// // filter[author][name]=ann
        /// filter.value(at: "author", "name")   // "ann"
        /// ```
        public func value(at path: String...) -> String? {
            entries.first { $0.path == path }?.value
        }

        /// The entries whose path starts with `prefix`, in order (all of them for an empty prefix).
        ///
        /// ```swift
        /// // filter[author][name]=ann&filter[author][age]=30&filter[title]=x
        /// filter.entries(under: "author").map(\.value)   // ["ann", "30"]
        /// ```
        public func entries(under prefix: String...) -> [Entry] {
            entries.filter { $0.path.starts(with: prefix) }
        }
    }
}
