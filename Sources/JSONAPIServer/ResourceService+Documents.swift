import JSONAPI

extension ResourceService {
    /// The primary data of a response.
    enum PrimaryData {
        case one(JSONAPIResourceObject?)
        case many([JSONAPIResourceObject])
    }

    /// Writes a document: `data`, `included` (when the request had `include`), `links`, `meta`.
    func document(
        _ data: PrimaryData, included: [JSONAPIResourceObject]?, query: JSONAPIQuery?, links: JSONAPILinks,
        meta: JSON.Object? = nil
    ) throws -> [UInt8] {
        var writer = JSONWriter(options: configuration.writingOptions)
        writer.beginObject()
        writer.key("data")
        switch data {
        case .one(let record?): present(record, fields: query?.fields).write(to: &writer)
        case .one(nil): writer.null()
        case .many(let records):
            writer.beginArray()
            for record in records { present(record, fields: query?.fields).write(to: &writer) }
            writer.endArray()
        }
        if let included {
            writer.key("included")
            writer.beginArray()
            for record in included { present(record, fields: query?.fields).write(to: &writer) }
            writer.endArray()
        }
        if !links.isEmpty {
            writer.key("links")
            links.write(to: &writer)
        }
        if let meta {
            writer.key("meta")
            JSON.object(meta).write(to: &writer)
        }
        writer.endObject()
        return try writer.finish()
    }

    /// The document of `GET /TYPE/ID/relationships/NAME`: the linkage, with `self` and `related`.
    func linkageDocument(_ record: JSONAPIResourceObject, name: String, request: ResourceRequest) throws -> [UInt8] {
        var writer = JSONWriter(options: configuration.writingOptions)
        writer.beginObject()
        writer.key("data")
        let data = record.relationships[name]?.data ?? .null
        data.write(to: &writer, sortingKeys: writer.options.sortsKeys)
        var links: JSONAPILinks = ["self": JSONAPILink(href: request.target)]
        if let base = linkBase, let id = record.id {
            links["related"] = JSONAPILink(
                href: base + ResourceRequest.path(type: record.type, endpoint: .related(id: id, relationship: name)))
        }
        writer.key("links")
        links.write(to: &writer)
        writer.endObject()
        return try writer.finish()
    }

    /// `record` as a response shows it: without hidden members, cut to the request's sparse
    /// fieldset, with the resource's and each relationship's links.
    func present(_ record: JSONAPIResourceObject, fields: [String: Set<String>]?) -> JSONAPIResourceObject {
        var record = record
        let hidden = resources[record.type]?.fields.hidden ?? []
        let fieldset = fields?[record.type]
        if !hidden.isEmpty || fieldset != nil {
            func shown(_ name: String) -> Bool { !hidden.contains(name) && fieldset.map { $0.contains(name) } ?? true }
            record.attributes.members.removeAll { !shown($0.key) }
            record.relationships.members.removeAll { !shown($0.key) }
        }
        if let base = linkBase, let id = record.id {
            // Links built by appending: no member lookups when the stored object has none.
            let resourcePath = base + ResourceRequest.path(type: record.type, endpoint: .resource(id: id))
            var links = record.links ?? JSONAPILinks()
            if links.isEmpty {
                links.append(key: "self", value: JSONAPILink(href: resourcePath))
            } else {
                links["self"] = JSONAPILink(href: resourcePath)
            }
            record.links = links
            for index in record.relationships.indices {
                let name = record.relationships[index].key
                let own = resourcePath + "/relationships/" + name
                let related = resourcePath + "/" + name
                if var relationshipLinks = record.relationships[index].value.links, !relationshipLinks.isEmpty {
                    relationshipLinks["self"] = JSONAPILink(href: own)
                    relationshipLinks["related"] = JSONAPILink(href: related)
                    record.relationships.members[index].value.links = relationshipLinks
                } else {
                    var relationshipLinks = JSONAPILinks()
                    relationshipLinks.append(key: "self", value: JSONAPILink(href: own))
                    relationshipLinks.append(key: "related", value: JSONAPILink(href: related))
                    record.relationships.members[index].value.links = relationshipLinks
                }
            }
        }
        return record
    }
}
