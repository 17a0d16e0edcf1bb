import Foundation
import JSONAPI

// Taking resources in: a later copy updates the earlier one member by member.

extension ResourceStore {
    /// Merges every resource of `document` that has an id: primary data, then `included`.
    public func merge(_ document: Document) {
        let resources = document.allResources.filter { $0.id != nil }.map(JSONAPIResourceObject.init)
        guard !resources.isEmpty else { return }
        merge(resources)
    }

    /// Merges one resource (ignored when it has no id).
    public func merge(_ resource: JSONAPIResourceObject) { merge([resource]) }

    /// Merges one resource view, such as a streamed one (ignored when it has no id).
    ///
    /// ```swift
    /// try ResourceStream.forEachPart(inFileAt: path) { part in
    ///     if case .resource(let resource) = part { store.merge(resource.object) }
    /// }
    /// let article = try store.model(Article.self, id: "1")   // relationships resolved in the store
    /// ```
    public func merge(_ resource: ResourceObject) {
        guard resource.id != nil else { return }
        merge([JSONAPIResourceObject(resource)])
    }

    /// Merges resources, in order.
    public func merge(_ resources: [JSONAPIResourceObject]) {
        mutate { state in
            var changes: [Change] = []
            for resource in resources { Self.merge(resource, into: &state, changes: &changes) }
            state.evict(downTo: maximumResources, into: &changes)
            return ((), changes)
        }
    }

    /// Merges one resource with an id into `state`.
    static func merge(_ resource: JSONAPIResourceObject, into state: inout State, changes: inout [Change]) {
        guard let id = resource.id else { return }
        let key = Key(type: resource.type, id: id)
        if let old = state.entries[key] {
            let merged = Self.merged(old.resource, resource)
            if merged.changed {
                state.entries[key]?.resource = merged.resource
                changes.append(Change(key: key, kind: .updated))
            }
        } else {
            state.entries[key] = Entry(resource: resource, stamp: 0)
            changes.append(Change(key: key, kind: .inserted))
        }
        state.touch(key)
    }

    /// Whether two identifiers name the same resource (by id, or by `lid` where neither has one).
    static func same(_ a: ResourceIdentifier, _ b: ResourceIdentifier) -> Bool {
        a.type == b.type && (a.id != nil || b.id != nil ? a.id == b.id : a.lid == b.lid)
    }

    static func identifiers(_ linkage: JSONAPIRelationship.Linkage) -> [ResourceIdentifier] {
        switch linkage {
        case .null: []
        case .one(let identifier): [identifier]
        case .many(let identifiers): identifiers
        }
    }

    /// `old` with what `new` has merged in, and whether that changed anything: each member `new`
    /// has is compared as it is set, so telling costs no second walk of the resource.
    static func merged(_ old: JSONAPIResourceObject, _ new: JSONAPIResourceObject) -> (
        resource: JSONAPIResourceObject, changed: Bool
    ) {
        var result = old
        var changed = false
        for member in new.attributes where result.attributes[member.key] != member.value {
            result.attributes[member.key] = member.value
            changed = true
        }
        for member in new.relationships {
            let before = result.relationships[member.key]
            var relationship = before ?? JSONAPIRelationship()
            if let data = member.value.data { relationship.data = data }
            if let links = member.value.links { relationship.links = links }
            if let meta = member.value.meta { relationship.meta = meta }
            if relationship != before {
                result.relationships[member.key] = relationship
                changed = true
            }
        }
        if let links = new.links, links != result.links {
            result.links = links
            changed = true
        }
        if let meta = new.meta, meta != result.meta {
            result.meta = meta
            changed = true
        }
        if let lid = new.lid, lid != result.lid {
            result.lid = lid
            changed = true
        }
        return (result, changed)
    }
}
