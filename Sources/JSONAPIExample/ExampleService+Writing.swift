import JSONAPI

extension ExampleService {
    /// The primary data of a response.
    enum Primary {
        case null
        case one(JSONAPIResourceObject)
        case many([JSONAPIResourceObject])
        case linkage(JSONAPIRelationship.Linkage)
    }

    /// Writes a compound document: primary data trimmed to the query's sparse fieldsets, then
    /// `included` holding every resource reached by the `include` paths once (and none that is
    /// primary data), then `meta` and `links`. A request with `include` gets `included` even
    /// when nothing matched (`[]`, JSON:API 1.1); one without gets none.
    func write(
        _ primary: Primary, query: JSONAPIQuery, meta: JSON.Object? = nil, links: JSONAPILinks = JSONAPILinks()
    ) throws -> [UInt8] {
        let primaries: [JSONAPIResourceObject]
        switch primary {
        case .one(let resource): primaries = [resource]
        case .many(let resources): primaries = resources
        case .null, .linkage: primaries = []
        }
        var seen = Set(primaries.map(\.identifier))
        var included: [JSONAPIResourceObject] = []
        store.read { state in
            for path in query.include ?? [] {
                var level = primaries
                for name in path.split(separator: ".").map(String.init) {
                    var next: [JSONAPIResourceObject] = []
                    for resource in level {
                        for identifier in Self.identifiers(resource, name) {
                            guard let related = state.resource(identifier.type, identifier.id ?? "") else { continue }
                            next.append(related)
                            if seen.insert(related.identifier).inserted { included.append(related) }
                        }
                    }
                    level = next
                }
            }
        }

        var writer = JSONWriter(options: writingOptions)
        writer.beginObject()
        writer.key("data")
        switch primary {
        case .null: writer.null()
        case .one(let resource): trimmed(resource, query).write(to: &writer)
        case .many(let resources):
            writer.beginArray()
            for resource in resources { trimmed(resource, query).write(to: &writer) }
            writer.endArray()
        case .linkage(let linkage):
            switch linkage {
            case .null: writer.null()
            case .one(let identifier): identifier.write(to: &writer)
            case .many(let identifiers):
                writer.beginArray()
                for identifier in identifiers { identifier.write(to: &writer) }
                writer.endArray()
            }
        }
        if !included.isEmpty || !(query.include ?? []).isEmpty {
            writer.key("included")
            writer.beginArray()
            for resource in included { trimmed(resource, query).write(to: &writer) }
            writer.endArray()
        }
        if let meta {
            writer.key("meta")
            JSON.object(meta).write(to: &writer)
        }
        if !links.isEmpty {
            writer.key("links")
            links.write(to: &writer)
        }
        writer.endObject()
        return try writer.finish()
    }

    /// The resource with only the fields `fields[TYPE]` asks for, and its `self` link.
    func trimmed(_ resource: JSONAPIResourceObject, _ query: JSONAPIQuery) -> JSONAPIResourceObject {
        var resource = resource
        resource.links = [
            "self": JSONAPILink(href: JSONAPILink.resourcePath(type: resource.type, id: resource.id ?? ""))
        ]
        guard let fields = query.fields[resource.type] else { return resource }
        resource.attributes = JSON.Object(
            resource.attributes.members.filter { fields.contains($0.key) }.map { ($0.key, $0.value) })
        resource.relationships = OrderedMembers(
            resource.relationships.members.filter { fields.contains($0.key) }.map { ($0.key, $0.value) })
        return resource
    }
}
