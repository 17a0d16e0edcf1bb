import JSONAPI

/// Builds one valid document from the models' shapes.
///
/// Resources are made depth-first from the primary data. A relationship that resolves models
/// links to new resources, put in `included`, while the depth and the count of included
/// resources allow, so eager relationships form a tree (no cycle for the decoder to reject) and
/// every included resource is reached from the primary data (full linkage). A `Lazy`
/// relationship may link to any resource of its type already made. Past the limits, an optional
/// relationship is `null` and a to-many one empty; a required to-one relationship still gets a new
/// resource until ``hardDepth``, then links to one already made (only a model that needs itself
/// through required to-one relationships, which no struct can be, gets that far).
final class GenerationPlan {
    static let softDepth = 3
    static let hardDepth = 8
    static let maximumIncluded = 12

    let shapes: [ResourceShape]
    let byType: [String: ResourceShape]
    var nextID: [String: Int] = [:]
    var made: [String: [String]] = [:]
    var included: [JSON] = []

    init(shapes: [ResourceShape]) {
        self.shapes = shapes
        byType = Dictionary(shapes.map { ($0.resourceType, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Why documents cannot be generated for `shapes`; empty when they can.
    static func problems(in shapes: [ResourceShape]) -> [String] {
        guard !shapes.isEmpty else { return ["no model given"] }
        let known = Set(shapes.map(\.resourceType))
        var problems: [String] = []
        for shape in shapes {
            for finding in shape.findings
            where [.invalidResourceType, .reservedMemberName, .invalidMemberName, .notAttributeOrRelationship]
                .contains(finding.kind)
            {
                problems.append("\(shape.typeName): \(finding)")
            }
            for attribute in shape.attributes where requiresOpaque(attribute.value) {
                problems.append(
                    "\(shape.typeName).\(attribute.name): no value of \(attribute.value.typeName) can be made")
            }
            for relationship in shape.relationships where relationship.representation != .identifier {
                if !relationship.targetResourceTypes.contains(where: known.contains) {
                    problems.append(
                        "\(shape.typeName).\(relationship.name): no model of type \(relationship.targetResourceTypes.joined(separator: " or ")) was given"
                    )
                }
            }
        }
        return problems
    }

    /// Whether a value needs an `ValueShape.Kind.opaque` part that cannot be left out.
    private static func requiresOpaque(_ value: ValueShape) -> Bool {
        var pending = [value]
        while let value = pending.popLast() {
            if value.isOptional { continue }
            switch value.kind {
            case .opaque: return true
            case .object(let members): pending += members.map(\.value)
            // An array or dictionary can be empty.
            default: continue
            }
        }
        return false
    }

    /// A response document: one to three resources of the first shape, and what they need.
    func document(_ random: inout RandomSource) -> JSON {
        guard let primary = shapes.first else { return ["data": []] }
        var data: [JSON] = []
        for _ in 0..<random.int(in: 1...3) {
            data.append(resource(primary, depth: 0, &random))
        }
        var document: JSON.Object = ["data": .array(data)]
        if !included.isEmpty || random.chance(0.2) { document["included"] = .array(included) }
        if random.chance(0.3) { document["meta"] = ["total": .int(Int64(data.count))] }
        return .object(document)
    }

    private func newID(_ shape: ResourceShape, _ random: inout RandomSource) -> String {
        let number = nextID[shape.resourceType, default: 1]
        nextID[shape.resourceType] = number + 1
        if case .string(let format)? = shape.id?.kind, format == .uuid {
            return "00000000-0000-4000-8000-" + String(String(number, radix: 16).suffix(12)).leftPadded(to: 12)
        }
        return String(number)
    }

    private func resource(_ shape: ResourceShape, depth: Int, _ random: inout RandomSource) -> JSON {
        let id = newID(shape, &random)
        made[shape.resourceType, default: []].append(id)
        var object: JSON.Object = ["type": .string(shape.resourceType), "id": .string(id)]
        var attributes = JSON.Object()
        for attribute in shape.attributes {
            if let value = ValueGenerator.member(attribute.value, &random) { attributes[attribute.name] = value }
        }
        if !attributes.members.isEmpty { object["attributes"] = .object(attributes) }
        var relationships = JSON.Object()
        for relationship in shape.relationships {
            if let value = self.relationship(relationship, depth: depth, &random) {
                relationships[relationship.name] = value
            }
        }
        if !relationships.members.isEmpty { object["relationships"] = .object(relationships) }
        if let meta = shape.meta, !(meta.isOptional && random.chance(0.3)) {
            object["meta"] = ValueGenerator.object(meta, &random)
        }
        if shape.links != nil {
            object["links"] = ["self": .string("https://example.com/\(shape.resourceType)/\(id)")]
        }
        return .object(object)
    }

    private func relationship(_ shape: RelationshipShape, depth: Int, _ random: inout RandomSource) -> JSON? {
        if shape.isOptional && random.chance(0.15) { return nil }
        var object = JSON.Object()
        if shape.isOptional && random.chance(0.2) {
            object["data"] = shape.cardinality == .toOne ? JSON.null : JSON.array([])
        } else if shape.cardinality == .toOne {
            object["data"] = linkage(shape, depth: depth, required: !shape.isOptional, &random) ?? .null
        } else {
            var linkages: [JSON] = []
            for _ in 0..<random.int(in: 0...2) {
                if let linkage = linkage(shape, depth: depth, required: false, &random) { linkages.append(linkage) }
            }
            object["data"] = .array(linkages)
        }
        if let meta = shape.meta, !(meta.isOptional && random.chance(0.3)) {
            object["meta"] = ValueGenerator.object(meta, &random)
        }
        if shape.links != nil { object["links"] = ["related": "https://example.com/related"] }
        return .object(object)
    }

    /// A resource identifier object for one related resource, nil when the limits leave the
    /// relationship empty.
    private func linkage(_ shape: RelationshipShape, depth: Int, required: Bool, _ random: inout RandomSource)
        -> JSON?
    {
        switch shape.representation {
        case .identifier:
            let types = shape.targetResourceTypes.isEmpty ? shapes.map(\.resourceType) : shape.targetResourceTypes
            let type = random.element(types) ?? "things"
            return ["type": .string(type), "id": .string("linked-\(random.int(in: 1...999))")]
        case .lazy:
            let types = shape.targetResourceTypes.filter { byType[$0] != nil }
            if let type = random.element(types), let id = random.element(made[type] ?? []), random.chance(0.5) {
                return ["type": .string(type), "id": .string(id)]
            }
            return related(types, depth: depth, required: required, &random)
        case .resource:
            return related(
                shape.targetResourceTypes.filter { byType[$0] != nil }, depth: depth, required: required, &random)
        }
    }

    /// A new resource of one of `types` in `included`, or (past the limits) nil, or for a
    /// required relationship past the hard limit a resource already made.
    private func related(_ types: [String], depth: Int, required: Bool, _ random: inout RandomSource) -> JSON? {
        guard let type = random.element(types), let shape = byType[type] else { return nil }
        let withinLimits = depth < Self.softDepth && included.count < Self.maximumIncluded
        if withinLimits || (required && depth < Self.hardDepth) {
            guard case .object(let object) = resource(shape, depth: depth + 1, &random),
                let id = object["id"]
            else { return nil }
            included.append(.object(object))
            return ["type": .string(type), "id": id]
        }
        guard required, let id = made[type]?.first else { return nil }
        return ["type": .string(type), "id": .string(id)]
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
