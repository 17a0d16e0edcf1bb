import Foundation
import JSONAPI

// Reading what the store holds: resources as they are, and models decoded from them with their
// relationships resolved through everything held.

extension ResourceStore {
    /// The resource `type`/`id`, as merged so far; nil when the store has none.
    public func resource(type: String, id: String) -> JSONAPIResourceObject? {
        accessed()
        return state.withLock { state in
            let key = Key(type: type, id: id)
            guard let found = state.entries[key]?.resource else { return nil }
            state.touch(key)
            return found
        }
    }

    /// The resources `keys` name, in order, read at one moment (a merge is before or after all
    /// of them); nil when the store lacks any of them.
    func current(_ keys: [Key]) -> [JSONAPIResourceObject]? {
        accessed()
        return state.withLock { state in
            var resources: [JSONAPIResourceObject] = []
            resources.reserveCapacity(keys.count)
            for key in keys {
                guard let found = state.entries[key]?.resource else { return nil }
                resources.append(found)
            }
            for key in keys { state.touch(key) }
            return resources
        }
    }

    /// Every resource of `type`, in no particular order.
    public func resources(ofType type: String) -> [JSONAPIResourceObject] {
        accessed()
        return state.withLock { state in state.entries.values.lazy.filter { $0.resource.type == type }.map(\.resource) }
    }

    /// The resources the relationship `relationship` of `type`/`id` points to that the store holds,
    /// in linkage order.
    public func related(type: String, id: String, relationship: String) -> [JSONAPIResourceObject] {
        accessed()
        return state.withLock { state in
            guard let data = state.entries[Key(type: type, id: id)]?.resource.relationships[relationship]?.data
            else { return [] }
            return Self.identifiers(data).compactMap { identifier in
                identifier.id.flatMap { state.entries[Key(type: identifier.type, id: $0)]?.resource }
            }
        }
    }

    /// The resource `Model.resourceType`/`id` decoded as `Model`, its relationships resolved
    /// through every resource the store holds; nil when the store does not hold it.
    ///
    /// - Throws: The decoder's error (a relationship the model needs that the store lacks is
    ///   `missingResource` unless `options.ignoresMissingResources` is set).
    /// - Complexity: Proportional to the resources reachable from it through relationships, up to
    ///   `options.maximumRelationshipDepth` steps.
    public func model<Model: JSONAPIResource & Decodable>(
        _ type: Model.Type, id: String, options: DecodingOptions = DecodingOptions()
    ) throws -> Model? {
        guard let document = try compound([Key(type: Model.resourceType, id: id)], options: options) else {
            return nil
        }
        return try document.primary(as: Model.self, options: options).decodeAll().first
    }

    /// Every resource of `Model`'s type decoded as `Model` (in no particular order), with their
    /// relationships resolved through the store.
    ///
    /// - Throws: The decoder's error.
    public func models<Model: JSONAPIResource & Decodable>(
        of type: Model.Type, options: DecodingOptions = DecodingOptions()
    ) throws -> [Model] {
        accessed()
        let keys = state.withLock { state in
            state.entries.keys.filter { $0.type == Model.resourceType }
        }
        guard let document = try compound(keys, options: options) else { return [] }
        return try document.primary(as: Model.self, options: options).decodeAll()
    }

    /// A compound document with `primary` as its data (those the store holds) and everything
    /// reachable from them as `included`.
    func compound(_ primary: [Key], options: DecodingOptions) throws -> Document? {
        accessed()
        let (data, included) = state.withLock { state -> ([JSONAPIResourceObject], [JSONAPIResourceObject]) in
            var data: [JSONAPIResourceObject] = []
            var seen: Set<Key> = []
            var frontier: [Key] = []
            for key in primary {
                guard let entry = state.entries[key], seen.insert(key).inserted else { continue }
                data.append(entry.resource)
                frontier.append(key)
            }
            var included: [JSONAPIResourceObject] = []
            var depth = 0
            while !frontier.isEmpty, depth < options.maximumRelationshipDepth {
                var next: [Key] = []
                for key in frontier {
                    guard let resource = state.entries[key]?.resource else { continue }
                    for member in resource.relationships {
                        guard let data = member.value.data else { continue }
                        for identifier in Self.identifiers(data) {
                            guard let id = identifier.id else { continue }
                            let target = Key(type: identifier.type, id: id)
                            guard let found = state.entries[target], seen.insert(target).inserted else { continue }
                            included.append(found.resource)
                            next.append(target)
                        }
                    }
                }
                frontier = next
                depth += 1
            }
            for key in primary { state.touch(key) }
            return (data, included)
        }
        guard !data.isEmpty else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for resource in data { resource.write(to: &writer, sortingKeys: false) }
        writer.endArray()
        writer.key("included")
        writer.beginArray()
        for resource in included { resource.write(to: &writer, sortingKeys: false) }
        writer.endArray()
        writer.endObject()
        var parsing = options.parsing
        parsing.kind = .response
        parsing.checksFullLinkage = false
        return try Document(parsing: try writer.finish(), options: parsing)
    }
}
