// Relationship-typed properties
// ------------------------------
// How a relationship is read depends only on the property's type:
//
//   var author: Person                 to-one, resolved through `included` (error if missing)
//   var editor: Person?                nullable to-one; nil for null or a missing resource
//   var comments: [Comment]            to-many, resolved
//   var contributors: [Contributor]    polymorphic to-many (a `ResourceUnion`)
//   var author: Identifier<Person>     linkage only: type-checked id, never needs `included`
//   var tags: [ResourceIdentifier]     untyped linkage
//   var author: Lazy<Person>           resolved when you call `resolve()` (cycles, large graphs)
//   var comments: Related<[Comment], CountMeta, Links>   plus the relationship's meta and links

extension ResourceDecoder {
    /// The `{...}` range of relationship `index`.
    @inline(__always)
    func relationshipObject(_ index: UInt32) -> ByteRange {
        unsafe relationships[Int(index)].object
    }

    /// The byte offset of relationship `index`'s object (for errors).
    func relationshipOffset(_ index: UInt32) -> Int {
        let object = relationshipObject(index)
        if object.isPresent { return Int(object.start) }
        return unsafe max(0, Int(relationships[Int(index)].name.start) &- 1)
    }
}

extension ResourceDecoder {
    /// Type, id, lid and meta of the identifier or resource a node stands for.
    struct Identity {
        var type: UInt32
        var id: ByteRange
        var idEscaped: Bool
        var lid: ByteRange
        var lidEscaped: Bool
        var meta: ByteRange
        var offset: Int
        /// The record of a resource, or the linkage of an identifier (for messages).
        var node: Node
    }

    /// The identity of a resource-like node; nil for nodes that are not (plain JSON values).
    func identity(of node: Node, key: KeyRef = .none) throws -> Identity? {
        switch node {
        case .linkage(let index):
            let l = unsafe linkages[Int(index)]
            return unsafe Identity(
                type: l.type, id: l.id, idEscaped: l.flags.contains(.idHasEscapes),
                lid: storage.arena.linkageLids.range(of: Int(index), flags: l.flags),
                lidEscaped: l.flags.contains(.lidHasEscapes),
                meta: storage.arena.linkageMeta.range(of: Int(index), flags: l.flags), offset: Int(l.object.start),
                node: node)
        case .resource(let record):
            let r = unsafe resources[Int(record)]
            return unsafe Identity(
                type: r.type, id: r.id, idEscaped: r.flags.contains(.idHasEscapes),
                lid: storage.arena.resourceLids.range(of: Int(record), flags: r.flags),
                lidEscaped: r.flags.contains(.lidHasEscapes),
                meta: .absent, offset: Int(r.object.start),
                node: node)
        case .relationship(let index):
            let relationship = unsafe relationships[Int(index)]
            guard relationship.data == .one, relationship.linkageCount > 0 else {
                do {
                    _ = try singleResource(of: node, for: ResourceIdentifier.self)
                } catch {
                    throw adding(key, to: error)
                }
                return nil
            }
            return try identity(of: .linkage(relationship.firstLinkage))
        case .primary:
            let top = unsafe topLevel
            guard top.data == .one, top.primaryCount > 0 else {
                do {
                    _ = try singleResource(of: node, for: ResourceIdentifier.self)
                } catch {
                    throw adding(key, to: error)
                }
                return nil
            }
            return try identity(of: top.primaryIsLinkage ? .linkage(top.primaryStart) : .resource(top.primaryStart))
        default:
            return nil
        }
    }

    /// `type/id` of an identity, for messages.
    func describe(_ identity: Identity) -> String {
        switch identity.node {
        case .linkage(let index): return self.identity(linkage: index)
        case .resource(let record): return self.identity(record: record)
        default: return describe(identity.node)
        }
    }

    func resourceIdentifier(_ identity: Identity) -> ResourceIdentifier {
        unsafe ResourceIdentifier(
            type: types.name(identity.type),
            id: identity.id.isPresent ? string(identity.id, escaped: identity.idEscaped) : nil,
            lid: identity.lid.isPresent ? string(identity.lid, escaped: identity.lidEscaped) : nil)
    }

    /// Checks an identity's type against a model's.
    func checkType<Model: JSONAPIResource>(
        _ identity: Identity, against model: Model.Type, identifier: Bool, key: KeyRef
    ) throws {
        let info = typeInfo(Model.self)
        guard info.resourceType != identity.type else { return }
        throw failure(
            .typeMismatch(Model.self), at: identity.offset, code: .typeMismatch, path: path(key),
            unsafe "expected \(identifier ? "an identifier" : "a resource") of type `\(Model.resourceType)` (\(Model.self)), found `\(types.name(identity.type))` (\(describe(identity)))"
        )
    }
}
