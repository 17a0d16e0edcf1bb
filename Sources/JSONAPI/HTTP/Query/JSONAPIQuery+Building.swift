extension JSONAPIQuery: CustomStringConvertible {
    /// The query string that asks for this query, without the `?`, in a canonical form.
    ///
    /// Parameters come in a fixed order: `include`, `fields[TYPE]` (types in byte order, each
    /// fieldset's fields in byte order), `sort`, the `page` parameters, the `filter` entries and
    /// the other ``parameters`` in their order. Names and values are percent-encoded as
    /// `application/x-www-form-urlencoded` decodes them, brackets in names included
    /// (`fields%5Barticles%5D`: RFC 3986 does not allow them in a query unencoded), except that a
    /// space is written `%20` rather than `+` and values keep `,` `:` `@` `/`. Parsing the result
    /// with rules that accept the query gives back an equal query.
    ///
    /// ```swift
    /// var query = JSONAPIQuery(include: ["comments.author"], fields: ["articles": ["title", "body"]])
    /// query.filter.entries.append(.init(path: ["title"], value: "a+b & c"))
    /// query.queryString
    /// // include=comments.author&fields%5Barticles%5D=body,title&filter%5Btitle%5D=a%2Bb%20%26%20c
    /// ```
    public var queryString: String {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        func add(_ name: some StringProtocol, _ value: some StringProtocol) {
            if !output.isEmpty { output.append(UInt8(ascii: "&")) }
            QueryPercentEncoding.append(name, isName: true, to: &output)
            output.append(UInt8(ascii: "="))
            QueryPercentEncoding.append(value, isName: false, to: &output)
        }
        func byteOrder(_ lhs: String, _ rhs: String) -> Bool { lhs.utf8.lexicographicallyPrecedes(rhs.utf8) }

        if let include { add("include", include.joined(separator: ",")) }
        for type in fields.keys.sorted(by: byteOrder) {
            let names = fields[type, default: []].sorted(by: byteOrder)
            add("fields[" + type + "]", names.joined(separator: ","))
        }
        if !sort.isEmpty { add("sort", sort.map(\.description).joined(separator: ",")) }
        for parameter in page?.parameters ?? [] { add(parameter.name, parameter.value) }
        for entry in filter { add(entry.parameter, entry.value) }
        for parameter in parameters { add(parameter.name, parameter.value) }
        return String(decoding: output, as: UTF8.self)
    }

    /// ``queryString``.
    public var description: String { queryString }
}
