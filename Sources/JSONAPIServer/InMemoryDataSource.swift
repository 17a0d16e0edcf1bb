import JSONAPI

/// A ``ResourceDataSource`` that keeps its models in memory: for tests, prototypes, small
/// services and as the reference the service's behaviour is checked against.
///
/// Each write costs O(1) plus the size of the model (its resource object is kept for filtering and
/// sorting); nothing copies the whole store. A list filters, sorts (stably, in
/// creation order among equals) and pages the live models. Server ids count up from 1, skipping
/// ids already taken. Safe to share between tasks.
///
/// ```swift
/// let books = InMemoryDataSource<Book>()
/// let dune = try await books.create(Book(id: try await books.makeID(), title: "Dune", author: "9"))
/// try await books.fetch(id: dune.id)?.title   // "Dune"
/// ```
public final class InMemoryDataSource<Model: JSONAPIResource & Codable & Sendable>: ResourceRecordSource, Sendable {
    private struct State {
        /// Per row, in creation order: the id, the model and its resource object; a deleted row
        /// leaves nil in each until the next compaction. Separate arrays, so a list reads the
        /// resource objects it filters and sorts without copying models.
        var keys: [String?] = []
        var models: [Model?] = []
        var records: [JSONAPIResourceObject?] = []
        /// The position in the rows of each live id.
        var positions: [String: Int] = [:]
        var nextID = 1
        /// Moved by every write.
        var version: UInt64 = 0

        mutating func put(key: String, model: Model, record: JSONAPIResourceObject) {
            version &+= 1
            if let position = positions[key] {
                models[position] = model
                records[position] = record
            } else {
                positions[key] = keys.count
                keys.append(key)
                models.append(model)
                records.append(record)
            }
        }
    }

    private let state = Locked(State())

    /// An empty store.
    public init() {}

    /// A store holding `models`, in this order (a later model with the same id replaces an
    /// earlier one).
    ///
    /// - Throws: `EncodingError` when a model cannot be encoded.
    public convenience init(_ models: [Model]) throws {
        self.init()
        let records = try ResourceRecords.records(of: models)
        state.withLock { state in
            for (model, record) in zip(models, records) {
                state.put(key: record.id ?? "", model: model, record: record)
            }
        }
    }

    /// Moved by every create, update and delete: the only way its models change.
    public var version: UInt64? { state.withLock { $0.version } }

    /// The number of models stored.
    public var count: Int { state.withLock { $0.positions.count } }

    public func list(_ query: ResourceListQuery) async throws -> ResourceList<Model> {
        state.withLock { state in
            let (positions, total) = Self.page(query, state)
            return ResourceList(models: positions.compactMap { state.models[$0] }, total: total)
        }
    }

    /// The resource objects of a page, as stored with each model: what the service would get by
    /// encoding the page's models (they were made when the model was written).
    public func listRecords(_ query: ResourceListQuery) async throws -> ResourceList<JSONAPIResourceObject> {
        state.withLock { state in
            let (positions, total) = Self.page(query, state)
            return ResourceList(models: positions.compactMap { state.records[$0] }, total: total)
        }
    }

    public func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<Model, any Error> {
        batches(query) { state, position in state.models[position] }
    }

    /// ``stream(_:)`` as the stored resource objects.
    public func streamRecords(_ query: ResourceListQuery) -> AsyncThrowingStream<JSONAPIResourceObject, any Error> {
        batches(query) { state, position in state.records[position] }
    }

    /// The rows that match `query`, read 256 at a time: the ids are taken when the stream starts,
    /// and each batch reads the rows of those ids that still exist.
    private func batches<Element: Sendable>(
        _ query: ResourceListQuery, _ read: @escaping @Sendable (State, Int) -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        var whole = query
        whole.page = nil
        return unfoldingStream(BatchCursor<Element>()) { [self, whole] cursor in
            if cursor.ids == nil {
                cursor.ids = self.state.withLock { state in
                    Self.page(whole, state).positions.compactMap { state.keys[$0] }
                }
            }
            while cursor.index == cursor.batch.count {
                guard let ids = cursor.ids, cursor.next < ids.count else { return nil }
                let range = cursor.next..<min(cursor.next + 256, ids.count)
                cursor.batch = self.state.withLock { state in
                    ids[range].compactMap { id in state.positions[id].flatMap { read(state, $0) } }
                }
                cursor.next = range.upperBound
                cursor.index = 0
            }
            cursor.index += 1
            return cursor.batch[cursor.index - 1]
        }
    }

    /// The stored resource objects of `ids` that exist.
    public func records(ids: [String]) async throws -> [JSONAPIResourceObject] {
        state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.records[$0] } } }
    }

    /// The positions of a page's rows, and how many rows match in all. Only the resource objects
    /// are read, and only when the query filters or sorts.
    private static func page(_ query: ResourceListQuery, _ state: State) -> (positions: ArraySlice<Int>, total: Int) {
        var matching: [Int] = []
        matching.reserveCapacity(state.positions.count)
        if case .all(let filters) = query.filter, filters.isEmpty {
            for position in state.records.indices where state.records[position] != nil { matching.append(position) }
        } else {
            for position in state.records.indices {
                if let record = state.records[position], query.filter.matches(record) { matching.append(position) }
            }
        }
        if !query.sort.isEmpty {
            // Stable: among equals, creation order (the positions are ascending).
            matching = matching.enumerated().sorted { left, right in
                let leftRecord = state.records[left.element]
                let rightRecord = state.records[right.element]
                for field in query.sort {
                    switch JSONOrdering.compare(
                        leftRecord?.attributes[field.name], rightRecord?.attributes[field.name])
                    {
                    case .equal: continue
                    case .less: return !field.isDescending
                    case .greater: return field.isDescending
                    }
                }
                return left.offset < right.offset
            }.map(\.element)
        }
        let total = matching.count
        let page: ArraySlice<Int>
        switch query.page {
        case nil, .cursor?: page = matching[...]
        case .number(let number, let size)?:
            let start = number > 0 && size > 0 && number - 1 <= total / size ? (number - 1) * size : total
            page = matching[min(start, total)..<min(start + min(size, total - min(start, total)), total)]
        case .offset(let offset, let limit)?:
            let start = min(max(offset, 0), total)
            page = matching[start..<min(start + max(limit, 0), total)]
        }
        return (page, total)
    }

    public func fetch(id: String) async throws -> Model? {
        state.withLock { state in state.positions[id].flatMap { state.models[$0] } }
    }

    public func fetch(ids: [String]) async throws -> [Model] {
        state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.models[$0] } } }
    }

    public func makeID() async throws -> String {
        state.withLock { state in
            while state.positions[String(state.nextID)] != nil { state.nextID += 1 }
            defer { state.nextID += 1 }
            return String(state.nextID)
        }
    }

    public func create(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let key = record.id ?? ""
        try state.withLock { state throws(ResourceDataSourceError) in
            guard state.positions[key] == nil else { throw .duplicateID(key) }
            state.put(key: key, model: model, record: record)
        }
        return model
    }

    public func update(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let key = record.id ?? ""
        try state.withLock { state throws(ResourceDataSourceError) in
            guard state.positions[key] != nil else { throw .notFound(key) }
            state.put(key: key, model: model, record: record)
        }
        return model
    }

    public func delete(id: String) async throws -> Bool {
        state.withLock { state in
            guard let position = state.positions.removeValue(forKey: id) else { return false }
            state.version &+= 1
            state.keys[position] = nil
            state.models[position] = nil
            state.records[position] = nil
            // Compact once the dead rows outnumber the live ones: O(1) amortized per delete.
            if state.keys.count > 32 && state.positions.count * 2 < state.keys.count {
                state.keys.removeAll { $0 == nil }
                state.models.removeAll { $0 == nil }
                state.records.removeAll { $0 == nil }
                for (position, key) in state.keys.enumerated() {
                    if let key { state.positions[key] = position }
                }
            }
            return true
        }
    }
}

/// Where a stream of ``InMemoryDataSource`` is: the ids it reads (taken when it starts), the next
/// one to read, and the batch being handed out.
private struct BatchCursor<Element: Sendable>: Sendable {
    var ids: [String]?
    var next = 0
    var batch: [Element] = []
    var index = 0
}
