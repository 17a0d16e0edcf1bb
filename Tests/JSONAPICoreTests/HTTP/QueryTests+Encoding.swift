import JSONAPI
import Testing

/// Percent-encoding in both directions, `+`, limits, and the canonical query string.
@Suite("Query: percent-encoding, limits and building")
struct QueryEncodingTests {
    // MARK: - Decoding

    @Test func namesAndValuesArePercentDecoded() throws {
        let query = try JSONAPIQuery(
            parsing: "filter%5Btitle%5D=caf%C3%A9%20%26%20cr%C3%A8me&filter[x]=a%3Db%2Cc&filter[y]=a=b",
            rules: permissiveQueryRules())
        #expect(query.filter.value(at: "title") == "café & crème")
        #expect(query.filter.value(at: "x") == "a=b,c")
        #expect(query.filter.value(at: "y") == "a=b")  // the name ends at the first `=`
    }

    @Test func plusIsASpaceInNamesAndValues() throws {
        let query = try JSONAPIQuery(
            parsing: "filter[first+name]=Ann+Lee&filter[sum]=1%2B1", rules: permissiveQueryRules())
        #expect(query.filter.value(at: "first name") == "Ann Lee")
        #expect(query.filter.value(at: "sum") == "1+1")
    }

    @Test func rawUTF8IsAccepted() throws {
        let query = try JSONAPIQuery(parsing: "filter[name]=Zoë&fields[people]=naïve", rules: permissiveQueryRules())
        #expect(query.filter.value(at: "name") == "Zoë")
        #expect(query.fields["people"] == ["naïve"])
    }

    @Test(arguments: ["%", "%4", "%G1", "%1G", "a%", "%%41", "%-1", "% 1"])
    func malformedPercentEncodingIsRefused(value: String) {
        let problem = expectProblem("filter[x]=" + value, .invalidPercentEncoding, parameter: "filter[x]")
        #expect(problem?.detail.contains("the value") == true)
    }

    @Test func malformedPercentEncodingInANameIsNamedAsWritten() {
        let problem = expectProblem("filter%5Bx%ZZ=1", .invalidPercentEncoding, parameter: "filter%5Bx%ZZ")
        #expect(problem?.detail.contains("the parameter name") == true)
    }

    @Test(arguments: ["%FF", "%C3", "%C3%28", "%ED%A0%80", "%F4%90%80%80", "%C0%AF"])
    func bytesThatAreNotUTF8AreRefused(value: String) {
        expectProblem("filter[x]=" + value, .invalidUTF8, parameter: "filter[x]")
        expectProblem("filter[x" + value + "]=1", .invalidUTF8, parameter: "filter[x" + value + "]")
    }

    @Test func rawBytesThatAreNotUTF8AreRefused() throws {
        let bytes: [UInt8] = Array("filter[x]=".utf8) + [0xFF]
        let text = String(decoding: bytes, as: UTF8.self)  // U+FFFD: valid text, so accepted as such
        #expect(try JSONAPIQuery(parsing: text, rules: permissiveQueryRules()).filter.value(at: "x") == "\u{FFFD}")
    }

    // MARK: - Limits

    @Test func queryTooLong() {
        var options = QueryOptions()
        options.maximumQueryBytes = 20
        let exactly = "A" + String(repeating: "a", count: 17) + "=1"
        #expect(exactly.utf8.count == 20)
        #expect((try? JSONAPIQuery(parsing: exactly, rules: QueryRules(), options: options)) != nil)
        let problem = expectProblem(
            "filter[x]=" + String(repeating: "a", count: 11), .queryTooLong, parameter: nil, options: options)
        #expect(problem?.errorObject.source == nil)
    }

    @Test func tooManyParameters() {
        var options = QueryOptions()
        options.maximumParameters = 3
        #expect((try? JSONAPIQuery(parsing: "a1=1&&a2=2&a3=3&", rules: QueryRules(), options: options)) != nil)
        expectProblem("a1=1&a2=2&a3=3&a4=4", .tooManyParameters, parameter: nil, options: options)
    }

    @Test func hostileQueriesCostBoundedWork() {
        // The longest query the default options read: every piece a problem, yet one problem each.
        let many = Array(repeating: "_=1", count: 100).joined(separator: "&")
        #expect(queryProblems(many).count == 100)
        // A single huge list: one problem for the parameter, its detail short.
        let fields = "fields[a]=" + Array(repeating: "_x", count: 2_000).joined(separator: ",")
        let problems = queryProblems(fields)
        #expect(problems.count == 1)
        #expect((problems.first?.detail.utf8.count ?? .max) < 400)
        // Deep brackets are refused by count, before any bracket is checked.
        let deep = "filter" + String(repeating: "[a]", count: 3_000) + "=1"
        #expect(queryProblems(deep).map(\.code) == [.filterTooDeep])
        let longName = String(repeating: "x", count: 10_000) + "Y=1"
        #expect((try? JSONAPIQuery(parsing: longName, rules: QueryRules())) != nil)
    }

    @Test func optionsAndRulesAreValidated() {
        var options = QueryOptions()
        options.maximumParameters = 0
        #expect(throws: JSONAPIError.self) { try options.validate() }
        #expect(throws: JSONAPIError.self) { try JSONAPIQuery(parsing: "", rules: QueryRules(), options: options) }
        options = QueryOptions()
        options.maximumQueryBytes = QueryOptions.queryBytesCeiling + 1
        #expect(throws: JSONAPIError.self) { try options.validate() }
        options.maximumQueryBytes = -1
        #expect(throws: JSONAPIError.self) { try options.validate() }
        #expect(throws: Never.self) { try QueryOptions().validate() }

        let rules = QueryRules(pagination: .pages(defaultSize: 50, maximumSize: 10))
        do {
            try rules.validate()
            Issue.record("accepted a default size over the maximum")
        } catch {
            #expect(error.code == .invalidOption)
            #expect(error.message.contains("defaultSize"))
            #expect(JSONAPIErrorDocument(describing: error).httpStatus == 500)
        }
        #expect(throws: JSONAPIError.self) {
            try JSONAPIQuery(parsing: "", rules: QueryRules(pagination: .cursors(defaultSize: 0, maximumSize: 10)))
        }
    }

    // MARK: - Building

    @Test func canonicalQueryString() {
        var query = JSONAPIQuery(
            include: ["comments.author", "ratings"], fields: ["people": ["name", "email"], "articles": []],
            sort: ["-created", "title"], page: .number(2, size: 10))
        query.filter.entries.append(.init(path: ["author", "name"], value: "Ann Lee"))
        query.parameters.append(JSONAPIQuery.Parameter(name: "withDrafts", value: "1"))
        #expect(
            query.queryString
                == "include=comments.author,ratings&fields%5Barticles%5D=&fields%5Bpeople%5D=email,name"
                + "&sort=-created,title&page%5Bnumber%5D=2&page%5Bsize%5D=10&filter%5Bauthor%5D%5Bname%5D=Ann%20Lee"
                + "&withDrafts=1")
        #expect(query.description == query.queryString)
        #expect(JSONAPIQuery().queryString == "")
        #expect(JSONAPIQuery(include: []).queryString == "include=")
    }

    @Test func buildingEncodesWhatMustBeEncoded() {
        var query = JSONAPIQuery(page: .cursor(after: "a+b/c==", before: nil, size: 5))
        query.filter.entries.append(.init(path: ["q"], value: "1+1 = 2 & 100% [ok] #é"))
        query.parameters.append(JSONAPIQuery.Parameter(name: "version:at", value: "https://x.org/a?b"))
        #expect(
            query.queryString
                == "page%5Bafter%5D=a%2Bb/c%3D%3D&page%5Bsize%5D=5"
                + "&filter%5Bq%5D=1%2B1%20%3D%202%20%26%20100%25%20%5Bok%5D%20%23%C3%A9"
                + "&version%3Aat=https://x.org/a%3Fb")
    }

    @Test func builtQueriesParseBack() throws {
        var rules = permissiveQueryRules(
            pagination: .cursors(defaultSize: 10, maximumSize: 50, allowsRangePagination: true))
        var query = JSONAPIQuery(
            include: ["a.b", "c"], fields: ["t": ["x", "y z"], "u": []], sort: ["-a.b"],
            page: .cursor(after: "x&y=z", before: "%41", size: 7))
        query.filter.entries = [
            .init(path: [], value: "+"), .init(path: ["a", ""], value: ""), .init(path: ["a.b"], value: "é"),
        ]
        query.parameters = [.init(name: "x-y[]", value: "1"), .init(name: "version:at", value: ",:@/")]
        #expect(try JSONAPIQuery(parsing: query.queryString, rules: rules) == query)
        rules.pagination = nil
        query.page = nil
        #expect(try JSONAPIQuery(parsing: query.queryString, rules: rules) == query)
    }

    @Test func sortFieldLiterals() {
        let field: JSONAPIQuery.SortField = "-created"
        #expect(field.name == "created" && field.isDescending)
        #expect(JSONAPIQuery.SortField(stringLiteral: "title") == JSONAPIQuery.SortField("title"))
        #expect(JSONAPIQuery.Page.offset(40, limit: 20).size == 20)
        #expect(JSONAPIQuery.Page.cursor(after: nil, before: nil, size: 3).size == 3)
    }
}
