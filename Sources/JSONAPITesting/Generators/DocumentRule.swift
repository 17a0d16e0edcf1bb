import JSONAPI

/// A JSON:API rule that ``DocumentGenerators/invalidDocument(breaking:)`` breaks, and the
/// `JSONAPIError.Code` a strict parse reports for it.
///
/// ```swift
/// await propertyCheck(input: generators.invalidDocument(breaking: .duplicateResource)) { document in
///     let response = await server.handle(body: document.bytes)
///     #expect(response.status == 400)
/// }
/// ```
public enum DocumentRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Two resources with the same `type` and `id`.
    case duplicateResource
    /// A resource object without `type`.
    case missingType
    /// A resource object of a response without `id`.
    case missingID
    /// An `id` that is not a string.
    case idNotString
    /// An attribute named `id` (attributes share one namespace with `type` and `id`).
    case attributeNamedID
    /// A relationship object with none of `data`, `links` and `meta`.
    case relationshipWithoutDataLinksOrMeta
    /// An included resource that no relationship reaches (full linkage).
    case unlinkedIncludedResource
    /// An attribute whose name breaks the member-name rules.
    case invalidMemberName
    /// `data` and `errors` in one document.
    case dataAndErrors

    /// The code of the diagnostic a strict parse of a document breaking this rule reports.
    public var expectedCode: JSONAPIError.Code {
        switch self {
        case .duplicateResource: .duplicateResource
        case .unlinkedIncludedResource: .unreachableResource
        default: .specViolation
        }
    }

    /// How a strict parse reports the rule: an error (parsing throws), or for
    /// ``unlinkedIncludedResource`` a warning in `Document.diagnostics`, because
    /// sparse fieldsets may hide the linkage that would reach the resource.
    public var severity: Diagnostic.Severity {
        self == .unlinkedIncludedResource ? .warning : .error
    }

    /// The rule's name.
    public var description: String { rawValue }

    /// `document` (valid, with primary data an array of resources) changed to break this rule,
    /// and the JSON Pointer of the place that breaks it: the value a strict parse reports.
    func apply(to document: JSON, _ random: inout RandomSource) -> (document: JSON, pointer: String) {
        guard case .object(var top) = document, case .array(var data)? = top["data"],
            case .object(var first)? = data.first
        else { return (document, "") }
        let pointer: String
        switch self {
        case .duplicateResource:
            data.append(.object(first))
            pointer = "/data/\(data.count - 1)"
        case .missingType:
            first["type"] = nil
            pointer = "/data/0"
        case .missingID:
            first["id"] = nil
            pointer = "/data/0"
        case .idNotString:
            first["id"] = .int(Int64(random.int(in: 1...99)))
            pointer = "/data/0/id"
        case .attributeNamedID:
            first["attributes"] = .object(attributes(of: first, adding: "id", .string("x")))
            pointer = "/data/0/attributes/id"
        case .relationshipWithoutDataLinksOrMeta:
            var relationships = JSON.Object()
            if case .object(let existing)? = first["relationships"] { relationships = existing }
            relationships["brokenRelationship"] = .object(JSON.Object())
            first["relationships"] = .object(relationships)
            pointer = "/data/0/relationships/brokenRelationship"
        case .unlinkedIncludedResource:
            var included: [JSON] = []
            if case .array(let existing)? = top["included"] { included = existing }
            included.append(["type": first["type"] ?? "things", "id": .string("unlinked-\(random.int(in: 1...99))")])
            top["included"] = .array(included)
            pointer = "/included/\(included.count - 1)"
        case .invalidMemberName:
            let names = ["bad!", "_leading", "trailing-", "a+b", "dot.ted"]
            let name = random.element(names) ?? "bad!"
            first["attributes"] = .object(attributes(of: first, adding: name, .int(1)))
            pointer = "/data/0/attributes/\(name)"
        case .dataAndErrors:
            top["errors"] = [["status": "500", "title": "Internal Server Error"]]
            pointer = ""
        }
        data[0] = .object(first)
        top["data"] = .array(data)
        return (.object(top), pointer)
    }

    private func attributes(of resource: JSON.Object, adding name: String, _ value: JSON) -> JSON.Object {
        var attributes = JSON.Object()
        if case .object(let existing)? = resource["attributes"] { attributes = existing }
        attributes[name] = value
        return attributes
    }
}
