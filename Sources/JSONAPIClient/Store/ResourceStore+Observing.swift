import Foundation
import JSONAPI

// The store's change streams: of one resource, of a type, of a set of keys, of everything.

extension ResourceStore {

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

    func subscribe(_ filter: Filter) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .unbounded)
        let subscriber = Subscriber(filter: filter, continuation: continuation)
        continuation.onTermination = { _ in subscriber.ended.withLock { $0 = true } }
        state.withLock { $0.subscribers.append(subscriber) }
        return stream
    }
}
