import Foundation
import JSONAPI

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
public final class ResourceStore: Sendable {
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

    private struct Entry {
        var resource: JSONAPIResourceObject
        var stamp: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
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

        mutating func evict(downTo maximum: Int) {
            while entries.count > maximum, orderStart < order.count {
                let (key, stamp) = order[orderStart]
                orderStart += 1
                if entries[key]?.stamp == stamp { entries[key] = nil }
            }
            if orderStart > 1024, orderStart * 2 > order.count {
                order.removeFirst(orderStart)
                orderStart = 0
            }
        }
    }

    private let state = Locked(State())
    /// The most resources kept; the least recently used go first.
    public let maximumResources: Int

    /// Creates an empty store.
    ///
    /// - Parameter maximumResources: The most resources kept (at least 1). Default: no bound.
    public init(maximumResources: Int = .max) {
        self.maximumResources = max(1, maximumResources)
    }

    /// The number of resources held.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Every key held, in no particular order.
    public var keys: [Key] { state.withLock { Array($0.entries.keys) } }

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
        state.withLock { state in
            for resource in resources {
                guard let id = resource.id else { continue }
                let key = Key(type: resource.type, id: id)
                if let old = state.entries[key] {
                    state.entries[key]?.resource = Self.merged(old.resource, resource)
                } else {
                    state.entries[key] = Entry(resource: resource, stamp: 0)
                }
                state.touch(key)
            }
            state.evict(downTo: maximumResources)
        }
    }

    /// The resource `type`/`id`, as merged so far; nil when the store has none.
    public func resource(type: String, id: String) -> JSONAPIResourceObject? {
        state.withLock { state in
            let key = Key(type: type, id: id)
            guard let found = state.entries[key]?.resource else { return nil }
            state.touch(key)
            return found
        }
    }

    /// Every resource of `type`, in no particular order.
    public func resources(ofType type: String) -> [JSONAPIResourceObject] {
        state.withLock { state in state.entries.values.lazy.filter { $0.resource.type == type }.map(\.resource) }
    }

    /// The resources the relationship `relationship` of `type`/`id` points to that the store holds,
    /// in linkage order.
    public func related(type: String, id: String, relationship: String) -> [JSONAPIResourceObject] {
        state.withLock { state in
            guard let data = state.entries[Key(type: type, id: id)]?.resource.relationships[relationship]?.data
            else { return [] }
            return Self.identifiers(data).compactMap { identifier in
                identifier.id.flatMap { state.entries[Key(type: identifier.type, id: $0)]?.resource }
            }
        }
    }

    /// Forgets `type`/`id`.
    public func remove(type: String, id: String) {
        _ = state.withLock { $0.entries.removeValue(forKey: Key(type: type, id: id)) }
    }

    /// Forgets everything.
    public func removeAll() {
        state.withLock { $0 = State() }
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
        let keys = state.withLock { state in
            state.entries.keys.filter { $0.type == Model.resourceType }
        }
        guard let document = try compound(keys, options: options) else { return [] }
        return try document.primary(as: Model.self, options: options).decodeAll()
    }

    /// A compound document with `primary` as its data (those the store holds) and everything
    /// reachable from them as `included`.
    private func compound(_ primary: [Key], options: DecodingOptions) throws -> Document? {
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

    private static func identifiers(_ linkage: JSONAPIRelationship.Linkage) -> [ResourceIdentifier] {
        switch linkage {
        case .null: []
        case .one(let identifier): [identifier]
        case .many(let identifiers): identifiers
        }
    }

    static func merged(_ old: JSONAPIResourceObject, _ new: JSONAPIResourceObject) -> JSONAPIResourceObject {
        var result = old
        for member in new.attributes { result.attributes[member.key] = member.value }
        for member in new.relationships {
            var relationship = result.relationships[member.key] ?? JSONAPIRelationship()
            if let data = member.value.data { relationship.data = data }
            if let links = member.value.links { relationship.links = links }
            if let meta = member.value.meta { relationship.meta = meta }
            result.relationships[member.key] = relationship
        }
        if let links = new.links { result.links = links }
        if let meta = new.meta { result.meta = meta }
        if let lid = new.lid { result.lid = lid }
        return result
    }
}

/// A value behind a lock: a `pthread` mutex, through `NSLock`.
///
/// Not Synchronization's `Mutex`: on Linux a contended `Mutex` is handed from one thread to the
/// next inside the kernel (a priority-inheriting futex), where ThreadSanitizer cannot see it, so
/// it reports every contended critical section as a data race (a `Mutex<[Int: [Int]]>` updated
/// from 8 threads gave 5 or 6 reports a run; the same code with this lock gave none).
/// ThreadSanitizer intercepts `pthread` mutexes, so the store can be checked under contention
/// (scripts/tsan), and a race the lock does not cover still shows.
private final class Locked<Value>: @unchecked Sendable {
    // SAFETY (Sendable): `value` is read and written only inside `withLock`, while `lock` is held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
