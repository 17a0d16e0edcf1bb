import JSONAPI
import Testing

/// Rules that accept every family, for tests that are about syntax rather than an endpoint.
func permissiveQueryRules(pagination: QueryRules.Pagination? = .pages(defaultSize: 10, maximumSize: 100)) -> QueryRules
{
    QueryRules(
        includePaths: .any, fieldsets: .any, sortFields: .any, pagination: pagination, filter: { _ in },
        customParameters: .any, extensionNamespaces: ["version"])
}

/// The problems `query` is refused with, or an issue when it is accepted or fails otherwise.
func queryProblems(
    _ query: String, rules: QueryRules = permissiveQueryRules(), options: QueryOptions = QueryOptions(),
    sourceLocation: SourceLocation = #_sourceLocation
) -> [QueryProblem] {
    do {
        let parsed = try JSONAPIQuery(parsing: query, rules: rules, options: options)
        Issue.record("accepted `\(query)` as \(parsed)", sourceLocation: sourceLocation)
        return []
    } catch let failure as QueryFailure {
        #expect(!failure.problems.isEmpty, sourceLocation: sourceLocation)
        return failure.problems
    } catch {
        Issue.record("`\(query)` threw \(error)", sourceLocation: sourceLocation)
        return []
    }
}

/// The one problem `query` is refused with, checked for its code and parameter.
@discardableResult
func expectProblem(
    _ query: String, _ code: QueryProblem.Code, parameter: String?, rules: QueryRules = permissiveQueryRules(),
    options: QueryOptions = QueryOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> QueryProblem? {
    let problems = queryProblems(query, rules: rules, options: options, sourceLocation: sourceLocation)
    #expect(problems.count == 1, "\(problems)", sourceLocation: sourceLocation)
    guard let problem = problems.first else { return nil }
    #expect(problem.code == code, "\(problem)", sourceLocation: sourceLocation)
    #expect(problem.parameter == parameter, "\(problem)", sourceLocation: sourceLocation)
    #expect(problem.errorObject.status == "400", sourceLocation: sourceLocation)
    #expect(problem.errorObject.source?.parameter == parameter, sourceLocation: sourceLocation)
    #expect(problem.errorObject.code == code.rawValue, sourceLocation: sourceLocation)
    #expect(!problem.detail.isEmpty, sourceLocation: sourceLocation)
    return problem
}

@Suite("Query: parameters by family")
struct QueryTests {
    // MARK: - include

    @Test func includePathsInOrder() throws {
        var rules = QueryRules()
        rules.includePaths = ["comments.author", "ratings"]
        let query = try JSONAPIQuery(parsing: "include=comments.author,ratings,comments", rules: rules)
        #expect(query.include == ["comments.author", "ratings", "comments"])
    }

    @Test func allowingAPathAllowsItsPrefixes() throws {
        var rules = QueryRules()
        rules.includePaths = ["comments.author.avatar"]
        #expect(try JSONAPIQuery(parsing: "include=comments", rules: rules).include == ["comments"])
        #expect(try JSONAPIQuery(parsing: "include=comments.author", rules: rules).include == ["comments.author"])
        expectProblem("include=author", .unsupportedInclude, parameter: "include", rules: rules)
        expectProblem("include=comments.avatar", .unsupportedInclude, parameter: "include", rules: rules)
        // A prefix of a name is not a prefix of the path.
        expectProblem("include=comment", .unsupportedInclude, parameter: "include", rules: rules)
    }

    @Test func emptyIncludeAsksForNothingAndDiffersFromNoInclude() throws {
        var rules = QueryRules()
        rules.includePaths = ["author"]
        #expect(try JSONAPIQuery(parsing: "include=", rules: rules).include == [])
        #expect(try JSONAPIQuery(parsing: "include", rules: rules).include == [])
        #expect(try JSONAPIQuery(parsing: "", rules: rules).include == nil)
    }

    @Test func includeRejections() {
        var rules = QueryRules()
        rules.includePaths = .any
        expectProblem("include=a,,b", .invalidInclude, parameter: "include", rules: rules)
        expectProblem("include=a.", .invalidInclude, parameter: "include", rules: rules)
        expectProblem("include=a,", .invalidInclude, parameter: "include", rules: rules)
        expectProblem("include=_a", .invalidInclude, parameter: "include", rules: rules)
        expectProblem("include=a&include=b", .repeatedParameter, parameter: "include", rules: rules)
        expectProblem("include[x]=a", .unsupportedParameter, parameter: "include[x]", rules: rules)
        expectProblem("include=author", .unsupportedParameter, parameter: "include", rules: QueryRules())
    }

    @Test func includeLimits() {
        var options = QueryOptions()
        options.maximumIncludePaths = 3
        options.maximumIncludeDepth = 2
        var rules = QueryRules()
        rules.includePaths = .any
        #expect((try? JSONAPIQuery(parsing: "include=a,b.c,d", rules: rules, options: options)) != nil)
        expectProblem("include=a,b,c,d", .tooManyIncludePaths, parameter: "include", rules: rules, options: options)
        let deep = expectProblem("include=a.b.c", .includeTooDeep, parameter: "include", rules: rules, options: options)
        #expect(deep?.detail.contains("`a.b.c`") == true)
    }

    @Test func unsupportedIncludePathsAreNamedInOneProblem() {
        var rules = QueryRules()
        rules.includePaths = ["author"]
        let problem = expectProblem(
            "include=author,tags,owner", .unsupportedInclude, parameter: "include", rules: rules)
        #expect(problem?.detail.contains("`tags` and `owner`") == true)
        #expect(problem?.detail.contains("`author`") == true)  // what is supported
    }

    // MARK: - fields

    @Test func sparseFieldsetsPerType() throws {
        let query = try JSONAPIQuery(
            parsing: "fields[articles]=title,body&fields%5Bpeople%5D=name&fields[tags]=", rules: QueryRules())
        #expect(query.fields == ["articles": ["title", "body"], "people": ["name"], "tags": []])
    }

    @Test func encodedAndReadableBracketsAreTheSameParameter() throws {
        let forms = [
            "fields[articles]=title", "fields%5Barticles%5D=title", "fields%5barticles%5d=title",
            "fields[articles%5D=title", "%66ields[articles]=title",
        ]
        for form in forms {
            #expect(try JSONAPIQuery(parsing: form, rules: QueryRules()).fields == ["articles": ["title"]], "\(form)")
        }
        let problem = expectProblem(
            "fields%5Barticles%5D=a&fields[articles]=b", .repeatedParameter, parameter: "fields[articles]")
        #expect(problem?.detail.contains("fields[articles]") == true)
    }

    @Test func fieldsetRejections() {
        var rules = QueryRules()
        rules.fieldsets = ["articles": ["title", "body", "author"]]
        expectProblem("fields[people]=name", .unsupportedFieldset, parameter: "fields[people]", rules: rules)
        let unknown = expectProblem(
            "fields[articles]=title,rating", .unsupportedFieldset, parameter: "fields[articles]", rules: rules)
        #expect(unknown?.detail.contains("`rating`") == true)
        expectProblem("fields[articles]=title,,body", .invalidFieldset, parameter: "fields[articles]", rules: rules)
        expectProblem("fields[articles]=a.b", .invalidFieldset, parameter: "fields[articles]", rules: rules)
        expectProblem("fields=title", .unsupportedParameter, parameter: "fields", rules: rules)
        expectProblem("fields[]=title", .unsupportedParameter, parameter: "fields[]", rules: rules)
        expectProblem("fields[a][b]=title", .unsupportedParameter, parameter: "fields[a][b]", rules: rules)
        expectProblem("fields[a.b]=title", .unsupportedParameter, parameter: "fields[a.b]", rules: rules)
        expectProblem(
            "fields[articles]=title", .unsupportedParameter, parameter: "fields[articles]",
            rules: QueryRules(fieldsets: .unsupported))
    }

    // MARK: - sort

    @Test func sortFieldsInOrderWithDirections() throws {
        var rules = QueryRules()
        rules.sortFields = ["created", "title", "author.name"]
        let query = try JSONAPIQuery(parsing: "sort=-created,title,-author.name", rules: rules)
        #expect(
            query.sort == [
                JSONAPIQuery.SortField("created", descending: true), JSONAPIQuery.SortField("title"),
                JSONAPIQuery.SortField("author.name", descending: true),
            ])
        #expect(query.sort.map(\.description) == ["-created", "title", "-author.name"])
        #expect(try JSONAPIQuery(parsing: "", rules: rules).sort == [])
    }

    @Test func sortRejections() {
        var rules = QueryRules()
        rules.sortFields = ["created", "title"]
        let problem = expectProblem("sort=-age,title,rank", .unsupportedSort, parameter: "sort", rules: rules)
        #expect(problem?.detail.contains("`age` and `rank`") == true)
        expectProblem("sort=", .invalidSort, parameter: "sort", rules: rules)
        expectProblem("sort=-", .invalidSort, parameter: "sort", rules: rules)
        expectProblem("sort=--title", .invalidSort, parameter: "sort", rules: rules)
        expectProblem("sort=title,,created", .invalidSort, parameter: "sort", rules: rules)
        expectProblem("sort=title&sort=created", .repeatedParameter, parameter: "sort", rules: rules)
        expectProblem("sort[x]=title", .unsupportedParameter, parameter: "sort[x]", rules: rules)
        expectProblem("sort=title", .unsupportedParameter, parameter: "sort", rules: QueryRules())
        var options = QueryOptions()
        options.maximumSortFields = 2
        expectProblem("sort=title,created,title", .tooManySortFields, parameter: "sort", rules: rules, options: options)
    }

    // MARK: - page

    @Test func pageNumberStrategy() throws {
        let rules = QueryRules(pagination: .pages(defaultSize: 10, maximumSize: 50))
        #expect(try JSONAPIQuery(parsing: "", rules: rules).page == .number(1, size: 10))
        #expect(try JSONAPIQuery(parsing: "page[number]=3", rules: rules).page == .number(3, size: 10))
        #expect(try JSONAPIQuery(parsing: "page[size]=50&page[number]=2", rules: rules).page == .number(2, size: 50))
        expectProblem("page[number]=0", .invalidPageValue, parameter: "page[number]", rules: rules)
        expectProblem("page[offset]=0", .unsupportedParameter, parameter: "page[offset]", rules: rules)
        expectProblem("page[after]=x", .unsupportedParameter, parameter: "page[after]", rules: rules)
        expectProblem("page=2", .unsupportedParameter, parameter: "page", rules: rules)
        expectProblem("page[number][x]=2", .unsupportedParameter, parameter: "page[number][x]", rules: rules)
        expectProblem("page[number]=1&page[number]=2", .repeatedParameter, parameter: "page[number]", rules: rules)
    }

    @Test func offsetStrategy() throws {
        let rules = QueryRules(pagination: .offsets(defaultLimit: 25, maximumLimit: 200))
        #expect(try JSONAPIQuery(parsing: "", rules: rules).page == .offset(0, limit: 25))
        #expect(
            try JSONAPIQuery(parsing: "page[offset]=0&page[limit]=200", rules: rules).page == .offset(0, limit: 200))
        expectProblem("page[limit]=0", .invalidPageValue, parameter: "page[limit]", rules: rules)
        expectProblem("page[number]=1", .unsupportedParameter, parameter: "page[number]", rules: rules)
        let problem = expectProblem("page[limit]=201", .maxSizeExceeded, parameter: "page[limit]", rules: rules)
        #expect(problem?.meta == ["page": ["maxSize": 200]])
        #expect(problem?.typeLink == nil)  // the profile's error type belongs to the cursor strategy
    }

    @Test func cursorStrategy() throws {
        let rules = QueryRules(pagination: .cursors(defaultSize: 20, maximumSize: 100))
        #expect(try JSONAPIQuery(parsing: "", rules: rules).page == .cursor(after: nil, before: nil, size: 20))
        #expect(
            try JSONAPIQuery(parsing: "page[size]=100&page[after]=abcde", rules: rules).page
                == .cursor(after: "abcde", before: nil, size: 100))
        #expect(
            try JSONAPIQuery(parsing: "page[before]=a%2Bb%3D%3D", rules: rules).page
                == .cursor(after: nil, before: "a+b==", size: 20))
        expectProblem("page[after]=", .invalidPageValue, parameter: "page[after]", rules: rules)
        expectProblem("page[cursor]=x", .unsupportedParameter, parameter: "page[cursor]", rules: rules)
    }

    @Test func maxSizeExceededFollowsTheCursorProfile() throws {
        let rules = QueryRules(pagination: .cursors(defaultSize: 20, maximumSize: 100))
        let problem = try #require(
            expectProblem("page[size]=200", .maxSizeExceeded, parameter: "page[size]", rules: rules))
        let error = problem.errorObject
        #expect(error.status == "400")
        #expect(error.meta == ["page": ["maxSize": 100]])
        #expect(
            error.links?.type?.href == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/max-size-exceeded")
        #expect(error.source?.parameter == "page[size]")
        // A size too large for any integer is over the maximum too, not malformed.
        expectProblem("page[size]=99999999999999999999999", .maxSizeExceeded, parameter: "page[size]", rules: rules)
    }

    @Test func rangePagination() throws {
        let refusing = QueryRules(pagination: .cursors(defaultSize: 20, maximumSize: 100))
        let problem = expectProblem(
            "page[after]=a&page[before]=b", .rangePaginationNotSupported, parameter: "page[before]", rules: refusing)
        #expect(
            problem?.typeLink
                == "https://jsonapi.org/profiles/ethanresnick/cursor-pagination/range-pagination-not-supported")
        let allowing = QueryRules(pagination: .cursors(defaultSize: 20, maximumSize: 100, allowsRangePagination: true))
        // The profile: a range request without a size gets the maximum page size.
        #expect(
            try JSONAPIQuery(parsing: "page[after]=a&page[before]=b", rules: allowing).page
                == .cursor(after: "a", before: "b", size: 100))
        #expect(
            try JSONAPIQuery(parsing: "page[after]=a&page[before]=b&page[size]=5", rules: allowing).page
                == .cursor(after: "a", before: "b", size: 5))
    }

    @Test(arguments: ["abc", "-1", "1.5", "1e3", "0x10", "%201", "+1", "1+", "", "١"])
    func nonNumericPageValuesAreRefused(value: String) {
        let rules = QueryRules(pagination: .pages(defaultSize: 10, maximumSize: 100))
        expectProblem("page[size]=" + value, .invalidPageValue, parameter: "page[size]", rules: rules)
        expectProblem("page[number]=" + value, .invalidPageValue, parameter: "page[number]", rules: rules)
    }

    @Test func pageParametersOnAnEndpointWithoutPagination() {
        let problems = queryProblems("page[number]=1&page[size]=2", rules: QueryRules())
        #expect(problems.map(\.code) == [.unsupportedParameter, .unsupportedParameter])
        #expect(problems.map(\.parameter) == ["page[number]", "page[size]"])
    }

    // MARK: - filter

    @Test func filterKeepsNestingRepeatsAndOrder() throws {
        let query = try JSONAPIQuery(
            parsing: "filter[author][name]=ann&filter[tags][]=a&filter[tags][]=b&filter=x&filter[author.status]=active",
            rules: permissiveQueryRules())
        #expect(query.filter.count == 5)
        #expect(query.filter.value(at: "author", "name") == "ann")
        #expect(query.filter.values(at: "tags", "") == ["a", "b"])
        #expect(query.filter.value(at: "author.status") == "active")
        #expect(query.filter.entries(under: "author").map(\.value) == ["ann"])
        #expect(query.filter.entries(under: "tags").map(\.parameter) == ["filter[tags][]", "filter[tags][]"])
        #expect(query.filter[3].path == [])
        #expect(query.filter[3].parameter == "filter")
    }

    @Test func filterRuleReportsLocatedProblems() throws {
        var rules = QueryRules()
        rules.filter = { filter throws(QueryFailure) in
            var problems: [QueryProblem] = []
            for entry in filter where entry.path != ["status"] {
                problems.append(.invalidFilter(entry, detail: "only filter[status] is supported"))
            }
            for entry in filter where entry.path == ["status"] && !["draft", "published"].contains(entry.value) {
                problems.append(
                    .invalidFilter(entry, detail: "unknown status", code: QueryProblem.Code("unknown-status")))
            }
            if !problems.isEmpty { throw QueryFailure(problems) }
        }
        #expect(try JSONAPIQuery(parsing: "filter[status]=draft", rules: rules).filter.value(at: "status") == "draft")
        let problems = queryProblems("filter[author][name]=ann&filter[status]=gone&sort=x", rules: rules)
        #expect(problems.map(\.code) == [.unsupportedParameter, .invalidFilter, QueryProblem.Code("unknown-status")])
        #expect(problems.map(\.parameter) == ["sort", "filter[author][name]", "filter[status]"])
        // A rule that throws no problems still refuses.
        rules.filter = { _ throws(QueryFailure) in throw QueryFailure([]) }
        expectProblem("filter[x]=1", .invalidFilter, parameter: "filter", rules: rules)
    }

    @Test func filterRuleIsNotCalledWithoutFilters() throws {
        var rules = QueryRules()
        rules.filter = { _ throws(QueryFailure) in
            throw QueryFailure(QueryProblem(code: .invalidFilter, parameter: "filter", detail: "called"))
        }
        #expect(try JSONAPIQuery(parsing: "", rules: rules).filter.isEmpty)
    }

    @Test func filterRejections() {
        var options = QueryOptions()
        options.maximumFilterDepth = 2
        expectProblem("filter[a][b][c]=1", .filterTooDeep, parameter: "filter[a][b][c]", options: options)
        expectProblem("filter[_]=1", .invalidParameterName, parameter: "filter[_]")
        expectProblem("filter[a.]=1", .invalidParameterName, parameter: "filter[a.]")
        expectProblem("filter[x]=1", .unsupportedParameter, parameter: "filter[x]", rules: QueryRules())
    }

    // MARK: - Several problems, error documents

    @Test func everyProblemIsReportedInQueryOrder() {
        var rules = QueryRules()
        rules.includePaths = ["author"]
        rules.sortFields = ["created"]
        rules.pagination = .pages(defaultSize: 10, maximumSize: 50)
        let problems = queryProblems(
            "include=comments&sort=-age&page[size]=500&foo=1&_bar=2&fields[a]=%ZZ&page[number]=x", rules: rules)
        #expect(
            problems.map(\.code) == [
                .unsupportedInclude, .unsupportedSort, .maxSizeExceeded, .unsupportedParameter, .invalidParameterName,
                .invalidPercentEncoding, .invalidPageValue,
            ])
        #expect(
            problems.map(\.parameter) == [
                "include", "sort", "page[size]", "foo", "_bar", "fields[a]", "page[number]",
            ])
    }

    @Test func failureBecomesA400ErrorDocument() throws {
        var rules = QueryRules()
        rules.includePaths = ["author"]
        do {
            _ = try JSONAPIQuery(parsing: "include=autor&foo=1", rules: rules)
            Issue.record("accepted")
        } catch {
            #expect(error is QueryFailure)
            let document = JSONAPIErrorDocument(describing: error)
            #expect(document.httpStatus == 400)
            #expect(document.errors.map(\.source?.parameter) == ["include", "foo"])
            #expect(document.errors.map(\.code) == ["unsupported-include", "unsupported-parameter"])
            #expect(document.errors.allSatisfy { $0.status == "400" && $0.title != nil && $0.detail != nil })
            let parsed = try Document(parsing: try document.jsonBytes())
            #expect(parsed.errors.count == 2)
            #expect(parsed.errors.first?.source?.parameter == "include")
        }
    }

    @Test func problemErrorObjectJSON() throws {
        let problem = QueryProblem(code: .unsupportedSort, parameter: "sort", detail: "cannot sort by `age`")
        #expect(
            try problem.errorObject.jsonString()
                == #"{"status":"400","code":"unsupported-sort","title":"Unsupported sort field","#
                + #""detail":"cannot sort by `age`","source":{"parameter":"sort"}}"#)
        #expect(problem.description == "sort: cannot sort by `age` (unsupported-sort)")
        #expect(QueryFailure(problem).status == 400)
        #expect(QueryFailure([]).jsonapiErrors.count == 1)
    }

    @Test func leadingQuestionMarkIsSkipped() throws {
        #expect(try JSONAPIQuery(parsing: "?fields[a]=b", rules: QueryRules()).fields == ["a": ["b"]])
        #expect(try JSONAPIQuery(parsing: "?", rules: QueryRules()) == JSONAPIQuery())
    }

    @Test func emptyPiecesAreSkipped() throws {
        let query = try JSONAPIQuery(parsing: "&&fields[a]=b&&withDrafts=1&", rules: QueryRules())
        #expect(query.fields == ["a": ["b"]])
        #expect(query.parameters == [JSONAPIQuery.Parameter(name: "withDrafts", value: "1")])
    }
}
