import Foundation
import JSONAPI

// Keeping the store true to what the server did and what the client is about to do: removals,
// deletes with their linkages, relationship changes, ids replacing local ids, optimistic writes
// and their rollback.

extension ResourceStore {
    /// Forgets `type`/`id` (linkages to it stay: the resource may still exist; see
    /// ``delete(type:id:)`` for one the server deleted).
    public func remove(type: String, id: String) {
        mutate { state in
            let key = Key(type: type, id: id)
            guard state.entries.removeValue(forKey: key) != nil else { return ((), []) }
            return ((), [Change(key: key, kind: .removed)])
        }
    }

    /// Forgets everything.
    public func removeAll() {
        mutate { state in
            let changes = state.entries.keys.map { Change(key: $0, kind: .removed) }
            let subscribers = state.subscribers
            state = State()
            state.subscribers = subscribers
            return ((), changes)
        }
    }

    // MARK: - What the server did

    /// The server deleted `type`/`id`: the store forgets it and removes every linkage to it from
    /// the resources it holds (a to-one becomes `null`, a to-many loses the member), as the
    /// server's own copies of those resources now read.
    ///
    /// - Complexity: O(n) in the resources held.
    public func delete(type: String, id: String) {
        mutate { state in (((), Self.delete(Key(type: type, id: id), in: &state).changes)) }
    }

    static func delete(_ key: Key, in state: inout State) -> (
        changes: [Change], previous: [Key: JSONAPIResourceObject?]
    ) {
        var changes: [Change] = []
        var previous: [Key: JSONAPIResourceObject?] = [:]
        if let removed = state.entries.removeValue(forKey: key) {
            previous[key] = removed.resource
            changes.append(Change(key: key, kind: .removed))
        }
        for (holder, entry) in state.entries {
            var resource = entry.resource
            for member in resource.relationships {
                let name = member.key
                guard let data = member.value.data else { continue }
                let kept: JSONAPIRelationship.Linkage
                switch data {
                case .null: continue
                case .one(let identifier):
                    guard identifier.type == key.type, identifier.id == key.id else { continue }
                    kept = .null
                case .many(let identifiers):
                    let remaining = identifiers.filter { !($0.type == key.type && $0.id == key.id) }
                    guard remaining.count != identifiers.count else { continue }
                    kept = .many(remaining)
                }
                resource.relationships[name]?.data = kept
            }
            if resource != entry.resource {
                previous[holder] = entry.resource
                state.entries[holder]?.resource = resource
                changes.append(Change(key: holder, kind: .updated))
            }
        }
        return (changes, previous)
    }

    /// The server accepted `update` to the relationship `relationship` of `key` (a `204`, or a
    /// `200` whose linkage the caller passes as a replacement): the stored linkage follows it.
    /// A resource the store does not hold is left alone.
    public func apply(_ update: RelationshipUpdate, to key: Key, relationship: String) {
        mutate { state in
            guard var resource = state.entries[key]?.resource else { return ((), []) }
            let old = resource.relationships[relationship]?.data
            let linkage: JSONAPIRelationship.Linkage
            switch update.operation {
            case .replaceToOne:
                linkage = update.identifiers.first.map { .one($0) } ?? .null
            case .replaceToMany:
                linkage = .many(update.identifiers)
            case .add:
                var members = old.map(Self.identifiers) ?? []
                for identifier in update.identifiers where !members.contains(where: { Self.same($0, identifier) }) {
                    members.append(identifier)
                }
                linkage = .many(members)
            case .remove:
                let members = old.map(Self.identifiers) ?? []
                linkage = .many(members.filter { member in !update.identifiers.contains { Self.same($0, member) } })
            }
            guard linkage != old else { return ((), []) }
            var changed = resource.relationships[relationship] ?? JSONAPIRelationship()
            changed.data = linkage
            resource.relationships[relationship] = changed
            state.entries[key]?.resource = resource
            return ((), [Change(key: key, kind: .updated)])
        }
    }

    /// The server created the resource a request body called `lid` and gave it `id`: every
    /// stored linkage to `type` with that `lid` (and no id) now names the id instead.
    public func replaceLocalIdentifier(_ lid: String, type: String, with id: String) {
        mutate { state in
            var changes: [Change] = []
            for (holder, entry) in state.entries {
                var resource = entry.resource
                for member in resource.relationships {
                    let name = member.key
                    guard let data = member.value.data else { continue }
                    func replaced(_ identifier: ResourceIdentifier) -> ResourceIdentifier {
                        guard identifier.type == type, identifier.id == nil, identifier.lid == lid else {
                            return identifier
                        }
                        return ResourceIdentifier(type: type, id: id)
                    }
                    switch data {
                    case .null: continue
                    case .one(let identifier): resource.relationships[name]?.data = .one(replaced(identifier))
                    case .many(let identifiers): resource.relationships[name]?.data = .many(identifiers.map(replaced))
                    }
                }
                if resource != entry.resource {
                    state.entries[holder]?.resource = resource
                    changes.append(Change(key: holder, kind: .updated))
                }
            }
            return ((), changes)
        }
    }

    /// Merges `resource` before the server has answered for it, and returns what
    /// ``rollBack(_:)`` restores if the server refuses the write.
    public func mergeOptimistically(_ resource: JSONAPIResourceObject) -> Rollback {
        mutate { state in
            guard let id = resource.id else { return (Rollback(previous: [:]), []) }
            let key = Key(type: resource.type, id: id)
            let previous = state.entries[key]?.resource
            var changes: [Change] = []
            Self.merge(resource, into: &state, changes: &changes)
            state.evict(downTo: maximumResources, into: &changes)
            return (Rollback(previous: [key: previous]), changes)
        }
    }

    /// Forgets `type`/`id` as ``delete(type:id:)`` does, before the server has answered, and
    /// returns what ``rollBack(_:)`` restores if the server refuses the deletion.
    public func deleteOptimistically(type: String, id: String) -> Rollback {
        mutate { state in
            let (changes, previous) = Self.delete(Key(type: type, id: id), in: &state)
            return (Rollback(previous: previous), changes)
        }
    }

    /// Puts back the copies an optimistic write replaced (and forgets a resource it added).
    public func rollBack(_ rollback: Rollback) {
        mutate { state in
            var changes: [Change] = []
            for (key, previous) in rollback.previous {
                if let previous {
                    let existed = state.entries[key] != nil
                    if state.entries[key]?.resource == previous { continue }
                    state.entries[key] = Entry(resource: previous, stamp: state.entries[key]?.stamp ?? 0)
                    state.touch(key)
                    changes.append(Change(key: key, kind: existed ? .updated : .inserted))
                } else if state.entries.removeValue(forKey: key) != nil {
                    changes.append(Change(key: key, kind: .removed))
                }
            }
            state.evict(downTo: maximumResources, into: &changes)
            return ((), changes)
        }
    }
}
