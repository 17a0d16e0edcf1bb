/// The JSON:API rules a described model is checked against: names (through the parser's
/// ``MemberNameRules``, so a model and a document obey one rule), reserved names, and the
/// spellings JSON:API prefers (an empty array, not `null`).
enum ShapeRules {
    /// Names a resource's fields cannot take: they share one namespace with `type` and `id`
    /// (and 1.1's `lid`), and `attributes` cannot hold `relationships` or `links`.
    static let reservedFieldNames: Set<String> = ["id", "type", "lid", "links", "relationships"]

    static func findings(in shape: ResourceShape) -> [ShapeFinding] {
        var findings: [ShapeFinding] = []
        if let why = typeValueProblem(shape.resourceType) {
            findings.append(
                ShapeFinding(
                    .invalidResourceType, path: [],
                    message: "resourceType \"\(shape.resourceType)\" is not a valid type: \(why)"))
        }
        if let id = shape.id, !isScalar(id.kind) {
            findings.append(
                ShapeFinding(
                    .reservedMemberName, path: ["id"],
                    message: "`id` is the resource's id, a string, but the model reads it as \(id.typeName)"))
        }
        for (name, value) in [("meta", shape.meta), ("links", shape.links)] {
            guard let value, !isObjectLike(value.kind) else { continue }
            findings.append(
                ShapeFinding(
                    .reservedMemberName, path: [name],
                    message:
                        "`\(name)` is the resource's own \(name) object, but the model reads it as \(value.typeName); rename the property (with a CodingKey) if it is an attribute"
                ))
        }
        for attribute in shape.attributes {
            findings += nameFindings(attribute.name, what: "attribute")
            if case .array = attribute.value.kind, attribute.value.isOptional {
                findings.append(
                    ShapeFinding(
                        .optionalArrayAttribute, path: [attribute.name],
                        message:
                            "an optional array attribute (\(attribute.value.typeName)?); JSON:API prefers an empty array to null or an absent member"
                    ))
            }
            findings += nestedNameFindings(attribute.value, path: [attribute.name])
        }
        for relationship in shape.relationships {
            findings += nameFindings(relationship.name, what: "relationship")
            if relationship.cardinality == .toMany && relationship.isOptional {
                findings.append(
                    ShapeFinding(
                        .optionalToManyRelationship, path: [relationship.name],
                        message:
                            "a to-many relationship declared optional; an empty to-many relationship is `[]`, never null, so declare it non-optional"
                    ))
            }
        }
        return findings
    }

    private static func nameFindings(_ name: String, what: String) -> [ShapeFinding] {
        if reservedFieldNames.contains(name) {
            return [
                ShapeFinding(
                    .reservedMemberName, path: [name],
                    message: "`\(name)` is reserved: a resource cannot have an \(what) or other field with this name")
            ]
        }
        if let why = memberNameProblem(name) {
            return [ShapeFinding(.invalidMemberName, path: [name], message: "not a valid member name: \(why)")]
        }
        return []
    }

    /// Member names inside an attribute value, depth-first with an explicit stack (a shape nests
    /// at most ``ResourceShape/maximumNesting`` levels).
    private static func nestedNameFindings(_ value: ValueShape, path: [String]) -> [ShapeFinding] {
        var findings: [ShapeFinding] = []
        var pending: [(ValueShape, [String])] = [(value, path)]
        while let (value, path) = pending.popLast() {
            switch value.kind {
            case .object(let members):
                for member in members.reversed() {
                    if let why = memberNameProblem(member.name) {
                        findings.append(
                            ShapeFinding(
                                .invalidMemberName, path: path + [member.name],
                                message: "not a valid member name: \(why)"))
                    }
                    pending.append((member.value, path + [member.name]))
                }
            case .array(let element), .dictionary(let element):
                pending.append((element, path))
            default:
                break
            }
        }
        return findings
    }

    /// Why `name` is not a member name a resource field can have, or nil.
    static func memberNameProblem(_ name: String) -> String? {
        var name = name
        let verdict = name.withUTF8 { unsafe MemberNameRules.classify(UnsafeRawBufferPointer($0)) }
        switch verdict {
        case .plain: return nil
        case .invalid(let why): return why
        case .atMember: return "an @-member is ignored by JSON:API implementations, so it cannot hold a field"
        case .extensionMember: return "a `namespace:name` member belongs to an extension, not to a model"
        }
    }

    /// Why `value` is not a valid resource `type`, or nil.
    static func typeValueProblem(_ value: String) -> String? {
        var value = value
        return value.withUTF8 { unsafe MemberNameRules.isValidTypeValue(UnsafeRawBufferPointer($0)) }
    }

    private static func isScalar(_ kind: ValueShape.Kind) -> Bool {
        switch kind {
        case .string, .integer, .number, .boolean, .enumeration, .opaque: true
        default: false
        }
    }

    private static func isObjectLike(_ kind: ValueShape.Kind) -> Bool {
        switch kind {
        case .object, .dictionary, .any, .opaque: true
        default: false
        }
    }
}
