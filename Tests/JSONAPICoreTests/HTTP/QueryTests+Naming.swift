import JSONAPI
import Testing

/// JSON:API 1.1, "Query Parameters": families, extension parameters, implementation-specific
/// parameters, and the 400 for names that follow no convention or that the endpoint does not
/// support.
@Suite("Query: parameter naming rules")
struct QueryNamingTests {
    /// The spec's own examples of the `filter` family.
    @Test(arguments: ["filter", "filter[x]", "filter[]", "filter[x][]", "filter[][]", "filter[x][y]", "filter[x.y]"])
    func specExamplesOfTheFilterFamilyAreAccepted(name: String) throws {
        let query = try JSONAPIQuery(parsing: name + "=1", rules: permissiveQueryRules())
        #expect(query.filter.count == 1)
        #expect(query.filter[0].parameter == name)
    }

    /// The families a query names, decoded, whatever the endpoint's rules would make of them;
    /// names that cannot be decoded or taken apart are the parse's to report.
    @Test func familiesAreTheBaseNamesAsDecoded() {
        #expect(JSONAPIQuery.families(in: "") == [])
        #expect(
            JSONAPIQuery.families(in: "sort=-a&page%5Bsize%5D=2&filter[x][]=1&withDrafts&v:at=3&foo=")
                == ["sort", "page", "filter", "withDrafts", "v:at", "foo"])
        #expect(JSONAPIQuery.families(in: "?include=a&%ZZ=1&a[b=1&fields[people]=name") == ["include", "fields"])
        var tight = QueryOptions()
        tight.maximumParameters = 1
        #expect(JSONAPIQuery.families(in: "sort=a&page[size]=1", options: tight) == [])
    }

    @Test func specCounterExampleIsRefused() {
        // "`filter[_]` is not a valid parameter name in the family, because `_` is not a valid member name."
        expectProblem("filter[_]=1", .invalidParameterName, parameter: "filter[_]")
    }

    /// The spec's note: relationship paths in brackets.
    @Test func sortAndFilterByRelationshipPath() throws {
        let query = try JSONAPIQuery(
            parsing: "sort=author.name&filter[author.status]=active", rules: permissiveQueryRules())
        #expect(query.sort == ["author.name"])
        #expect(query.filter.value(at: "author.status") == "active")
    }

    /// Base names of only a-z are the specification's: the five families, or a 400.
    @Test(arguments: ["foo", "a", "includes", "filters", "pagesize", "q"])
    func reservedNamesAreRefused(name: String) {
        let problem = expectProblem(name + "=1", .unsupportedParameter, parameter: name)
        #expect(problem?.detail.contains("reserved by JSON:API") == true)
    }

    /// A member name with at least one character outside a-z is the implementation's.
    @Test(arguments: ["camelCase", "x-trace", "with_drafts", "v2", "9lives", "ÄÖ", "a b", "Q"])
    func implementationSpecificNamesAreKept(name: String) throws {
        let query = try JSONAPIQuery(parsing: name.addingQueryEncoding() + "=1", rules: QueryRules())
        #expect(query.parameters == [JSONAPIQuery.Parameter(name: name, value: "1")])
        #expect(query.parameter(name) == "1")
    }

    @Test func implementationSpecificFamiliesKeepTheirBrackets() throws {
        let query = try JSONAPIQuery(parsing: "myFilter[a][]=1&myFilter[b.c]=2", rules: QueryRules())
        #expect(query.parameters.map(\.name) == ["myFilter[a][]", "myFilter[b.c]"])
        #expect(query.parameters.map(\.baseName) == ["myFilter", "myFilter"])
        expectProblem("myFilter[_]=1", .invalidParameterName, parameter: "myFilter[_]")
    }

    /// Not legal member names, so neither the specification's nor the implementation's.
    @Test(arguments: ["_", "_a", "a_", "-a", "a-", " a", "a!", "a$", "a(", "a*", "a;", "@a", "a~", "%2Ba", "a%7F"])
    func namesOutsideEveryConventionAreRefused(rawName: String) {
        let problems = queryProblems(rawName + "=1")
        #expect(problems.map(\.code) == [.invalidParameterName])
    }

    @Test(arguments: ["a]", "a[b", "a[b]c", "a[[b]]", "a[b]]", "[a]", "", "a[b][", "]"])
    func malformedBracketsAreRefused(rawName: String) {
        let problems = queryProblems(rawName + "=1")
        #expect(problems.map(\.code) == [.invalidParameterName], "\(rawName)")
    }

    @Test func customParametersCanBeRestricted() throws {
        var rules = QueryRules()
        rules.customParameters = ["withDrafts"]
        #expect(try JSONAPIQuery(parsing: "withDrafts=1&withDrafts[x]=2", rules: rules).parameters.count == 2)
        expectProblem("trace-id=1", .unsupportedParameter, parameter: "trace-id", rules: rules)
        rules.customParameters = .unsupported
        expectProblem("withDrafts=1", .unsupportedParameter, parameter: "withDrafts", rules: rules)
    }

    /// "The base name of every query parameter introduced by an extension MUST be prefixed with
    /// the extension's namespace followed by a colon (:). The remainder of the base name MUST
    /// contain only the characters [a-z]."
    @Test func extensionParameters() throws {
        var rules = QueryRules()
        rules.extensionNamespaces = ["version"]
        let query = try JSONAPIQuery(parsing: "version:at=2024&version%3Aid[x]=1", rules: rules)
        #expect(query.parameters.map(\.name) == ["version:at", "version:id[x]"])
        expectProblem("other:at=1", .unsupportedParameter, parameter: "other:at", rules: rules)
        // The part after the colon must be a-z only, and the namespace letters and digits.
        expectProblem("version:At=1", .invalidParameterName, parameter: "version:At", rules: rules)
        expectProblem("version:=1", .invalidParameterName, parameter: "version:", rules: rules)
        expectProblem(":at=1", .invalidParameterName, parameter: ":at", rules: rules)
        expectProblem("ver-sion:at=1", .invalidParameterName, parameter: "ver-sion:at", rules: rules)
        expectProblem("version:at[_]=1", .invalidParameterName, parameter: "version:at[_]", rules: rules)
    }
}

fileprivate extension String {
    /// Percent-encodes everything but ASCII letters and digits, for building test queries.
    func addingQueryEncoding() -> String {
        var result = ""
        for byte in utf8 {
            let isAlphanumeric =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if isAlphanumeric {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
