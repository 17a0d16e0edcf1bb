import JSONAPI
import OpenAPIKit

extension QueryRules {
    /// The JSON:API query parameters an endpoint with these rules accepts, as OpenAPI query
    /// parameters: what `JSONAPIQuery(parsing:rules:)` lets through is
    /// what the parameters describe.
    ///
    /// | Rule | Parameters |
    /// |---|---|
    /// | `includePaths` | `include`: comma-separated paths; with a set, each path and its prefixes |
    /// | `fieldsets` | `fields[TYPE]` per type of the set, each an enum of its fields; with `.any`, `fields` as a `deepObject` |
    /// | `sortFields` | `sort`: comma-separated fields, each also with `-` |
    /// | `pagination` | `page[number]`/`page[size]`, `page[offset]`/`page[limit]` or `page[after]`/`page[before]`/`page[size]`, with the default and maximum size |
    /// | `filter` | `filter` as a `deepObject` (`filter[author][name]=ann`), its members the endpoint's |
    /// | `customParameters` | with a set, one string parameter per name |
    ///
    /// A parameter family the rules do not support is left out (a request using it gets 400).
    /// `.any` custom parameters and extension parameters have no names to list.
    ///
    /// ```swift
    /// let rules = QueryRules(
    ///     includePaths: ["author", "comments.author"], sortFields: ["created", "title"],
    ///     pagination: .pages(defaultSize: 20, maximumSize: 100))
    /// let parameters = rules.openAPIParameters
    /// parameters.map(\.name)   // ["include", "fields", "sort", "page[number]", "page[size]"]
    /// // include: {"type": "array", "items": {"enum": ["author", "comments", "comments.author"]}}
    /// ```
    public var openAPIParameters: [OpenAPI.Parameter] { openAPIParameters(options: QueryOptions()) }

    /// The query parameters of `openAPIParameters`, bounded by the limits `options` puts on a
    /// query as `JSONAPIQuery(parsing:rules:options:)` enforces them, and with the filter the
    /// endpoint's rule accepts when `filter` describes it.
    ///
    /// | Limit | Schema |
    /// |---|---|
    /// | `maximumSortFields` | `sort`: 1 to that many fields |
    /// | `maximumIncludePaths`, `maximumIncludeDepth` | `include`: at most that many paths, each at most that deep |
    /// | `maximumQueryBytes` | every free-form string: `maxLength` so that the parameter alone fits the query (`QueryOptions.maximumValueLength(ofParameter:)`) |
    /// | 64-bit integers | `page[number]`, `page[offset]`: at most `Int.max` |
    ///
    /// ```swift
    /// let rules = QueryRules(sortFields: ["title"], pagination: .pages(defaultSize: 10, maximumSize: 50))
    /// let parameters = rules.openAPIParameters(
    ///     options: QueryOptions(),
    ///     filter: .object(properties: ["title": .string(required: false)], additionalProperties: .a(false)))
    /// // sort: {"type": "array", "minItems": 1, "maxItems": 16, ...}
    /// // page[size]: {"type": "integer", "minimum": 1, "maximum": 50, "default": 10}
    /// // filter: that object, as a deepObject (`filter[title]=...`)
    /// ```
    ///
    /// - Parameters:
    ///   - options: The limits the endpoint parses queries with.
    ///   - filter: The schema of the `filter` object the endpoint's filter rule accepts (its
    ///     members are the names inside the brackets); nil describes it as any object. Ignored
    ///     when the rules do not filter.
    /// - Returns: The parameters, in the order of the table of `openAPIParameters`.
    public func openAPIParameters(options: QueryOptions, filter: JSONSchema? = nil) -> [OpenAPI.Parameter] {
        var parameters: [OpenAPI.Parameter] = []
        if let include = Self.includeParameter(includePaths, options: options) { parameters.append(include) }
        parameters += Self.fieldsParameters(fieldsets, options: options)
        if let sort = Self.sortParameter(sortFields, options: options) { parameters.append(sort) }
        if let pagination { parameters += Self.pageParameters(pagination, options: options) }
        if self.filter != nil { parameters.append(Self.filterParameter(filter)) }
        if case .only(let names) = customParameters {
            for name in names.sorted() {
                parameters.append(
                    .query(
                        name: name, schema: .string(maxLength: options.maximumValueLength(ofParameter: name)),
                        description: "An implementation-specific parameter of this endpoint."))
            }
        }
        return parameters
    }

    /// A comma-separated list (`style: form`, `explode: false`): `include=author,comments`.
    private static func commaSeparated(
        _ items: JSONSchema, minItems: Int? = nil, maxItems: Int? = nil
    ) -> OpenAPI.Parameter.SchemaContext {
        OpenAPI.Parameter.SchemaContext(
            .array(minItems: minItems, maxItems: maxItems, items: items), style: .form, explode: false)
    }

    /// A relationship path or a field of one: member names (without @ or namespace) joined by
    /// `.`, `depth` of them at most (nil: any number).
    static func pathPattern(depth: Int?, descending: Bool = false) -> String {
        let name = JSONAPISchemas.plainMemberNamePattern
        let end = JSONAPISchemas.patternEnd
        guard depth != 1 else { return "^" + (descending ? "-?" : "") + name + end }
        let more = depth.map { "{0,\($0 - 1)}" } ?? "*"
        return "^" + (descending ? "-?" : "") + name + "(?:\\." + name + ")" + more + end
    }

    private static func includeParameter(_ allowed: Allowed, options: QueryOptions) -> OpenAPI.Parameter? {
        let items: JSONSchema
        switch allowed {
        case .unsupported: return nil
        case .any:
            items = .string(
                maxLength: options.maximumValueLength(ofParameter: "include"),
                pattern: pathPattern(depth: options.maximumIncludeDepth))
        case .only(let paths):
            // Allowing `comments.author` allows `comments`: the parser accepts every prefix.
            var closure: Set<String> = []
            for path in paths {
                var prefix = ""
                for part in path.split(separator: ".", omittingEmptySubsequences: false) {
                    prefix = prefix.isEmpty ? String(part) : prefix + "." + part
                    closure.insert(prefix)
                }
            }
            items = .string(allowedValues: closure.sorted().map { AnyCodable($0) })
        }
        return .query(
            name: "include", allowEmptyValue: true,
            schemaOrContent: .init(commaSeparated(items, maxItems: options.maximumIncludePaths)),
            description:
                "Relationship paths of related resources to include in the response (`comments.author`), at most "
                + "\(options.maximumIncludePaths), each at most \(options.maximumIncludeDepth) relationships deep; "
                + "empty to include none.")
    }

    private static func fieldsParameters(_ fieldsets: Fieldsets, options: QueryOptions) -> [OpenAPI.Parameter] {
        switch fieldsets {
        case .unsupported: return []
        case .any:
            let name = JSONAPISchemas.plainMemberNamePattern
            let fields = "^(?:" + name + "(?:," + name + ")*)?" + JSONAPISchemas.patternEnd
            return [
                .query(
                    name: "fields",
                    schemaOrContent: .init(
                        .init(
                            .object(
                                patternProperties: [
                                    "^" + name + JSONAPISchemas.patternEnd: .string(
                                        maxLength: options.maximumValueLength(ofParameter: "fields[]"),
                                        pattern: fields)
                                ],
                                additionalProperties: .a(false)),
                            style: .deepObject, explode: true)),
                    description:
                        "Sparse fieldsets: `fields[TYPE]` lists the attributes and relationships of TYPE "
                        + "to return, comma-separated.")
            ]
        case .only(let types):
            return types.keys.sorted().map { type in
                let fields = (types[type] ?? []).sorted().map { AnyCodable($0) }
                return .query(
                    name: "fields[\(type)]", allowEmptyValue: true,
                    schemaOrContent: .init(commaSeparated(.string(allowedValues: fields))),
                    description: "The attributes and relationships of `\(type)` to return; empty for none.")
            }
        }
    }

    private static func sortParameter(_ allowed: Allowed, options: QueryOptions) -> OpenAPI.Parameter? {
        let items: JSONSchema
        switch allowed {
        case .unsupported: return nil
        case .any:
            items = .string(
                maxLength: options.maximumValueLength(ofParameter: "sort"),
                pattern: pathPattern(depth: nil, descending: true))
        case .only(let fields):
            items = .string(allowedValues: fields.sorted().flatMap { [AnyCodable($0), AnyCodable("-" + $0)] })
        }
        return .query(
            name: "sort",
            schemaOrContent: .init(commaSeparated(items, minItems: 1, maxItems: options.maximumSortFields)),
            description:
                "Sort fields in order of precedence, 1 to \(options.maximumSortFields); a leading `-` sorts descending."
        )
    }

    private static func pageParameters(_ pagination: Pagination, options: QueryOptions) -> [OpenAPI.Parameter] {
        let size = JSONSchema.integer(
            maximum: (pagination.maximumSize, exclusive: false), minimum: (1, exclusive: false),
            defaultValue: AnyCodable(pagination.defaultSize))
        // Page numbers and offsets are parsed as `Int`: larger digits are refused.
        switch pagination.strategy {
        case .pageNumber:
            return [
                .query(
                    name: "page[number]",
                    schema: .integer(
                        maximum: (Int.max, exclusive: false), minimum: (1, exclusive: false), defaultValue: 1),
                    description: "The page to return, from 1."),
                .query(name: "page[size]", schema: size, description: "The number of resources per page."),
            ]
        case .offset:
            return [
                .query(
                    name: "page[offset]",
                    schema: .integer(
                        maximum: (Int.max, exclusive: false), minimum: (0, exclusive: false), defaultValue: 0),
                    description: "The number of resources to skip."),
                .query(name: "page[limit]", schema: size, description: "The largest number of resources to return."),
            ]
        case .cursor:
            let range =
                pagination.allowsRangePagination
                ? " With `page[before]` too and no `page[size]`, a page of \(pagination.maximumSize)."
                : " Not together with `page[before]`."
            return [
                .query(
                    name: "page[after]",
                    schema: .string(
                        minLength: 1, maxLength: options.maximumValueLength(ofParameter: "page[after]")),
                    description: "Return the resources after this cursor." + range),
                .query(
                    name: "page[before]",
                    schema: .string(
                        minLength: 1, maxLength: options.maximumValueLength(ofParameter: "page[before]")),
                    description: "Return the resources before this cursor." + range),
                .query(name: "page[size]", schema: size, description: "The largest number of resources to return."),
            ]
        }
    }

    private static func filterParameter(_ schema: JSONSchema?) -> OpenAPI.Parameter {
        .query(
            name: "filter",
            schemaOrContent: .init(
                .init(schema ?? .object(additionalProperties: .a(true)), style: .deepObject, explode: true)),
            description: "Filters (`filter[author][name]=ann`); their members and meaning are this endpoint's.")
    }
}

extension QueryOptions {
    /// The longest value a query parameter named `name` can have within
    /// `maximumQueryBytes`: the query holding that parameter alone, its name percent-encoded
    /// as clients write it (`page%5Bafter%5D=`), and every character of the value written as one
    /// byte. A longer value makes any query too long; a shorter one that percent-encoding
    /// lengthens can still be refused, as the query's length is of its encoded bytes.
    ///
    /// ```swift
    /// QueryOptions().maximumValueLength(ofParameter: "page[after]")   // 16384 - 16
    /// ```
    ///
    /// - Parameter name: The parameter's name, decoded.
    /// - Returns: The length, at least 0.
    public func maximumValueLength(ofParameter name: String) -> Int {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let encodedName = name.utf8.reduce(0) { $0 + (unreserved.contains($1) ? 1 : 3) }
        return max(0, maximumQueryBytes - encodedName - 1)
    }
}
