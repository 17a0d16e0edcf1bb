import JSONAPI

/// The resource types the example service serves, and what each holds. Every rule of the
/// service (allowed attributes, include paths, sparse fieldsets, sort fields) derives from it.
struct ResourceSchema: Sendable {
    /// A relationship and the type it points to.
    struct Relation: Sendable {
        var type: String
        var isToMany: Bool
    }

    var type: String
    /// Attribute names; those in `required` must be present on create.
    var attributes: [String]
    var required: Set<String>
    var relationships: [String: Relation]

    static let all: [String: ResourceSchema] = [
        "articles": ResourceSchema(
            type: "articles", attributes: ["title", "body", "createdAt"], required: ["title"],
            relationships: [
                "author": Relation(type: "people", isToMany: false),
                "comments": Relation(type: "comments", isToMany: true),
                "tags": Relation(type: "tags", isToMany: true),
            ]),
        "people": ResourceSchema(type: "people", attributes: ["name"], required: ["name"], relationships: [:]),
        "comments": ResourceSchema(
            type: "comments", attributes: ["body"], required: ["body"],
            relationships: ["author": Relation(type: "people", isToMany: false)]),
        "tags": ResourceSchema(type: "tags", attributes: ["name"], required: ["name"], relationships: [:]),
    ]

    /// Include paths reachable from this type, up to two relationships deep.
    var includePaths: Set<String> {
        var paths: Set<String> = []
        for (name, relation) in relationships {
            paths.insert(name)
            for nested in ResourceSchema.all[relation.type]?.relationships.keys.sorted() ?? [] {
                paths.insert(name + "." + nested)
            }
        }
        return paths
    }

    /// The longest value a filter compares (in Unicode scalars, as JSON Schema's `maxLength`
    /// counts): a few filters of that length and every other parameter fit the parser's query
    /// length limit, percent-encoded.
    static let maximumFilterLength = 256

    /// The query rules of this type's endpoints: collections add sorting, page-based pagination
    /// (10 per page unless `page[size]` asks for up to `maximumPageSize`) and
    /// `filter[ATTRIBUTE]` (exact match, at most ``maximumFilterLength`` characters).
    func rules(collection: Bool, maximumPageSize: Int = ExampleServer.defaultMaximumPageSize) -> QueryRules {
        var fields: [String: Set<String>] = [:]
        for schema in ResourceSchema.all.values {
            fields[schema.type] = Set(schema.attributes).union(schema.relationships.keys)
        }
        let fieldsets = QueryRules.Fieldsets.only(fields)
        guard collection else { return QueryRules(includePaths: .only(includePaths), fieldsets: fieldsets) }
        let attributes = Set(attributes)
        return QueryRules(
            includePaths: .only(includePaths), fieldsets: fieldsets, sortFields: .only(attributes.union(["id"])),
            pagination: .pages(defaultSize: min(10, maximumPageSize), maximumSize: maximumPageSize),
            filter: { filter throws(QueryFailure) in
                var problems: [QueryProblem] = []
                for entry in filter.entries {
                    if entry.path.count != 1 || !attributes.contains(entry.path[0]) {
                        problems.append(
                            .invalidFilter(
                                entry,
                                detail: "filters are supported on \(attributes.sorted().joined(separator: ", ")) only"))
                    } else if entry.value.unicodeScalars.count > Self.maximumFilterLength {
                        problems.append(
                            .invalidFilter(
                                entry, detail: "a filter value is at most \(Self.maximumFilterLength) characters"))
                    }
                }
                guard problems.isEmpty else { throw QueryFailure(problems) }
            })
    }
}
