/// An owned resource object, built in code or copied from a parsed document, for the documents
/// this library writes (Atomic Operations requests and results).
///
/// ```swift
/// var article = JSONAPIResourceObject(type: "articles", lid: "a1", attributes: ["title": "Hello"])
/// article.relationships["author"] = .toOne(ResourceIdentifier(type: "people", id: "9"))
/// print(try article.jsonString())
/// // {"type":"articles","lid":"a1","attributes":{"title":"Hello"},
/// //  "relationships":{"author":{"data":{"type":"people","id":"9"}}}}   (one line)
/// ```
public struct JSONAPIResourceObject: Sendable, Hashable {
    /// The resource type.
    public var type: String
    /// The id; nil for a new resource whose id the server assigns.
    public var id: String?
    /// The 1.1 local id of a new resource.
    public var lid: String?
    /// The attributes, in order; left out of the output when empty.
    public var attributes: JSON.Object
    /// The relationships by name, in order; left out of the output when empty.
    public var relationships: OrderedMembers<JSONAPIRelationship>
    /// The resource's links.
    public var links: JSONAPILinks?
    /// Non-standard meta-information.
    public var meta: JSON.Object?

    /// Creates a resource object.
    public init(
        type: String, id: String? = nil, lid: String? = nil, attributes: JSON.Object = [:],
        relationships: OrderedMembers<JSONAPIRelationship> = [:], links: JSONAPILinks? = nil, meta: JSON.Object? = nil
    ) {
        self.type = type
        self.id = id
        self.lid = lid
        self.attributes = attributes
        self.relationships = relationships
        self.links = links
        self.meta = meta
    }

    /// Copies a resource object of a parsed document (identifier `meta` in linkage is not kept,
    /// nor are `null` links).
    public init(_ view: ResourceObject) {
        var relationships = OrderedMembers<JSONAPIRelationship>()
        for relationship in view.relationships {
            relationships.append(key: relationship.name, value: JSONAPIRelationship(relationship))
        }
        self.init(
            type: view.type, id: view.id, lid: view.lid, attributes: JSON(view.attributes).objectValue ?? [:],
            relationships: relationships, links: view.links.map(JSONAPILinks.init),
            meta: view.meta.map { JSON($0).objectValue ?? [:] })
    }

    /// `type`, `id` and `lid` together.
    public var identifier: ResourceIdentifier { ResourceIdentifier(type: type, id: id, lid: lid) }
}

extension JSONAPIResourceObject: JSONWritable {
    /// Writes `type`, `id`, `lid`, `attributes`, `relationships`, `links` and `meta`, leaving out
    /// what is nil or empty.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        // In member order, written directly: no list of members to sort (the common case, and
        // the one a server answers every request with).
        if !sortingKeys {
            writer.beginObject()
            writer.key("type")
            writer.string(type)
            if let id {
                writer.key("id")
                writer.string(id)
            }
            if let lid {
                writer.key("lid")
                writer.string(lid)
            }
            if !attributes.isEmpty {
                writer.key("attributes")
                JSON.object(attributes).write(to: &writer, sortingKeys: false)
            }
            if !relationships.isEmpty {
                writer.key("relationships")
                relationships.write(to: &writer, sortingKeys: false)
            }
            if let links {
                writer.key("links")
                links.write(to: &writer, sortingKeys: false)
            }
            if let meta {
                writer.key("meta")
                JSON.object(meta).write(to: &writer, sortingKeys: false)
            }
            writer.endObject()
            return
        }
        var members: [(String, (inout JSONWriter) -> Void)] = [("type", { $0.string(type) })]
        if let id { members.append(("id", { $0.string(id) })) }
        if let lid { members.append(("lid", { $0.string(lid) })) }
        if !attributes.isEmpty {
            members.append(("attributes", { JSON.object(attributes).write(to: &$0, sortingKeys: sortingKeys) }))
        }
        if !relationships.isEmpty {
            members.append(("relationships", { relationships.write(to: &$0, sortingKeys: sortingKeys) }))
        }
        if let links { members.append(("links", { links.write(to: &$0, sortingKeys: sortingKeys) })) }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

/// An owned relationship object: linkage, links and meta.
///
/// ```swift
/// let comments = JSONAPIRelationship.toMany([ResourceIdentifier(type: "comments", id: "5")])
/// let author = JSONAPIRelationship(links: ["related": "/articles/1/author"])   // no linkage
/// ```
public struct JSONAPIRelationship: Sendable, Hashable {
    /// Resource linkage: what the relationship's `data` member holds.
    public enum Linkage: Sendable, Hashable {
        /// `null`: an empty to-one relationship.
        case null
        /// A to-one relationship.
        case one(ResourceIdentifier)
        /// A to-many relationship (possibly empty).
        case many([ResourceIdentifier])
    }

    /// The linkage; nil leaves `data` out.
    public var data: Linkage?
    /// The relationship's links (`self`, `related`, pagination).
    public var links: JSONAPILinks?
    /// Non-standard meta-information.
    public var meta: JSON.Object?

    /// Creates a relationship object.
    public init(data: Linkage? = nil, links: JSONAPILinks? = nil, meta: JSON.Object? = nil) {
        self.data = data
        self.links = links
        self.meta = meta
    }

    /// A to-one relationship to `identifier`, or `null` linkage when nil.
    public static func toOne(_ identifier: ResourceIdentifier?) -> JSONAPIRelationship {
        JSONAPIRelationship(data: identifier.map(Linkage.one) ?? .null)
    }

    /// A to-many relationship.
    public static func toMany(_ identifiers: [ResourceIdentifier]) -> JSONAPIRelationship {
        JSONAPIRelationship(data: .many(identifiers))
    }

    /// Copies a relationship of a parsed document.
    public init(_ view: Relationship) {
        let data: Linkage?
        switch view.linkage {
        case .absent: data = nil
        case .null: data = .null
        case .one(let identifier): data = .one(identifier.identifier)
        case .many(let identifiers): data = .many(identifiers.map(\.identifier))
        }
        self.init(
            data: data, links: view.links.map(JSONAPILinks.init), meta: view.meta.map { JSON($0).objectValue ?? [:] })
    }
}

extension JSONAPIRelationship.Linkage: JSONWritable {
    /// Writes `null`, one resource identifier object, or an array of them.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        switch self {
        case .null:
            writer.null()
        case .one(let identifier):
            identifier.write(to: &writer, sortingKeys: sortingKeys)
        case .many(let identifiers):
            writer.beginArray()
            for identifier in identifiers { identifier.write(to: &writer, sortingKeys: sortingKeys) }
            writer.endArray()
        }
    }
}

extension JSONAPIRelationship: JSONWritable {
    /// Writes `data`, `links` and `meta`, leaving out what is nil.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        if !sortingKeys {
            writer.beginObject()
            if let data {
                writer.key("data")
                data.write(to: &writer, sortingKeys: false)
            }
            if let links {
                writer.key("links")
                links.write(to: &writer, sortingKeys: false)
            }
            if let meta {
                writer.key("meta")
                JSON.object(meta).write(to: &writer, sortingKeys: false)
            }
            writer.endObject()
            return
        }
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let data { members.append(("data", { data.write(to: &$0, sortingKeys: sortingKeys) })) }
        if let links { members.append(("links", { links.write(to: &$0, sortingKeys: sortingKeys) })) }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

extension OrderedMembers where Value == JSONAPILink {
    /// Copies the links of a parsed document (a `null` link is left out).
    public init(_ view: Links) {
        self.init()
        for (name, link) in view { append(key: name, value: JSONAPILink(link)) }
    }
}
