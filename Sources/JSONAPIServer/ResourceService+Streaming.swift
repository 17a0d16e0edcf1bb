import JSONAPI

// A collection whose declaration streams it: `data` written as the data source delivers its
// records, then `included`, in chunks the adapters send as they come. Nothing is read ahead of
// the client: each chunk is written when the framework asks for it, so the service holds one
// chunk, the identifiers still to include, and one batch of included records at a time.

extension ResourceService {
    /// `GET /TYPE` of a declaration with ``ResourceDeclaration/streamsCollections``. Every check
    /// (authorization, query, filter) happens here, before the first byte; what fails later
    /// ends the body early.
    func streamedCollection(_ resource: any ServedResource, _ request: ResourceRequest) async throws
        -> ResourceResponse
    {
        try await authorize(resource, .list, request)
        let query = try JSONAPIQuery(
            parsing: request.query, rules: rules(for: resource, collection: true), options: configuration.queryOptions)
        let listQuery = ResourceListQuery(
            sort: query.sort, filter: try await resolveFilter(query.filter, of: resource, request))
        // HEAD: the response GET would send, chunked as that one is, without a chunk written.
        var response = ResourceResponse(status: 200)
        response.profiles = profiles(appliedBy: query)
        response.chunks = ResourceBodyChunks(
            service: self, resource: resource, request: request, query: query, listQuery: listQuery)
        return response
    }
}

/// A document written as it is sent: the chunks of a streamed collection
/// (``ResourceDeclaration/streamsCollections``), each about ``chunkSize`` bytes. Read it once;
/// each chunk is written when it is asked for.
///
/// The adapters send it as the response body. Reading it yourself:
///
/// ```swift
/// let response = try await service.respond(to: request)
/// if let chunks = response.chunks {
///     for try await chunk in chunks { try await send(chunk) }
/// }
/// ```
public final class ResourceBodyChunks: AsyncSequence, Sendable, Hashable {
    public typealias Element = [UInt8]
    public typealias Failure = any Error

    /// The size a chunk reaches before it is handed out (the resource that passes it is
    /// written whole).
    public static let chunkSize = 64 * 1024

    let service: ResourceService
    let resource: any ServedResource
    let request: ResourceRequest
    let query: JSONAPIQuery
    let listQuery: ResourceListQuery

    init(
        service: ResourceService, resource: any ServedResource, request: ResourceRequest, query: JSONAPIQuery,
        listQuery: ResourceListQuery
    ) {
        self.service = service
        self.resource = resource
        self.request = request
        self.query = query
        self.listQuery = listQuery
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(self) }

    /// Two chunk sequences are equal when they are the same one.
    public static func == (left: ResourceBodyChunks, right: ResourceBodyChunks) -> Bool { left === right }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Writes the next chunk when it is asked for.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private enum Phase {
            case start, data, included, done
        }

        /// One relationship of the `include` tree: the identifiers it reached, in order, not yet
        /// written, and the paths below it.
        private struct Branch {
            var name: String
            var subpaths: [String]
            var wanted: [ResourceIdentifier] = []
            var wantedSet: Set<ResourceIdentifier> = []
        }

        private let chunks: ResourceBodyChunks
        private var phase = Phase.start
        private var records: (any AsyncIteratorProtocol<JSONAPIResourceObject, any Error>)?
        private var writer: JSONWriter
        private var branches: [Branch] = []
        /// Every included resource written, so that each appears once.
        private var written: Set<ResourceIdentifier> = []

        init(_ chunks: ResourceBodyChunks) {
            self.chunks = chunks
            if chunks.request.method == "HEAD" { phase = .done }
            writer = JSONWriter(options: chunks.service.configuration.writingOptions)
            var names: [String] = []
            var subpaths: [String: [String]] = [:]
            for path in chunks.query.include ?? [] {
                let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                if subpaths[name] == nil {
                    names.append(name)
                    subpaths[name] = []
                }
                if parts.count == 2 { subpaths[name, default: []].append(String(parts[1])) }
            }
            branches = names.map { Branch(name: $0, subpaths: subpaths[$0] ?? []) }
        }

        public mutating func next() async throws -> [UInt8]? {
            let service = chunks.service
            let fields = chunks.query.fields
            while true {
                switch phase {
                case .start:
                    writer.beginObject()
                    writer.key("data")
                    writer.beginArray()
                    records = chunks.resource.streamRecords(chunks.listQuery).makeAsyncIterator()
                    phase = .data
                case .data:
                    guard let record = try await records?.next() else {
                        records = nil
                        writer.endArray()
                        if chunks.query.include != nil {
                            writer.key("included")
                            writer.beginArray()
                        }
                        phase = .included
                        continue
                    }
                    guard try await isVisible(record, of: chunks.resource) else { continue }
                    service.write(record, fields: fields, to: &writer)
                    want(from: [record])
                    if writer.bytes.count >= ResourceBodyChunks.chunkSize { return writer.takeBytes() }
                case .included:
                    if let index = branches.firstIndex(where: { !$0.wanted.isEmpty }) {
                        try await includeBatch(of: index)
                        if writer.bytes.count >= ResourceBodyChunks.chunkSize { return writer.takeBytes() }
                        continue
                    }
                    if chunks.query.include != nil { writer.endArray() }
                    writer.key("links")
                    let links: JSONAPILinks = ["self": JSONAPILink(href: chunks.request.target)]
                    links.write(to: &writer)
                    writer.endObject()
                    phase = .done
                    return try writer.finish()
                case .done:
                    return nil
                }
            }
        }

        /// Whether the authorization rule lets the request see `record`.
        private func isVisible(_ record: JSONAPIResourceObject, of resource: any ServedResource) async throws -> Bool {
            guard resource.isAuthorized else { return true }
            if case .allow = try await resource.decide(.read(id: record.id ?? ""), chunks.request) { return true }
            return false
        }

        /// Notes the identifiers the first relationship of each `include` path reaches from
        /// `records`.
        private mutating func want(from records: [JSONAPIResourceObject]) {
            for index in branches.indices {
                let name = branches[index].name
                for record in records {
                    guard let owner = chunks.service.resources[record.type], !owner.fields.hidden.contains(name)
                    else { continue }
                    switch record.relationships[name]?.data {
                    case .one(let identifier)?: add(identifier, to: index)
                    case .many(let identifiers)?: for identifier in identifiers { add(identifier, to: index) }
                    case .null?, nil: break
                    }
                }
            }
        }

        private mutating func add(_ identifier: ResourceIdentifier, to branch: Int) {
            guard !written.contains(identifier), branches[branch].wantedSet.insert(identifier).inserted else {
                return
            }
            branches[branch].wanted.append(identifier)
        }

        /// Loads and writes up to 256 identifiers of one branch, and what the paths below it
        /// reach from them.
        private mutating func includeBatch(of branch: Int) async throws {
            let service = chunks.service
            let count = Swift.min(256, branches[branch].wanted.count)
            let batch = Array(branches[branch].wanted.prefix(count))
            branches[branch].wanted.removeFirst(count)
            for identifier in batch { branches[branch].wantedSet.remove(identifier) }
            var loaded = try await service.load(batch.filter { !written.contains($0) }, chunks.request)
            // A resource of the primary type that the collection's filter matches is in `data`.
            loaded.removeAll { record in
                record.type == chunks.resource.type && chunks.listQuery.filter.matches(record)
            }
            let subpaths = branches[branch].subpaths
            let below = subpaths.isEmpty ? [] : try await service.includes(of: loaded, paths: subpaths, chunks.request)
            for record in loaded + (below ?? []) where written.insert(record.identifier).inserted {
                if record.type == chunks.resource.type && chunks.listQuery.filter.matches(record) { continue }
                service.write(record, fields: chunks.query.fields, to: &writer)
            }
        }
    }
}
