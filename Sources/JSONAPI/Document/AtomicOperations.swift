// Reading the Atomic Operations extension (https://jsonapi.org/ext/atomic).
//
// The base grammar keeps `atomic:operations` and `atomic:results` as opaque extension members
// (byte ranges). Reading them checks the extension's rules and gives typed views. The `data` of
// each operation or result is a resource object, resource identifiers or null, which the
// base grammar knows how to check: each one is parsed on its own as the primary data of a small
// document of the right kind (`{"data": …}`), so it gets every rule of the base specification
// and the usual views (``ResourceObject``, ``ResourceIdentifierObject``) at the cost of one copy
// of its bytes. Diagnostics from that parse are moved back to their place in the outer document.

/// Names and rules of the Atomic Operations extension.
///
/// ```swift
/// let document = try Document(parsing: body)
/// for operation in try document.atomicOperations() {
///     switch (operation.op, operation.data) {
///     case (.add, .resource(let resource)):
///         print("create", resource.type, resource.lid ?? "")
///     case (.remove, _):
///         print("delete", operation.ref?.identifier.description ?? operation.href ?? "")
///     default:
///         break
///     }
/// }
/// ```
public enum AtomicOperations {
    /// The extension's URI, for the `ext` media type parameter.
    public static let extensionURI = "https://jsonapi.org/ext/atomic"
    /// The top-level member holding the operations of a request.
    public static let operationsMember = "atomic:operations"
    /// The top-level member holding the results of a response.
    public static let resultsMember = "atomic:results"
}

/// Where an operation applies: a resource (by `id` or `lid`), or one of its relationships.
public struct AtomicReference: Sendable, Hashable, CustomStringConvertible {
    /// The resource type.
    public var type: String
    /// The resource id (or nil when the resource is named by ``lid``).
    public var id: String?
    /// The local id of a resource created earlier in the same request.
    public var lid: String?
    /// The relationship the operation applies to, or nil for the resource itself.
    public var relationship: String?

    /// Creates a reference; give exactly one of `id` and `lid`.
    public init(type: String, id: String? = nil, lid: String? = nil, relationship: String? = nil) {
        self.type = type
        self.id = id
        self.lid = lid
        self.relationship = relationship
    }

    /// A reference to a resource (or one of its relationships) by identifier.
    public init(_ identifier: ResourceIdentifier, relationship: String? = nil) {
        self.init(type: identifier.type, id: identifier.id, lid: identifier.lid, relationship: relationship)
    }

    /// The referenced resource's `type`, `id` and `lid`.
    public var identifier: ResourceIdentifier { ResourceIdentifier(type: type, id: id, lid: lid) }

    public var description: String {
        identifier.description + (relationship.map { "/relationships/\($0)" } ?? "")
    }
}

/// One operation of an `atomic:operations` request, checked against the extension's rules.
public struct AtomicOperation: Sendable {
    /// The operation code (`op`).
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// Creates a resource, or adds members to a to-many relationship.
        case add
        /// Updates a resource, or replaces a relationship.
        case update
        /// Deletes a resource, or removes members from a to-many relationship.
        case remove
    }

    /// The operation's `data`.
    public enum Data: Sendable {
        /// No `data` member (removing a resource).
        case absent
        /// `null`: clearing a to-one relationship.
        case null
        /// A resource object: creating or updating a resource.
        case resource(ResourceObject)
        /// One resource identifier: setting a to-one relationship.
        case identifier(ResourceIdentifierObject)
        /// Resource identifiers: adding to, replacing or removing from a to-many relationship.
        case identifiers([ResourceIdentifierObject])
    }

    /// Position in `atomic:operations`.
    public let index: Int
    /// The operation code.
    public let op: Code
    /// The target named by `ref`, if any.
    public let ref: AtomicReference?
    /// The target named by `href` (a URI reference), if any.
    public let href: String?
    /// The operation's data. Views of a resource or identifiers belong to a small document
    /// parsed from the data alone: their ``ResourceObject/byteOffset`` counts from 8 bytes before
    /// the data's first byte.
    public let data: Data
    /// The operation's `meta`.
    public let meta: JSONObject?
    /// The operation object as a plain value, exactly as in the document.
    public let jsonValue: JSONValue

    /// The JSON Pointer of the operation object (`/atomic:operations/2`), for error objects.
    public var pointer: String { "/\(AtomicOperations.operationsMember)/\(index)" }

    /// True when the operation targets a relationship rather than a resource.
    public var targetsRelationship: Bool { ref?.relationship != nil }
}

/// One result of an `atomic:results` response.
public struct AtomicResult: Sendable {
    /// The result's `data`.
    public enum Data: Sendable {
        /// No `data` member: the operation returned nothing.
        case absent
        /// `null`.
        case null
        /// A resource object, such as the created resource.
        case resource(ResourceObject)
        /// An array of resource objects.
        case resources(ResourceCollection)
    }

    /// Position in `atomic:results` (the position of the operation it answers).
    public let index: Int
    /// The result's data. Views belong to a small document parsed from the data alone (see
    /// ``AtomicOperation/data``).
    public let data: Data
    /// The result's `meta`.
    public let meta: JSONObject?
    /// The result object as a plain value.
    public let jsonValue: JSONValue

    /// The JSON Pointer of the result object (`/atomic:results/0`).
    public var pointer: String { "/\(AtomicOperations.resultsMember)/\(index)" }
}

extension Document {
    /// True when the document has an `atomic:operations` member.
    public var hasAtomicOperations: Bool { extensionMember(AtomicOperations.operationsMember) != nil }

    /// True when the document has an `atomic:results` member.
    public var hasAtomicResults: Bool { extensionMember(AtomicOperations.resultsMember) != nil }

    /// The operations of an Atomic Operations request, in order, checked against the extension.
    ///
    /// ```swift
    /// let document = try Document(parsing: #"""
    ///     {"atomic:operations": [{"op": "remove", "ref": {"type": "articles", "id": "13"}}]}
    ///     """#)
    /// let operation = try document.atomicOperations()[0]
    /// print(operation.op, operation.ref?.id ?? "")   // remove 13
    /// ```
    ///
    /// The rules checked, each problem reported with its JSON Pointer:
    /// - `atomic:operations` is a non-empty array of objects; the document has neither
    ///   `atomic:results`, `data`, `included` nor `errors`.
    /// - `op` is `"add"`, `"update"` or `"remove"`; `ref` and `href` are not both present;
    ///   `ref` has a string `type`, exactly one of `id` and `lid` (strings), an optional string
    ///   `relationship` and nothing else but @-members and extension members; `href` is a string;
    ///   `meta` is an object.
    /// - On a relationship (`ref.relationship`): `data` is present; `add` and `remove` take an
    ///   array of resource identifiers, `update` takes `null`, one identifier or an array.
    /// - On a resource: `add` takes a resource object (`type` required, `id` optional); `update`
    ///   takes a resource object with an `id` or `lid`; `remove` needs `ref` or `href`. Resource
    ///   objects and identifiers follow every rule of the base specification.
    ///
    /// - Returns: The operations; empty when the document has no `atomic:operations` member.
    /// - Throws: ``JSONAPIError`` with every problem found, each located in this document.
    public func atomicOperations() throws(JSONAPIError) -> [AtomicOperation] {
        guard let member = extensionMember(AtomicOperations.operationsMember) else { return [] }
        var reader = AtomicReader(document: self)
        reader.checkDocument(
            member: AtomicOperations.operationsMember, other: AtomicOperations.resultsMember, value: member)
        let operations = reader.operations(member)
        try reader.finish()
        return operations
    }

    /// The results of an Atomic Operations response, in order, checked against the extension.
    ///
    /// ```swift
    /// for result in try document.atomicResults() {
    ///     if case .resource(let created) = result.data { print(created.type, created.id ?? "") }
    /// }
    /// ```
    ///
    /// Rules checked: `atomic:results` is a non-empty array of objects; the document has neither
    /// `atomic:operations`, `data`, `included` nor `errors`; each result's `data`, when present,
    /// is `null`, a resource object or an array of them (following every rule of the base
    /// specification for a response), and its `meta` is an object.
    ///
    /// - Returns: The results; empty when the document has no `atomic:results` member.
    /// - Throws: ``JSONAPIError`` with every problem found, each located in this document.
    public func atomicResults() throws(JSONAPIError) -> [AtomicResult] {
        guard let member = extensionMember(AtomicOperations.resultsMember) else { return [] }
        var reader = AtomicReader(document: self)
        reader.checkDocument(
            member: AtomicOperations.resultsMember, other: AtomicOperations.operationsMember, value: member)
        let results = reader.results(member)
        try reader.finish()
        return results
    }

    /// The value of the first top-level extension member named `name`.
    func extensionMember(_ name: String) -> JSONValue? {
        let arena = storage.arena
        let wanted = Array(name.utf8)
        // SAFETY: both views are used only inside the scopes that lend their bytes.
        return unsafe wanted.withUnsafeBytes { wanted in
            unsafe storage.withBytes { bytes in
                let bytes = unsafe ByteView(unsafeBytes: bytes)
                let wanted = unsafe ByteView(unsafeBytes: wanted)
                for member in arena.foreignMembers
                where ValueReader.keyEquals(bytes, member.name, member.nameHasEscapes, wanted) {
                    return JSONValue(storage: storage, range: member.value)
                }
                return nil
            }
        }
    }
}

/// Checks the extension's rules, collecting problems with their offsets and pointers.
private struct AtomicReader {
    let document: Document
    var problems: [(offset: Int, pointer: String, message: String)] = []
    /// Problems found by the base grammar in operation data, already located.
    var located: [Diagnostic] = []

    init(document: Document) {
        self.document = document
    }

    mutating func problem(_ value: JSONValue, _ pointer: String, _ message: String) {
        problems.append((value.byteOffset, pointer, message))
    }

    /// Document-level rules: the member is a non-empty array and excludes the others.
    mutating func checkDocument(member: String, other: String, value: JSONValue) {
        let top = document.jsonValue
        for (name, what) in [
            (other, "`\(other)`"), ("data", "`data`"), ("included", "`included`"), ("errors", "`errors`"),
        ] {
            if let conflicting = top[name] {
                problem(conflicting, "/" + name, "a document with `\(member)` must not contain \(what)")
            }
        }
        if value.kind != .array {
            problem(value, "/" + member, "`\(member)` must be an array, found \(value.kind.rawValue)")
        } else if value.count == 0 {
            problem(value, "/" + member, "`\(member)` must hold at least one object")
        }
    }

    // MARK: Operations

    mutating func operations(_ member: JSONValue) -> [AtomicOperation] {
        guard member.kind == .array else { return [] }
        var operations: [AtomicOperation] = []
        for (index, value) in member.elements.enumerated() {
            if let operation = operation(value, index: index) { operations.append(operation) }
        }
        return operations
    }

    private mutating func operation(_ value: JSONValue, index: Int) -> AtomicOperation? {
        let pointer = "/\(AtomicOperations.operationsMember)/\(index)"
        guard value.kind == .object else {
            problem(value, pointer, "an operation must be an object, found \(value.kind.rawValue)")
            return nil
        }
        for (key, member) in value.members {
            switch key {
            case "op", "ref", "href", "data", "meta": continue
            default:
                if !AtomicReader.isExtensionOrAtMember(key) {
                    problem(member, pointer + "/" + key, "an operation must not have a member named `\(key)`")
                }
            }
        }
        var code: AtomicOperation.Code?
        if let op = value["op"] {
            if let text = op.stringValue, let known = AtomicOperation.Code(rawValue: text) {
                code = known
            } else {
                // The value as read, not as spelled: a report must not depend on whitespace or escapes.
                let found = op.stringValue.map { "\"\($0)\"" } ?? op.kind.rawValue
                problem(op, pointer + "/op", "`op` must be \"add\", \"update\" or \"remove\", found \(found)")
            }
        } else {
            problem(value, pointer, "an operation must have an `op` member")
        }
        let ref = value["ref"].flatMap { reference($0, pointer: pointer + "/ref") }
        var href: String?
        if let hrefValue = value["href"] {
            href = hrefValue.stringValue
            if href == nil { problem(hrefValue, pointer + "/href", "`href` must be a string") }
            if value["ref"] != nil {
                problem(hrefValue, pointer + "/href", "an operation must not have both `ref` and `href`")
            }
        }
        let meta = metaObject(value["meta"], pointer: pointer + "/meta")
        guard let code else { return nil }
        let data = operationData(value, code: code, ref: ref, href: href, pointer: pointer)
        return AtomicOperation(
            index: index, op: code, ref: ref, href: href, data: data, meta: meta, jsonValue: value)
    }

    private mutating func reference(_ value: JSONValue, pointer: String) -> AtomicReference? {
        guard value.kind == .object else {
            problem(value, pointer, "`ref` must be an object, found \(value.kind.rawValue)")
            return nil
        }
        var strings: [String: String] = [:]
        for (key, member) in value.members {
            switch key {
            case "type", "id", "lid", "relationship":
                if let text = member.stringValue {
                    strings[key] = text
                } else {
                    problem(member, pointer + "/" + key, "`\(key)` must be a string, found \(member.kind.rawValue)")
                }
            default:
                if !AtomicReader.isExtensionOrAtMember(key) {
                    problem(member, pointer + "/" + key, "`ref` must not have a member named `\(key)`")
                }
            }
        }
        if value["type"] == nil { problem(value, pointer, "`ref` must have a `type` member") }
        if value["id"] != nil && value["lid"] != nil {
            problem(value, pointer, "`ref` must not have both `id` and `lid`")
        } else if value["id"] == nil && value["lid"] == nil {
            problem(value, pointer, "`ref` must have an `id` or a `lid` member")
        }
        guard let type = strings["type"] else { return nil }
        return AtomicReference(
            type: type, id: strings["id"], lid: strings["lid"], relationship: strings["relationship"])
    }

    private mutating func operationData(
        _ operation: JSONValue, code: AtomicOperation.Code, ref: AtomicReference?, href: String?, pointer: String
    ) -> AtomicOperation.Data {
        let dataPointer = pointer + "/data"
        guard let data = operation["data"] else {
            if ref?.relationship != nil {
                problem(operation, pointer, "an operation on a relationship must have a `data` member")
            } else if code != .remove {
                problem(operation, pointer, "an `\(code.rawValue)` operation on a resource must have a `data` member")
            } else if ref == nil && href == nil {
                problem(operation, pointer, "a `remove` operation must name its target with `ref` or `href`")
            }
            return .absent
        }
        if ref?.relationship != nil {
            switch (code, data.kind) {
            case (.add, .array), (.remove, .array), (.update, .array), (.update, .object), (.update, .null):
                break
            case (.update, _):
                problem(data, dataPointer, "relationship data must be null, a resource identifier or an array of them")
                return .absent
            default:
                problem(
                    data, dataPointer,
                    "an `\(code.rawValue)` operation on a relationship takes an array of resource identifiers")
                return .absent
            }
            guard let parsed = parseData(data, kind: .relationshipUpdate, pointer: dataPointer) else { return .absent }
            switch parsed.primary {
            case .null: return .null
            case .identifier(let identifier): return .identifier(identifier)
            case .identifiers(let identifiers): return .identifiers(identifiers)
            default: return .absent
            }
        }
        guard data.kind == .object else {
            problem(
                data, dataPointer, "an operation on a resource takes a resource object, found \(data.kind.rawValue)")
            return .absent
        }
        guard let parsed = parseData(data, kind: .createRequest, pointer: dataPointer),
            case .one(let resource) = parsed.primary
        else { return .absent }
        if code == .update && resource.id == nil && resource.lid == nil {
            problem(data, dataPointer, "the resource of an `update` operation must have an `id` or a `lid`")
        }
        return .resource(resource)
    }

    // MARK: Results

    mutating func results(_ member: JSONValue) -> [AtomicResult] {
        guard member.kind == .array else { return [] }
        var results: [AtomicResult] = []
        for (index, value) in member.elements.enumerated() {
            let pointer = "/\(AtomicOperations.resultsMember)/\(index)"
            guard value.kind == .object else {
                problem(value, pointer, "a result must be an object, found \(value.kind.rawValue)")
                continue
            }
            for (key, member) in value.members where key != "data" && key != "meta" {
                if !AtomicReader.isExtensionOrAtMember(key) {
                    problem(member, pointer + "/" + key, "a result must not have a member named `\(key)`")
                }
            }
            let meta = metaObject(value["meta"], pointer: pointer + "/meta")
            var data = AtomicResult.Data.absent
            if let dataValue = value["data"] {
                switch dataValue.kind {
                case .null, .object, .array:
                    if let parsed = parseData(dataValue, kind: .response, pointer: pointer + "/data") {
                        switch parsed.primary {
                        case .null: data = .null
                        case .one(let resource): data = .resource(resource)
                        case .many(let resources): data = .resources(resources)
                        default: break
                        }
                    }
                default:
                    problem(
                        dataValue, pointer + "/data",
                        "a result's `data` must be null, a resource object or an array of them")
                }
            }
            results.append(AtomicResult(index: index, data: data, meta: meta, jsonValue: value))
        }
        return results
    }

    // MARK: Shared

    /// Whether `name` is an @-member or an extension member (allowed anywhere, meaning left
    /// to its definer).
    static func isExtensionOrAtMember(_ name: String) -> Bool {
        unsafe Array(name.utf8).withUnsafeBytes { bytes in
            switch unsafe MemberNameRules.classify(bytes) {
            case .atMember, .extensionMember: true
            case .plain, .invalid: false
            }
        }
    }

    private mutating func metaObject(_ value: JSONValue?, pointer: String) -> JSONObject? {
        guard let value else { return nil }
        guard value.kind == .object else {
            problem(value, pointer, "`meta` must be an object, found \(value.kind.rawValue)")
            return nil
        }
        return JSONObject(storage: value.storage, range: value.range)
    }

    /// Parses `value` as the primary data of a document of `kind`; nil (with the problems moved
    /// to their place in the outer document) when it breaks a rule.
    private mutating func parseData(_ value: JSONValue, kind: ParsingOptions.Kind, pointer: String) -> Document? {
        let prefix = Array(#"{"data":"#.utf8)
        var bytes = prefix
        unsafe value.withRawBytes { unsafe bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "}"))
        var options = document.options
        options.kind = kind
        options.checksFullLinkage = false
        do {
            return try Document(parsing: bytes, options: options)
        } catch {
            let shift = value.byteOffset - prefix.count
            let diagnostics =
                error.diagnostics.isEmpty
                ? [
                    Diagnostic(
                        severity: .error, code: error.code, message: error.message, offset: error.offset,
                        pointer: error.pointer)
                ]
                : error.diagnostics
            for diagnostic in diagnostics where diagnostic.severity == .error {
                var moved = diagnostic
                moved.offset = diagnostic.offset >= prefix.count ? diagnostic.offset + shift : value.byteOffset
                moved.pointer =
                    diagnostic.pointer.hasPrefix("/data") ? pointer + diagnostic.pointer.dropFirst(5) : pointer
                located.append(moved)
            }
            return nil
        }
    }

    /// Throws every problem found, located, in document order; returns when there is none.
    func finish() throws(JSONAPIError) {
        guard !problems.isEmpty || !located.isEmpty else { return }
        var diagnostics = located
        for problem in problems {
            diagnostics.append(
                Diagnostic(
                    severity: .error, code: .specViolation, message: problem.message, offset: problem.offset,
                    pointer: problem.pointer))
        }
        let locations = unsafe document.withUnsafeInputBytes { bytes in
            unsafe SourceLocator.locate(offsets: diagnostics.map(\.offset), in: unsafe bytes)
        }
        for index in diagnostics.indices {
            diagnostics[index].line = locations[index].line
            diagnostics[index].column = locations[index].column
        }
        diagnostics.sort { $0.offset < $1.offset }
        let first = diagnostics[0]
        throw JSONAPIError(
            first.code, first.message, offset: first.offset, line: first.line, column: first.column,
            pointer: first.pointer, diagnostics: diagnostics)
    }
}
