import JSONAPI

/// Reads every view of a parsed document and writes what it saw as text: the digest the fuzz
/// checks compare between two parses of the same document (whole and chunked, scanner and
/// yajl, input and written output). Along the way it checks the invariants a reader relies on
/// (a value's kind agrees with its accessors, a lookup by (type, id) finds a resource with that
/// type and id, a relationship found by name has that name) and records each broken one.
///
/// The walk uses the public API only, so the checks also hold in a release build without
/// `@testable`.
struct ViewWalk {
    /// Whether the digest holds byte offsets, raw text, line and column: true to compare two
    /// parses of the same bytes, false to compare a document with its written-out form.
    var positions: Bool
    /// Whether object members are written in key order: to compare with sorted output.
    var sortsMembers: Bool
    private(set) var digest = ""
    private(set) var problems: [String] = []

    init(positions: Bool, sortsMembers: Bool = false) {
        self.positions = positions
        self.sortsMembers = sortsMembers
    }

    private mutating func emit(_ text: String) {
        digest += text
        digest += "\n"
    }

    private mutating func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { problems.append(what()) }
    }

    // MARK: The document

    mutating func walk(_ document: Document) {
        switch document.primary {
        case .absent: emit("primary absent")
        case .null: emit("primary null")
        case .one(let resource):
            emit("primary one")
            walk(resource, path: "data")
        case .many(let resources):
            emit("primary many \(resources.count)")
            for (index, resource) in resources.enumerated() { walk(resource, path: "data[\(index)]") }
        case .identifier(let identifier):
            emit("primary identifier")
            walk(identifier, path: "data")
        case .identifiers(let identifiers):
            emit("primary identifiers \(identifiers.count)")
            for (index, identifier) in identifiers.enumerated() { walk(identifier, path: "data[\(index)]") }
        }
        emit("primaryResources \(document.primaryResources.map(\.identifier))")
        emit("primaryIdentifiers \(document.primaryIdentifiers.map(\.identifier))")
        emit("hasIncluded \(document.hasIncluded) included \(document.included.count)")
        for (index, resource) in document.included.enumerated() { walk(resource, path: "included[\(index)]") }
        // The type table lists types in order of appearance, which sorting members changes.
        let types = sortsMembers ? document.types.sorted() : document.types
        emit("types \(types)")
        for type in types {
            let ofType = document.resources(ofType: type)
            expect(ofType.allSatisfy { $0.type == type }, "resources(ofType: \(type)) holds another type")
            emit("ofType \(type) \(ofType.count)")
        }
        lookups(document)

        emit("hasErrors \(document.hasErrors) errors \(document.errors.count)")
        for (index, error) in document.errors.enumerated() { walk(error, path: "errors[\(index)]") }
        walk(document.meta, path: "meta")
        walk(document.links, path: "links")
        if let jsonapi = document.jsonapi {
            emit("jsonapi \(jsonapi.version ?? "-") ext \(jsonapi.extensions) profile \(jsonapi.profiles)")
            walk(jsonapi.meta, path: "jsonapi.meta")
        } else {
            emit("jsonapi -")
        }
        let extensionMembers = document.extensionMembers
        emit("extensionMembers \(extensionMembers.count)")
        for member in order(extensionMembers.map { (key: $0.name, value: $0.value) }) {
            emit("extension \(member.key)")
            walk(member.value, path: member.key)
        }
        atomic(document)
        walk(document.jsonValue, path: "document")
        let statistics = document.statistics
        emit(
            "statistics resources \(statistics.resourceCount) primary \(statistics.primaryCount) "
                + "included \(statistics.includedCount) relationships \(statistics.relationshipCount) "
                + "linkage \(statistics.linkageCount) resolved \(statistics.resolvedLinkageCount) "
                + "errors \(statistics.errorCount)")
        if positions {
            emit("inputByteCount \(statistics.inputByteCount)")
        }
        walk(document.diagnostics)
    }

    /// Every resource found again by (type, id) and by identifier.
    private mutating func lookups(_ document: Document) {
        for resource in document.allResources {
            // A lenient parse keeps a resource without a `type` (read as ""): it has no identity
            // to look up.
            guard let id = resource.id, !resource.type.isEmpty else { continue }
            let found = document.resource(type: resource.type, id: id)
            expect(found != nil, "resource(type: \(resource.type), id: \(id)) finds nothing")
            if let found {
                expect(
                    found.type == resource.type && found.id == id,
                    "resource(type: \(resource.type), id: \(id)) finds \(found.identifier)")
            }
            let byIdentifier = document.resource(ResourceIdentifier(type: resource.type, id: id))
            expect(
                byIdentifier?.recordIndex == found?.recordIndex,
                "resource(\(resource.identifier)) and resource(type:id:) disagree")
        }
        expect(
            document.resource(type: "\u{0}fuzz-no-such-type", id: "1") == nil, "a lookup of an unknown type finds one")
    }

    private mutating func atomic(_ document: Document) {
        emit("atomic \(document.hasAtomicOperations) \(document.hasAtomicResults)")
        if document.hasAtomicOperations {
            do {
                for operation in try document.atomicOperations() {
                    emit(
                        "operation \(operation.index) \(operation.op.rawValue) \(operation.ref?.description ?? "-") "
                            + "\(operation.href ?? "-") \(operation.pointer) \(operation.targetsRelationship)")
                    walk(operation.data, path: operation.pointer)
                    walk(operation.meta, path: operation.pointer + "/meta")
                }
            } catch {
                // Which error comes first depends on member order.
                emit("operations error \(sortsMembers ? "" : describe(error, positions: positions))")
            }
        }
        if document.hasAtomicResults {
            do {
                for result in try document.atomicResults() {
                    emit("result \(result.index) \(result.pointer)")
                    switch result.data {
                    case .absent: emit("absent")
                    case .null: emit("null")
                    case .resource(let resource): walk(resource, path: result.pointer)
                    case .resources(let resources):
                        for resource in resources { walk(resource, path: result.pointer) }
                    }
                    walk(result.meta, path: result.pointer + "/meta")
                }
            } catch {
                // Which error comes first depends on member order.
                emit("results error \(sortsMembers ? "" : describe(error, positions: positions))")
            }
        }
    }

    private mutating func walk(_ data: AtomicOperation.Data, path: String) {
        switch data {
        case .absent: emit("absent")
        case .null: emit("null")
        case .resource(let resource): walk(resource, path: path)
        case .identifier(let identifier): walk(identifier, path: path)
        case .identifiers(let identifiers): for identifier in identifiers { walk(identifier, path: path) }
        }
    }

    // MARK: Resources

    private mutating func walk(_ resource: ResourceObject, path: String) {
        emit("resource \(path) \(resource.identifier) included \(resource.isIncluded) \(resource.description)")
        expect(resource.identifier.type == resource.type, "\(path): identifier type")
        if positions {
            emit("at \(resource.byteOffset) \(resource.rawJSON.rawJSON.utf8.count)")
        }
        walk(resource.attributes, path: path + ".attributes")
        let relationships = resource.relationships
        emit("relationships \(relationships.count)")
        let listed = sortsMembers ? relationships.sorted { $0.name < $1.name } : relationships
        for relationship in listed {
            walk(relationship, path: path + ".relationships." + relationship.name)
            let found = resource.relationship(relationship.name)
            expect(found?.name == relationship.name, "\(path): relationship(\(relationship.name)) finds another")
        }
        walk(resource.links, path: path + ".links")
        walk(resource.meta, path: path + ".meta")
        walk(resource.rawJSON, path: path + ".object")
    }

    private mutating func walk(_ relationship: Relationship, path: String) {
        emit("relationship \(path) toMany \(relationship.isToMany) \(relationship.description)")
        switch relationship.linkage {
        case .absent: emit("linkage absent")
        case .null: emit("linkage null")
        case .one(let identifier):
            emit("linkage one")
            walk(identifier, path: path)
        case .many(let identifiers):
            emit("linkage many \(identifiers.count)")
            for identifier in identifiers { walk(identifier, path: path) }
        }
        let identifiers = relationship.identifiers
        let resolved = relationship.resolvedResources
        expect(resolved.count <= identifiers.count, "\(path): more resolved resources than identifiers")
        emit("resolved \(resolved.map(\.identifier)) \(relationship.resolvedResource?.identifier.description ?? "-")")
        walk(relationship.links, path: path + ".links")
        walk(relationship.meta, path: path + ".meta")
    }

    private mutating func walk(_ identifier: ResourceIdentifierObject, path: String) {
        emit("identifier \(identifier.identifier) \(identifier.description)")
        expect(identifier.identifier.type == identifier.type, "\(path): identifier type")
        if let resource = identifier.resource {
            expect(
                resource.type == identifier.type && resource.id == identifier.id,
                "\(path): \(identifier.identifier) resolves to \(resource.identifier)")
            emit("resolves \(resource.identifier)")
        }
        walk(identifier.meta, path: path + ".meta")
    }

    // MARK: Links, errors, meta

    private mutating func walk(_ links: Links?, path: String) {
        guard let links else {
            emit("\(path) -")
            return
        }
        let names = sortsMembers ? links.names.sorted() : links.names
        emit("\(path) \(names)")
        for name in names {
            expect(links.contains(name), "\(path): contains(\(name)) is false")
            if let link = links[name] {
                emit(
                    "link \(name) \(link.href) \(link.rel ?? "-") \(link.describedby ?? "-") \(link.title ?? "-") "
                        + "\(link.type ?? "-") \(link.hreflang)")
                if let meta = link.meta { walk(meta, path: path + "." + name + ".meta") }
            }
        }
        var iterated = 0
        for _ in links { iterated += 1 }
        emit("links iterated \(iterated)")
        walk(links.jsonValue, path: path)
    }

    private mutating func walk(_ error: ErrorObject, path: String) {
        emit(
            "error \(path) \(error.id ?? "-") \(error.status ?? "-") \(error.code ?? "-") \(error.title ?? "-") "
                + "\(error.detail ?? "-") \(error.description)")
        if let source = error.source {
            emit("source \(source.pointer ?? "-") \(source.parameter ?? "-") \(source.header ?? "-")")
        }
        walk(error.links, path: path + ".links")
        walk(error.meta, path: path + ".meta")
        walk(error.jsonValue, path: path)
    }

    private mutating func walk(_ object: JSONObject?, path: String) {
        guard let object else {
            emit("\(path) -")
            return
        }
        emit("\(path) absent \(object.isAbsent) count \(object.count) empty \(object.isEmpty)")
        expect(object.isEmpty == (object.count == 0), "\(path): isEmpty and count disagree")
        for key in object.keys {
            expect(object.contains(key), "\(path): contains(\(key)) is false")
            expect(object[key] != nil, "\(path): [\(key)] is nil")
        }
        var iterated = 0
        for _ in object { iterated += 1 }
        expect(iterated == object.count, "\(path): iterates \(iterated) members, count \(object.count)")
        if let value = object.jsonValue { walk(value, path: path) }
    }

    // MARK: Values

    private func order(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        guard sortsMembers else { return members }
        return members.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
    }

    mutating func walk(_ value: JSONValue, path: String) {
        walkValue(value, path: path, depth: 0)
    }

    private mutating func walkValue(_ value: JSONValue, path: String, depth: Int) {
        let kind = value.kind
        if positions {
            emit("\(kind.rawValue) at \(value.byteOffset) \(value.rawJSON.utf8.count)")
            expect(value.description == value.rawJSON, "\(path): description is not rawJSON")
        }
        expect(value.isNull == (kind == .null), "\(path): isNull and kind disagree")
        expect((value.stringValue != nil) == (kind == .string), "\(path): stringValue and kind \(kind) disagree")
        expect((value.boolValue != nil) == (kind == .bool), "\(path): boolValue and kind \(kind) disagree")
        expect((value.numberText != nil) == (kind == .number), "\(path): numberText and kind \(kind) disagree")
        expect((value.number != nil) == (kind == .number), "\(path): number and kind \(kind) disagree")
        value.withRawBytes { bytes in
            expect(bytes.count == value.rawJSON.utf8.count, "\(path): withRawBytes and rawJSON lengths disagree")
        }
        switch kind {
        case .null: emit("null")
        case .bool: emit("bool \(value.boolValue.map(String.init) ?? "?")")
        case .string: emit("string \(value.stringValue.map { String(reflecting: $0) } ?? "?")")
        case .number:
            let number = value.number
            emit(
                "number \(number.map { String(describing: $0) } ?? "?") int \(value.int64Value.map(String.init) ?? "-") "
                    + "uint \(value.uint64Value.map(String.init) ?? "-") "
                    + "double \(value.doubleValue.map { String($0.bitPattern) } ?? "-")")
            if let int = value.int64Value, case .int(let exact)? = number {
                expect(int == exact, "\(path): int64Value \(int) but number \(exact)")
            }
            if positions { emit("text \(value.numberText ?? "?")") }
        case .array:
            let elements = value.elements
            expect(elements.count == value.count, "\(path): \(elements.count) elements, count \(value.count)")
            expect(value[elements.count] == nil, "\(path): an element past the end")
            expect(value[-1] == nil, "\(path): an element at -1")
            emit("array \(elements.count)")
            for (index, element) in elements.enumerated() {
                expect(value[index]?.byteOffset == element.byteOffset, "\(path)[\(index)]: subscript and elements")
                walkValue(element, path: "\(path)[\(index)]", depth: depth + 1)
            }
        case .object:
            let members = value.members
            expect(members.count == value.count, "\(path): \(members.count) members, count \(value.count)")
            expect(value.keys == members.map(\.key), "\(path): keys and members disagree")
            emit("object \(members.count)")
            for member in order(members) {
                expect(value[member.key] != nil, "\(path): [\(member.key)] is nil")
                emit("key \(String(reflecting: member.key))")
                walkValue(member.value, path: "\(path).\(member.key)", depth: depth + 1)
            }
        }
        if kind != .object { expect(value["type"] == nil, "\(path): a \(kind) has a member") }
        if kind != .array { expect(value[0] == nil, "\(path): a \(kind) has an element") }
    }

    // MARK: Diagnostics

    private mutating func walk(_ diagnostics: [Diagnostic]) {
        emit("diagnostics \(diagnostics.count)")
        let lines = diagnostics.map(diagnosticLine)
        for line in sortsMembers ? lines.sorted() : lines {
            emit(line)
        }
    }

    private func diagnosticLine(_ diagnostic: Diagnostic) -> String {
        if positions {
            return "\(diagnostic.description) @\(diagnostic.offset)"
        }
        return "\(diagnostic.severity.rawValue) \(diagnostic.code) \(diagnostic.pointer) \(diagnostic.message)"
    }
}

/// An error as text, with its code, offset, location and message, for digests and reports.
/// Without `positions`, the offset, line and column are left out.
func describe(_ error: any Error, positions: Bool = true) -> String {
    if let error = error as? JSONAPIError {
        guard positions else { return "\(error.code) \(error.pointer) \(error.message)" }
        return "\(error.code) @\(error.offset) \(error.line):\(error.column) \(error.pointer) \(error.message)"
    }
    return String(describing: error)
}
