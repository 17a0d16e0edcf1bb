import JSONAPI

/// A database transaction around a whole Atomic Operations request: every write of `body` is kept
/// or none is. Set ``ResourceService/transaction`` to one of yours (a database's transaction);
/// without one, the service undoes the writes of a failed request itself, in reverse order,
/// through the data sources (atomic, but not isolated from concurrent requests; a deleted resource
/// is created again, so a source that lists in creation order lists it last).
public protocol ResourceTransaction: Sendable {
    /// Runs `body` in one transaction: commits when it returns, rolls back when it throws.
    func run(_ body: @escaping @Sendable () async throws -> AtomicResultsDocument) async throws -> AtomicResultsDocument
}

extension ResourceService {
    /// Runs an Atomic Operations request (https://jsonapi.org/ext/atomic) over the declared
    /// resources, in order, all or none: each operation goes through the same checks, hooks and
    /// statuses as the endpoint it stands for (an `add` of a resource as `POST /TYPE`, an
    /// `update` of a relationship as `PATCH /TYPE/ID/relationships/NAME`, ...).
    ///
    /// A `lid` an `add` declares stands for the new resource's id in every later operation (its
    /// `ref`, its `data`, its linkage); a `lid` used before it is declared fails at that
    /// operation. Errors point into the operation (`/atomic:operations/2/data/attributes/title`).
    /// The results are in the operations' order: the resource written by each `add` and `update`
    /// of a resource, nothing for the others.
    ///
    /// ```swift
    /// router.addJSONAPIOperations("operations", configuration: service.configuration) { operations, request, _ in
    ///     try await service.perform(operations, request: ResourceRequest(method: "POST", type: "", endpoint: .collection))
    /// }
    /// ```
    ///
    /// - Throws: The first operation's failure, its error objects' pointers rebased into it, with
    ///   a 500 `undo-failed` error object at each earlier operation whose write could not be
    ///   undone (without a ``transaction``); 400 for more than ``maximumAtomicOperations``
    ///   operations.
    public func perform(_ operations: [AtomicOperation], request: ResourceRequest) async throws
        -> AtomicResultsDocument
    {
        try validate()
        guard operations.count <= maximumAtomicOperations else {
            throw JSONAPIHTTPError([
                JSONAPIErrorObject(
                    status: 400, code: "too-many-operations", title: "Too many operations",
                    detail: "a request holds at most \(maximumAtomicOperations) operations, not \(operations.count)",
                    source: .pointer("/" + AtomicOperations.operationsMember))
            ])
        }
        if let transaction {
            return try await transaction.run { try await self.apply(operations, request, compensating: false) }
        }
        return try await apply(operations, request, compensating: true)
    }

    private func apply(_ operations: [AtomicOperation], _ request: ResourceRequest, compensating: Bool)
        async throws -> AtomicResultsDocument
    {
        var lids: [ResourceIdentifier: String] = [:]
        var results = AtomicResultsDocument()
        var undo: [(operation: AtomicOperation, reversal: @Sendable () async throws -> Void)] = []
        for operation in operations {
            do {
                let (result, reversal) = try await apply(operation, request, lids: &lids)
                results.results.append(result)
                if compensating, let reversal { undo.append((operation, reversal)) }
            } catch {
                var errors = JSONAPIErrorObject.errors(describing: error).map {
                    Self.rebase($0, into: operation.pointer)
                }
                // Undone newest first; a write that cannot be undone is left in place, and the
                // answer says so (a 500 naming it), not that the request changed nothing.
                for (done, reversal) in undo.reversed() {
                    do {
                        try await reversal()
                    } catch {
                        errors.append(
                            JSONAPIErrorObject(
                                status: 500, code: "undo-failed", title: "Operation not undone",
                                detail: "the write of this operation could not be undone after a later operation "
                                    + "failed; it is in effect", source: .pointer(done.pointer)))
                    }
                }
                throw JSONAPIHTTPError(errors)
            }
        }
        return results
    }

    /// One operation: its result, and how to undo it.
    private func apply(
        _ operation: AtomicOperation, _ request: ResourceRequest, lids: inout [ResourceIdentifier: String]
    ) async throws -> (AtomicResultsDocument.Result, (@Sendable () async throws -> Void)?) {
        var object = JSON(operation.jsonValue)
        try resolveLids(in: &object, lids: lids, declaring: operation.op == .add)
        let members = object.objectValue ?? [:]
        let data = members["data"]
        let declaredLid: ResourceIdentifier? = {
            guard operation.op == .add, case .object(let resource)? = data, resource["id"] == nil,
                case .string(let type)? = resource["type"], case .string(let lid)? = resource["lid"]
            else { return nil }
            return ResourceIdentifier(type: type, lid: lid)
        }()
        let (type, endpoint) = try target(of: operation, members)
        guard let resource = resources[type] else { throw JSONAPIHTTPError.notFound("no resource type `\(type)`") }
        let method: String
        switch operation.op {
        case .add: method = "POST"
        case .update: method = "PATCH"
        case .remove: method = "DELETE"
        }
        var body = JSONWriter()
        body.beginObject()
        if let data {
            body.key("data")
            data.write(to: &body)
        }
        body.endObject()
        let bytes = try body.finish()
        let configuration = self.configuration
        let inner = ResourceRequest(
            method: method, type: type, endpoint: endpoint,
            target: ResourceRequest.path(type: type, endpoint: endpoint),
            userInfo: request.userInfo,
            body: { kind in try Document(parsing: bytes, options: configuration.parsingOptions(kind: kind)) })
        let before: JSONAPIResourceObject?
        switch endpoint {
        case .resource(let id), .relationship(let id, _): before = try await resource.record(id: id)
        default: before = nil
        }
        let response = try await respond(to: inner)
        var result = AtomicResultsDocument.Result()
        var written: JSONAPIResourceObject?
        if let body = response.body, case .one(let view) = try Document(parsing: body).primary {
            written = JSONAPIResourceObject(view)
            written?.links = nil
            for index in written?.relationships.indices ?? 0..<0 {
                written?.relationships.members[index].value.links = nil
            }
            if case .collection = endpoint { result.data = written.map { .resource($0) } }
            if case .resource = endpoint { result.data = written.map { .resource($0) } }
        }
        if let declaredLid, let id = written?.id { lids[declaredLid] = id }
        let reversal: (@Sendable () async throws -> Void)?
        switch (endpoint, before) {
        case (.collection, _):
            if let id = written?.id {
                reversal = { @Sendable in _ = try await resource.remove(id: id) }
            } else {
                reversal = nil
            }
        case (_, let previous?): reversal = { @Sendable in try await resource.restore(previous) }
        default: reversal = nil
        }
        return (result, reversal)
    }

    /// The type and endpoint an operation stands for, from `ref`, `href` or its resource.
    private func target(of operation: AtomicOperation, _ members: JSON.Object) throws -> (
        String, ResourceRequest.Endpoint
    ) {
        if case .object(let ref)? = members["ref"], case .string(let type)? = ref["type"] {
            guard case .string(let id)? = ref["id"] else {
                throw JSONAPIHTTPError.badRequest("`ref` names no id", source: .pointer("/ref"))
            }
            if case .string(let name)? = ref["relationship"] {
                return (type, .relationship(id: id, relationship: name))
            }
            return (type, .resource(id: id))
        }
        if let href = operation.href {
            var path = Substring(href)
            if let base = linkBase, !base.isEmpty, path.hasPrefix(base) { path = path.dropFirst(base.count) }
            let parts = path.split(separator: "/", omittingEmptySubsequences: true).map {
                String($0).removingPathPercentEncoding ?? String($0)
            }
            switch parts.count {
            case 1: return (parts[0], .collection)
            case 2: return (parts[0], .resource(id: parts[1]))
            case 4 where parts[2] == "relationships":
                return (parts[0], .relationship(id: parts[1], relationship: parts[3]))
            default:
                throw JSONAPIHTTPError.badRequest("`href` names no endpoint of this service", source: .pointer("/href"))
            }
        }
        guard case .object(let resource)? = members["data"], case .string(let type)? = resource["type"] else {
            throw JSONAPIHTTPError.badRequest("the operation names no target", source: .pointer(""))
        }
        if operation.op == .add { return (type, .collection) }
        guard case .string(let id)? = resource["id"] else {
            throw JSONAPIHTTPError.badRequest("the resource has no id", source: .pointer("/data"))
        }
        return (type, .resource(id: id))
    }

    /// Replaces each `lid` of a `ref` or an identifier by the id an earlier `add` gave it, and
    /// the operation's own resource's `lid` unless the operation declares it (`declaring`, an
    /// `add`); a `lid` that none declared fails at its pointer.
    private func resolveLids(in object: inout JSON, lids: [ResourceIdentifier: String], declaring: Bool) throws {
        func unknown(_ type: String, _ lid: String, _ pointer: String) -> JSONAPIHTTPError {
            JSONAPIHTTPError([
                JSONAPIErrorObject(
                    status: 400, code: "unknown-lid", title: "Unknown local id",
                    detail: "no earlier operation declares the `\(type)` lid `\(lid)`", source: .pointer(pointer))
            ])
        }
        func resolve(_ value: inout JSON, _ pointer: String) throws {
            guard case .object(var members) = value, members["id"] == nil,
                case .string(let type)? = members["type"], case .string(let lid)? = members["lid"]
            else { return }
            guard let id = lids[ResourceIdentifier(type: type, lid: lid)] else { throw unknown(type, lid, pointer) }
            members["id"] = .string(id)
            members["lid"] = nil
            value = .object(members)
        }
        guard case .object(var members) = object else { return }
        if var ref = members["ref"] {
            try resolve(&ref, "/ref")
            members["ref"] = ref
        }
        if var data = members["data"] {
            switch data {
            case .array(var items):
                for index in items.indices { try resolve(&items[index], "/data/\(index)") }
                data = .array(items)
            case .object(var resource):
                if resource["attributes"] != nil || resource["relationships"] != nil || members["ref"] == nil {
                    // A resource object: its own lid (an update of a resource added earlier) and its linkage.
                    if !declaring, resource["id"] == nil, case .string(let type)? = resource["type"],
                        case .string(let lid)? = resource["lid"]
                    {
                        guard let id = lids[ResourceIdentifier(type: type, lid: lid)] else {
                            throw unknown(type, lid, "/data/lid")
                        }
                        resource["id"] = .string(id)
                        resource["lid"] = nil
                    }
                    if case .object(var relationships)? = resource["relationships"] {
                        for index in relationships.indices {
                            let name = relationships[index].key
                            guard case .object(var relationship) = relationships[index].value,
                                var linkage = relationship["data"]
                            else { continue }
                            let pointer = "/data/relationships/\(Self.pointerToken(name))/data"
                            if case .array(var items) = linkage {
                                for item in items.indices { try resolve(&items[item], pointer + "/\(item)") }
                                linkage = .array(items)
                            } else {
                                try resolve(&linkage, pointer)
                            }
                            relationship["data"] = linkage
                            relationships.members[index].value = .object(relationship)
                        }
                        resource["relationships"] = .object(relationships)
                    }
                    data = .object(resource)
                } else {
                    try resolve(&data, "/data")
                }
            default: break
            }
            members["data"] = data
        }
        object = .object(members)
    }

    /// An error of one operation, its pointer moved into the operation.
    static func rebase(_ error: JSONAPIErrorObject, into operation: String) -> JSONAPIErrorObject {
        var error = error
        if error.source == nil || error.source?.pointer != nil {
            var source = error.source ?? JSONAPIErrorObject.Source()
            source.pointer = operation + (source.pointer ?? "")
            error.source = source
        }
        return error
    }
}

extension String {
    /// The string with `%XX` escapes decoded; nil when they are not valid UTF-8.
    fileprivate var removingPathPercentEncoding: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validatingUTF8Bytes: bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
