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
        var previous: [Key: JSONAPIResourceObject?]
    }

    struct Entry {
        var resource: JSONAPIResourceObject
        var stamp: UInt64
    }

    /// Which changes a subscriber asked for.
    enum Filter {
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
    final class Subscriber: Sendable {
        let filter: Filter
        let continuation: AsyncStream<Change>.Continuation
        let ended = Locked(false)

        init(filter: Filter, continuation: AsyncStream<Change>.Continuation) {
            self.filter = filter
            self.continuation = continuation
        }
    }

    struct State {
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

    let state = Locked(State())
    let registrar = ObservationRegistrar()
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
    func mutate<Result>(_ body: (inout State) -> (Result, [Change])) -> Result {
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
    func accessed() {
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
}
