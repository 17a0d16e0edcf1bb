import JSONAPI
import Synchronization

/// The example service's data: resources of every type in memory, in insertion order.
///
/// Framework-neutral: it knows JSON:API resource objects and nothing of HTTP servers. Every
/// mutation runs under one lock. A change that may fail part-way (an update, a delete, a
/// relationship change, a batch of Atomic Operations) runs on the state itself with a journal
/// of what it changed, and a failure undoes the journal: all or nothing, and no write copies the
/// store (a write's cost does not grow with it, beyond a delete's O(log n) bookkeeping).
final class ExampleStore: Sendable {
    /// The resources of one type: by id, and in creation order.
    ///
    /// Creation order is a list of slots; a delete leaves a hole (nil) instead of moving every
    /// later id, and a count of the live slots (``LiveSlots``) finds the first resource of a
    /// page without walking the holes. The holes are squeezed out when they outnumber the
    /// resources, outside any journaled change, so each delete pays for its hole once.
    struct Table: Sendable {
        var byID: [String: (resource: JSONAPIResourceObject, slot: Int)] = [:]
        var slots: [String?] = []
        var live = LiveSlots()

        var count: Int { byID.count }

        /// The ids in creation order, from the `start`-th resource on (counted from 0).
        func ids(from start: Int) -> some Sequence<String> {
            let first = live.slot(ofLive: start) ?? slots.count
            return slots[first...].lazy.compactMap { $0 }
        }

        mutating func insert(_ resource: JSONAPIResourceObject, id: String) {
            byID[id] = (resource, slots.count)
            slots.append(id)
            live.append(isLive: true)
        }

        mutating func remove(_ id: String) -> (resource: JSONAPIResourceObject, slot: Int)? {
            guard let entry = byID.removeValue(forKey: id) else { return nil }
            slots[entry.slot] = nil
            live.set(entry.slot, isLive: false)
            return entry
        }

        /// Undoes the insertion of `id`, which took the last slot.
        mutating func removeLast(_ id: String) {
            byID[id] = nil
            slots.removeLast()
            live.removeLast()
        }

        /// Puts back a resource removed from `slot`.
        mutating func restore(_ resource: JSONAPIResourceObject, id: String, slot: Int) {
            byID[id] = (resource, slot)
            slots[slot] = id
            live.set(slot, isLive: true)
        }

        /// Squeezes the holes out when they outnumber the resources.
        mutating func compactIfSparse() {
            guard slots.count - byID.count > max(64, byID.count) else { return }
            slots.removeAll { $0 == nil }
            live = LiveSlots(count: slots.count)
            for (slot, id) in slots.enumerated() {
                if let id { byID[id]?.slot = slot }
            }
        }
    }

    /// What a journaled change did, to undo it.
    enum Change: Sendable {
        case inserted(type: String, id: String)
        case replaced(JSONAPIResourceObject)
        case removed(JSONAPIResourceObject, id: String, slot: Int)
        case issuedID(previous: Int)
    }

    struct State: Sendable {
        var tables: [String: Table] = [:]
        var nextID = 1
        /// The changes of the running journaled write; nil outside one.
        var journal: [Change]?

        func resource(_ type: String, _ id: String) -> JSONAPIResourceObject? { tables[type]?.byID[id]?.resource }

        func all(_ type: String) -> [JSONAPIResourceObject] {
            guard let table = tables[type] else { return [] }
            return table.ids(from: 0).compactMap { table.byID[$0]?.resource }
        }

        /// How many resources of `type` there are.
        func count(_ type: String) -> Int { tables[type]?.count ?? 0 }

        /// Page `number` (from 1) of `size` resources of `type` in creation order, without copying
        /// the others; empty past the end (and for numbers whose offset does not fit an `Int`).
        func page(_ type: String, number: Int, size: Int) -> [JSONAPIResourceObject] {
            guard let table = tables[type], number >= 1, size >= 1 else { return [] }
            let (start, overflow) = (number - 1).multipliedReportingOverflow(by: size)
            guard !overflow, start < table.count else { return [] }
            return table.ids(from: start).prefix(size).compactMap { table.byID[$0]?.resource }
        }

        mutating func put(_ resource: JSONAPIResourceObject) {
            guard let id = resource.id else { return }
            if let old = tables[resource.type]?.byID[id] {
                journal?.append(.replaced(old.resource))
                tables[resource.type]?.byID[id] = (resource, old.slot)
            } else {
                journal?.append(.inserted(type: resource.type, id: id))
                tables[resource.type, default: Table()].insert(resource, id: id)
            }
        }

        mutating func remove(_ type: String, _ id: String) {
            guard let removed = tables[type]?.remove(id) else { return }
            journal?.append(.removed(removed.resource, id: id, slot: removed.slot))
            if journal == nil { tables[type]?.compactIfSparse() }
        }

        mutating func newID() -> String {
            journal?.append(.issuedID(previous: nextID))
            defer { nextID += 1 }
            return "n\(nextID)"
        }

        /// Undoes the journal's changes, newest first, and ends the journal.
        mutating func rollBack() {
            let changes = journal ?? []
            journal = nil
            for change in changes.reversed() {
                switch change {
                case .inserted(let type, let id): tables[type]?.removeLast(id)
                case .replaced(let resource):
                    if let id = resource.id, let slot = tables[resource.type]?.byID[id]?.slot {
                        tables[resource.type]?.byID[id] = (resource, slot)
                    }
                case .removed(let resource, let id, let slot):
                    tables[resource.type]?.restore(resource, id: id, slot: slot)
                case .issuedID(let previous): nextID = previous
                }
            }
        }

        /// Ends the journal, keeping the changes; tables left sparse by its deletes are squeezed.
        mutating func commit() {
            let changes = journal ?? []
            journal = nil
            for case .removed(let resource, _, _) in changes { tables[resource.type]?.compactIfSparse() }
        }
    }

    private let state: Mutex<State>

    init(state: State) { self.state = Mutex(state) }

    func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try state.withLock { try body($0) }
    }

    /// Runs `body` on the state itself, for a change that mutates only after every check has
    /// passed (a single create): no journal is kept.
    func writeInPlace<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock { try body(&$0) }
    }

    /// Runs `body` on the state with a journal of its changes: when `body` throws, every change
    /// it made is undone, so the store is as it was.
    func write<Result>(_ body: (inout State) throws -> Result) throws -> Result {
        try state.withLock { current in
            current.journal = []
            do {
                let result = try body(&current)
                current.commit()
                return result
            } catch {
                current.rollBack()
                throw error
            }
        }
    }

    /// Deterministic data: the same `seed` and `articles` give the same resources.
    static func seeded(articles: Int, seed: UInt64) -> ExampleStore {
        var random = SplitMix64(seed: seed)
        var state = State()
        let words = [
            "swift", "json", "api", "stream", "arena", "parser", "server", "client", "cache", "index", "query",
            "fast", "small", "exact", "linked",
        ]
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        let names = ["Ann", "Bo", "Cyd", "Dee", "Eli", "Fay", "Gus", "Hal"]
        let peopleCount = max(3, articles / 4)
        for index in 1...peopleCount {
            state.put(
                JSONAPIResourceObject(
                    type: "people", id: "\(index)",
                    attributes: ["name": JSON(names[(index - 1) % names.count] + " \(index)")]))
        }
        for (index, name) in ["swift", "json", "http", "news", "howto"].enumerated() {
            state.put(JSONAPIResourceObject(type: "tags", id: "\(index + 1)", attributes: ["name": JSON(name)]))
        }
        var commentID = 0
        for index in stride(from: 1, through: articles, by: 1) {
            var comments: [ResourceIdentifier] = []
            for _ in 0..<Int(random.next() % 3) {
                commentID += 1
                let author = ResourceIdentifier(type: "people", id: "\(1 + Int(random.next() % UInt64(peopleCount)))")
                var comment = JSONAPIResourceObject(
                    type: "comments", id: "\(commentID)", attributes: ["body": JSON(sentence(5))])
                comment.relationships.append(key: "author", value: .toOne(author))
                state.put(comment)
                comments.append(ResourceIdentifier(type: "comments", id: "\(commentID)"))
            }
            let tags = (1...5).filter { _ in random.next() % 3 == 0 }.map {
                ResourceIdentifier(type: "tags", id: "\($0)")
            }
            let day = 1 + Int(random.next() % 28)
            var article = JSONAPIResourceObject(
                type: "articles", id: "\(index)",
                attributes: [
                    "title": JSON(sentence(3)), "body": JSON(sentence(12)),
                    "createdAt": JSON("2024-01-\(day < 10 ? "0" : "")\(day)T10:00:00Z"),
                ])
            article.relationships.append(
                key: "author",
                value: .toOne(ResourceIdentifier(type: "people", id: "\(1 + Int(random.next() % UInt64(peopleCount)))"))
            )
            article.relationships.append(key: "comments", value: .toMany(comments))
            article.relationships.append(key: "tags", value: .toMany(tags))
            state.put(article)
        }
        return ExampleStore(state: state)
    }
}

/// A small, fast, deterministic generator (SplitMix64), so `--seed` reproduces the data on any
/// platform.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Which slots of a ``ExampleStore/Table`` hold a resource, as a Fenwick tree of 0/1 counts:
/// marking a slot and finding the slot of the k-th resource both take O(log n).
struct LiveSlots: Sendable {
    /// `tree[i - 1]` is the count of live slots in `(i - lowbit(i), i]` (slots from 1).
    private var tree: [Int] = []
    private var flags: [Bool] = []

    init() {}

    /// `count` slots, all live.
    init(count: Int) {
        flags = Array(repeating: true, count: count)
        tree = Array(repeating: 0, count: count)
        for i in stride(from: 1, through: count, by: 1) {
            tree[i - 1] += 1
            let parent = i + (i & -i)
            if parent <= count { tree[parent - 1] += tree[i - 1] }
        }
    }

    mutating func append(isLive: Bool) {
        let i = tree.count + 1
        // The new node covers (i - lowbit(i), i]: the live slots in (i - lowbit(i), i - 1], plus itself.
        let low = i - (i & -i)
        tree.append(prefix(i - 1) - prefix(low) + (isLive ? 1 : 0))
        flags.append(isLive)
    }

    mutating func removeLast() {
        tree.removeLast()
        flags.removeLast()
    }

    mutating func set(_ slot: Int, isLive: Bool) {
        guard flags[slot] != isLive else { return }
        flags[slot] = isLive
        let delta = isLive ? 1 : -1
        var i = slot + 1
        while i <= tree.count {
            tree[i - 1] += delta
            i += i & -i
        }
    }

    /// The live slots among the first `count`.
    func prefix(_ count: Int) -> Int {
        var sum = 0
        var i = count
        while i > 0 {
            sum += tree[i - 1]
            i -= i & -i
        }
        return sum
    }

    /// The slot of the `k`-th live slot (from 0); nil when there are `k` or fewer.
    func slot(ofLive k: Int) -> Int? {
        guard k >= 0 else { return nil }
        var position = 0
        var remaining = k + 1
        var step = 1
        while step * 2 <= tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next <= tree.count && tree[next - 1] < remaining {
                position = next
                remaining -= tree[next - 1]
            }
            step /= 2
        }
        return position < tree.count ? position : nil
    }
}
