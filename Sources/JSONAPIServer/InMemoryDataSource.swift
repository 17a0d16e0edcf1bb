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
///
/// Stores can be linked as a database's tables are: ``toOne(_:in:onDelete:)`` says what deleting
/// a resource does to the resources of another store that name it, ``toMany(_:in:)`` removes a
/// deleted resource from the to-many linkage that names it (a join table's rows), and
/// ``toMany(_:inverseOf:in:)`` makes a to-many relationship the inverse of another store's
/// to-one, one fact read the same from both sides (writing either side changes what both read).
///
/// ```swift
/// let reviews = InMemoryDataSource<Review>()
/// try reviews.toOne("book", in: books, onDelete: .cascade)   // deleting a book deletes its reviews
/// try books.toMany("reviews", inverseOf: "book", in: reviews) // Review.book seen from the book
/// ```
///
/// Linked stores are not transactions: a write that fails halfway through a cascade or a change
/// of several stores is checked first (refusals, required relationships), so it fails before it
/// writes, but two writers at once may interleave.
public final class InMemoryDataSource<Model: JSONAPIResource & Codable & Sendable>: ResourceRecordSource, Sendable {
    struct State {
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
        /// Per to-one member another store reads as its inverse: the ids naming each resource.
        var naming: [String: [String: [String]]] = [:]

        mutating func put(key: String, model: Model, record: JSONAPIResourceObject) {
            version &+= 1
            if let position = positions[key] {
                reindex(key, from: records[position], to: record)
                models[position] = model
                records[position] = record
            } else {
                reindex(key, from: nil, to: record)
                positions[key] = keys.count
                keys.append(key)
                models.append(model)
                records.append(record)
            }
        }

        /// Moves `key` in the index of each indexed member from the resource `old` names to the
        /// one `new` names.
        mutating func reindex(_ key: String, from old: JSONAPIResourceObject?, to new: JSONAPIResourceObject?) {
            for member in naming.keys {
                let before = Self.target(of: old, member)
                let after = Self.target(of: new, member)
                guard before != after else { continue }
                if let before {
                    naming[member]?[before]?.removeAll { $0 == key }
                    if naming[member]?[before]?.isEmpty == true { naming[member]?[before] = nil }
                }
                if let after { naming[member, default: [:]][after, default: []].append(key) }
            }
        }

        /// The id the to-one `member` of `record` names, if any.
        static func target(of record: JSONAPIResourceObject?, _ member: String) -> String? {
            guard case .one(let identifier)? = record?.relationships[member]?.data else { return nil }
            return identifier.id
        }

        /// Indexes the to-one `member` of every stored resource.
        mutating func index(_ member: String) {
            guard naming[member] == nil else { return }
            var index: [String: [String]] = [:]
            for (key, record) in zip(keys, records) {
                if let key, let target = Self.target(of: record, member) { index[target, default: []].append(key) }
            }
            naming[member] = index
        }

        /// Removes the row of `id`; false when there is none.
        mutating func remove(_ id: String) -> Bool {
            guard let position = positions.removeValue(forKey: id) else { return false }
            version &+= 1
            reindex(id, from: records[position], to: nil)
            keys[position] = nil
            models[position] = nil
            records[position] = nil
            // Compact once the dead rows outnumber the live ones: O(1) amortized per delete.
            if keys.count > 32 && positions.count * 2 < keys.count {
                keys.removeAll { $0 == nil }
                models.removeAll { $0 == nil }
                records.removeAll { $0 == nil }
                for (position, key) in keys.enumerated() {
                    if let key { positions[key] = position }
                }
            }
            return true
        }
    }

    let state = Locked(State())
    /// The turns of ``transaction(_:)``.
    let turns = InMemoryTurns()
    /// The declared links to other stores: read before a call into another store, never held
    /// during one (nor is `state`), so that two linked stores never wait on each other.
    let links = Locked(InMemoryLinks())

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
        guard hasInverses else {
            return state.withLock { state in
                let page = Self.page(query, state)
                return ResourceList(
                    models: page.positions.compactMap { state.models[$0] }, total: page.total,
                    hasNextPage: page.hasNext, hasPreviousPage: page.hasPrevious)
            }
        }
        let page = try await listRecords(query)
        return ResourceList(
            models: try page.models.map(Self.model), total: page.total, hasNextPage: page.hasNextPage,
            hasPreviousPage: page.hasPreviousPage)
    }

    /// The resource objects of a page, as stored with each model: what the service would get by
    /// encoding the page's models (they were made when the model was written).
    public func listRecords(_ query: ResourceListQuery) async throws -> ResourceList<JSONAPIResourceObject> {
        let page = state.withLock { state in
            let page = Self.page(query, state)
            return ResourceList(
                models: page.positions.compactMap { state.records[$0] }, total: page.total, hasNextPage: page.hasNext,
                hasPreviousPage: page.hasPrevious)
        }
        return ResourceList(
            models: withInverses(page.models), total: page.total, hasNextPage: page.hasNextPage,
            hasPreviousPage: page.hasPreviousPage)
    }

    public func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<Model, any Error> {
        guard hasInverses else { return batches(query, { state, position in state.models[position] }, { $0 }) }
        return batches(query, { state, position in state.records[position] }) {
            try self.withInverses($0).map(Self.model)
        }
    }

    /// ``stream(_:)`` as the stored resource objects.
    public func streamRecords(_ query: ResourceListQuery) -> AsyncThrowingStream<JSONAPIResourceObject, any Error> {
        batches(query, { state, position in state.records[position] }) { self.withInverses($0) }
    }

    /// The rows that match `query`, read 256 at a time: the ids are taken when the stream starts,
    /// and each batch reads the rows of those ids that still exist, then is `finish`ed outside
    /// the lock.
    private func batches<Row: Sendable, Element: Sendable>(
        _ query: ResourceListQuery, _ read: @escaping @Sendable (State, Int) -> Row?,
        _ finish: @escaping @Sendable ([Row]) throws -> [Element]
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
                cursor.batch = try finish(
                    self.state.withLock { state in
                        ids[range].compactMap { id in state.positions[id].flatMap { read(state, $0) } }
                    })
                cursor.next = range.upperBound
                cursor.index = 0
            }
            cursor.index += 1
            return cursor.batch[cursor.index - 1]
        }
    }

    /// The stored resource objects of `ids` that exist.
    public func records(ids: [String]) async throws -> [JSONAPIResourceObject] {
        withInverses(
            state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.records[$0] } } })
    }

    /// A page of rows: their positions, how many rows match in all, and for a keyset page whether
    /// pages come after and before it.
    private struct Window {
        var positions: ArraySlice<Int>
        var total: Int
        var hasNext: Bool?
        var hasPrevious: Bool?
    }

    /// The positions of a page's rows, and how many rows match in all. Only the resource objects
    /// are read, and only when the query filters or sorts.
    private static func page(_ query: ResourceListQuery, _ state: State) -> Window {
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
        switch query.page {
        case nil: return Window(positions: matching[...], total: total)
        case .number(let number, let size)?:
            let start = number > 0 && size > 0 && number - 1 <= total / size ? (number - 1) * size : total
            return Window(
                positions: matching[min(start, total)..<min(start + min(size, total - min(start, total)), total)],
                total: total)
        case .offset(let offset, let limit)?:
            let start = min(max(offset, 0), total)
            return Window(positions: matching[start..<min(start + max(limit, 0), total)], total: total)
        case .cursor(_, _, let size)?:
            // The rows are in the order of the sort then creation; a position is compared in the
            // same order, its id standing for its creation rank.
            let size = max(size, 0)
            var start = 0
            var end = total
            if let after = query.after {
                start = Self.firstIndex(in: matching) { compare(state, $0, after, query.sort, gone: 1) > 0 }
            }
            if let before = query.before {
                end = Self.firstIndex(in: matching) { compare(state, $0, before, query.sort, gone: -1) >= 0 }
            }
            let rows = matching[start..<max(start, end)]
            if query.before != nil && query.after == nil {
                return Window(
                    positions: rows.suffix(size), total: total, hasNext: nil, hasPrevious: rows.count > size)
            }
            return Window(
                positions: rows.prefix(size), total: total, hasNext: rows.count > size,
                hasPrevious: query.after == nil ? false : nil)
        }
    }

    /// Where the row at `position` stands against `target` in the order of `sort` then
    /// creation: negative before it, zero at it, positive after it. A target whose resource is
    /// gone has no creation rank: rows equal to it in every sort field count as after it for
    /// `page[after]` and before it for `page[before]`, so a page may repeat them, never skip them.
    private static func compare(
        _ state: State, _ position: Int, _ target: ResourcePosition, _ sort: [JSONAPIQuery.SortField], gone: Int
    ) -> Int {
        let record = state.records[position]
        for (field, value) in zip(sort, target.values) {
            switch JSONOrdering.compare(record?.attributes[field.name], value) {
            case .equal: continue
            case .less: return field.isDescending ? 1 : -1
            case .greater: return field.isDescending ? -1 : 1
            }
        }
        guard let rank = state.positions[target.id] else { return gone }
        return position < rank ? -1 : position == rank ? 0 : 1
    }

    /// The first index of `rows` whose row satisfies `isAtOrPast`, which holds for a suffix of
    /// them (the rows are in order); `rows.count` when none does.
    private static func firstIndex(in rows: [Int], where isAtOrPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let middle = low + (high - low) / 2
            if isAtOrPast(rows[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    public func fetch(id: String) async throws -> Model? {
        try await fetch(ids: [id]).first
    }

    public func fetch(ids: [String]) async throws -> [Model] {
        guard hasInverses else {
            return state.withLock { state in ids.compactMap { state.positions[$0].flatMap { state.models[$0] } } }
        }
        return try await records(ids: ids).map(Self.model)
    }

    /// The next free number, as text. Inside ``transaction(_:)`` (the service runs each write
    /// in one), a number handed out to a write that then fails is handed out again: a failed
    /// create leaves no gap, as a database's does.
    public func makeID() async throws -> String {
        let id = state.withLock { state in
            while state.positions[String(state.nextID)] != nil { state.nextID += 1 }
            defer { state.nextID += 1 }
            return state.nextID
        }
        InMemoryWrites.current?.handedOut(id, by: self)
        return String(id)
    }

    /// Runs `body` alone among this store's transactions, taking back the ids ``makeID()``
    /// handed out inside it when it throws and no model took them (what `body` wrote stays
    /// written: the store cannot roll back).
    ///
    /// Transactions take turns, in the order they asked, so what one reads (the current resource
    /// for `If-Match`, the linkage a relationship change adds to) is what it writes over: two
    /// concurrent `PATCH`es of one resource, or additions to one to-many, never lose each other's
    /// change. Reads do not wait. A transaction begun inside another (a hook that writes) runs in
    /// the outer one's turn.
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        let nested = InMemoryWrites.current != nil
        if !nested { await turns.acquire() }
        defer { if !nested { turns.release() } }
        let writes = InMemoryWrites()
        do {
            return try await InMemoryWrites.$current.withValue(writes) { try await body() }
        } catch {
            for id in writes.ids(of: self).sorted(by: >) {
                state.withLock { state in
                    // Only the last number handed out goes back, so no later id is reused.
                    if state.nextID == id + 1 && state.positions[String(id)] == nil { state.nextID = id }
                }
            }
            throw error
        }
    }

    public func create(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let key = record.id ?? ""
        let changes = try inverseChanges(of: record)
        try state.withLock { state throws(ResourceDataSourceError) in
            guard state.positions[key] == nil else { throw .duplicateID(key) }
            state.put(key: key, model: model, record: record)
        }
        try apply(changes)
        return model
    }

    public func update(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let key = record.id ?? ""
        let changes = try inverseChanges(of: record)
        try state.withLock { state throws(ResourceDataSourceError) in
            guard state.positions[key] != nil else { throw .notFound(key) }
            state.put(key: key, model: model, record: record)
        }
        try apply(changes)
        return model
    }

    /// Removes the model with `id`, after the delete rules of the stores linked to this one
    /// (``toOne(_:in:onDelete:)``): a refusal is a 409 naming the relationship, and nothing is
    /// removed; a cascade removes the resources that name it; a set-null clears their
    /// relationship. False when there was no model with `id`.
    public func delete(id: String) async throws -> Bool {
        guard state.withLock({ $0.positions[id] != nil }) else { return false }
        var plan = InMemoryDeletePlan()
        try planDelete([id], into: &plan)
        for change in plan.cleared { try change.store.link(change.ids, change.member, to: nil) }
        for change in plan.unlinked { try change.store.unlink(change.ids, type: change.type, from: change.member) }
        var removed = 0
        for deletion in plan.deletions {
            let count = deletion.store.remove(deletion.ids)
            if deletion.store === self { removed += count }
        }
        return removed > 0
    }

    /// Removes the models of `ids` that exist, without rules; the number removed.
    @discardableResult
    func remove(_ ids: [String]) -> Int {
        state.withLock { state in
            var removed = 0
            for id in ids { if state.remove(id) { removed += 1 } }
            return removed
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

/// The ids a write handed out, by store: what ``InMemoryDataSource/transaction(_:)`` takes back
/// when the write fails.
final class InMemoryWrites: Sendable {
    @TaskLocal static var current: InMemoryWrites?

    private let handed = Locked<[(store: ObjectIdentifier, id: Int)]>([])

    func handedOut(_ id: Int, by store: AnyObject) {
        handed.withLock { $0.append((ObjectIdentifier(store), id)) }
    }

    func ids(of store: AnyObject) -> [Int] {
        handed.withLock { handed in handed.filter { $0.store == ObjectIdentifier(store) }.map(\.id) }
    }
}

/// One transaction at a time, the others waiting in the order they came: a lock an async
/// function can wait for without blocking a thread.
final class InMemoryTurns: Sendable {
    private struct State {
        var taken = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Returns when the caller's turn has come.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.taken {
                    state.waiting.append(continuation)
                    return false
                }
                state.taken = true
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Ends the caller's turn: the next waiting caller's begins.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.taken = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
