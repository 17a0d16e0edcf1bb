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
        case .one(let record?): write(record, fields: query?.fields, to: &writer)
        case .one(nil): writer.null()
        case .many(let records):
            writer.beginArray()
            for record in records { write(record, fields: query?.fields, to: &writer) }
            writer.endArray()
        }
        if let included {
            writer.key("included")
            writer.beginArray()
            for record in included { write(record, fields: query?.fields, to: &writer) }
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

    /// Which members of a resource of one type a response shows: not the hidden ones, and only
    /// those of the request's sparse fieldset when it has one.
    struct Presentation {
        let hidden: Set<String>
        let fieldset: Set<String>?

        var showsAll: Bool { hidden.isEmpty && fieldset == nil }

        func shows(_ name: String) -> Bool { !hidden.contains(name) && fieldset.map { $0.contains(name) } ?? true }
    }

    func presentation(of type: String, fields: [String: Set<String>]?) -> Presentation {
        Presentation(hidden: resources[type]?.fields.hidden ?? [], fieldset: fields?[type])
    }

    /// The path of a resource's `self` link, nil when the service writes no links.
    func resourcePath(_ record: JSONAPIResourceObject) -> String? {
        guard let base = linkBase, let id = record.id else { return nil }
        return base + ResourceRequest.path(type: record.type, endpoint: .resource(id: id))
    }

    /// Writes `record` as ``present(_:fields:)`` shows it. A record without links of its own
    /// (what the data sources store) is written member by member, without building the presented
    /// copy; the output is the same bytes (tests compare the two).
    func write(_ record: JSONAPIResourceObject, fields: [String: Set<String>]?, to writer: inout JSONWriter) {
        guard !writer.options.sortsKeys, record.links == nil,
            !record.relationships.members.contains(where: { $0.value.links != nil })
        else {
            present(record, fields: fields).write(to: &writer)
            return
        }
        let presentation = presentation(of: record.type, fields: fields)
        let showsAll = presentation.showsAll
        let resourcePath = resourcePath(record)
        writer.beginObject()
        writer.key(literal: "type")
        writer.string(record.type)
        if let id = record.id {
            writer.key(literal: "id")
            writer.string(id)
        }
        if let lid = record.lid {
            writer.key(literal: "lid")
            writer.string(lid)
        }
        if showsAll
            ? !record.attributes.isEmpty : record.attributes.members.contains(where: { presentation.shows($0.key) })
        {
            writer.key(literal: "attributes")
            writer.beginObject()
            for member in record.attributes.members where showsAll || presentation.shows(member.key) {
                writer.key(member.key)
                member.value.write(to: &writer, sortingKeys: false)
            }
            writer.endObject()
        }
        if showsAll
            ? !record.relationships.isEmpty
            : record.relationships.members.contains(where: { presentation.shows($0.key) })
        {
            writer.key(literal: "relationships")
            writer.beginObject()
            for member in record.relationships.members where showsAll || presentation.shows(member.key) {
                writer.key(member.key)
                writer.beginObject()
                if let data = member.value.data {
                    writer.key(literal: "data")
                    data.write(to: &writer, sortingKeys: false)
                }
                if let resourcePath {
                    writer.key(literal: "links")
                    writer.beginObject()
                    writer.key(literal: "self")
                    writer.string(resourcePath, "/relationships/", member.key)
                    writer.key(literal: "related")
                    writer.string(resourcePath, "/", member.key)
                    writer.endObject()
                }
                if let meta = member.value.meta {
                    writer.key(literal: "meta")
                    JSON.object(meta).write(to: &writer, sortingKeys: false)
                }
                writer.endObject()
            }
            writer.endObject()
        }
        if let resourcePath {
            writer.key(literal: "links")
            writer.beginObject()
            writer.key(literal: "self")
            writer.string(resourcePath)
            writer.endObject()
        }
        if let meta = record.meta {
            writer.key(literal: "meta")
            JSON.object(meta).write(to: &writer, sortingKeys: false)
        }
        writer.endObject()
    }

    /// `record` as a response shows it: without hidden members, cut to the request's sparse
    /// fieldset, with the resource's and each relationship's links.
    func present(_ record: JSONAPIResourceObject, fields: [String: Set<String>]?) -> JSONAPIResourceObject {
        var record = record
        let presentation = presentation(of: record.type, fields: fields)
        if !presentation.showsAll {
            record.attributes.members.removeAll { !presentation.shows($0.key) }
            record.relationships.members.removeAll { !presentation.shows($0.key) }
        }
        if let resourcePath = resourcePath(record) {
            // Links built by appending: no member lookups when the stored object has none.
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
