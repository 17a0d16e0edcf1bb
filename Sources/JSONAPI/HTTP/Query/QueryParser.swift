/// Reads a query string into a ``JSONAPIQuery``, collecting every problem on the way.
///
/// One pass over the bytes: each `&`-separated piece is split at its first `=`, its name and
/// value decoded (``QueryPercentEncoding``), the name taken apart (``QueryParameterName``) and
/// handed to the reader of its family. Nothing recurses, and every list the parser builds is
/// bounded by a limit of ``QueryOptions`` or by the length of the query.
struct QueryParser {
    let rules: QueryRules
    let options: QueryOptions
    var query = JSONAPIQuery()
    var problems: [QueryProblem] = []
    /// Whether `include` and `sort` have been seen: each may appear once.
    var seenInclude = false
    var seenSort = false
    /// The types of the `fields[TYPE]` parameters seen so far: each may appear once.
    var seenFieldsets: Set<String> = []
    /// The `page` parameters seen so far (bits by ``pageKeys`` position): each may appear once.
    var seenPage: UInt8 = 0
    /// The `page` values read so far.
    var pageNumber: Int?
    var pageOffset: Int?
    var pageSize: Int?
    var pageAfter: String?
    var pageBefore: String?
    /// The base names of the parameters read, when only those are wanted.
    var families: Set<String> = []
    /// Whether only ``families`` is wanted: each parameter stops once its base name is known.
    var familiesOnly = false

    /// The names inside the brackets of every `page` parameter of every strategy.
    static let pageKeys = ["number", "size", "offset", "limit", "after", "before"]

    init(rules: QueryRules, options: QueryOptions) {
        self.rules = rules
        self.options = options
    }

    /// The query, or every problem found.
    func finish() -> Result<JSONAPIQuery, QueryFailure> {
        problems.isEmpty ? .success(query) : .failure(QueryFailure(problems))
    }

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= options.maximumQueryBytes else {
            problems.append(
                QueryProblem(
                    code: .queryTooLong, parameter: nil,
                    detail: "the query string is \(bytes.count) bytes long; the limit is \(options.maximumQueryBytes)"))
            return
        }
        let start = unsafe bytes.first == UInt8(ascii: "?") ? 1 : 0
        let ampersand = UInt8(ascii: "&")

        // Counting first keeps an over-long list from being decoded at all.
        var count = 0
        var pieceStart = start
        for index in start...bytes.count where unsafe index == bytes.count || bytes[index] == ampersand {
            if index > pieceStart { count += 1 }
            pieceStart = index + 1
        }
        guard count <= options.maximumParameters else {
            problems.append(
                QueryProblem(
                    code: .tooManyParameters, parameter: nil,
                    detail: "the query has \(count) parameters; the limit is \(options.maximumParameters)"))
            return
        }

        pieceStart = start
        for index in start...bytes.count where unsafe index == bytes.count || bytes[index] == ampersand {
            if index > pieceStart { unsafe readPiece(bytes, pieceStart..<index) }
            pieceStart = index + 1
        }
        finishPage()
        finishFilter()
    }

    /// Decodes one `name=value` piece and hands it to its family's reader.
    private mutating func readPiece(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var equals = range.upperBound
        for index in range where unsafe bytes[index] == UInt8(ascii: "=") {
            equals = index
            break
        }
        let nameRange = range.lowerBound..<equals
        let valueRange = equals < range.upperBound ? equals + 1..<range.upperBound : range.upperBound..<range.upperBound

        let name: String
        switch unsafe QueryPercentEncoding.decode(bytes, nameRange) {
        case .success(let decoded):
            name = decoded
        case .failure(let failure):
            // The name cannot be decoded, so it is named as written.
            let written = unsafe String(decoding: bytes[nameRange], as: UTF8.self)
            report(failure, in: "the parameter name", parameter: written)
            return
        }
        let value: String
        switch unsafe QueryPercentEncoding.decode(bytes, valueRange) {
        case .success(let decoded):
            value = decoded
        case .failure(let failure):
            report(failure, in: "the value", parameter: name)
            return
        }
        read(name: name, value: value)
    }

    private mutating func report(_ failure: QueryPercentEncoding.Failure, in part: String, parameter: String) {
        switch failure {
        case .invalidPercentEncoding(let offset):
            problem(
                .invalidPercentEncoding, parameter,
                "\(part) has a `%` at byte \(offset) that is not followed by two hexadecimal digits")
        case .invalidUTF8:
            problem(.invalidUTF8, parameter, "\(part) does not decode to UTF-8 text")
        }
    }

    private mutating func problem(
        _ code: QueryProblem.Code, _ parameter: String, _ detail: String, meta: JSON.Object? = nil,
        typeLink: String? = nil
    ) {
        problems.append(QueryProblem(code: code, parameter: parameter, detail: detail, meta: meta, typeLink: typeLink))
    }

    /// Sorts a decoded parameter by the owner of its base name.
    mutating func read(name: String, value: String) {
        guard let parts = QueryParameterName(splitting: name) else {
            problem(
                .invalidParameterName, name,
                "\(quoted(name)) is not a query parameter name: a base name followed by bracketed member names")
            return
        }
        let base = parts.base
        if familiesOnly {
            families.insert(base)
            return
        }
        if QueryParameterName.isReserved(base) {
            switch base {
            case "include": readInclude(name, parts, value)
            case "fields": readFields(name, parts, value)
            case "sort": readSort(name, parts, value)
            case "page": readPage(name, parts, value)
            case "filter": readFilter(name, parts, value)
            default:
                problem(
                    .unsupportedParameter, name,
                    "\(quoted(base)) is reserved by JSON:API (its name is all a-z) and not supported; an "
                        + "implementation-specific parameter needs a character outside a-z, such as a capital letter")
            }
            return
        }
        if let namespace = QueryParameterName.extensionNamespace(base) {
            guard checkGroups(name, parts) else { return }
            guard rules.extensionNamespaces.contains(namespace) else {
                problem(
                    .unsupportedParameter, name,
                    "\(quoted(name)) belongs to an extension (namespace \(quoted(namespace))) this endpoint does not support"
                )
                return
            }
            query.parameters.append(JSONAPIQuery.Parameter(name: name, value: value))
            return
        }
        if let why = QueryParameterName.memberNameProblem(base) {
            problem(
                .invalidParameterName, name,
                "\(quoted(base)) is not a legal parameter name (\(why)); implementation-specific parameters are "
                    + "member names with a character outside a-z, extension parameters `namespace:name`")
            return
        }
        guard checkGroups(name, parts) else { return }
        guard rules.customParameters.allows(base) else {
            problem(.unsupportedParameter, name, "this endpoint does not support the parameter \(quoted(base))")
            return
        }
        query.parameters.append(JSONAPIQuery.Parameter(name: name, value: value))
    }

    /// Checks that every bracket holds nothing, a member name or a dotted list of them.
    private mutating func checkGroups(_ name: String, _ parts: QueryParameterName) -> Bool {
        for group in parts.groups {
            if let why = QueryParameterName.groupProblem(group) {
                problem(
                    .invalidParameterName, name,
                    "\(quoted("[" + group + "]")) in \(quoted(name)) must hold nothing, a member name or "
                        + "dot-separated member names (\(why))")
                return false
            }
        }
        return true
    }

    /// Records a parameter that may appear once (`seen` says whether it appeared before); false
    /// (and a problem) when it did.
    private mutating func firstOccurrence(_ name: String, seen: Bool) -> Bool {
        guard !seen else {
            problem(.repeatedParameter, name, "\(quoted(name)) may appear only once")
            return false
        }
        return true
    }

    // MARK: - include

    private mutating func readInclude(_ name: String, _ parts: QueryParameterName, _ value: String) {
        guard rules.includePaths != .unsupported else {
            problem(.unsupportedParameter, name, "this endpoint does not support `include`")
            return
        }
        guard parts.groups.isEmpty else {
            problem(.unsupportedParameter, name, "`include` takes no brackets")
            return
        }
        guard firstOccurrence(name, seen: seenInclude) else { return }
        seenInclude = true
        if value.isEmpty {
            query.include = []
            return
        }
        let commas = value.utf8.count(where: { $0 == UInt8(ascii: ",") })
        guard commas < options.maximumIncludePaths else {
            problem(
                .tooManyIncludePaths, name,
                "`include` lists \(commas + 1) paths; the limit is \(options.maximumIncludePaths)")
            return
        }
        var paths: [String] = []
        var tooDeep: [String] = []
        var malformed: [String] = []
        var unsupported: [String] = []
        for path in QueryParameterName.split(value, at: UInt8(ascii: ",")) {
            let depth = path.utf8.count(where: { $0 == UInt8(ascii: ".") }) + 1
            if depth > options.maximumIncludeDepth {
                tooDeep.append(path)
            } else if path.isEmpty || QueryParameterName.pathProblem(path) != nil {
                malformed.append(path)
            } else if !includeAllows(path) {
                unsupported.append(path)
            } else {
                paths.append(path)
            }
        }
        if !tooDeep.isEmpty {
            problem(
                .includeTooDeep, name,
                "\(list(tooDeep)) \(tooDeep.count == 1 ? "is" : "are") deeper than \(options.maximumIncludeDepth) "
                    + "relationships")
        }
        if !malformed.isEmpty {
            problem(
                .invalidInclude, name,
                "\(list(malformed)) \(malformed.count == 1 ? "is not a relationship path" : "are not relationship paths")"
                    + " (relationship names separated by `.`, paths by `,`)")
        }
        if !unsupported.isEmpty {
            problem(
                .unsupportedInclude, name,
                "this endpoint cannot include \(list(unsupported))" + supported(rules.includePaths))
        }
        query.include = paths
    }

    private func includeAllows(_ path: String) -> Bool {
        switch rules.includePaths {
        case .unsupported: false
        case .any: true
        case .only: rules.includeClosure?.contains(path) ?? false
        }
    }

    // MARK: - fields

    private mutating func readFields(_ name: String, _ parts: QueryParameterName, _ value: String) {
        let allowed: [String: Set<String>]?
        switch rules.fieldsets {
        case .unsupported:
            problem(.unsupportedParameter, name, "this endpoint does not support sparse fieldsets")
            return
        case .any: allowed = nil
        case .only(let types): allowed = types
        }
        guard parts.groups.count == 1, let type = parts.groups.first, !type.isEmpty,
            QueryParameterName.memberNameProblem(type) == nil
        else {
            problem(.unsupportedParameter, name, "a sparse fieldset is written `fields[TYPE]`, with one type")
            return
        }
        guard firstOccurrence(name, seen: !seenFieldsets.insert(type).inserted) else { return }
        if let allowed, allowed[type] == nil {
            problem(.unsupportedFieldset, name, "this endpoint has no resources of type \(quoted(type))")
            return
        }
        var fields: Set<String> = []
        if !value.isEmpty {
            var malformed: [String] = []
            var unknown: [String] = []
            for field in QueryParameterName.split(value, at: UInt8(ascii: ",")) {
                if QueryParameterName.memberNameProblem(field) != nil {
                    malformed.append(field)
                } else if let known = allowed?[type], !known.contains(field) {
                    unknown.append(field)
                } else {
                    fields.insert(field)
                }
            }
            if !malformed.isEmpty {
                problem(
                    .invalidFieldset, name,
                    "\(list(malformed)) \(malformed.count == 1 ? "is not a field name" : "are not field names")"
                        + " (member names separated by `,`)")
            }
            if !unknown.isEmpty {
                problem(
                    .unsupportedFieldset, name,
                    "resources of type \(quoted(type)) have no field\(unknown.count == 1 ? "" : "s") \(list(unknown))")
            }
        }
        query.fields[type] = fields
    }

    // MARK: - sort

    private mutating func readSort(_ name: String, _ parts: QueryParameterName, _ value: String) {
        guard rules.sortFields != .unsupported else {
            problem(.unsupportedParameter, name, "this endpoint does not support sorting")
            return
        }
        guard parts.groups.isEmpty else {
            problem(.unsupportedParameter, name, "`sort` takes no brackets")
            return
        }
        guard firstOccurrence(name, seen: seenSort) else { return }
        seenSort = true
        guard !value.isEmpty else {
            problem(.invalidSort, name, "`sort` needs at least one sort field")
            return
        }
        let commas = value.utf8.count(where: { $0 == UInt8(ascii: ",") })
        guard commas < options.maximumSortFields else {
            problem(
                .tooManySortFields, name,
                "`sort` lists \(commas + 1) fields; the limit is \(options.maximumSortFields)")
            return
        }
        var fields: [JSONAPIQuery.SortField] = []
        var malformed: [String] = []
        var unsupported: [String] = []
        for item in QueryParameterName.split(value, at: UInt8(ascii: ",")) {
            let field = JSONAPIQuery.SortField(stringLiteral: item)
            if field.name.isEmpty || QueryParameterName.pathProblem(field.name) != nil {
                malformed.append(item)
            } else if !rules.sortFields.allows(field.name) {
                unsupported.append(field.name)
            } else {
                fields.append(field)
            }
        }
        if !malformed.isEmpty {
            problem(
                .invalidSort, name,
                "\(list(malformed)) \(malformed.count == 1 ? "is not a sort field" : "are not sort fields")"
                    + " (a field name, dotted for a related resource's field, with `-` for descending order)")
        }
        if !unsupported.isEmpty {
            problem(
                .unsupportedSort, name,
                "this endpoint cannot sort by \(list(unsupported))" + supported(rules.sortFields))
        }
        query.sort = fields
    }

    // MARK: - page

    private mutating func readPage(_ name: String, _ parts: QueryParameterName, _ value: String) {
        guard let pagination = rules.pagination else {
            problem(.unsupportedParameter, name, "this endpoint does not paginate")
            return
        }
        let known = pagination.parameterNames
        guard parts.groups.count == 1, let key = parts.groups.first, known.contains(key) else {
            problem(
                .unsupportedParameter, name,
                "this endpoint's pagination uses " + known.map { "`page[\($0)]`" }.joined(separator: ", "))
            return
        }
        let bit = UInt8(1) << (Self.pageKeys.firstIndex(of: key) ?? 7)
        guard firstOccurrence(name, seen: seenPage & bit != 0) else { return }
        seenPage |= bit
        let isCursor = pagination.strategy == .cursor
        switch key {
        case "after", "before":
            guard !value.isEmpty else {
                problem(.invalidPageValue, name, "\(quoted(name)) must be a cursor, not empty")
                return
            }
            if key == "after" { pageAfter = value } else { pageBefore = value }
        default:
            let minimum = key == "offset" ? 0 : 1
            let number = Self.decimal(value)
            // Digits too many for an `Int` are over any maximum too, not malformed.
            let isTooLarge = number.map { $0 > pagination.maximumSize } ?? Self.isDigits(value)
            if key == "size" || key == "limit", isTooLarge {
                problem(
                    .maxSizeExceeded, name,
                    "\(quoted(name)) is \(quoted(value)), but \(pagination.maximumSize) is the maximum",
                    meta: ["page": ["maxSize": JSON(pagination.maximumSize)]],
                    typeLink: isCursor ? QueryRules.Pagination.cursorProfileURI + "/max-size-exceeded" : nil)
                return
            }
            guard let number, number >= minimum else {
                let kind = minimum == 0 ? "a non-negative integer" : "a positive integer"
                problem(
                    .invalidPageValue, name, "\(quoted(name)) must be \(kind) (decimal digits); got \(quoted(value))")
                return
            }
            switch key {
            case "number": pageNumber = number
            case "offset": pageOffset = number
            default: pageSize = number  // size or limit: a strategy has one of them
            }
        }
    }

    /// Fills in the defaults of the endpoint's pagination.
    private mutating func finishPage() {
        guard let pagination = rules.pagination else { return }
        switch pagination.strategy {
        case .pageNumber:
            query.page = .number(pageNumber ?? 1, size: pageSize ?? pagination.defaultSize)
        case .offset:
            query.page = .offset(pageOffset ?? 0, limit: pageSize ?? pagination.defaultSize)
        case .cursor:
            let after = pageAfter
            let before = pageBefore
            let isRange = after != nil && before != nil
            if isRange && !pagination.allowsRangePagination {
                problem(
                    .rangePaginationNotSupported, "page[before]",
                    "this endpoint does not support `page[after]` and `page[before]` together",
                    typeLink: QueryRules.Pagination.cursorProfileURI + "/range-pagination-not-supported")
            }
            // The profile: a range request without a size uses the maximum page size.
            let size = pageSize ?? (isRange ? pagination.maximumSize : pagination.defaultSize)
            query.page = .cursor(after: after, before: before, size: size)
        }
    }

    /// `^[0-9]+$` as an `Int`; nil for anything else, or for a number too large for `Int`.
    static func decimal(_ text: String) -> Int? {
        guard isDigits(text) else { return nil }
        var result = 0
        for byte in text.utf8 {
            let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            result = sum
        }
        return result
    }

    static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    // MARK: - filter

    private mutating func readFilter(_ name: String, _ parts: QueryParameterName, _ value: String) {
        guard rules.filter != nil else {
            problem(.unsupportedParameter, name, "this endpoint does not support filtering")
            return
        }
        guard parts.groups.count <= options.maximumFilterDepth else {
            problem(
                .filterTooDeep, name,
                "\(quoted(name)) nests \(parts.groups.count) brackets; the limit is \(options.maximumFilterDepth)")
            return
        }
        guard checkGroups(name, parts) else { return }
        query.filter.entries.append(JSONAPIQuery.Filter.Entry(path: parts.groups, value: value))
    }

    /// Runs the endpoint's filter rule over the filter, once, when there is one.
    private mutating func finishFilter() {
        guard let rule = rules.filter, !query.filter.isEmpty else { return }
        do throws(QueryFailure) {
            try rule(query.filter)
        } catch {
            problems.append(contentsOf: error.problems)
            if error.problems.isEmpty {
                problems.append(
                    QueryProblem(code: .invalidFilter, parameter: "filter", detail: "the filter is refused"))
            }
        }
    }

    // MARK: - Text of details

    /// The most of a client's text a detail repeats, so a hostile query cannot make its error
    /// document much larger than itself.
    static let quotedLimit = 64

    private func quoted(_ text: some StringProtocol) -> String {
        text.count <= Self.quotedLimit ? "`\(text)`" : "`\(text.prefix(Self.quotedLimit))…`"
    }

    /// `a`, `b` and `c` (the first few, then how many more).
    private func list(_ items: [String]) -> String {
        let shown = items.prefix(5).map { quoted($0) }
        if items.count > shown.count {
            return shown.joined(separator: ", ") + " and \(items.count - shown.count) more"
        }
        guard shown.count > 1 else { return shown.joined() }
        return shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
    }

    /// `; it supports a, b` for a short list of allowed names, else nothing.
    private func supported(_ allowed: QueryRules.Allowed) -> String {
        guard case .only(let names) = allowed, !names.isEmpty, names.count <= 20 else { return "" }
        let sorted = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return " (it supports " + sorted.map { "`\($0)`" }.joined(separator: ", ") + ")"
    }
}
