import JSONAPI

extension ResourceService {
    /// `GET /TYPE`.
    ///
    /// With `within`, the resources of a to-many relationship instead (`GET /TYPE/ID/NAME` asked
    /// to sort, filter or page them): the collection narrowed to them, read after the owner was
    /// (so not authorized as a list).
    func collection(
        _ resource: any ServedResource, _ request: ResourceRequest, within: ResourceFilter? = nil
    ) async throws -> ResourceResponse {
        if within == nil { try await authorize(resource, .list, request) }
        let query = try JSONAPIQuery(
            parsing: request.query, rules: rules(for: resource, collection: true), options: configuration.queryOptions)
        var filter = try await resolveFilter(query.filter, of: resource, request)
        if let within { filter = .all([within, filter]) }
        var listQuery = ResourceListQuery(sort: query.sort, filter: filter, page: query.page)
        if case .cursor(let after, let before, _)? = query.page {
            listQuery.after = try after.map { try Self.position($0, parameter: "page[after]", sort: query.sort) }
            listQuery.before = try before.map { try Self.position($0, parameter: "page[before]", sort: query.sort) }
        }
        if let fieldset = query.fields[resource.type] {
            // What the answer reads: the fieldset, the relationships `include` follows, and the
            // values a keyset page's cursors are made of.
            var fields = fieldset
            for path in query.include ?? [] {
                fields.insert(String(path.prefix { $0 != "." }))
            }
            if case .cursor? = query.page { fields.formUnion(query.sort.map(\.name)) }
            listQuery.fields = fields
        }
        let list = try await resource.list(listQuery)
        let total = list.total
        var records = try await visible(list.models, of: resource, request)
        let included = try await includes(of: records, paths: query.include, request)
        var result = PageResult(total: total, hasNextPage: list.hasNextPage)
        if case .cursor? = query.page {
            // Each resource carries its cursor (`meta.page.cursor`, as the cursor pagination
            // profile names it); `prev` and `next` start from the first and the last.
            let cursors = list.models.map { ResourcePosition(of: $0, sort: query.sort).cursor }
            let cursorOfID = Dictionary(zip(list.models.map { $0.id ?? "" }, cursors)) { first, _ in first }
            for index in records.indices {
                guard let cursor = records[index].id.flatMap({ cursorOfID[$0] }) else { continue }
                var meta = records[index].meta ?? [:]
                meta["page"] = ["cursor": JSON.string(cursor)]
                records[index].meta = meta
            }
            result = PageResult(
                total: total, hasNextPage: list.hasNextPage, hasPreviousPage: list.hasPreviousPage,
                firstCursor: cursors.first, lastCursor: cursors.last)
        }
        var links = query.page?.links(forRequest: request.target, result: result) ?? JSONAPILinks()
        if links["self"] == nil { links["self"] = JSONAPILink(href: request.target) }
        let body = try document(
            .many(records), included: included, query: query, links: links,
            meta: total.map { ["total": JSON($0)] })
        var response = ResourceResponse(status: 200, body: body)
        response.profiles = profiles(appliedBy: query)
        return try conditional(response, request)
    }

    /// `GET /TYPE/ID`.
    func show(_ resource: any ServedResource, id: String, _ request: ResourceRequest) async throws -> ResourceResponse {
        let query = try JSONAPIQuery(
            parsing: request.query, rules: rules(for: resource, collection: false), options: configuration.queryOptions)
        let record = try await existing(resource, id: id, request)
        let included = try await includes(of: [record], paths: query.include, request)
        let body = try document(
            .one(record), included: included, query: query, links: ["self": JSONAPILink(href: request.target)])
        return try conditional(ResourceResponse(status: 200, body: body), request)
    }

    /// `GET /TYPE/ID/NAME`.
    func related(
        _ resource: any ServedResource, id: String, name: String, _ request: ResourceRequest
    ) async throws -> ResourceResponse {
        let shape = try relationshipShape(resource, name)
        let record = try await existing(resource, id: id, request)
        let linkage = record.relationships[name]?.data
        let identifiers: [ResourceIdentifier] =
            switch linkage {
            case .one(let identifier)?: [identifier]
            case .many(let identifiers)?: identifiers
            case .null?, nil: []
            }
        // The query applies to the related type; with several target types, to none in particular.
        let targetType = shape.targetResourceTypes.count == 1 ? shape.targetResourceTypes[0] : nil
        let target = targetType.flatMap { resources[$0] }
        // `sort`, `filter` and `page` make a to-many's resources a collection like any other,
        // read through the related type's own rules; without them it answers the linkage, in its
        // order, and those parameters are refused as on any single-resource answer.
        if shape.cardinality == .toMany, let target, target.operations.contains(.list),
            !JSONAPIQuery.families(in: request.query, options: configuration.queryOptions)
                .isDisjoint(with: ["sort", "filter", "page"])
        {
            let ids = identifiers.filter { $0.type == target.type }.compactMap { $0.id.map(JSON.string) }
            return try await collection(target, request, within: .oneOf("id", ids))
        }
        let rules = target.map { self.rules(for: $0, collection: false) } ?? QueryRules()
        let query = try JSONAPIQuery(parsing: request.query, rules: rules, options: configuration.queryOptions)
        var related = try await load(identifiers, request)
        related = identifiers.compactMap { identifier in related.first { $0.identifier == identifier } }
        let included = try await includes(of: related, paths: query.include, request)
        let links: JSONAPILinks = ["self": JSONAPILink(href: request.target)]
        let body: [UInt8]
        if shape.cardinality == .toMany {
            body = try document(.many(related), included: included, query: query, links: links)
        } else {
            body = try document(.one(related.first), included: included, query: query, links: links)
        }
        return try conditional(ResourceResponse(status: 200, body: body), request)
    }

    /// `GET /TYPE/ID/relationships/NAME`.
    func relationship(
        _ resource: any ServedResource, id: String, name: String, _ request: ResourceRequest
    ) async throws -> ResourceResponse {
        _ = try relationshipShape(resource, name)
        // Only the parameters every endpoint takes: no include, fields, sort, page or filter.
        _ = try JSONAPIQuery(
            parsing: request.query, rules: QueryRules(fieldsets: .unsupported), options: configuration.queryOptions)
        let record = try await existing(resource, id: id, request)
        let body = try linkageDocument(record, name: name, request: request)
        return try conditional(ResourceResponse(status: 200, body: body), request)
    }

    // MARK: Shared by the endpoints

    /// The record of `id`, after the authorization rule allowed reading it; 404 otherwise.
    func existing(_ resource: any ServedResource, id: String, _ request: ResourceRequest) async throws
        -> JSONAPIResourceObject
    {
        try await authorize(resource, .read(id: id), request)
        guard let record = try await resource.record(id: id) else {
            throw JSONAPIHTTPError.notFound(Self.notFoundDetail(resource.type, .read(id: id)))
        }
        return record
    }

    /// The declared relationship `name` of `resource`; 404 for a name that is not one (or hidden).
    func relationshipShape(_ resource: any ServedResource, _ name: String) throws -> RelationshipShape {
        guard let shape = resource.shape.relationship(name), !resource.fields.hidden.contains(name) else {
            throw JSONAPIHTTPError.notFound("`\(resource.type)` has no relationship `\(name)`")
        }
        return shape
    }

    /// The records `records` may show: those the authorization rule does not hide.
    func visible(
        _ records: [JSONAPIResourceObject], of resource: any ServedResource, _ request: ResourceRequest
    ) async throws -> [JSONAPIResourceObject] {
        guard resource.isAuthorized else { return records }
        var shown: [JSONAPIResourceObject] = []
        shown.reserveCapacity(records.count)
        for record in records {
            if case .allow = try await resource.decide(.read(id: record.id ?? ""), request) { shown.append(record) }
        }
        return shown
    }

    /// The records of `identifiers` that exist, are served and are visible, fetched type by type.
    func load(_ identifiers: [ResourceIdentifier], _ request: ResourceRequest) async throws -> [JSONAPIResourceObject] {
        // Grouped by type in the order first met; identifiers come in runs of one type, so the
        // group is most often the last one.
        var groups: [(type: String, ids: [String])] = []
        for identifier in identifiers {
            guard let id = identifier.id else { continue }
            if let last = groups.indices.last, groups[last].type == identifier.type {
                groups[last].ids.append(id)
            } else if let index = groups.firstIndex(where: { $0.type == identifier.type }) {
                groups[index].ids.append(id)
            } else {
                groups.append((identifier.type, [id]))
            }
        }
        var records: [JSONAPIResourceObject] = []
        for (type, ids) in groups {
            guard let resource = resources[type] else { continue }
            records += try await visible(try await resource.records(ids: ids), of: resource, request)
        }
        return records
    }

    /// The resources `include` asks for, each once and none of the primary ones, in the order
    /// reached; nil when the request has no `include` (so that `included` is left out).
    func includes(
        of primary: [JSONAPIResourceObject], paths: [String]?, _ request: ResourceRequest
    ) async throws -> [JSONAPIResourceObject]? {
        guard let paths else { return nil }
        // The paths as a tree: each node's children by relationship name.
        final class Node {
            var children: [(name: String, node: Node)] = []
            func child(_ name: String) -> Node {
                if let found = children.first(where: { $0.name == name }) { return found.node }
                let node = Node()
                children.append((name, node))
                return node
            }
        }
        let root = Node()
        for path in paths {
            var node = root
            for name in path.split(separator: ".", omittingEmptySubsequences: false) { node = node.child(String(name)) }
        }
        // Every record reached so far, by identifier (positions in `records`, so that no record
        // is copied into a table); the primary ones are reached but never included. An identifier
        // asked for but not (yet) loaded holds -1.
        var records = primary
        var position: [ResourceIdentifier: Int] = [:]
        position.reserveCapacity(max(16, primary.count * 4))
        for (index, record) in primary.enumerated() { position[record.identifier] = index }
        var includedPositions: [Int] = []
        var work: [(positions: [Int], node: Node)] = [(Array(primary.indices), root)]
        while let (positions, node) = work.popLast() {
            for (name, child) in node.children {
                var wanted: [ResourceIdentifier] = []
                var owner: (type: String, hides: Bool)?
                for index in positions {
                    let type = records[index].type
                    if owner?.type != type {
                        owner = (type, resources[type].map { $0.fields.hidden.contains(name) } ?? true)
                    }
                    if owner?.hides == true { continue }
                    switch records[index].relationships[name]?.data {
                    case .one(let identifier)?: wanted.append(identifier)
                    case .many(let identifiers)?: wanted += identifiers
                    case .null?, nil: break
                    }
                }
                // A new identifier is entered as asked for (-1), so that it is asked for once.
                var missing: [ResourceIdentifier] = []
                for identifier in wanted where position[identifier] == nil {
                    position[identifier] = -1
                    missing.append(identifier)
                }
                for record in try await load(missing, request) {
                    position[record.identifier] = records.count
                    records.append(record)
                }
                // Included in the order reached (a source answers type by type).
                for identifier in missing {
                    if let index = position[identifier], index >= 0 { includedPositions.append(index) }
                }
                guard !child.children.isEmpty else { continue }
                var reached: [Int] = []
                var reachedSet: Set<Int> = []
                for identifier in wanted {
                    guard let index = position[identifier], index >= 0, reachedSet.insert(index).inserted else {
                        continue
                    }
                    reached.append(index)
                }
                work.append((reached, child))
            }
        }
        return includedPositions.map { records[$0] }
    }

    /// The position a cursor names, checked against the request's sort: a 400 at the parameter
    /// for a cursor this service did not make for this order.
    static func position(_ cursor: String, parameter: String, sort: [JSONAPIQuery.SortField]) throws
        -> ResourcePosition
    {
        guard let position = ResourcePosition(cursor: cursor, sortFields: sort.count) else {
            throw JSONAPIHTTPError.invalidCursor(parameter)
        }
        return position
    }
}
