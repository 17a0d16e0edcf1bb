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
    public var openAPIParameters: [OpenAPI.Parameter] {
        var parameters: [OpenAPI.Parameter] = []
        if let include = Self.includeParameter(includePaths) { parameters.append(include) }
        parameters += Self.fieldsParameters(fieldsets)
        if let sort = Self.sortParameter(sortFields) { parameters.append(sort) }
        if let pagination { parameters += Self.pageParameters(pagination) }
        if filter != nil { parameters.append(Self.filterParameter) }
        if case .only(let names) = customParameters {
            for name in names.sorted() {
                parameters.append(
                    .query(
                        name: name, schema: .string,
                        description: "An implementation-specific parameter of this endpoint."))
            }
        }
        return parameters
    }

    /// A comma-separated list (`style: form`, `explode: false`): `include=author,comments`.
    private static func commaSeparated(_ items: JSONSchema) -> OpenAPI.Parameter.SchemaContext {
        OpenAPI.Parameter.SchemaContext(.array(items: items), style: .form, explode: false)
    }

    private static func includeParameter(_ allowed: Allowed) -> OpenAPI.Parameter? {
        let items: JSONSchema
        switch allowed {
        case .unsupported: return nil
        case .any: items = .string(minLength: 1)
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
            name: "include", allowEmptyValue: true, schemaOrContent: .init(commaSeparated(items)),
            description:
                "Relationship paths of related resources to include in the response (`comments.author`); "
                + "empty to include none.")
    }

    private static func fieldsParameters(_ fieldsets: Fieldsets) -> [OpenAPI.Parameter] {
        switch fieldsets {
        case .unsupported: return []
        case .any:
            return [
                .query(
                    name: "fields",
                    schemaOrContent: .init(
                        .init(
                            .object(additionalProperties: .b(.string)), style: .deepObject, explode: true)),
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

    private static func sortParameter(_ allowed: Allowed) -> OpenAPI.Parameter? {
        let items: JSONSchema
        switch allowed {
        case .unsupported: return nil
        case .any: items = .string(pattern: "^-?[^-,][^,]*$")
        case .only(let fields):
            items = .string(allowedValues: fields.sorted().flatMap { [AnyCodable($0), AnyCodable("-" + $0)] })
        }
        return .query(
            name: "sort", schemaOrContent: .init(commaSeparated(items)),
            description: "Sort fields in order of precedence; a leading `-` sorts descending.")
    }

    private static func pageParameters(_ pagination: Pagination) -> [OpenAPI.Parameter] {
        let size = JSONSchema.integer(
            maximum: (pagination.maximumSize, exclusive: false), minimum: (1, exclusive: false),
            defaultValue: AnyCodable(pagination.defaultSize))
        switch pagination.strategy {
        case .pageNumber:
            return [
                .query(
                    name: "page[number]",
                    schema: .integer(minimum: (1, exclusive: false), defaultValue: 1),
                    description: "The page to return, from 1."),
                .query(name: "page[size]", schema: size, description: "The number of resources per page."),
            ]
        case .offset:
            return [
                .query(
                    name: "page[offset]",
                    schema: .integer(minimum: (0, exclusive: false), defaultValue: 0),
                    description: "The number of resources to skip."),
                .query(name: "page[limit]", schema: size, description: "The largest number of resources to return."),
            ]
        case .cursor:
            let range = pagination.allowsRangePagination ? "" : " Not together with `page[before]`."
            return [
                .query(
                    name: "page[after]", schema: .string(minLength: 1),
                    description: "Return the resources after this cursor." + range),
                .query(
                    name: "page[before]", schema: .string(minLength: 1),
                    description: "Return the resources before this cursor." + range),
                .query(name: "page[size]", schema: size, description: "The largest number of resources to return."),
            ]
        }
    }

    private static var filterParameter: OpenAPI.Parameter {
        .query(
            name: "filter",
            schemaOrContent: .init(.init(.object(additionalProperties: .a(true)), style: .deepObject, explode: true)),
            description: "Filters (`filter[author][name]=ann`); their members and meaning are this endpoint's.")
    }
}
