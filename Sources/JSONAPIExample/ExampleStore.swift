import JSONAPI

/// The example's seed data, and the store of the `Codable` baseline: resources of every type in
/// memory, in creation order, by id. The service itself copies the seed into its declared data
/// sources (``ExampleResources``); the baseline reads it and adds what it creates. Nothing is
/// removed, so a page is a slice.
final class ExampleStore: Sendable {
    /// The resources of one type: in creation order, and the position of each id.
    struct Table: Sendable {
        var resources: [JSONAPIResourceObject] = []
        var positions: [String: Int] = [:]
    }

    struct State: Sendable {
        var tables: [String: Table] = [:]
        var nextID = 1

        func resource(_ type: String, _ id: String) -> JSONAPIResourceObject? {
            guard let table = tables[type], let position = table.positions[id] else { return nil }
            return table.resources[position]
        }

        func all(_ type: String) -> [JSONAPIResourceObject] { tables[type]?.resources ?? [] }

        /// How many resources of `type` there are.
        func count(_ type: String) -> Int { tables[type]?.resources.count ?? 0 }

        /// Page `number` (from 1) of `size` resources of `type` in creation order, without copying
        /// the others; empty past the end (and for numbers whose offset does not fit an `Int`).
        func page(_ type: String, number: Int, size: Int) -> [JSONAPIResourceObject] {
            guard let table = tables[type], number >= 1, size >= 1 else { return [] }
            let (start, overflow) = (number - 1).multipliedReportingOverflow(by: size)
            guard !overflow, start < table.resources.count else { return [] }
            return Array(table.resources[start..<(start + min(size, table.resources.count - start))])
        }

        /// Adds `resource`, or replaces the one with its type and id where it stands.
        mutating func put(_ resource: JSONAPIResourceObject) {
            guard let id = resource.id else { return }
            if let position = tables[resource.type]?.positions[id] {
                tables[resource.type]?.resources[position] = resource
            } else {
                var table = tables.removeValue(forKey: resource.type) ?? Table()
                table.positions[id] = table.resources.count
                table.resources.append(resource)
                tables[resource.type] = table
            }
        }

        mutating func newID() -> String {
            defer { nextID += 1 }
            return "n\(nextID)"
        }
    }

    private let state: Locked<State>

    init(state: State) { self.state = Locked(state) }

    func read<Result>(_ body: (State) throws -> Result) rethrows -> Result {
        try state.withLock { try body($0) }
    }

    /// Runs `body` on the state itself, under the store's lock.
    func write<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock { try body(&$0) }
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
