import JSONAPI

/// One reading of the data sources' versions: the service reads every source's
/// ``ResourceDataSource/currentVersion()`` inside one before it answers a read from its cache.
/// Sources that read their versions from one store (the tables of one database) read it once per
/// reading: the first asks with ``value(for:_:)``, keyed by the store object's identity, and
/// the rest are given its answer.
///
/// ```swift
/// func currentVersion() async throws -> UInt64? {
///     guard let reading = ResourceVersionReading.current else { return try await store.counter(of: table) }
///     let counters = try await reading.value(for: ObjectIdentifier(store)) { try await store.allCounters() }
///     return counters[table]
/// }
/// ```
public final class ResourceVersionReading: Sendable {
    /// The reading in progress, or nil outside one.
    @TaskLocal public static var current: ResourceVersionReading?

    private let values = Locked<[ObjectIdentifier: any Sendable]>([:])

    /// A new reading, which remembers nothing yet.
    public init() {}

    /// What `compute` answered for `key` earlier in this reading, or what it answers now (kept
    /// for the rest of the reading). Two sources that ask at once may both compute it.
    public func value<Value: Sendable>(
        for key: ObjectIdentifier, _ compute: () async throws -> Value
    ) async rethrows -> Value {
        if let known = values.withLock({ $0[key] }) as? Value { return known }
        let value = try await compute()
        values.withLock { $0[key] = value }
        return value
    }
}
