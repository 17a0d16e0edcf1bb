import JSONAPI
import PropertyBased
import Testing

/// Properties over generated input: building then parsing gives back the query, and parsing any
/// text either succeeds or fails with a ``QueryFailure``, never anything worse.
@Suite("Query: properties")
struct QueryPropertyTests {
    /// A small deterministic generator, so that a seed replays a whole query.
    struct Random {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }

        mutating func bool() -> Bool { next() & 1 == 0 }

        mutating func element<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
    }

    /// Legal member names, including the unusual ones (space, non-ASCII, `-`, `_`).
    static let names = ["a", "title", "x1", "author", "first name", "ünï", "a-b", "a_b", "Zed", "日本", "9", "comments"]
    /// Characters that stress encoding: every delimiter of a query, `%`, `+`, non-ASCII, controls.
    static let characters: [String] = [
        "a", "Z", "0", " ", "+", "%", "&", "=", "#", "?", "/", ",", ":", "@", "[", "]", ".", "-", "é", "😀",
        "\u{0}", "\n", "~", "*", "'", "\"", "\u{301}", "%41", "\\",
    ]
    /// Names of implementation-specific parameters (a character outside a-z in each).
    static let customNames = ["myParam", "x-y", "Z", "a1", "with_drafts", "Ünï"]

    static func text(_ random: inout Random, _ count: ClosedRange<Int>) -> String {
        (0..<random.int(count)).map { _ in random.element(characters) }.joined()
    }

    static func path(_ random: inout Random, depth: ClosedRange<Int>) -> String {
        (0..<random.int(depth)).map { _ in random.element(names) }.joined(separator: ".")
    }

    static func query(seed: UInt64) -> (JSONAPIQuery, QueryRules) {
        var random = Random(state: seed)
        var query = JSONAPIQuery()
        if random.bool() { query.include = (0..<random.int(0...3)).map { _ in path(&random, depth: 1...3) } }
        for _ in 0..<random.int(0...3) {
            query.fields[random.element(names)] = Set((0..<random.int(0...3)).map { _ in random.element(names) })
        }
        query.sort = (0..<random.int(0...3)).map { _ in
            JSONAPIQuery.SortField(path(&random, depth: 1...2), descending: random.bool())
        }
        let pagination: QueryRules.Pagination?
        switch random.int(0...3) {
        case 0:
            pagination = .pages(defaultSize: 10, maximumSize: 100)
            query.page = .number(random.int(1...10_000), size: random.int(1...100))
        case 1:
            pagination = .offsets(defaultLimit: 10, maximumLimit: 100)
            query.page = .offset(random.int(0...1_000_000), limit: random.int(1...100))
        case 2:
            pagination = .cursors(defaultSize: 10, maximumSize: 100, allowsRangePagination: true)
            query.page = .cursor(
                after: random.bool() ? text(&random, 1...8) : nil, before: random.bool() ? text(&random, 1...8) : nil,
                size: random.int(1...100))
        default:
            pagination = nil
        }
        for _ in 0..<random.int(0...4) {
            let segments = (0..<random.int(0...3)).map { _ in random.bool() ? "" : path(&random, depth: 1...2) }
            query.filter.entries.append(.init(path: segments, value: text(&random, 0...6)))
        }
        for _ in 0..<random.int(0...3) {
            var name = random.bool() ? random.element(customNames) : "version:" + random.element(["at", "id"])
            for _ in 0..<random.int(0...2) { name += "[" + (random.bool() ? "" : random.element(names)) + "]" }
            query.parameters.append(.init(name: name, value: text(&random, 0...6)))
        }
        return (query, permissiveQueryRules(pagination: pagination))
    }

    @Test func buildThenParseGivesBackTheQuery() async {
        await propertyCheck(count: 1_000, input: Gen<UInt64>.value()) { seed in
            let (query, rules) = Self.query(seed: seed)
            let text = query.queryString
            #expect(text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }, "\(text)")
            do {
                let parsed = try JSONAPIQuery(parsing: text, rules: rules)
                #expect(parsed == query, "\(text)")
                #expect(parsed.queryString == text)
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }

    /// Random bytes, each written raw (when printable ASCII) or percent-encoded, with query syntax,
    /// the families' names and whole UTF-8 characters mixed in. Half the seeds also mix in
    /// malformed escapes and stray bytes; the other half stay clean, so that parsing gets past
    /// decoding into the families.
    static func garbage(seed: UInt64) -> String {
        var random = Random(state: seed)
        if seed % 3 == 2 { return structuredGarbage(&random) }
        let isClean = seed & 1 == 0
        var syntax = [
            "&", "=", "=", "&", "[", "]", "[]", "%5B", "%5D", "+", ".", ",", "-", "_", ":", "filter", "page",
            "include", "fields", "sort", "size", "number", "after", "x1", "Ab", "version:at", "0", "7",
        ]
        if !isClean { syntax += ["%", "%2", "%%", "%C3", "%FF"] }
        var text = ""
        for _ in 0..<random.int(0...60) {
            switch random.int(0...9) {
            case 0...3: text += random.element(syntax)
            case 4: text += random.element(["é", "日", "😀", "\u{301}"]).addingPercentEncodingOfEveryByte()
            default:
                let byte: UInt8 =
                    !isClean && random.int(0...9) == 0
                    ? UInt8(truncatingIfNeeded: random.next()) : UInt8(random.int(0x20...0x7E))
                if byte >= 0x21 && byte < 0x7F && byte != UInt8(ascii: "#") && random.bool() {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    text += [byte].percentEncoded(uppercase: random.bool())
                }
            }
        }
        return text
    }

    /// Parameters of the families and their neighbours, with names and values drawn from the
    /// values each family takes and a few it refuses.
    static func structuredGarbage(_ random: inout Random) -> String {
        let bases = [
            "include", "fields", "sort", "page", "filter", "foo", "myParam", "version:at", "_x", "fields[", "page]",
        ]
        let groups = ["", "a", "size", "number", "offset", "limit", "after", "before", "a.b", "_", "x y", "é"]
        let values = [
            "a", "b.c", ",", "-", "1", "0", "100", "-1", "99999999999999999999", "", ".", "%2C", "+", "é", "%5B",
        ]
        return (0..<random.int(0...8)).map { _ in
            var name = random.element(bases)
            for _ in 0..<random.int(0...3) { name += "[" + random.element(groups) + "]" }
            if random.bool() { name = name.replacing("[", with: "%5B").replacing("]", with: "%5d") }
            let value = (0..<random.int(0...5)).map { _ in random.element(values) }.joined()
            return random.int(0...5) == 0 ? name : name + "=" + value
        }.joined(separator: "&")
    }

    @Test func parsingGarbageNeverCrashes() async {
        let rulesByStrategy: [QueryRules] = [
            permissiveQueryRules(), permissiveQueryRules(pagination: .cursors(maximumSize: 50)),
            permissiveQueryRules(pagination: .offsets()), QueryRules(),
        ]
        await propertyCheck(count: 2_000, input: Gen<UInt64>.value()) { seed in
            let text = Self.garbage(seed: seed)
            let rules = rulesByStrategy[Int(seed % UInt64(rulesByStrategy.count))]
            do {
                let query = try JSONAPIQuery(parsing: text, rules: rules)
                // What was accepted builds to a query that parses to the same thing.
                #expect(try JSONAPIQuery(parsing: query.queryString, rules: rules) == query, "\(text)")
            } catch let failure as QueryFailure {
                #expect(!failure.problems.isEmpty)
                #expect(failure.jsonapiErrors.allSatisfy { $0.status == "400" })
            } catch {
                Issue.record("\(text): unexpected \(error)")
            }
        }
    }

    /// Links built for any page of any request parse back to that page, with the request's
    /// other parameters unchanged.
    @Test func linksKeepEveryOtherParameter() async {
        await propertyCheck(count: 500, input: Gen<UInt64>.value()) { seed in
            var (query, rules) = Self.query(seed: seed)
            guard let page = query.page else { return }
            var random = Random(state: seed ^ 0x5EED)
            let target = "/things?" + query.queryString
            let result: PageResult
            if case .cursor = page {
                result = .cursors(first: Self.text(&random, 1...5), last: Self.text(&random, 1...5))
            } else {
                result = .total(random.int(0...2_000_000))
            }
            let links = page.links(forRequest: target, result: result)
            #expect(links["self"]?.href == target)
            query.page = nil
            for link in links where link.key != "self" {
                let parts = link.value.href.split(separator: "?", maxSplits: 1)
                let text = parts.count == 2 ? String(parts[1]) : ""
                do {
                    var linked = try JSONAPIQuery(parsing: text, rules: rules)
                    linked.page = nil
                    #expect(linked == query, "\(link.key): \(link.value.href)")
                } catch {
                    Issue.record("\(link.key): \(link.value.href): \(error)")
                }
            }
        }
    }
}

extension String {
    fileprivate func addingPercentEncodingOfEveryByte() -> String { Array(utf8).percentEncoded(uppercase: true) }
}

extension [UInt8] {
    fileprivate func percentEncoded(uppercase: Bool) -> String {
        map { byte in
            let hex = String(byte, radix: 16, uppercase: uppercase)
            return "%" + (hex.count == 1 ? "0" + hex : hex)
        }.joined()
    }
}
