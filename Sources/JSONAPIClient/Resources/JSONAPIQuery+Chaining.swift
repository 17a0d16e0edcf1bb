import JSONAPI

/// Building a request's query one step at a time, with resource types named by their models.
///
/// ```swift
/// let query = JSONAPIQuery()
///     .including("author", "comments.author")
///     .fields(Article.self, "title", "author")
///     .fields(Person.self, "name")
///     .sorted(by: "-createdAt", "title")
///     .paged(number: 2, size: 20)
///     .filtered("tag", equals: "swift")
/// query.queryString
/// // include=author,comments.author&fields[articles]=author,title&fields[people]=name
/// // &sort=-createdAt,title&page[number]=2&page[size]=20&filter[tag]=swift
/// ```
extension JSONAPIQuery {
    /// Adds include paths (`include=author,comments.author`).
    public func including(_ paths: String...) -> JSONAPIQuery {
        var copy = self
        copy.include = (include ?? []) + paths
        return copy
    }

    /// Asks for only these fields of `Model`'s type (`fields[articles]=title,author`).
    public func fields<Model: JSONAPIResource>(_ type: Model.Type, _ names: String...) -> JSONAPIQuery {
        fields(type: Model.resourceType, names)
    }

    /// Asks for only these fields of `type`.
    public func fields(type: String, _ names: [String]) -> JSONAPIQuery {
        var copy = self
        copy.fields[type, default: []].formUnion(names)
        return copy
    }

    /// Adds sort fields, `-name` for descending (`sort=-createdAt,title`).
    public func sorted(by fields: SortField...) -> JSONAPIQuery {
        var copy = self
        copy.sort += fields
        return copy
    }

    /// Asks for page `number` (from 1) of `size` items.
    public func paged(number: Int, size: Int) -> JSONAPIQuery {
        var copy = self
        copy.page = .number(number, size: size)
        return copy
    }

    /// Asks for `limit` items after skipping `offset`.
    public func paged(offset: Int, limit: Int) -> JSONAPIQuery {
        var copy = self
        copy.page = .offset(offset, limit: limit)
        return copy
    }

    /// Asks for `size` items after (or before) a cursor.
    public func paged(after: String? = nil, before: String? = nil, size: Int) -> JSONAPIQuery {
        var copy = self
        copy.page = .cursor(after: after, before: before, size: size)
        return copy
    }

    /// Adds a filter entry: `filtered("author", "name", equals: "Ann")` is `filter[author][name]=Ann`.
    public func filtered(_ path: String..., equals value: String) -> JSONAPIQuery {
        var copy = self
        copy.filter.entries.append(Filter.Entry(path: path, value: value))
        return copy
    }

    /// Adds an implementation-specific parameter (`withDrafts=1`).
    public func adding(parameter name: String, value: String) -> JSONAPIQuery {
        var copy = self
        copy.parameters.append(Parameter(name: name, value: value))
        return copy
    }
}
