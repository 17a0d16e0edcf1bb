extension QueryRules {
    /// Which names a query parameter may use: none (the parameter is not supported), any
    /// well-formed one, or those of a set. An array literal is ``only(_:)``.
    ///
    /// ```swift
    /// var rules = QueryRules()
    /// rules.sortFields = ["created", "title"]   // .only(["created", "title"])
    /// rules.includePaths = .any
    /// ```
    public enum Allowed: Sendable, Hashable, ExpressibleByArrayLiteral {
        /// The parameter is not supported: using it is a 400.
        case unsupported
        /// Any well-formed name (member names, dotted where paths are allowed).
        case any
        /// Only these names.
        case only(Set<String>)

        /// ``only(_:)`` with the listed names.
        public init(arrayLiteral names: String...) { self = .only(Set(names)) }

        /// Whether `name` is allowed (for ``only(_:)``, whether the set holds it).
        func allows(_ name: String) -> Bool {
            switch self {
            case .unsupported: false
            case .any: true
            case .only(let names): names.contains(name)
            }
        }
    }
}
