import Foundation
import JSONAPI
import Observation

/// An identity map of resources by (type, id), filled from successive responses: a later copy
/// of a resource updates the earlier one, member by member, so a response with a sparse
/// fieldset adds to what is known instead of erasing it.
///
/// Typed reads decode from everything the store holds, so a relationship resolves through
/// resources that arrived in other responses:
///
/// ```swift
/// let store = ResourceStore(maximumResources: 10_000)
/// let client = JSONAPIClient(baseURL: base, transport: transport, store: store)
/// _ = try await client.resources(Article.self).list()                 // articles, author linkage
/// _ = try await client.resources(Person.self).get(id: "9")            // the author, later
/// let article = try store.model(Article.self, id: "1")                // author resolved from the store
/// ```
///
/// The store is safe to use from many tasks at once (one lock around its state: a merge, a read
/// or a typed read sees the store as a whole merge left it). With a `maximumResources` bound it
/// forgets the least recently merged or read resource first.
///
/// Merging, per resource: each attribute the new copy has replaces the old value, others stay;
/// each relationship the new copy has replaces the old one's `data`, `links` and `meta` where
/// present; the resource's `links`, `meta` and `lid` are replaced when the new copy has them.
///
/// The store is live: every merge, change and removal is reported to the change streams (of one
/// resource, of a type, of a query's resources, of everything: ``changes()`` and its kin), and to
/// Swift Observation (the store is `Observable`: reading it inside `withObservationTracking`, or
/// in a SwiftUI view, tracks it). The client keeps it true to what the server did: a deleted
/// resource leaves it with every linkage to it (``delete(type:id:)``), an accepted relationship
/// change updates the stored linkage (``apply(_:to:relationship:)``), a created resource's id
/// replaces the `lid` linkages carried (``replaceLocalIdentifier(_:type:with:)``), and an
/// optimistic write is merged before the server answers and rolled back if it refuses
/// (``mergeOptimistically(_:)``, ``rollBack(_:)``).
///
/// ```swift
/// let changes = store.changes(of: ResourceStore.Key(type: "articles", id: "1"))
/// Task { for await change in changes { print(change) } }   // articles/1 updated, ...
/// try await client.resources(Article.self).update(patch, optimistic: true)
/// ```
public final class ResourceStore: Sendable, Observable {
    /// A resource's identity.
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        /// The type.
        public var type: String
        /// The id.
        public var id: String

        /// Creates a key.
        public init(type: String, id: String) {
            self.type = type
            self.id = id
        }

        /// `type/id`.
        public var description: String { type + "/" + id }
    }

    /// What happened to one resource of the store.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// The kinds of change.
        public enum Kind: Sendable, Hashable {
            /// The store did not hold the resource and now does.
            case inserted
            /// A resource the store holds changed (a merge, a relationship change, a linkage to a
            /// deleted resource removed, a `lid` replaced, a roll-back).
            case updated
            /// The resource left the store (deleted, forgotten, evicted or rolled back).
            case removed
        }

        /// The resource.
        public var key: Key
        /// What happened to it.
        public var kind: Kind

        /// Creates a change.
        public init(key: Key, kind: Kind) {
            self.key = key
            self.kind = kind
        }

        /// `type/id inserted`, `updated` or `removed`.
        public var description: String { "\(key) \(kind)" }
    }

    /// What ``rollBack(_:)`` restores: the copies an optimistic write replaced.
    public struct Rollback: Sendable {
        /// Each resource the write touched, as it was before (nil: the store did not hold it).
        fileprivate var previous: [Key: JSONAPIResourceObject?]
    }

    private struct Entry {
        var resource: JSONAPIResourceObject
        var stamp: UInt64
    }

    /// Which changes a subscriber asked for.
    private enum Filter {
        case all
        case type(String)
        case keys(Set<Key>)

        func matches(_ key: Key) -> Bool {
            switch self {
            case .all: true
            case .type(let type): key.type == type
            case .keys(let keys): keys.contains(key)
            }
        }
    }

    /// One stream of changes. Ended by its consumer, it is only marked: a mark is all that
    /// `onTermination` may touch, because it can run while a change is being handed out, so
    /// taking the store's lock there could wait on the thread that holds it.
    private final class Subscriber: Sendable {
        let filter: Filter
        let continuation: AsyncStream<Change>.Continuation
        let ended = Locked(false)

        init(filter: Filter, continuation: AsyncStream<Change>.Continuation) {
            self.filter = filter
            self.continuation = continuation
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var subscribers: [Subscriber] = []
        var revision: UInt64 = 0
        /// Keys in the order they were last touched, with the stamp of that touch; an element whose
        /// stamp no longer matches its entry is stale and skipped (each touch appends, so eviction is
        /// amortised O(1)).
        var order: [(key: Key, stamp: UInt64)] = []
        var orderStart = 0
        var clock: UInt64 = 0

        mutating func touch(_ key: Key) {
            clock += 1
            entries[key]?.stamp = clock
            order.append((key, clock))
        }

        mutating func evict(downTo maximum: Int, into changes: inout [Change]) {
            while entries.count > maximum, orderStart < order.count {
                let (key, stamp) = order[orderStart]
                orderStart += 1
                if entries[key]?.stamp == stamp {
                    entries[key] = nil
                    changes.append(Change(key: key, kind: .removed))
                }
            }
            if orderStart > 1024, orderStart * 2 > order.count {
                order.removeFirst(orderStart)
                orderStart = 0
            }
        }
    }

    private let state = Locked(State())
    private let registrar = ObservationRegistrar()
    /// The most resources kept; the least recently used go first.
    public let maximumResources: Int

    /// A number that grows with every change of the store's contents: what Swift Observation
    /// tracks (every read of the store counts as a read of it).
    public var revision: UInt64 {
        registrar.access(self, keyPath: \.revision)
        return state.withLock { $0.revision }
    }

    /// Runs `body` on the state and reports the changes it returns: to each subscriber whose
    /// filter matches, in the order they happened (handed out under the lock, so two writers'
    /// changes never interleave out of order), then to Observation. Nothing changed, nobody is
    /// told: Observation hears of a mutation only once it has happened and changed something.
    private func mutate<Result>(_ body: (inout State) -> (Result, [Change])) -> Result {
        let (result, changed) = state.withLock { state in
            let (result, changes) = body(&state)
            guard !changes.isEmpty else { return (result, false) }
            state.revision &+= 1
            state.subscribers.removeAll { $0.ended.withLock { $0 } }
            for subscriber in state.subscribers {
                for change in changes where subscriber.filter.matches(change.key) {
                    subscriber.continuation.yield(change)
                }
            }
            return (result, true)
        }
        if changed {
            registrar.willSet(self, keyPath: \.revision)
            registrar.didSet(self, keyPath: \.revision)
        }
        return result
    }

    /// Marks a read of the store for Swift Observation.
    private func accessed() {
        registrar.access(self, keyPath: \.revision)
    }

    /// Creates an empty store.
    ///
    /// - Parameter maximumResources: The most resources kept (at least 1). Default: no bound.
    public init(maximumResources: Int = .max) {
        self.maximumResources = max(1, maximumResources)
    }

    /// The number of resources held.
    public var count: Int {
        accessed()
        return state.withLock { $0.entries.count }
    }

    /// Every key held, in no particular order.
    public var keys: [Key] {
        accessed()
        return state.withLock { Array($0.entries.keys) }
    }

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
    private static func merge(_ resource: JSONAPIResourceObject, into state: inout State, changes: inout [Change]) {
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

    private static func delete(_ key: Key, in state: inout State) -> (
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

    // MARK: - Observing

    /// The changes to the resource `key` from now on, until the consuming task ends or stops
    /// iterating. Each stream keeps the changes its consumer has not read yet.
    public func changes(of key: Key) -> AsyncStream<Change> { subscribe(.keys([key])) }

    /// The changes to resources of `type` from now on.
    public func changes(ofType type: String) -> AsyncStream<Change> { subscribe(.type(type)) }

    /// The changes to any of `keys` (a query's result: its primary and included resources) from
    /// now on.
    ///
    /// ```swift
    /// let page = try await client.resources(Article.self).list(query)
    /// let keys = page.document.allResources.compactMap { resource in
    ///     resource.id.map { ResourceStore.Key(type: resource.type, id: $0) }
    /// }
    /// for await change in store.changes(of: keys) { reload(change.key) }
    /// ```
    public func changes(of keys: some Sequence<Key>) -> AsyncStream<Change> { subscribe(.keys(Set(keys))) }

    /// Every change from now on.
    public func changes() -> AsyncStream<Change> { subscribe(.all) }

    private func subscribe(_ filter: Filter) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .unbounded)
        let subscriber = Subscriber(filter: filter, continuation: continuation)
        continuation.onTermination = { _ in subscriber.ended.withLock { $0 = true } }
        state.withLock { $0.subscribers.append(subscriber) }
        return stream
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
    private func compound(_ primary: [Key], options: DecodingOptions) throws -> Document? {
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

    /// Whether two identifiers name the same resource (by id, or by `lid` where neither has one).
    private static func same(_ a: ResourceIdentifier, _ b: ResourceIdentifier) -> Bool {
        a.type == b.type && (a.id != nil || b.id != nil ? a.id == b.id : a.lid == b.lid)
    }

    private static func identifiers(_ linkage: JSONAPIRelationship.Linkage) -> [ResourceIdentifier] {
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
