/// An Atomic Operations request (`{"atomic:operations": [...]}`), built in code.
///
/// Send it with `Content-Type: application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"`
/// (`JSONAPIMediaType(extensions: [AtomicOperations.extensionURI])`).
///
/// ```swift
/// var request = AtomicOperationsDocument()
/// request.add(JSONAPIResourceObject(type: "authors", lid: "a", attributes: ["name": "dgeb"]))
/// request.add(
///     JSONAPIResourceObject(
///         type: "articles", lid: "b", attributes: ["title": "JSON API paints my bikeshed!"],
///         relationships: ["author": .toOne(ResourceIdentifier(type: "authors", lid: "a"))]))
/// request.remove(ResourceIdentifier(type: "articles", id: "13"))
/// request.add([ResourceIdentifier(type: "tags", id: "2")], toRelationship: "tags",
///             of: ResourceIdentifier(type: "articles", lid: "b"))
/// let body = try request.jsonBytes()
/// // {"atomic:operations":[{"op":"add","data":{"type":"authors","lid":"a",...}},...]}
/// ```
public struct AtomicOperationsDocument: Sendable, Hashable {
    /// One operation.
    public struct Operation: Sendable, Hashable {
        /// The operation code.
        public var op: AtomicOperation.Code
        /// The target, by type and id or lid (and relationship).
        public var ref: AtomicReference?
        /// The target, by URI reference.
        public var href: String?
        /// The operation's data; nil leaves `data` out.
        public var data: OperationData?
        /// Non-standard meta-information about the operation.
        public var meta: JSON.Object?

        /// Creates an operation.
        public init(
            op: AtomicOperation.Code, ref: AtomicReference? = nil, href: String? = nil, data: OperationData? = nil,
            meta: JSON.Object? = nil
        ) {
            self.op = op
            self.ref = ref
            self.href = href
            self.data = data
            self.meta = meta
        }

        /// Copies an operation read from a parsed request (identifier `meta` is not kept).
        public init(_ view: AtomicOperation) {
            let data: OperationData?
            switch view.data {
            case .absent: data = nil
            case .null: data = .null
            case .resource(let resource): data = .resource(JSONAPIResourceObject(resource))
            case .identifier(let identifier): data = .identifier(identifier.identifier)
            case .identifiers(let identifiers): data = .identifiers(identifiers.map(\.identifier))
            }
            self.init(
                op: view.op, ref: view.ref, href: view.href, data: data,
                meta: view.meta.map { JSON($0).objectValue ?? [:] })
        }
    }

    /// What an operation's `data` holds.
    public enum OperationData: Sendable, Hashable {
        /// `null`: clears a to-one relationship.
        case null
        /// A resource object to create or update.
        case resource(JSONAPIResourceObject)
        /// One resource identifier: sets a to-one relationship.
        case identifier(ResourceIdentifier)
        /// Resource identifiers: adds to, replaces or removes from a to-many relationship.
        case identifiers([ResourceIdentifier])
    }

    /// The operations, in the order the server must perform them.
    public var operations: [Operation]
    /// The `jsonapi` object; nil leaves it out.
    public var jsonapi: JSONAPIImplementationInfo?
    /// Top-level meta-information; nil leaves it out.
    public var meta: JSON.Object?

    /// Creates a request.
    public init(operations: [Operation] = [], jsonapi: JSONAPIImplementationInfo? = nil, meta: JSON.Object? = nil) {
        self.operations = operations
        self.jsonapi = jsonapi
        self.meta = meta
    }

    /// Copies the operations (and `jsonapi`, `meta`) of a parsed request.
    ///
    /// - Throws: ``JSONAPIError`` when the document breaks a rule of the extension.
    public init(_ document: Document) throws(JSONAPIError) {
        self.init(
            operations: try document.atomicOperations().map(Operation.init),
            jsonapi: document.jsonapi.map(JSONAPIImplementationInfo.init),
            meta: document.meta.map { JSON($0).objectValue ?? [:] })
    }

    /// Appends an operation that creates `resource` (which may leave out `id` and carry a `lid`).
    ///
    /// - Parameters:
    ///   - resource: The resource object to create.
    ///   - href: A URI reference to the collection, when it is not named by the type.
    ///   - meta: The operation's `meta` member; left out when nil.
    public mutating func add(_ resource: JSONAPIResourceObject, href: String? = nil, meta: JSON.Object? = nil) {
        operations.append(Operation(op: .add, href: href, data: .resource(resource), meta: meta))
    }

    /// Appends an operation that updates `resource` (identified by its `id` or `lid`).
    ///
    /// - Parameters:
    ///   - resource: The resource object holding the members to update.
    ///   - ref: The target, when it should be named explicitly.
    ///   - meta: The operation's `meta` member; left out when nil.
    public mutating func update(
        _ resource: JSONAPIResourceObject, ref: AtomicReference? = nil, meta: JSON.Object? = nil
    ) {
        operations.append(Operation(op: .update, ref: ref, data: .resource(resource), meta: meta))
    }

    /// Appends an operation that deletes the resource `resource` identifies.
    public mutating func remove(_ resource: ResourceIdentifier, meta: JSON.Object? = nil) {
        operations.append(Operation(op: .remove, ref: AtomicReference(resource), meta: meta))
    }

    /// Appends an operation that adds `identifiers` to the to-many relationship `name` of `resource`.
    public mutating func add(
        _ identifiers: [ResourceIdentifier], toRelationship name: String, of resource: ResourceIdentifier,
        meta: JSON.Object? = nil
    ) {
        operations.append(
            Operation(
                op: .add, ref: AtomicReference(resource, relationship: name), data: .identifiers(identifiers),
                meta: meta))
    }

    /// Appends an operation that replaces the relationship `name` of `resource` with `linkage`
    /// (`null` or one identifier for a to-one relationship, an array for a to-many).
    public mutating func update(
        relationship name: String, of resource: ResourceIdentifier, to linkage: JSONAPIRelationship.Linkage,
        meta: JSON.Object? = nil
    ) {
        let data: OperationData
        switch linkage {
        case .null: data = .null
        case .one(let identifier): data = .identifier(identifier)
        case .many(let identifiers): data = .identifiers(identifiers)
        }
        operations.append(
            Operation(op: .update, ref: AtomicReference(resource, relationship: name), data: data, meta: meta))
    }

    /// Appends an operation that removes `identifiers` from the to-many relationship `name` of `resource`.
    public mutating func remove(
        _ identifiers: [ResourceIdentifier], fromRelationship name: String, of resource: ResourceIdentifier,
        meta: JSON.Object? = nil
    ) {
        operations.append(
            Operation(
                op: .remove, ref: AtomicReference(resource, relationship: name), data: .identifiers(identifiers),
                meta: meta))
    }
}

extension AtomicReference: JSONWritable {
    /// Writes the `ref` object: `type`, `id` or `lid`, `relationship`.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = [("type", { $0.string(type) })]
        if let id { members.append(("id", { $0.string(id) })) }
        if let lid { members.append(("lid", { $0.string(lid) })) }
        if let relationship { members.append(("relationship", { $0.string(relationship) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

extension AtomicOperationsDocument.OperationData: JSONWritable {
    /// Writes `null`, the resource object, or the identifier(s).
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        switch self {
        case .null:
            writer.null()
        case .resource(let resource):
            resource.write(to: &writer, sortingKeys: sortingKeys)
        case .identifier(let identifier):
            identifier.write(to: &writer, sortingKeys: sortingKeys)
        case .identifiers(let identifiers):
            writer.beginArray()
            for identifier in identifiers { identifier.write(to: &writer, sortingKeys: sortingKeys) }
            writer.endArray()
        }
    }
}

extension AtomicOperationsDocument.Operation: JSONWritable {
    /// Writes `op`, `ref`, `href`, `data` and `meta`, leaving out what is nil.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = [("op", { $0.string(op.rawValue) })]
        if let ref { members.append(("ref", { ref.write(to: &$0, sortingKeys: sortingKeys) })) }
        if let href { members.append(("href", { $0.string(href) })) }
        if let data { members.append(("data", { data.write(to: &$0, sortingKeys: sortingKeys) })) }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

extension AtomicOperationsDocument: JSONWritable {
    /// Writes `jsonapi`, `atomic:operations` and `meta`, leaving out what is nil.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let jsonapi { members.append(("jsonapi", { jsonapi.write(to: &$0, sortingKeys: sortingKeys) })) }
        members.append(
            (
                AtomicOperations.operationsMember,
                { writer in
                    writer.beginArray()
                    for operation in operations { operation.write(to: &writer, sortingKeys: sortingKeys) }
                    writer.endArray()
                }
            ))
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

/// An Atomic Operations response (`{"atomic:results": [...]}`), built in code: one result per
/// operation of the request, in the same order.
///
/// ```swift
/// var response = AtomicResultsDocument()
/// response.append(JSONAPIResourceObject(type: "articles", id: "13", attributes: ["title": "Hello"]))
/// response.appendEmpty()                       // an operation that returns no data
/// let body = try response.jsonBytes()
/// // {"atomic:results":[{"data":{"type":"articles","id":"13","attributes":{"title":"Hello"}}},{}]}
/// ```
public struct AtomicResultsDocument: Sendable, Hashable {
    /// One result.
    public struct Result: Sendable, Hashable {
        /// The result's data; nil leaves `data` out.
        public var data: ResultData?
        /// Non-standard meta-information about the result.
        public var meta: JSON.Object?

        /// Creates a result.
        public init(data: ResultData? = nil, meta: JSON.Object? = nil) {
            self.data = data
            self.meta = meta
        }

        /// Copies a result read from a parsed response.
        public init(_ view: AtomicResult) {
            let data: ResultData?
            switch view.data {
            case .absent: data = nil
            case .null: data = .null
            case .resource(let resource): data = .resource(JSONAPIResourceObject(resource))
            case .resources(let resources): data = .resources(resources.map(JSONAPIResourceObject.init))
            }
            self.init(data: data, meta: view.meta.map { JSON($0).objectValue ?? [:] })
        }
    }

    /// What a result's `data` holds.
    public enum ResultData: Sendable, Hashable {
        /// `null`.
        case null
        /// A resource object, such as the created or updated resource.
        case resource(JSONAPIResourceObject)
        /// An array of resource objects.
        case resources([JSONAPIResourceObject])
    }

    /// The results, one per operation, in the order of the operations.
    public var results: [Result]
    /// The `jsonapi` object; nil leaves it out.
    public var jsonapi: JSONAPIImplementationInfo?
    /// Top-level meta-information; nil leaves it out.
    public var meta: JSON.Object?

    /// Creates a response.
    public init(results: [Result] = [], jsonapi: JSONAPIImplementationInfo? = nil, meta: JSON.Object? = nil) {
        self.results = results
        self.jsonapi = jsonapi
        self.meta = meta
    }

    /// Copies the results (and `jsonapi`, `meta`) of a parsed response.
    ///
    /// - Throws: ``JSONAPIError`` when the document breaks a rule of the extension.
    public init(_ document: Document) throws(JSONAPIError) {
        self.init(
            results: try document.atomicResults().map(Result.init),
            jsonapi: document.jsonapi.map(JSONAPIImplementationInfo.init),
            meta: document.meta.map { JSON($0).objectValue ?? [:] })
    }

    /// Appends a result holding `resource` as its data.
    public mutating func append(_ resource: JSONAPIResourceObject, meta: JSON.Object? = nil) {
        results.append(Result(data: .resource(resource), meta: meta))
    }

    /// Appends a result without data (`{}`, or only `meta`).
    public mutating func appendEmpty(meta: JSON.Object? = nil) {
        results.append(Result(meta: meta))
    }

    /// True when no result has data or meta: the server may then answer `204 No Content` with no
    /// document instead.
    public var isEmpty: Bool { results.allSatisfy { $0.data == nil && $0.meta == nil } }
}

extension AtomicResultsDocument.Result: JSONWritable {
    /// Writes `data` and `meta`, leaving out what is nil (`{}` when both are).
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let data {
            members.append(
                (
                    "data",
                    { writer in
                        switch data {
                        case .null:
                            writer.null()
                        case .resource(let resource):
                            resource.write(to: &writer, sortingKeys: sortingKeys)
                        case .resources(let resources):
                            writer.beginArray()
                            for resource in resources { resource.write(to: &writer, sortingKeys: sortingKeys) }
                            writer.endArray()
                        }
                    }
                ))
        }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

extension AtomicResultsDocument: JSONWritable {
    /// Writes `jsonapi`, `atomic:results` and `meta`, leaving out what is nil.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let jsonapi { members.append(("jsonapi", { jsonapi.write(to: &$0, sortingKeys: sortingKeys) })) }
        members.append(
            (
                AtomicOperations.resultsMember,
                { writer in
                    writer.beginArray()
                    for result in results { result.write(to: &writer, sortingKeys: sortingKeys) }
                    writer.endArray()
                }
            ))
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}
