import JSONAPI

/// What a handler of the example service answers: a status and, unless 204, a document.
struct ServiceResponse: Sendable {
    var status: Int
    var body: [UInt8]?
    /// The `Location` of a created resource.
    var location: String?
}

/// A refusal of the example service, described to the client through the core's error mapping.
struct ServiceError: Error, JSONAPIErrorConvertible {
    var status: Int
    var code: String
    var title: String
    var detail: String
    var pointer: String?

    var jsonapiErrors: [JSONAPIErrorObject] {
        [
            JSONAPIErrorObject(
                status: status, code: code, title: title, detail: detail, source: pointer.map { .pointer($0) })
        ]
    }

    static func notFound(_ detail: String) -> ServiceError {
        ServiceError(status: 404, code: "not-found", title: "Not Found", detail: detail)
    }
    static func conflict(_ detail: String, pointer: String) -> ServiceError {
        ServiceError(status: 409, code: "conflict", title: "Conflict", detail: detail, pointer: pointer)
    }
    static func invalid(_ detail: String, pointer: String) -> ServiceError {
        ServiceError(status: 422, code: "invalid-resource", title: "Invalid resource", detail: detail, pointer: pointer)
    }
}

/// The example service's handlers, independent of any HTTP framework: each takes the parts of a
/// request it needs (type, id, raw query, parsed body) and returns a ``ServiceResponse`` or
/// throws an error the core maps to an error document.
struct ExampleService: Sendable {
    let store: ExampleStore
    var writingOptions = JSONWritingOptions()
    /// The largest `page[size]` a collection request may ask for; a larger one is a 400 whose error
    /// carries `meta.page.maxSize`. Checked against ``ExampleServer/maximumPageSizes`` by
    /// ``init(store:maximumPageSize:)``.
    private(set) var maximumPageSize = ExampleServer.defaultMaximumPageSize

    enum RelationshipChange { case replace, add, remove }

    /// The service's configuration, the same for every framework: Atomic Operations on, a 1 MiB
    /// body limit.
    static func configuration(maximumBodyBytes: Int = 1 << 20) -> JSONAPIConfiguration {
        var configuration = JSONAPIConfiguration()
        configuration.supportedExtensions = [AtomicOperations.extensionURI]
        configuration.maximumBodyBytes = maximumBodyBytes
        return configuration
    }

    func schema(_ type: String) throws -> ResourceSchema {
        guard let schema = ResourceSchema.all[type] else { throw ServiceError.notFound("no resource type `\(type)`") }
        return schema
    }

    // MARK: Reading

    /// `GET /TYPE`: filter, sort, page, include, fields.
    func list(type: String, rawQuery: String, target: String) throws -> ServiceResponse {
        let schema = try schema(type)
        let query = try JSONAPIQuery(
            parsing: rawQuery, rules: schema.rules(collection: true, maximumPageSize: maximumPageSize))
        if query.filter.entries.isEmpty, query.sort.isEmpty,
            let requested = query.page, case .number(let number, let size) = requested
        {
            // In creation order: only the page is read from the store.
            let (page, total) = store.read { state in
                (state.page(type, number: number, size: size), state.count(type))
            }
            return ServiceResponse(
                status: 200,
                body: try write(
                    .many(page), query: query, meta: ["total": JSON(total)],
                    links: requested.links(forRequest: target, result: .total(total))))
        }
        var items = store.read { $0.all(type) }
        for entry in query.filter.entries {
            items = items.filter { $0.attributes[entry.path[0]] == JSON(entry.value) }
        }
        for field in query.sort.reversed() {
            items = items.enumerated().sorted { left, right in
                let a = Self.sortKey(left.element, field.name)
                let b = Self.sortKey(right.element, field.name)
                if a == b { return left.offset < right.offset }
                return field.isDescending ? a > b : a < b
            }.map(\.element)
        }
        var page = items[...]
        var links = JSONAPILinks()
        if let requested = query.page, case .number(let number, let size) = requested {
            let start = min(number - 1, items.count / max(size, 1) + 1) * size
            page = items.dropFirst(min(start, items.count)).prefix(size)
            links = requested.links(forRequest: target, result: .total(items.count))
        }
        return ServiceResponse(
            status: 200,
            body: try write(.many(Array(page)), query: query, meta: ["total": JSON(items.count)], links: links))
    }

    /// `GET /TYPE/:id`.
    func show(type: String, id: String, rawQuery: String) throws -> ServiceResponse {
        let schema = try schema(type)
        let query = try JSONAPIQuery(parsing: rawQuery, rules: schema.rules(collection: false))
        let resource = try existing(type, id)
        return ServiceResponse(status: 200, body: try write(.one(resource), query: query))
    }

    /// `GET /TYPE/:id/:relationship`: the related resource(s).
    func related(type: String, id: String, relationship: String, rawQuery: String) throws -> ServiceResponse {
        let relation = try relationSchema(type, relationship)
        let query = try JSONAPIQuery(parsing: rawQuery, rules: try schema(relation.type).rules(collection: false))
        let resource = try existing(type, id)
        let related = store.read { state in
            Self.identifiers(resource, relationship).compactMap { state.resource($0.type, $0.id ?? "") }
        }
        let primary: Primary = relation.isToMany ? .many(related) : (related.first.map { .one($0) } ?? .null)
        return ServiceResponse(status: 200, body: try write(primary, query: query))
    }

    /// `GET /TYPE/:id/relationships/:relationship`: the linkage.
    func relationship(type: String, id: String, relationship: String, rawQuery: String) throws -> ServiceResponse {
        _ = try relationSchema(type, relationship)
        _ = try JSONAPIQuery(parsing: rawQuery, rules: QueryRules())
        let resource = try existing(type, id)
        guard let linkage = resource.relationships[relationship]?.data else {
            throw ServiceError.notFound("`\(relationship)` has no linkage")
        }
        return ServiceResponse(status: 200, body: try write(.linkage(linkage), query: JSONAPIQuery()))
    }

    // MARK: Writing

    /// `POST /TYPE` with a create document; the query (`include`, `fields`) is checked as a
    /// `GET` of the resource checks it, and shapes the answer.
    func create(type: String, document: Document, rawQuery: String = "") throws -> ServiceResponse {
        let query = try JSONAPIQuery(parsing: rawQuery, rules: try schema(type).rules(collection: false))
        guard let view = document.primaryResources.first else {
            throw ServiceError.invalid("primary data must be a resource object", pointer: "/data")
        }
        // Self.create checks everything before its one `put`: no journal is needed.
        let created = try store.writeInPlace { state in
            var lids: [String: String] = [:]
            return try Self.create(JSONAPIResourceObject(view), endpoint: type, in: &state, lids: &lids)
        }
        return ServiceResponse(
            status: 201, body: try write(.one(created), query: query),
            location: JSONAPILink.resourcePath(type: type, id: created.id ?? ""))
    }

    /// `PATCH /TYPE/:id` with an update document: absent members stay, `null` clears. The query
    /// is checked and answered as for `POST`.
    func update(type: String, id: String, document: Document, rawQuery: String = "") throws -> ServiceResponse {
        let query = try JSONAPIQuery(parsing: rawQuery, rules: try schema(type).rules(collection: false))
        guard let view = document.primaryResources.first else {
            throw ServiceError.invalid("primary data must be a resource object", pointer: "/data")
        }
        let patch = JSONAPIResourceObject(view)
        guard patch.id == id else { throw ServiceError.conflict("the id does not match the URL", pointer: "/data/id") }
        let updated = try store.write { state in
            try Self.update(patch, endpoint: type, in: &state, lids: [:])
        }
        return ServiceResponse(status: 200, body: try write(.one(updated), query: query))
    }

    /// `DELETE /TYPE/:id`: no document is answered, so no query parameter applies (400, as
    /// for any parameter an endpoint does not support).
    func delete(type: String, id: String, rawQuery: String = "") throws -> ServiceResponse {
        _ = try schema(type)
        _ = try JSONAPIQuery(parsing: rawQuery, rules: QueryRules(fieldsets: .unsupported))
        try store.write { state in
            guard state.resource(type, id) != nil else { throw ServiceError.notFound("no \(type) with id `\(id)`") }
            state.remove(type, id)
        }
        return ServiceResponse(status: 204)
    }

    /// `PATCH|POST|DELETE /TYPE/:id/relationships/:relationship` with a relationship document;
    /// the query is checked as the `GET` of the relationship checks it.
    func changeRelationship(
        type: String, id: String, relationship: String, change: RelationshipChange, document: Document,
        rawQuery: String = ""
    ) throws -> ServiceResponse {
        _ = try relationSchema(type, relationship)
        _ = try JSONAPIQuery(parsing: rawQuery, rules: QueryRules())
        let linkage: JSONAPIRelationship.Linkage
        switch document.primary {
        case .null: linkage = .null
        default:
            let identifiers = document.primaryIdentifiers.map(\.identifier)
            if case .identifier = document.primary, let first = identifiers.first {
                linkage = .one(first)
            } else {
                linkage = .many(identifiers)
            }
        }
        try store.write { state in
            try Self.change(type, id, relationship, change, linkage, in: &state, lids: [:], pointer: "/data")
        }
        return ServiceResponse(status: 204)
    }

    /// The methods a relationship endpoint serves when `change` is not one of them, for a 405
    /// with `Allow` before any body is read: adding and removing members are for to-many
    /// relationships. Nil when the change applies.
    ///
    /// - Throws: ``ServiceError`` 404 for an unknown type or relationship.
    func methodsAllowed(type: String, relationship: String, refusing change: RelationshipChange) throws -> [String]? {
        let relation = try relationSchema(type, relationship)
        guard change != .replace, !relation.isToMany else { return nil }
        return ["GET", "PATCH"]
    }

    /// `POST /operations`: every operation, all or nothing.
    func perform(_ operations: [AtomicOperation]) throws -> AtomicResultsDocument {
        try store.write { state in
            var lids: [String: String] = [:]
            var results = AtomicResultsDocument()
            for operation in operations {
                let pointer = operation.pointer
                guard
                    let ref = operation.ref ?? Self.reference(fromHref: operation.href)
                        ?? Self.reference(of: operation.data)
                else { throw ServiceError.invalid("the operation names no target", pointer: pointer) }
                if let relationship = ref.relationship {
                    let linkage: JSONAPIRelationship.Linkage
                    switch operation.data {
                    case .identifier(let identifier): linkage = .one(identifier.identifier)
                    case .identifiers(let identifiers): linkage = .many(identifiers.map(\.identifier))
                    default: linkage = .null
                    }
                    let change: RelationshipChange =
                        operation.op == .add ? .add : (operation.op == .remove ? .remove : .replace)
                    let id = try Self.resolve(ref.identifier, lids: lids, pointer: pointer + "/ref")
                    try Self.change(
                        ref.type, id, relationship, change, linkage, in: &state, lids: lids, pointer: pointer)
                    results.appendEmpty()
                    continue
                }
                switch (operation.op, operation.data) {
                case (.add, .resource(let view)):
                    results.append(
                        try Self.create(JSONAPIResourceObject(view), endpoint: ref.type, in: &state, lids: &lids))
                case (.update, .resource(let view)):
                    var patch = JSONAPIResourceObject(view)
                    patch.id = try Self.resolve(patch.identifier, lids: lids, pointer: pointer + "/data")
                    results.append(try Self.update(patch, endpoint: ref.type, in: &state, lids: lids))
                case (.remove, _):
                    let id = try Self.resolve(ref.identifier, lids: lids, pointer: pointer + "/ref")
                    guard state.resource(ref.type, id) != nil else {
                        throw ServiceError.notFound("no \(ref.type) with id `\(id)`")
                    }
                    state.remove(ref.type, id)
                    results.appendEmpty()
                default:
                    throw ServiceError.invalid("unsupported operation", pointer: pointer)
                }
            }
            return results
        }
    }

    // MARK: Rules shared by the endpoints and Atomic Operations

    static func create(
        _ resource: JSONAPIResourceObject, endpoint: String, in state: inout State, lids: inout [String: String]
    ) throws -> JSONAPIResourceObject {
        var resource = resource
        guard resource.type == endpoint else {
            throw ServiceError.conflict(
                "this endpoint creates `\(endpoint)`, not `\(resource.type)`", pointer: "/data/type")
        }
        let schema = try ExampleService().schemaFor(endpoint)
        try check(resource, schema)
        for name in schema.required where resource.attributes[name] == nil {
            throw ServiceError.invalid("the attribute `\(name)` is required", pointer: "/data/attributes")
        }
        if let id = resource.id {
            // Client-generated ids are supported; an empty one names no resource (and no URL).
            guard !id.isEmpty else {
                throw ServiceError.invalid("a client-generated id must not be empty", pointer: "/data/id")
            }
            guard state.resource(endpoint, id) == nil else {
                throw ServiceError.conflict("\(endpoint) `\(id)` already exists", pointer: "/data/id")
            }
        } else {
            resource.id = state.newID()
        }
        if let lid = resource.lid, let id = resource.id { lids[lid] = id }
        resource.lid = nil
        if endpoint == "articles", resource.attributes["createdAt"] == nil {
            resource.attributes["createdAt"] = JSON("2024-02-01T00:00:00Z")
        }
        for (name, relation) in schema.relationships.sorted(by: { $0.key < $1.key }) {
            let linkage = resource.relationships[name]?.data ?? (relation.isToMany ? .many([]) : .null)
            resource.relationships[name] = JSONAPIRelationship(
                data: try resolved(linkage, relation, in: state, lids: lids, pointer: "/data/relationships/\(name)"))
        }
        state.put(resource)
        return resource
    }

    static func update(
        _ patch: JSONAPIResourceObject, endpoint: String, in state: inout State, lids: [String: String]
    ) throws -> JSONAPIResourceObject {
        guard patch.type == endpoint else {
            throw ServiceError.conflict("this endpoint holds `\(endpoint)`, not `\(patch.type)`", pointer: "/data/type")
        }
        let schema = try ExampleService().schemaFor(endpoint)
        try check(patch, schema)
        guard let id = patch.id, var resource = state.resource(endpoint, id) else {
            throw ServiceError.notFound("no \(endpoint) with id `\(patch.id ?? "")`")
        }
        for member in patch.attributes.members {
            if schema.required.contains(member.key), member.value == .null {
                throw ServiceError.invalid(
                    "the attribute `\(member.key)` cannot be null", pointer: "/data/attributes/\(member.key)")
            }
            resource.attributes[member.key] = member.value
        }
        for member in patch.relationships.members {
            guard let relation = schema.relationships[member.key], let linkage = member.value.data else { continue }
            resource.relationships[member.key] = JSONAPIRelationship(
                data: try resolved(
                    linkage, relation, in: state, lids: lids, pointer: "/data/relationships/\(member.key)"))
        }
        state.put(resource)
        return resource
    }

    static func change(
        _ type: String, _ id: String, _ relationship: String, _ change: RelationshipChange,
        _ linkage: JSONAPIRelationship.Linkage, in state: inout State, lids: [String: String], pointer: String
    ) throws {
        let relation = try ExampleService().relationSchema(type, relationship)
        guard var resource = state.resource(type, id) else { throw ServiceError.notFound("no \(type) with id `\(id)`") }
        if change != .replace && !relation.isToMany {
            throw ServiceError(
                status: 403, code: "to-one-relationship", title: "Forbidden",
                detail: "`\(relationship)` is to-one: replace it with PATCH", pointer: pointer)
        }
        let given = try resolved(linkage, relation, in: state, lids: lids, pointer: pointer)
        var current = identifiers(resource, relationship)
        switch (change, given) {
        case (.replace, _): resource.relationships[relationship] = JSONAPIRelationship(data: given)
        case (.add, .many(let added)):
            for identifier in added where !current.contains(identifier) { current.append(identifier) }
            resource.relationships[relationship] = .toMany(current)
        case (.remove, .many(let removed)):
            resource.relationships[relationship] = .toMany(current.filter { !removed.contains($0) })
        default:
            throw ServiceError.invalid("a to-many relationship takes an array of identifiers", pointer: pointer)
        }
        state.put(resource)
    }

    /// Checks linkage against the relationship's type and the store, resolving `lid`s.
    static func resolved(
        _ linkage: JSONAPIRelationship.Linkage, _ relation: ResourceSchema.Relation, in state: State,
        lids: [String: String], pointer: String
    ) throws -> JSONAPIRelationship.Linkage {
        func one(_ identifier: ResourceIdentifier) throws -> ResourceIdentifier {
            guard identifier.type == relation.type else {
                throw ServiceError.conflict("expected `\(relation.type)`, not `\(identifier.type)`", pointer: pointer)
            }
            let id = try resolve(identifier, lids: lids, pointer: pointer)
            guard state.resource(relation.type, id) != nil else {
                throw ServiceError.notFound("no \(relation.type) with id `\(id)`")
            }
            return ResourceIdentifier(type: relation.type, id: id)
        }
        switch linkage {
        case .null where !relation.isToMany: return .null
        case .one(let identifier) where !relation.isToMany: return .one(try one(identifier))
        case .many(let identifiers) where relation.isToMany: return .many(try identifiers.map(one))
        default:
            throw ServiceError.invalid(
                relation.isToMany ? "expected an array of identifiers" : "expected one identifier or null",
                pointer: pointer)
        }
    }

    static func resolve(_ identifier: ResourceIdentifier, lids: [String: String], pointer: String) throws -> String {
        if let id = identifier.id { return id }
        if let lid = identifier.lid, let id = lids[lid] { return id }
        throw ServiceError.notFound("unknown lid `\(identifier.lid ?? "")`")
    }

    static func check(_ resource: JSONAPIResourceObject, _ schema: ResourceSchema) throws {
        for member in resource.attributes.members {
            guard schema.attributes.contains(member.key) else {
                throw ServiceError.invalid(
                    "\(schema.type) have no attribute `\(member.key)`", pointer: "/data/attributes/\(member.key)")
            }
            // Every attribute is a string, and one that is not required may be null: what the
            // service's OpenAPI document promises, and what its filters and sorting compare.
            switch member.value {
            case .string: continue
            case .null where !schema.required.contains(member.key): continue
            default:
                let allowed = schema.required.contains(member.key) ? "a string" : "a string or null"
                throw ServiceError.invalid(
                    "the attribute `\(member.key)` must be \(allowed)", pointer: "/data/attributes/\(member.key)")
            }
        }
        for member in resource.relationships.members where schema.relationships[member.key] == nil {
            throw ServiceError.invalid(
                "\(schema.type) have no relationship `\(member.key)`", pointer: "/data/relationships/\(member.key)")
        }
    }

    static func reference(fromHref href: String?) -> AtomicReference? {
        guard let href else { return nil }
        let parts = href.split(separator: "/").map(String.init)
        switch parts.count {
        case 1: return AtomicReference(type: parts[0])
        case 2: return AtomicReference(type: parts[0], id: parts[1])
        case 4 where parts[2] == "relationships":
            return AtomicReference(type: parts[0], id: parts[1], relationship: parts[3])
        default: return nil
        }
    }

    static func reference(of data: AtomicOperation.Data) -> AtomicReference? {
        if case .resource(let resource) = data { return AtomicReference(type: resource.type) }
        return nil
    }

    static func identifiers(_ resource: JSONAPIResourceObject, _ relationship: String) -> [ResourceIdentifier] {
        switch resource.relationships[relationship]?.data {
        case .one(let identifier): [identifier]
        case .many(let identifiers): identifiers
        default: []
        }
    }

    static func sortKey(_ resource: JSONAPIResourceObject, _ field: String) -> String {
        if field == "id" {
            let id = resource.id ?? ""
            return String(repeating: "0", count: max(0, 12 - id.count)) + id
        }
        if case .string(let text)? = resource.attributes[field] { return text }
        return ""
    }

    init(store: ExampleStore = ExampleStore(state: .init())) { self.store = store }

    /// A service whose collections serve pages of up to `maximumPageSize` resources, for clients
    /// that read large responses (the client's tests ask for 100 MB in one page).
    ///
    /// - Throws: ``ExampleServer/InvalidOption`` when `maximumPageSize` is outside
    ///   ``ExampleServer/maximumPageSizes``.
    init(store: ExampleStore, maximumPageSize: Int) throws(ExampleServer.InvalidOption) {
        guard ExampleServer.maximumPageSizes.contains(maximumPageSize) else {
            throw ExampleServer.InvalidOption(
                description:
                    "the maximum page size must be in \(ExampleServer.maximumPageSizes), not \(maximumPageSize)")
        }
        self.store = store
        self.maximumPageSize = maximumPageSize
    }

    func schemaFor(_ type: String) throws -> ResourceSchema { try schema(type) }

    func relationSchema(_ type: String, _ relationship: String) throws -> ResourceSchema.Relation {
        guard let relation = try schema(type).relationships[relationship] else {
            throw ServiceError.notFound("\(type) have no relationship `\(relationship)`")
        }
        return relation
    }

    func existing(_ type: String, _ id: String) throws -> JSONAPIResourceObject {
        guard let resource = store.read({ $0.resource(type, id) }) else {
            throw ServiceError.notFound("no \(type) with id `\(id)`")
        }
        return resource
    }
}

typealias State = ExampleStore.State

extension ExampleService {
    /// `POST /imports` with a compound document of any of the service's types: parses it (as the
    /// body arrives), checks it against JSON:API's rules and the schema's types, converts every
    /// primary and included resource to the store's representation and answers how many there
    /// were. Stores nothing, so repeated requests cost the same (the load benchmark's large
    /// write).
    func importDocument(_ document: Document) throws -> ServiceResponse {
        var converted: [JSONAPIResourceObject] = []
        converted.reserveCapacity(document.primaryResources.count + document.included.count)
        for (index, view) in document.primaryResources.enumerated() {
            guard ResourceSchema.all[view.type] != nil else {
                throw ServiceError.invalid("no resource type `\(view.type)`", pointer: "/data/\(index)/type")
            }
            converted.append(JSONAPIResourceObject(view))
        }
        for view in document.included { converted.append(JSONAPIResourceObject(view)) }
        let meta: JSON.Object = [
            "articles": JSON(document.primaryResources.count), "resources": JSON(converted.count),
        ]
        var writer = JSONWriter(options: writingOptions)
        writer.beginObject()
        writer.key("meta")
        JSON.object(meta).write(to: &writer)
        writer.endObject()
        return ServiceResponse(status: 200, body: try writer.finish())
    }
}
