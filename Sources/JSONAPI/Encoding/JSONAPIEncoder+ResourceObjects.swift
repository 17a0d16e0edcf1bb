// Models to owned resource objects without JSON in between.
//
// A server keeps resources as `JSONAPIResourceObject`s between its data sources and its
// responses. Writing a model with the encoder and parsing the bytes back would give them, at the
// cost of a write, a parse and a copy per resource. Here the model encodes itself to the same
// `ResourceEncoder` the tree path of `encode` uses, and its captured members become the resource
// object directly. Values are those a parse of the encoder's bytes would give: strings and
// integers as they are, every other number as the text the encoder writes read back
// (`JSON.number(text:)`, the parser's own rule), so a model reaches a response with the same bytes
// either way.

extension JSONAPIEncoder {
    /// The resource objects ``encode(_:meta:links:jsonapi:jsonapiVersion:included:)`` writes as
    /// the primary data of `models`, built without writing and parsing JSON: the same members, in
    /// the same order, with the values a parse of those bytes gives (identifier `meta` in linkage
    /// left out, as ``JSONAPIResourceObject/init(_:)`` leaves it out).
    ///
    /// Nil when the options ask for what only the written form says (sparse fieldsets, sorted
    /// keys) or a model has `links` of its own: the caller encodes and parses then.
    ///
    /// - Throws: What encoding the models throws (a model without an id, a value JSON cannot hold).
    package func resourceObjects<Model: JSONAPIResource & Encodable>(
        of models: [Model]
    ) throws -> [JSONAPIResourceObject]? {
        guard options.fields.isEmpty, !options.sortsKeys else { return nil }
        let document = DocumentEncoder(options: options, mode: .document)
        defer { document.context.releaseSpareEncoders() }
        var objects: [JSONAPIResourceObject] = []
        objects.reserveCapacity(models.count)
        for model in models {
            let record = try document.makeTreeRecord(model, resourceType: Model.resourceType)
            guard record.links == nil, !record.relationships.contains(where: { $0.links != nil }) else { return nil }
            let identity = try document.identityMembers(type: record.resourceType, id: record.id, lid: record.lid)
            var object = JSONAPIResourceObject(type: record.resourceType, id: identity.id, lid: identity.lid)
            let attributes = record.attributes
            object.attributes.members.reserveCapacity(attributes.keys.count)
            for index in attributes.keys.indices {
                object.attributes.append(key: attributes.keys[index], value: try attributes.values[index].parsedJSON())
            }
            for relationship in record.relationships {
                var member = JSONAPIRelationship()
                if let linkage = relationship.linkage {
                    let identifiers = linkage.references.map {
                        ResourceIdentifier(type: $0.type, id: $0.id, lid: $0.lid)
                    }
                    member.data =
                        linkage.isToMany
                        ? .many(identifiers) : identifiers.first.map(JSONAPIRelationship.Linkage.one) ?? .null
                }
                if let meta = relationship.meta {
                    guard case .object(let value) = try meta.parsedJSON() else { return nil }
                    member.meta = value
                }
                object.relationships.append(key: relationship.name, value: member)
            }
            if let meta = record.meta {
                guard case .object(let value) = try meta.parsedJSON() else { return nil }
                object.meta = value
            }
            objects.append(object)
        }
        return objects
    }
}

extension EncodedValue {
    /// The value a parse of its written form gives: containers member by member, numbers other
    /// than `Int64`s as their written text reads (``JSON/number(text:)``).
    func parsedJSON() throws -> JSON {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .string(let value): return .string(value)
        case .uint, .double, .float, .decimal:
            var writer = JSONWriter()
            try write(to: &writer, sorted: false)
            return JSON.number(text: try writer.finish())
        case .object(let object):
            var members = JSON.Object()
            members.members.reserveCapacity(object.keys.count)
            for index in object.keys.indices {
                members.append(key: object.keys[index], value: try object.values[index].parsedJSON())
            }
            return .object(members)
        case .array(let array): return .array(try array.values.map { try $0.parsedJSON() })
        case .strings(let strings): return .array(strings.map(JSON.string))
        case .json(let value): return try value.parsed()
        }
    }
}

extension JSON {
    /// The value a parse of its written form gives: numbers as their written text reads.
    fileprivate func parsed() throws -> JSON {
        switch self {
        case .null, .bool, .int, .string: return self
        case .double, .decimal:
            var writer = JSONWriter()
            write(to: &writer, sortingKeys: false)
            return JSON.number(text: try writer.finish())
        case .array(let elements): return .array(try elements.map { try $0.parsed() })
        case .object(let members):
            var copy = Object()
            copy.members.reserveCapacity(members.count)
            for member in members { copy.append(key: member.key, value: try member.value.parsed()) }
            return .object(copy)
        }
    }
}
