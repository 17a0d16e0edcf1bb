#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The body of a request that changes a relationship (`PATCH`, `POST` or `DELETE` to
/// `/articles/1/relationships/tags`): its new linkage.
///
/// ```swift
/// let encoder = JSONAPIEncoder()
/// try encoder.encode(RelationshipUpdate.toOne(Identifier<Person>("9")))   // {"data":{"type":"people","id":"9"}}
/// try encoder.encode(RelationshipUpdate.toOne(Identifier<Person>?.none))  // {"data":null}
/// try encoder.encode(RelationshipUpdate.toMany([Identifier<Tag>("2"), "3"]))  // replace (PATCH)
/// try encoder.encode(RelationshipUpdate.add([Identifier<Tag>("4")]))      // POST
/// try encoder.encode(RelationshipUpdate.remove([Identifier<Tag>("2")]))   // DELETE
/// ```
public struct RelationshipUpdate: Sendable, Hashable {
    /// What the request does with the linkage.
    public enum Operation: Sendable, Hashable {
        /// Replaces a to-one relationship (`PATCH`).
        case replaceToOne
        /// Replaces all members of a to-many relationship (`PATCH`).
        case replaceToMany
        /// Adds members to a to-many relationship (`POST`).
        case add
        /// Removes members from a to-many relationship (`DELETE`).
        case remove
    }

    /// What the request does.
    public var operation: Operation
    /// The linkage: at most one identifier for ``Operation/replaceToOne`` (none for `null`).
    public var identifiers: [ResourceIdentifier]
    /// The `meta` of each resource identifier object, by position in ``identifiers`` (nil for
    /// none; positions past the end have none). Taken from ``Identifier/meta``.
    public var identifierMeta: [JSON.Object?]

    /// Creates an update.
    public init(operation: Operation, identifiers: [ResourceIdentifier], identifierMeta: [JSON.Object?] = []) {
        self.operation = operation
        self.identifiers = identifiers
        self.identifierMeta = identifierMeta
    }

    private init<Model>(_ operation: Operation, _ identifiers: [Identifier<Model>]) {
        var metas: [JSON.Object?] = []
        if identifiers.contains(where: { $0.meta.map { !$0.isAbsent } ?? false }) {
            metas = identifiers.map { identifier in identifier.meta.flatMap { JSON($0).objectValue } }
        }
        self.init(operation: operation, identifiers: identifiers.map(\.resourceIdentifier), identifierMeta: metas)
    }

    /// Sets a to-one relationship to `identifier`, or clears it with `nil`.
    public static func toOne<Model>(_ identifier: Identifier<Model>?) -> RelationshipUpdate {
        RelationshipUpdate(.replaceToOne, identifier.map { [$0] } ?? [])
    }

    /// Replaces every member of a to-many relationship (an empty array clears it).
    public static func toMany<Model>(_ identifiers: [Identifier<Model>]) -> RelationshipUpdate {
        RelationshipUpdate(.replaceToMany, identifiers)
    }

    /// Adds members to a to-many relationship.
    public static func add<Model>(_ identifiers: [Identifier<Model>]) -> RelationshipUpdate {
        RelationshipUpdate(.add, identifiers)
    }

    /// Removes members from a to-many relationship.
    public static func remove<Model>(_ identifiers: [Identifier<Model>]) -> RelationshipUpdate {
        RelationshipUpdate(.remove, identifiers)
    }

    private init<ID: UnionIdentifierConvertible>(_ operation: Operation, unions identifiers: [ID]) {
        let identifiers = identifiers.map(\.unionIdentifier)
        var metas: [JSON.Object?] = []
        if identifiers.contains(where: { $0.meta.map { !$0.isAbsent } ?? false }) {
            metas = identifiers.map { identifier in identifier.meta.flatMap { JSON($0).objectValue } }
        }
        self.init(operation: operation, identifiers: identifiers.map(\.resourceIdentifier), identifierMeta: metas)
    }

    /// Sets a polymorphic to-one relationship to `identifier` (a ``UnionIdentifier`` or a
    /// union's own `ID`), or clears it with `nil`.
    ///
    /// ```swift
    /// try JSONAPIEncoder().encode(RelationshipUpdate.toOne(Contributor.ID.person("12")))
    /// // {"data":{"type":"people","id":"12"}}
    /// ```
    public static func toOne<ID: UnionIdentifierConvertible>(_ identifier: ID?) -> RelationshipUpdate {
        RelationshipUpdate(.replaceToOne, unions: identifier.map { [$0] } ?? [])
    }

    /// Replaces every member of a polymorphic to-many relationship (an empty array clears it).
    ///
    /// ```swift
    /// try JSONAPIEncoder().encode(RelationshipUpdate.toMany([Contributor.ID.person("12"), .organization("24")]))
    /// // {"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]}
    /// ```
    public static func toMany<ID: UnionIdentifierConvertible>(_ identifiers: [ID]) -> RelationshipUpdate {
        RelationshipUpdate(.replaceToMany, unions: identifiers)
    }

    /// Adds members to a polymorphic to-many relationship.
    public static func add<ID: UnionIdentifierConvertible>(_ identifiers: [ID]) -> RelationshipUpdate {
        RelationshipUpdate(.add, unions: identifiers)
    }

    /// Removes members from a polymorphic to-many relationship.
    public static func remove<ID: UnionIdentifierConvertible>(_ identifiers: [ID]) -> RelationshipUpdate {
        RelationshipUpdate(.remove, unions: identifiers)
    }

    /// The HTTP method the operation is sent with.
    public var method: String {
        switch operation {
        case .replaceToOne, .replaceToMany: "PATCH"
        case .add: "POST"
        case .remove: "DELETE"
        }
    }
}

extension JSONAPIEncoder {
    /// Encodes the body of a request creating `model` (`POST /articles`).
    ///
    /// The `id` is written only when it is not empty (a client-generated id); a JSON:API 1.1
    /// `lid` is written when the model has one, and relationships given as
    /// `Identifier(id: "", lid: "…")` point at resources created in the same request.
    /// Relationships are linkage only: nothing goes to `included`.
    ///
    /// ```swift
    /// struct NewArticle: Encodable, JSONAPIResource {
    ///     static let resourceType = "articles"
    ///     var id = ""                       // the server assigns it
    ///     var title: String
    ///     var author: Identifier<Person>
    /// }
    /// let body = try JSONAPIEncoder().encodeCreate(NewArticle(title: "Hi", author: "9"))
    /// // {"data":{"type":"articles","attributes":{"title":"Hi"},
    /// //  "relationships":{"author":{"data":{"type":"people","id":"9"}}}}}
    /// ```
    public func encodeCreate<Model: JSONAPIResource & Encodable>(_ model: Model, meta: (any Encodable)? = nil) throws
        -> [UInt8]
    {
        var document = DocumentEncoder(options: options, mode: .create)
        return try document.encode(model, meta: meta, links: nil, jsonapi: nil, included: [])
    }

    /// Encodes the body of a request updating `model` (`PATCH /articles/1`): only the members
    /// the model sets. ``Field/absent`` members are left out, ``Field/null`` ones written as
    /// `null` (null linkage for relationships). The `id` is required.
    ///
    /// ```swift
    /// struct ArticlePatch: Encodable, JSONAPIResource {
    ///     static let resourceType = "articles"
    ///     var id: String
    ///     var title: Field<String> = .absent
    ///     var subtitle: Field<String> = .absent
    ///     var author: Field<Identifier<Person>> = .absent
    /// }
    /// let body = try JSONAPIEncoder().encodeUpdate(ArticlePatch(id: "1", title: .value("New"), subtitle: .null))
    /// // {"data":{"type":"articles","id":"1","attributes":{"title":"New","subtitle":null}}}
    /// ```
    public func encodeUpdate<Model: JSONAPIResource & Encodable>(_ model: Model, meta: (any Encodable)? = nil) throws
        -> [UInt8]
    {
        var document = DocumentEncoder(options: options, mode: .update)
        return try document.encode(model, meta: meta, links: nil, jsonapi: nil, included: [])
    }

    /// Encodes the body of a relationship request: `{"data": linkage}`.
    ///
    /// ```swift
    /// let body = try JSONAPIEncoder().encode(RelationshipUpdate.add([Identifier<Tag>("4")]))
    /// // {"data":[{"type":"tags","id":"4"}]}
    /// ```
    public func encode(_ update: RelationshipUpdate, meta: (any Encodable)? = nil) throws -> [UInt8] {
        let context = EncodingContext(options: options)
        var writer = JSONWriter(options: options.formatting)
        writer.beginObject()
        writer.key("data")
        if update.operation == .replaceToOne {
            if let identifier = update.identifiers.first {
                write(identifier, meta: update.identifierMeta.first ?? nil, to: &writer, sorted: context.sorted)
            } else {
                writer.null()
            }
        } else {
            writer.beginArray()
            for (index, identifier) in update.identifiers.enumerated() {
                let meta = index < update.identifierMeta.count ? update.identifierMeta[index] : nil
                write(identifier, meta: meta, to: &writer, sorted: context.sorted)
            }
            writer.endArray()
        }
        if let meta {
            writer.key("meta")
            try context.box(meta, path: []).write(to: &writer, sorted: context.sorted)
        }
        writer.endObject()
        return try writer.finish()
    }

    private func write(_ identifier: ResourceIdentifier, meta: JSON.Object?, to writer: inout JSONWriter, sorted: Bool)
    {
        writer.beginObject()
        writer.key("type")
        writer.string(identifier.type)
        if let id = identifier.id, !id.isEmpty {
            writer.key("id")
            writer.string(id)
        }
        if let lid = identifier.lid {
            writer.key("lid")
            writer.string(lid)
        }
        if let meta {
            writer.key("meta")
            JSON.object(meta).write(to: &writer, sortingKeys: sorted)
        }
        writer.endObject()
    }
}
