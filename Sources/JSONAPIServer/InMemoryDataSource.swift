import JSONAPI
import Synchronization

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
public final class InMemoryDataSource<Model: JSONAPIResource & Codable & Sendable>: ResourceDataSource, Sendable {
    private struct Row {
        var key: String
        var model: Model
        var record: JSONAPIResourceObject
    }

    private struct State {
        /// Rows in creation order; a deleted row leaves nil until the next compaction.
        var rows: [Row?] = []
        /// The position in `rows` of each live id.
        var positions: [String: Int] = [:]
        var nextID = 1
    }

    private let state = Mutex(State())

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
                let key = record.id ?? ""
                if let position = state.positions[key] {
                    state.rows[position] = Row(key: key, model: model, record: record)
                } else {
                    state.positions[key] = state.rows.count
                    state.rows.append(Row(key: key, model: model, record: record))
                }
            }
        }
    }

    /// The number of models stored.
    public var count: Int { state.withLock { $0.positions.count } }

    public func list(_ query: ResourceListQuery) async throws -> ResourceList<Model> {
        let (rows, total) = page(query)
        return ResourceList(models: rows.map(\.model), total: total)
    }

    /// The resource objects of a page, as stored with each model: what the service would get by
    /// encoding the page's models (``ResourceRecords`` made them at write time).
    func listRecords(_ query: ResourceListQuery) -> (records: [JSONAPIResourceObject], total: Int) {
        let (rows, total) = page(query)
        return (rows.map(\.record), total)
    }

    /// The stored resource objects of `ids` that exist.
    func records(ids: [String]) -> [JSONAPIResourceObject] {
        state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.rows[$0]?.record } } }
    }

    private func page(_ query: ResourceListQuery) -> (rows: ArraySlice<Row>, total: Int) {
        var matching: [Row] = state.withLock { state in
            state.rows.compactMap { row in row.flatMap { query.filter.matches($0.record) ? $0 : nil } }
        }
        if !query.sort.isEmpty {
            matching = matching.enumerated().sorted { left, right in
                for field in query.sort {
                    switch JSONOrdering.compare(
                        left.element.record.attributes[field.name], right.element.record.attributes[field.name])
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
        let page: ArraySlice<Row>
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
        state.withLock { state in state.positions[id].flatMap { state.rows[$0]?.model } }
    }

    public func fetch(ids: [String]) async throws -> [Model] {
        state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.rows[$0]?.model } } }
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
            state.positions[key] = state.rows.count
            state.rows.append(Row(key: key, model: model, record: record))
        }
        return model
    }

    public func update(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let key = record.id ?? ""
        try state.withLock { state throws(ResourceDataSourceError) in
            guard let position = state.positions[key] else { throw .notFound(key) }
            state.rows[position] = Row(key: key, model: model, record: record)
        }
        return model
    }

    public func delete(id: String) async throws -> Bool {
        state.withLock { state in
            guard let position = state.positions.removeValue(forKey: id) else { return false }
            state.rows[position] = nil
            // Compact once the dead rows outnumber the live ones: O(1) amortized per delete.
            if state.rows.count > 32 && state.positions.count * 2 < state.rows.count {
                state.rows.removeAll { $0 == nil }
                for (position, row) in state.rows.enumerated() {
                    if let row { state.positions[row.key] = position }
                }
            }
            return true
        }
    }
}
