extension JSONAPIQuery {
    /// One implementation-specific parameter (`camelCase=1`, `x-trace[id]=7`) or extension
    /// parameter (`ns:name=...`), its name and value decoded.
    ///
    /// ```swift
    /// let query = try JSONAPIQuery(parsing: "withDrafts=true&x-trace%5Bid%5D=7", rules: QueryRules())
    /// query.parameters[1].name       // "x-trace[id]"
    /// query.parameters[1].baseName   // "x-trace"
    /// query.parameters[1].value      // "7"
    /// ```
    public struct Parameter: Sendable, Hashable {
        /// The whole name, brackets included (`x-trace[id]`).
        public var name: String
        /// The value; empty when the parameter has no `=`.
        public var value: String

        /// Creates a parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// The name up to its first `[`: the name of the parameter's family.
        public var baseName: Substring {
            name.utf8.firstIndex(of: UInt8(ascii: "[")).map { name[..<$0] } ?? name[...]
        }
    }
}
