import JSONAPI

/// The checks of the HTTP layer's entry points: the query parser, content negotiation and the
/// pagination links writer. Each reads what it needs from the input (the text to parse and,
/// through an ``InputPlan``, the rules, limits and supported extensions to parse it with).
enum HTTPChecks {
    // MARK: query

    /// `JSONAPIQuery(parsing:rules:options:)` under rules and limits chosen from the input: the
    /// same verdict twice; a refusal is a 400 with at least one problem, each with a detail and
    /// one error object; an accepted query writes (`queryString`) a query that parses back to
    /// an equal one, and its page is within the rules.
    static func query(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        let rules = plan.queryRules()
        var options = QueryOptions()
        if plan.flip() {
            options.maximumQueryBytes = plan.next(below: 2048)
            options.maximumParameters = 1 + plan.next(below: 12)
            options.maximumIncludePaths = 1 + plan.next(below: 4)
            options.maximumIncludeDepth = 1 + plan.next(below: 3)
            options.maximumSortFields = 1 + plan.next(below: 4)
            options.maximumFilterDepth = 1 + plan.next(below: 3)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let first = parse(text, rules: rules, options: options)
        let second = parse(text, rules: rules, options: options)
        guard first == second else { throw FuzzFailure("two parses of \(quoted(text)) differ: \(first) vs \(second)") }
        switch first {
        case .failure(let failure):
            if failure.problems.isEmpty { throw FuzzFailure("a refusal without problems for \(quoted(text))") }
            if failure.status != 400 { throw FuzzFailure("a refusal with status \(failure.status)") }
            if failure.problems.contains(where: { $0.detail.isEmpty }) {
                throw FuzzFailure("a problem without a detail: \(failure)")
            }
            if failure.jsonapiErrors.count != failure.problems.count {
                throw FuzzFailure("\(failure.problems.count) problems, \(failure.jsonapiErrors.count) error objects")
            }
        case .error(let description):
            throw FuzzFailure("\(quoted(text)): neither a query nor a query failure: \(description)")
        case .query(let query):
            try checkPage(query.page, rules: rules, text: text)
            // The canonical writing adds the page's defaults: parse it with room for them.
            var relaxed = options
            relaxed.maximumQueryBytes = QueryOptions.queryBytesCeiling
            relaxed.maximumParameters = Int.max
            let written = query.queryString
            switch parse(written, rules: rules, options: relaxed) {
            case .query(let again) where again == query: break
            case let other:
                throw FuzzFailure("\(quoted(text)) written as \(quoted(written)) parses to \(other), not \(query)")
            }
        }
    }

    /// What one parse gave, comparable.
    enum QueryOutcome: Equatable, CustomStringConvertible {
        case query(JSONAPIQuery)
        case failure(QueryFailure)
        case error(String)

        var description: String {
            switch self {
            case .query(let query): "query \(query.queryString)"
            case .failure(let failure): "failure \(failure)"
            case .error(let description): "error \(description)"
            }
        }
    }

    static func parse(_ text: String, rules: QueryRules, options: QueryOptions) -> QueryOutcome {
        do {
            return .query(try JSONAPIQuery(parsing: text, rules: rules, options: options))
        } catch let failure as QueryFailure {
            return .failure(failure)
        } catch {
            return .error(String(describing: error))
        }
    }

    private static func checkPage(_ page: JSONAPIQuery.Page?, rules: QueryRules, text: String) throws(FuzzFailure) {
        guard let pagination = rules.pagination else {
            if page != nil { throw FuzzFailure("a page without pagination: \(quoted(text))") }
            return
        }
        guard let page else { throw FuzzFailure("no page with pagination: \(quoted(text))") }
        guard (1...pagination.maximumSize).contains(page.size) else {
            throw FuzzFailure("page size \(page.size) outside 1...\(pagination.maximumSize): \(quoted(text))")
        }
        switch (page, pagination.strategy) {
        case (.number(let number, _), .pageNumber) where number >= 1: break
        case (.offset(let offset, _), .offset) where offset >= 0: break
        case (.cursor(let after, let before, _), .cursor):
            if after?.isEmpty == true || before?.isEmpty == true {
                throw FuzzFailure("an empty cursor accepted: \(quoted(text))")
            }
            if after != nil, before != nil, !pagination.allowsRangePagination {
                throw FuzzFailure("range pagination accepted without being allowed: \(quoted(text))")
            }
        default: throw FuzzFailure("page \(page) for strategy \(pagination.strategy): \(quoted(text))")
        }
    }

    // MARK: negotiation

    /// `checkContentType` and `negotiateAccept` on headers cut from the input (before and after
    /// its first newline), with supported extensions, profiles and the version chosen from it:
    /// a refusal is a 415 or a 406; an accepted media type has only supported extensions (and
    /// profiles, for `Accept`), no other parameter, and writes a header that parses back to it
    /// and negotiates to it again.
    static func negotiation(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
        let accept = newline < bytes.endIndex ? String(decoding: bytes[(newline + 1)...], as: UTF8.self) : nil
        let candidates = [AtomicOperations.extensionURI, "https://example.com/ext", "urn:a"]
        let extensions = Set(candidates.filter { _ in plan.flip() })
        let profiles = Set(["https://example.com/profile", "urn:b"].filter { _ in plan.flip() })
        let version: JSONAPINegotiation.SpecVersion = plan.flip() ? .v1_1 : .v1_0

        switch JSONAPINegotiation.checkContentType(contentType, supportedExtensions: extensions, version: version) {
        case .failure(let failure):
            if failure.status != 415 { throw FuzzFailure("Content-Type \(quoted(contentType)): \(failure)") }
        case .success(let type?):
            if !type.otherParameters.isEmpty || !type.unsupportedExtensions(extensions).isEmpty {
                throw FuzzFailure("Content-Type \(quoted(contentType)) accepted as \(type)")
            }
            if version == .v1_0, !type.hasNoParameters {
                throw FuzzFailure("Content-Type \(quoted(contentType)) accepted with parameters under 1.0")
            }
            try roundTrip(type, what: "Content-Type \(quoted(contentType))")
        case .success(nil): break
        }
        if let parsed = JSONAPIMediaType(parsing: contentType), parsed.otherParameters.isEmpty {
            try roundTrip(parsed, what: "the media type \(quoted(contentType))")
        }

        let negotiated = JSONAPINegotiation.negotiateAccept(
            accept, supportedExtensions: extensions, supportedProfiles: profiles, version: version)
        switch negotiated {
        case .failure(let failure):
            if failure.status != 406 { throw FuzzFailure("Accept \(quoted(accept ?? "")): \(failure)") }
        case .success(let type):
            if !type.otherParameters.isEmpty || !type.unsupportedExtensions(extensions).isEmpty
                || !Set(type.profiles).isSubset(of: profiles)
            {
                throw FuzzFailure("Accept \(quoted(accept ?? "")) negotiated to \(type)")
            }
            try roundTrip(type, what: "Accept \(quoted(accept ?? ""))")
            let again = JSONAPINegotiation.negotiateAccept(
                type.description, supportedExtensions: extensions, supportedProfiles: profiles, version: .v1_1)
            guard case .success(type) = again else {
                throw FuzzFailure("Accept \(quoted(accept ?? "")) gave \(type), which negotiates to \(again)")
            }
        }
    }

    /// `type` written as a header parses back to `type`.
    private static func roundTrip(_ type: JSONAPIMediaType, what: String) throws(FuzzFailure) {
        let written = type.description
        guard let again = JSONAPIMediaType(parsing: written), again == type else {
            throw FuzzFailure("\(what): \(type) written as \(quoted(written)) does not parse back")
        }
    }

    // MARK: links

    /// `Page.links(forRequest:result:)` for a request target made of the input and a page and
    /// result chosen from it: `self` is the target without its fragment; every other link keeps
    /// the target's path and every query piece it does not replace, in order, and carries one
    /// locator of the page; the links, written into a document by `JSONWriter`, parse back
    /// (leniently: the target need not be a valid URI) to the same hrefs.
    static func links(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        let target = String(decoding: bytes, as: UTF8.self)
        let page = plan.page(from: bytes)
        let result = plan.pageResult(from: bytes)
        let links = page.links(forRequest: target, result: result)

        let withoutFragment = String(decoding: Array(target.utf8).prefix { $0 != UInt8(ascii: "#") }, as: UTF8.self)
        guard links["self"]?.href == withoutFragment else {
            throw FuzzFailure("self \(quoted(links["self"]?.href ?? "none")) for \(quoted(target))")
        }
        let (prefix, pieces) = split(withoutFragment)
        // What a link's locator is written as: its name percent-encoded. Every piece of the
        // target whose name decodes to a locator is replaced, so these are the link's own.
        let locators: [String]
        switch page {
        case .number: locators = ["page%5Bnumber%5D="]
        case .offset: locators = ["page%5Boffset%5D="]
        case .cursor: locators = ["page%5Bafter%5D=", "page%5Bbefore%5D="]
        }
        for member in links.members where member.key != "self" {
            let name = member.key
            let link = member.value
            let (linkPrefix, linkPieces) = split(link.href)
            guard linkPrefix == prefix else {
                throw FuzzFailure("\(name) \(quoted(link.href)) has another path than \(quoted(target))")
            }
            let generated = linkPieces.filter { piece in locators.contains { piece.hasPrefix($0) } }
            let kept = linkPieces.filter { piece in !locators.contains { piece.hasPrefix($0) } }
            guard isSubsequence(kept, of: pieces) else {
                throw FuzzFailure("\(name) \(quoted(link.href)) reorders or changes the pieces of \(quoted(target))")
            }
            if !isCursor(page) {
                let values = generated.map { $0.dropFirst(locators[0].count) }
                guard values.count == 1, let value = values.first, let number = Int(value), number >= 0 else {
                    throw FuzzFailure("\(name) \(quoted(link.href)): not one decimal locator")
                }
            } else if generated.count > 1 {
                throw FuzzFailure("\(name) \(quoted(link.href)): more than one cursor")
            }
        }

        var writer = JSONWriter()
        writer.beginObject()
        writer.key("meta")
        writer.beginObject()
        writer.endObject()
        writer.key("links")
        links.write(to: &writer)
        writer.endObject()
        let written: [UInt8]
        do { written = try writer.finish() } catch { throw FuzzFailure("the links do not write: \(error)") }
        let document: Document
        do {
            document = try Document(parsing: written, options: ParsingOptions(kind: .response, lenient: true))
        } catch {
            throw FuzzFailure("the written links do not parse: \(error): \(String(decoding: written, as: UTF8.self))")
        }
        let read = (document.links.map { Array($0) } ?? []).map { ($0.name, $0.link.href) }
        let expected = links.members.map { ($0.key, $0.value.href) }
        guard read.map(\.0) == expected.map(\.0), read.map(\.1) == expected.map(\.1) else {
            throw FuzzFailure("links \(expected) written and read back as \(read)")
        }
    }

    private static func isCursor(_ page: JSONAPIQuery.Page) -> Bool {
        if case .cursor = page { return true }
        return false
    }

    /// The part of a URL before `?`, and the `&`-separated pieces after it (none empty).
    private static func split(_ url: String) -> (prefix: String, pieces: [String]) {
        let bytes = Array(url.utf8)
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (url, []) }
        let pieces = bytes[(question + 1)...].split(separator: UInt8(ascii: "&")).map {
            String(decoding: $0, as: UTF8.self)
        }
        return (String(decoding: bytes[..<question], as: UTF8.self), pieces)
    }

    private static func isSubsequence(_ small: [String], of large: [String]) -> Bool {
        var index = large.startIndex
        for item in small {
            guard let found = large[index...].firstIndex(of: item) else { return false }
            index = found + 1
        }
        return true
    }

    private static func quoted(_ text: String) -> String { "\"" + String(text.prefix(300)) + "\"" }
}

extension InputPlan {
    /// Query rules with each family unsupported, open or limited to a few names, and a
    /// pagination strategy, as the input decides.
    mutating func queryRules() -> QueryRules {
        let allowed: [QueryRules.Allowed] = [.unsupported, .any, ["author", "comments.author", "title", "x-y"]]
        var rules = QueryRules()
        rules.includePaths = allowed[next(below: 3)]
        rules.sortFields = allowed[next(below: 3)]
        rules.customParameters = allowed[next(below: 3)]
        let fieldsets: [QueryRules.Fieldsets] = [.unsupported, .any, ["articles": ["title", "author"], "people": []]]
        rules.fieldsets = fieldsets[next(below: 3)]
        let maximum = 1 + next(below: 200)
        let size = 1 + next(below: maximum)
        switch next(below: 4) {
        case 0: rules.pagination = nil
        case 1: rules.pagination = .pages(defaultSize: size, maximumSize: maximum)
        case 2: rules.pagination = .offsets(defaultLimit: size, maximumLimit: maximum)
        default:
            rules.pagination = .cursors(defaultSize: size, maximumSize: maximum, allowsRangePagination: flip())
        }
        switch next(below: 3) {
        case 0: rules.filter = nil
        case 1: rules.filter = { _ in }
        default:
            rules.filter = { filter throws(QueryFailure) in
                for entry in filter where entry.path != ["status"] {
                    throw QueryFailure(.invalidFilter(entry, detail: "only filter[status] is supported"))
                }
            }
        }
        if flip() { rules.extensionNamespaces = ["ext"] }
        return rules
    }

    /// A page of any strategy, numbers near the limits of `Int` among others; cursors cut from
    /// `bytes`.
    mutating func page(from bytes: [UInt8]) -> JSONAPIQuery.Page {
        let size = [1, 2, 10, 100, Int.max][next(below: 5)]
        switch next(below: 3) {
        case 0: return .number([1, 2, 3, 7, Int.max - 1, Int.max][next(below: 6)], size: size)
        case 1: return .offset([0, 1, 9, 10, Int.max - 1, Int.max][next(below: 6)], limit: size)
        default:
            return .cursor(
                after: flip() ? cursor(from: bytes) : nil, before: flip() ? cursor(from: bytes) : nil, size: size)
        }
    }

    /// A page result: a total (sometimes 0 or negative), or what a cursor page knows.
    mutating func pageResult(from bytes: [UInt8]) -> PageResult {
        let known: [Bool?] = [nil, true, false]
        switch next(below: 3) {
        case 0: return .total([0, 1, 9, 10, 11, 100, -1, Int.max][next(below: 8)])
        case 1:
            return PageResult(hasNextPage: known[next(below: 3)], hasPreviousPage: known[next(below: 3)])
        default:
            return .cursors(
                first: flip() ? cursor(from: bytes) : nil, last: flip() ? cursor(from: bytes) : nil,
                hasPrevious: known[next(below: 3)], hasNext: known[next(below: 3)])
        }
    }

    /// A slice of `bytes` as text (empty for empty input).
    private mutating func cursor(from bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "" }
        let start = next(below: bytes.count)
        let length = next(below: min(64, bytes.count - start) + 1)
        return String(decoding: bytes[start..<(start + length)], as: UTF8.self)
    }
}
