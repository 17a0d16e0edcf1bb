extension QueryRules {
    /// Which sparse fieldsets (`fields[TYPE]=a,b`) an endpoint accepts. A dictionary literal is
    /// ``only(_:)``.
    ///
    /// ```swift
    /// var rules = QueryRules()
    /// rules.fieldsets = ["articles": ["title", "body", "author"], "people": ["name"]]
    /// // fields[articles]=title is accepted; fields[articles]=rating and fields[tags]=x get 400
    /// ```
    public enum Fieldsets: Sendable, Hashable, ExpressibleByDictionaryLiteral {
        /// Sparse fieldsets are not supported: any `fields` parameter is a 400.
        case unsupported
        /// Any type, any fields, as long as they are member names.
        case any
        /// Only these types, each with only these fields (attributes and relationships).
        case only([String: Set<String>])

        /// ``only(_:)`` with the listed types and fields.
        public init(dictionaryLiteral elements: (String, Set<String>)...) {
            self = .only(Dictionary(elements, uniquingKeysWith: { $0.union($1) }))
        }
    }
}
