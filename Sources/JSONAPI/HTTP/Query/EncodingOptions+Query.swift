extension EncodingOptions {
    /// Options that answer `query`: its `include` paths choose what goes into `included` (none
    /// when it has no `include`: ``includesRelatedByDefault`` is `false`), and its sparse
    /// fieldsets trim the attributes and relationships of their types. Everything else is the
    /// default.
    ///
    /// ```swift
    /// let query = try JSONAPIQuery(parsing: request.query, rules: rules)
    /// let bytes = try JSONAPIEncoder(options: EncodingOptions(query: query)).encode(articles)
    /// ```
    public init(query: JSONAPIQuery) {
        self.init()
        includesRelatedByDefault = false
        apply(query)
    }

    /// Makes these options answer `query`.
    ///
    /// - `include` present: ``includePaths`` becomes its paths (each with its prefixes, as the
    ///   encoder reads them; `include=` includes nothing), and exactly those are included, with
    ///   `"included": []` when none matched. Absent: ``includePaths`` is left as it is, the
    ///   endpoint's default: nil includes every related model present when
    ///   ``includesRelatedByDefault`` is set, nothing otherwise (``init(query:)`` clears it;
    ///   options of your own for a request should too, unless the endpoint includes by default).
    /// - Each `fields[TYPE]` replaces ``fields``'s entry for that type; other types keep theirs.
    ///
    /// A relationship left out by a sparse fieldset is not followed into `included`, even when
    /// `include` names it, so the response keeps full linkage.
    ///
    /// ```swift
    /// var options = EncodingOptions()
    /// options.prettyPrinted = true
    /// options.apply(query)
    /// ```
    public mutating func apply(_ query: JSONAPIQuery) {
        if let include = query.include { includePaths = Set(include) }
        for (type, names) in query.fields { fields[type] = names }
    }
}
