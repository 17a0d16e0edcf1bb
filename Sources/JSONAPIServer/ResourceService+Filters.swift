import JSONAPI

// The `filter` parameters of a collection: `filter[NAME]=VALUE` (the attribute equals the value,
// typed by the attribute) and `filter=EXPRESSION` (``FilterExpression``). Both are checked against
// the declaration by the query rules, every problem a 400 naming the parameter (and, in an
// expression, the byte offset); then each becomes a ``ResourceFilter`` on the type's own members,
// a field through relationships turned into linkage to the related resources that match.

extension ResourceService {
    /// The URI of the JSON:API profile that gives the `filter` parameters the meaning the
    /// service's filter language defines (<doc:FilterLanguage>): `filter[NAME]=VALUE` and
    /// `filter=EXPRESSION`.
    ///
    /// A collection read that applied a `filter` names it in the `profile` parameter of its
    /// `Content-Type` (``ResourceResponse/profiles``), so a client can tell how its filter was
    /// read:
    ///
    /// ```
    /// GET /books?filter=greaterThan(year,1960)
    /// Content-Type: application/vnd.api+json; profile="urn:uuid:…"   (this URI)
    /// ```
    ///
    /// The URI is a name, minted once for this language and never reused: a client that knows
    /// the language compares it, and a request whose `Accept` names it is answered as any other.
    public static let filterProfile = "urn:uuid:7f51c128-c6a3-457b-8401-953818e9a3a6"

    /// The profiles a collection read applies by its query: ``filterProfile`` when it has a
    /// `filter` parameter of either form.
    func profiles(appliedBy query: JSONAPIQuery) -> [String] {
        query.filter.isEmpty ? [] : [Self.filterProfile]
    }

    /// The problems of one `filter` parameter on `resource`'s collection.
    func problems(of entry: JSONAPIQuery.Filter.Entry, _ resource: any ServedResource) -> [QueryProblem] {
        switch entry.path.count {
        case 0:
            do {
                let expression = try FilterExpression(parsing: entry.value, maximumNesting: maximumFilterNesting)
                return problems(of: expression, resource).map { Self.problem($0.message, at: $0.offset) }
            } catch {
                return [Self.problem(error.message, at: error.offset)]
            }
        case 1:
            let name = entry.path[0]
            let filterable = resource.fields.filterable.subtracting(resource.fields.hidden)
            guard filterable.contains(name) else {
                return [
                    .invalidFilter(
                        entry, detail: "filterable attributes: \(filterable.sorted().joined(separator: ", "))")
                ]
            }
            if case .failure(let detail) = Self.typed(entry.value, kind: resource.shape.attribute(name)?.value.kind) {
                return [.invalidFilter(entry, detail: "`\(name)` \(detail)")]
            }
            return []
        default:
            return [.invalidFilter(entry, detail: "use filter[NAME]=VALUE or filter=EXPRESSION")]
        }
    }

    static func problem(_ message: String, at offset: Int) -> QueryProblem {
        QueryProblem(
            code: .invalidFilter, parameter: "filter", detail: "\(message) (offset \(offset))",
            meta: ["offset": JSON(offset)])
    }

    /// A literal of `filter[NAME]=VALUE`, typed by the attribute.
    enum Typed {
        case success(JSON)
        case failure(String)
    }

    static func typed(_ value: String, kind: ValueShape.Kind?) -> Typed {
        switch kind {
        case .integer?:
            guard let number = Int64(value) else { return .failure("is an integer") }
            return .success(.int(number))
        case .number?:
            guard let number = Double(value), number.isFinite else { return .failure("is a number") }
            return .success(.double(number))
        case .boolean?:
            guard value == "true" || value == "false" else { return .failure("is `true` or `false`") }
            return .success(.bool(value == "true"))
        default:
            return .success(.string(value))
        }
    }

    // MARK: Checking an expression

    /// Where a field leads: the declaration that holds its last member, and that member's shape.
    enum Target {
        case attribute(any ServedResource, MemberShape)
        /// The resource id (`id`), compared for equality only.
        case identifier(any ServedResource)
        case relationship(any ServedResource, RelationshipShape)
        case problem(String)
    }

    func target(of field: FilterField, from resource: any ServedResource) -> Target {
        var current = resource
        for (index, name) in field.names.enumerated() {
            let isLast = index == field.names.count - 1
            if isLast, name == "id" {
                guard current.fields.filterable.contains(name) else {
                    return .problem("`\(current.type)` cannot be filtered by `id`")
                }
                return .identifier(current)
            }
            if isLast, let member = current.shape.attribute(name), !current.fields.hidden.contains(name) {
                guard current.fields.filterable.contains(name) else {
                    return .problem("`\(current.type)` cannot be filtered by `\(name)`")
                }
                return .attribute(current, member)
            }
            guard let relationship = current.shape.relationship(name), !current.fields.hidden.contains(name) else {
                return .problem("`\(current.type)` has no \(isLast ? "filterable member" : "relationship") `\(name)`")
            }
            if isLast { return .relationship(current, relationship) }
            guard index < maximumIncludeDepth else {
                return .problem("a field goes through at most \(maximumIncludeDepth) relationships")
            }
            guard relationship.targetResourceTypes.count == 1, let next = resources[relationship.targetResourceTypes[0]]
            else {
                return .problem("`\(name)` links to no single served type")
            }
            current = next
        }
        return .problem("a field needs a name")
    }

    /// Every problem of `expression` against the declarations: unknown or unfilterable fields,
    /// values of the wrong JSON type, text matches on what is not text.
    func problems(of expression: FilterExpression, _ resource: any ServedResource) -> [FilterSyntaxError] {
        var problems: [FilterSyntaxError] = []
        func attribute(_ field: FilterField) -> MemberShape? {
            switch target(of: field, from: resource) {
            case .attribute(_, let member): return member
            case .identifier: problems.append(FilterSyntaxError(Self.identifierRule, offset: field.offset))
            case .relationship(let owner, _):
                problems.append(
                    FilterSyntaxError("`\(field)` is a relationship of `\(owner.type)`", offset: field.offset))
            case .problem(let message): problems.append(FilterSyntaxError(message, offset: field.offset))
            }
            return nil
        }
        func value(_ value: JSON, fits member: MemberShape, _ field: FilterField) {
            let fits: Bool
            switch (member.value.kind, value) {
            case (.integer, .int), (.integer, .double), (.number, .int), (.number, .double), (.boolean, .bool),
                (.string, .string), (.enumeration, .string), (.enumeration, .int):
                fits = true
            default: fits = false
            }
            if !fits {
                problems.append(
                    FilterSyntaxError(
                        "`\(field)` is \(member.value.typeName); \((try? value.jsonString()) ?? "the value") does not fit",
                        offset: field.offset))
            }
        }
        // `id`: a string, or an integer written without quotes; equality only.
        func identifier(_ field: FilterField, _ literals: [JSON]) {
            switch target(of: field, from: resource) {
            case .identifier:
                for literal in literals {
                    switch literal {
                    case .string, .int: continue
                    default:
                        problems.append(
                            FilterSyntaxError(
                                "`\(field)` is an id; \((try? literal.jsonString()) ?? "the value") is not a string",
                                offset: field.offset))
                    }
                }
            case .problem(let message): problems.append(FilterSyntaxError(message, offset: field.offset))
            default: _ = attribute(field)
            }
        }
        var pending = [expression]
        while let next = pending.popLast() {
            switch next {
            case .compare(let field, let comparison, let literal)
            where field.names.last == "id" && [.equal, .notEqual].contains(comparison):
                identifier(field, [literal])
            case .oneOf(let field, let literals) where field.names.last == "id":
                identifier(field, literals)
            case .compare(let field, _, let literal):
                if let member = attribute(field) { value(literal, fits: member, field) }
            case .text(let field, _, _):
                if let member = attribute(field), case .string = member.value.kind {
                } else if problems.last?.offset != field.offset {
                    problems.append(FilterSyntaxError("`\(field)` is not text", offset: field.offset))
                }
            case .oneOf(let field, let literals):
                if let member = attribute(field) { for literal in literals { value(literal, fits: member, field) } }
            case .isNull(let field):
                switch target(of: field, from: resource) {
                case .problem(let message): problems.append(FilterSyntaxError(message, offset: field.offset))
                case .identifier: problems.append(FilterSyntaxError(Self.identifierRule, offset: field.offset))
                default: break
                }
            case .and(let items), .or(let items): pending += items.reversed()
            case .not(let item): pending.append(item)
            }
        }
        return problems
    }

    /// Why `id` is refused where an attribute would be compared otherwise.
    static let identifierRule = "`id` is compared for equality only (equals, notEquals, any)"

    /// A literal compared with `id`: ids are strings, and an integer stands for its digits.
    static func identifierLiteral(_ value: JSON) -> JSON {
        if case .int(let number) = value { return .string(String(number)) }
        return value
    }

    // MARK: Resolving

    /// The data source's filter for a collection request's `filter` parameters (already checked).
    func resolveFilter(
        _ filter: JSONAPIQuery.Filter, of resource: any ServedResource, _ request: ResourceRequest
    ) async throws -> ResourceFilter {
        var conditions: [ResourceFilter] = []
        for entry in filter {
            if entry.path.isEmpty {
                let expression = try FilterExpression(parsing: entry.value, maximumNesting: maximumFilterNesting)
                conditions.append(try await resolve(expression, on: resource, request))
            } else if case .success(let value) = Self.typed(
                entry.value, kind: resource.shape.attribute(entry.path[0])?.value.kind)
            {
                conditions.append(.equals(entry.path[0], value))
            }
        }
        return conditions.count == 1 ? conditions[0] : .all(conditions)
    }

    /// `expression` on `resource`'s own members: each field through relationships becomes
    /// `.related(relationship, ids)`, the ids of the related resources for which the rest holds.
    func resolve(
        _ expression: FilterExpression, on resource: any ServedResource, _ request: ResourceRequest
    ) async throws -> ResourceFilter {
        switch expression {
        case .compare(let field, let comparison, let value):
            let value = field.names.last == "id" ? Self.identifierLiteral(value) : value
            return try await through(field, resource, request) { .compare($0, comparison, value) }
        case .text(let field, let match, let text):
            return try await through(field, resource, request) { .text($0, match, text) }
        case .oneOf(let field, let values):
            let values = field.names.last == "id" ? values.map(Self.identifierLiteral) : values
            return try await through(field, resource, request) { .oneOf($0, values) }
        case .isNull(let field):
            return try await through(field, resource, request) { .isNull($0) }
        case .and(let items):
            var resolved: [ResourceFilter] = []
            for item in items { resolved.append(try await resolve(item, on: resource, request)) }
            return .all(resolved)
        case .or(let items):
            var resolved: [ResourceFilter] = []
            for item in items { resolved.append(try await resolve(item, on: resource, request)) }
            return .any(resolved)
        case .not(let item):
            return .not(try await resolve(item, on: resource, request))
        }
    }

    /// The condition `leaf` on the last member of `field`, seen from `resource`.
    func through(
        _ field: FilterField, _ resource: any ServedResource, _ request: ResourceRequest,
        leaf: (String) -> ResourceFilter
    ) async throws -> ResourceFilter {
        guard field.names.count > 1 else { return leaf(field.names.first ?? "") }
        let name = field.names[0]
        guard let type = resource.shape.relationship(name)?.targetResourceTypes.first, let target = resources[type]
        else { throw QueryFailure(Self.problem("`\(name)` links to no served type", at: field.offset)) }
        let inner = try await through(
            FilterField(Array(field.names.dropFirst()), offset: field.offset), target, request, leaf: leaf)
        // A source that joins the related resources itself gets the condition on them, unless
        // the related type has an authorization rule (which only the service can apply).
        if !target.isAuthorized, resource.dataSource.evaluatesFilter(through: name, to: target.dataSource) {
            return .through(name, inner)
        }
        let records = try await target.list(ResourceListQuery(filter: inner)).models
        let shown = try await visible(records, of: target, request)
        return .related(name, Set(shown.compactMap(\.id)))
    }
}
