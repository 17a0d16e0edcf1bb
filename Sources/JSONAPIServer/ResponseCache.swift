import JSONAPI

/// The bytes of earlier answers to reads, each kept with the versions of every data source of
/// the service when it was written, and reused only while all of them are the same.
///
/// A service gets a new cache whenever anything about it changes (a declaration served, a
/// setting), so that a copy of a service changed afterwards never answers from the other's
/// entries. The cache holds at most its limit in bytes of bodies; when a new entry would pass
/// it, the older entries are dropped.
final class ResponseCache: Sendable {
    struct Key: Hashable {
        var type: String
        var endpoint: ResourceRequest.Endpoint
        var query: String
        var target: String
    }

    struct Entry {
        var body: [UInt8]
        var etag: String
        var profiles: [String]
        var versions: [UInt64]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
    }

    private let state = Locked(State())

    /// The entry of `key` if it was written when the sources had `versions`.
    func entry(_ key: Key, versions: [UInt64]) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.versions == versions else { return nil }
            return entry
        }
    }

    /// Keeps `entry` unless its body alone is more than a quarter of `limit`.
    func store(_ key: Key, _ entry: Entry, limit: Int) {
        guard entry.body.count <= limit / 4 else { return }
        state.withLock { state in
            if let old = state.entries[key] { state.bytes -= old.body.count }
            if state.bytes + entry.body.count > limit {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.entries[key] = entry
            state.bytes += entry.body.count
        }
    }
}

extension ResourceService {
    /// The versions of every served data source, in one order; nil when an answer cannot be
    /// reused: the cache is off, a source cannot tell its version, or a declaration has an
    /// authorization rule (whose answers depend on who asks).
    func sourceVersions() async throws -> [UInt64]? {
        guard responseCacheLimit > 0 else { return nil }
        guard !resources.values.contains(where: \.isAuthorized) else { return nil }
        // One reading: sources of one store read its versions once.
        return try await ResourceVersionReading.$current.withValue(ResourceVersionReading()) {
            var versions: [UInt64] = []
            versions.reserveCapacity(resources.count)
            // A dictionary keeps its order while unchanged, and any change replaces the cache.
            for resource in resources.values {
                guard let version = try await resource.currentVersion() else { return nil }
                versions.append(version)
            }
            return versions
        }
    }

    /// Answers a read from the cache, or computes it with `compute` and keeps it.
    func cachedRead(
        _ request: ResourceRequest, compute: (ResourceRequest) async throws -> ResourceResponse
    ) async throws -> ResourceResponse {
        guard let versions = try await sourceVersions() else { return try await compute(request) }
        let key = ResponseCache.Key(
            type: request.type, endpoint: request.endpoint, query: request.query, target: request.target)
        if let entry = responseCache.entry(key, versions: versions) {
            return Self.answer(entry.body, etag: entry.etag, profiles: entry.profiles, request)
        }
        // Computed whole (not as a 304), so that the next request may reuse it.
        var whole = request
        whole.ifNoneMatch = nil
        let response = try await compute(whole)
        guard response.status == 200, let body = response.body, let etag = response.etag else { return response }
        responseCache.store(
            key, .init(body: body, etag: etag, profiles: response.profiles, versions: versions),
            limit: responseCacheLimit)
        return Self.answer(body, etag: etag, profiles: response.profiles, request)
    }
}
