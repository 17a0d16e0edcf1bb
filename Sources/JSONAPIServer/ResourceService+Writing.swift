import JSONAPI

extension ResourceService {
    /// `POST /TYPE`.
    func create(_ resource: any ServedResource, _ request: ResourceRequest) async throws -> ResourceResponse {
        try await authorize(resource, .create, request)
        let query = try JSONAPIQuery(
            parsing: request.query, rules: rules(for: resource, collection: false), options: configuration.queryOptions)
        let view = try await primaryResource(of: request.body(.createRequest), resource)
        var id = view.id
        switch resource.clientIDs {
        case .forbidden:
            if id != nil {
                throw JSONAPIHTTPError([
                    JSONAPIErrorObject(
                        status: 403, code: "client-id-forbidden", title: "Forbidden",
                        detail: "`\(resource.type)` resources get their id from the server",
                        source: .pointer("/data/id"))
                ])
            }
        case .required:
            if id == nil {
                throw JSONAPIHTTPError([
                    JSONAPIErrorObject(
                        status: 422, code: "missing-id", title: "Invalid resource",
                        detail: "a new `\(resource.type)` resource needs an `id`", source: .pointer("/data"))
                ])
            }
        case .allowed: break
        }
        if id == "" {
            // An empty id names no resource in a URL (`/TYPE/` is the collection).
            throw JSONAPIHTTPError([
                JSONAPIErrorObject(
                    status: 422, code: "invalid-id", title: "Invalid resource", detail: "an `id` must not be empty",
                    source: .pointer("/data/id"))
            ])
        }
        if let id, try await resource.record(id: id) != nil {
            throw JSONAPIHTTPError.conflict("a `\(resource.type)` resource with id `\(id)` exists", pointer: "/data/id")
        }
        if id == nil { id = try await resource.makeID() }
        var record = JSONAPIResourceObject(type: resource.type, id: id, lid: view.lid)
        var problems: [JSONAPIErrorObject] = []
        try await apply(view, to: &record, resource, problems: &problems, request)
        // A to-many relationship a create leaves out starts empty: JSON:API lets a create body
        // name only the relationships it sets.
        for relationship in resource.shape.relationships
        where relationship.cardinality == .toMany && record.relationships[relationship.name] == nil {
            record.relationships[relationship.name] = JSONAPIRelationship(data: .many([]))
        }
        let stored = try await resource.write(record, as: .create, problems: problems, request: request)
        let location = stored.id.flatMap { id in
            linkBase.map { $0 + ResourceRequest.path(type: resource.type, endpoint: .resource(id: id)) }
        }
        let included = try await includes(of: [stored], paths: query.include, request)
        var links = JSONAPILinks()
        if let location { links["self"] = JSONAPILink(href: location) }
        let body = try document(.one(stored), included: included, query: query, links: links)
        return ResourceResponse(status: 201, body: body, location: location)
    }

    /// `PATCH /TYPE/ID`.
    func update(_ resource: any ServedResource, id: String, _ request: ResourceRequest) async throws
        -> ResourceResponse
    {
        try await authorize(resource, .update(id: id), request)
        let query = try JSONAPIQuery(
            parsing: request.query, rules: rules(for: resource, collection: false), options: configuration.queryOptions)
        let view = try await primaryResource(of: request.body(.updateRequest), resource)
        guard view.id == id else {
            throw JSONAPIHTTPError.conflict(
                "the body's id `\(view.id ?? "")` is not the id of the URL, `\(id)`", pointer: "/data/id")
        }
        guard var record = try await resource.recordForUpdate(id: id) else {
            throw JSONAPIHTTPError.notFound(Self.notFoundDetail(resource.type, .update(id: id)))
        }
        let current = record
        try checkPrecondition(
            resource,
            current: {
                try document(
                    .one(current), included: nil, query: nil, links: ["self": JSONAPILink(href: request.target)])
            }, request)
        var problems: [JSONAPIErrorObject] = []
        try await apply(view, to: &record, resource, problems: &problems, request)
        let stored = try await resource.write(record, as: .update, problems: problems, request: request)
        let included = try await includes(of: [stored], paths: query.include, request)
        let body = try document(
            .one(stored), included: included, query: query, links: ["self": JSONAPILink(href: request.target)])
        return ResourceResponse(status: 200, body: body)
    }

    /// `DELETE /TYPE/ID`.
    func delete(_ resource: any ServedResource, id: String, _ request: ResourceRequest) async throws
        -> ResourceResponse
    {
        try await authorize(resource, .delete(id: id), request)
        _ = try JSONAPIQuery(
            parsing: request.query, rules: QueryRules(fieldsets: .unsupported), options: configuration.queryOptions)
        guard let current = try await resource.recordForUpdate(id: id) else {
            throw JSONAPIHTTPError.notFound(Self.notFoundDetail(resource.type, .delete(id: id)))
        }
        try checkPrecondition(
            resource,
            current: {
                try document(
                    .one(current), included: nil, query: nil, links: ["self": JSONAPILink(href: request.target)])
            }, request)
        guard try await resource.delete(id: id, request: request) else {
            throw JSONAPIHTTPError.notFound(Self.notFoundDetail(resource.type, .delete(id: id)))
        }
        return ResourceResponse(status: 204)
    }

    /// `PATCH`, `POST` and `DELETE` of `/TYPE/ID/relationships/NAME`.
    func changeRelationship(
        _ resource: any ServedResource, id: String, name: String, _ request: ResourceRequest
    ) async throws -> ResourceResponse {
        let shape = try relationshipShape(resource, name)
        try await authorize(resource, .changeRelationship(id: id, name: name), request)
        _ = try JSONAPIQuery(
            parsing: request.query, rules: QueryRules(fieldsets: .unsupported), options: configuration.queryOptions)
        guard !resource.fields.readOnly.contains(name) else {
            throw JSONAPIHTTPError.forbidden("the relationship `\(name)` of `\(resource.type)` cannot be changed")
        }
        guard var record = try await resource.recordForUpdate(id: id) else {
            throw JSONAPIHTTPError.notFound(Self.notFoundDetail(resource.type, .read(id: id)))
        }
        let document = try await request.body(.relationshipUpdate)
        let given: JSONAPIRelationship.Linkage
        switch document.primary {
        case .null: given = .null
        case .identifier(let identifier): given = .one(identifier.identifier)
        case .identifiers(let identifiers): given = .many(identifiers.map(\.identifier))
        default: throw JSONAPIHTTPError.badRequest("`data` must be linkage", source: .pointer("/data"))
        }
        switch (shape.cardinality, given) {
        case (.toMany, .many), (.toOne, .one), (.toOne, .null): break
        default:
            throw JSONAPIHTTPError([
                JSONAPIErrorObject(
                    status: 422, code: "invalid-linkage", title: "Invalid linkage",
                    detail: shape.cardinality == .toMany
                        ? "`\(name)` is a to-many relationship: `data` is an array"
                        : "`\(name)` is a to-one relationship: `data` is an identifier or null",
                    source: .pointer("/data"))
            ])
        }
        let identifiers: [ResourceIdentifier] =
            switch given {
            case .one(let identifier): [identifier]
            case .many(let identifiers): identifiers
            case .null: []
            }
        try await checkLinkage(identifiers, shape: shape, pointer: { "/data/\($0)" }, request)
        let current = record
        try checkPrecondition(
            resource, current: { try linkageDocument(current, name: name, request: request) }, request)
        var existing: [ResourceIdentifier] = []
        if case .many(let items)? = record.relationships[name]?.data { existing = items }
        let linkage: JSONAPIRelationship.Linkage
        switch request.method {
        case "POST":
            var seen = Set(existing)
            linkage = .many(existing + identifiers.filter { seen.insert($0).inserted })
        case "DELETE":
            let removed = Set(identifiers)
            linkage = .many(existing.filter { !removed.contains($0) })
        default:
            linkage = given
        }
        record.relationships[name] = JSONAPIRelationship(data: linkage)
        let stored: JSONAPIResourceObject
        do {
            stored = try await resource.write(record, as: .update, problems: [], request: request)
        } catch let error as JSONAPIHTTPError {
            // The model's problems point into the resource; the body here is the linkage alone.
            throw JSONAPIHTTPError(error.errors.map { Self.rebase($0, relationship: name) })
        }
        let body = try linkageDocument(stored, name: name, request: request)
        return ResourceResponse(status: 200, body: body)
    }

    // MARK: Request bodies

    /// The body's primary resource object, of the endpoint's type (409 otherwise).
    func primaryResource(of body: Document, _ resource: any ServedResource) throws -> ResourceObject {
        guard case .one(let view) = body.primary else {
            throw JSONAPIHTTPError.badRequest("`data` must be one resource object", source: .pointer("/data"))
        }
        guard view.type == resource.type else {
            throw JSONAPIHTTPError.conflict(
                "this endpoint takes `\(resource.type)` resources, not `\(view.type)`", pointer: "/data/type")
        }
        return view
    }

    /// Copies the attributes and relationships of a request's resource object onto `record`,
    /// listing members the model does not have or that are read-only, and checking linkage.
    func apply(
        _ view: ResourceObject, to record: inout JSONAPIResourceObject, _ resource: any ServedResource,
        problems: inout [JSONAPIErrorObject], _ request: ResourceRequest
    ) async throws {
        let fields = resource.fields
        for (name, value) in view.attributes {
            let pointer = "/data/attributes/" + Self.pointerToken(name)
            if resource.shape.attribute(name) == nil || fields.hidden.contains(name) {
                problems.append(
                    Self.invalid("unknown-attribute", "`\(resource.type)` has no attribute `\(name)`", pointer))
            } else if fields.readOnly.contains(name) {
                problems.append(Self.invalid("read-only", "the attribute `\(name)` cannot be set", pointer))
            } else {
                record.attributes[name] = JSON(value)
            }
        }
        for relationship in view.relationships {
            let name = relationship.name
            let pointer = "/data/relationships/" + Self.pointerToken(name)
            guard let shape = resource.shape.relationship(name), !fields.hidden.contains(name) else {
                problems.append(
                    Self.invalid("unknown-relationship", "`\(resource.type)` has no relationship `\(name)`", pointer))
                continue
            }
            let copy = JSONAPIRelationship(relationship)
            if fields.readOnly.contains(name) {
                // Linkage equal to what the record holds (an empty to-many on a create, what the
                // client read on an update) changes nothing, and passes.
                guard let data = copy.data, Self.sameLinkage(data, record.relationships[name]?.data) else {
                    throw JSONAPIHTTPError([
                        JSONAPIErrorObject(
                            status: 403, code: "read-only", title: "Forbidden",
                            detail: "the relationship `\(name)` cannot be set", source: .pointer(pointer))
                    ])
                }
                continue
            }
            guard let data = copy.data else { continue }
            let identifiers: [ResourceIdentifier]
            switch data {
            case .one(let identifier): identifiers = [identifier]
            case .many(let items): identifiers = items
            case .null: identifiers = []
            }
            let isMany: Bool
            if case .many = data { isMany = true } else { isMany = false }
            try await checkLinkage(
                identifiers, shape: shape, pointer: { isMany ? pointer + "/data/\($0)" : pointer + "/data" }, request)
            record.relationships[name] = JSONAPIRelationship(data: data)
        }
    }

    /// Whether linkage `sent` is what a record holding `stored` already has: the same
    /// identifiers (a to-many's in any order), no linkage read as empty or null.
    static func sameLinkage(_ sent: JSONAPIRelationship.Linkage, _ stored: JSONAPIRelationship.Linkage?) -> Bool {
        switch (sent, stored) {
        case (.null, nil), (.null, .null?): return true
        case (.many(let items), nil): return items.isEmpty
        case (.one(let identifier), .one(let current)?): return identifier == current
        case (.many(let items), .many(let current)?): return Set(items) == Set(current) && items.count == current.count
        default: return false
        }
    }

    /// Linkage a request sets: each identifier of a type the relationship takes (409), naming a
    /// resource that exists (404, as JSON:API requires), with an `id` (a 422 for a `lid` outside
    /// Atomic Operations).
    func checkLinkage(
        _ identifiers: [ResourceIdentifier], shape: RelationshipShape, pointer: (Int) -> String,
        _ request: ResourceRequest
    ) async throws {
        var conflicts: [JSONAPIErrorObject] = []
        var invalid: [JSONAPIErrorObject] = []
        var wanted: [(index: Int, identifier: ResourceIdentifier)] = []
        for (index, identifier) in identifiers.enumerated() {
            if !shape.targetResourceTypes.isEmpty && !shape.targetResourceTypes.contains(identifier.type) {
                conflicts.append(
                    JSONAPIErrorObject(
                        status: 409, code: "conflict", title: "Conflict",
                        detail:
                            "`\(shape.name)` links to \(shape.targetResourceTypes.map { "`\($0)`" }.joined(separator: ", ")), not `\(identifier.type)`",
                        source: .pointer(pointer(index) + "/type")))
            } else if identifier.id == nil {
                invalid.append(
                    Self.invalid("unresolved-lid", "a local id names no resource of this request", pointer(index)))
            } else {
                wanted.append((index, identifier))
            }
        }
        guard conflicts.isEmpty else { throw JSONAPIHTTPError(conflicts) }
        guard invalid.isEmpty else { throw JSONAPIHTTPError(invalid) }
        let found = Set(try await load(wanted.map(\.identifier), request).map(\.identifier))
        let missing = wanted.filter { resources[$0.identifier.type] != nil && !found.contains($0.identifier) }
        guard missing.isEmpty else {
            throw JSONAPIHTTPError(
                missing.map { item in
                    JSONAPIErrorObject(
                        status: 404, code: "related-not-found", title: "Not Found",
                        detail: "no `\(item.identifier.type)` resource with id `\(item.identifier.id ?? "")`",
                        source: .pointer(pointer(item.index)))
                })
        }
    }

    static func invalid(_ code: String, _ detail: String, _ pointer: String) -> JSONAPIErrorObject {
        JSONAPIErrorObject(
            status: 422, code: code, title: "Invalid resource", detail: detail, source: .pointer(pointer))
    }

    /// A pointer into the resource, seen from a relationship endpoint's body (`/data`).
    static func rebase(_ error: JSONAPIErrorObject, relationship name: String) -> JSONAPIErrorObject {
        guard let pointer = error.source?.pointer else { return error }
        let prefix = "/data/relationships/" + pointerToken(name)
        guard pointer.hasPrefix(prefix) else { return error }
        var error = error
        var rest = pointer.dropFirst(prefix.count)
        if rest.hasPrefix("/data") { rest = rest.dropFirst(5) }
        error.source?.pointer = "/data" + rest
        return error
    }

    /// A member name as a JSON Pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func pointerToken(_ name: String) -> String {
        var token = ""
        for character in name {
            switch character {
            case "~": token += "~0"
            case "/": token += "~1"
            default: token.append(character)
            }
        }
        return token
    }
}
