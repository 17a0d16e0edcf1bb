import Foundation
import JSONAPI
import JSONAPIOpenAPI
import OpenAPIKit
import Testing

/// `QueryRules.openAPIParameters`: what the parser lets through is what the parameters describe.
@Suite struct QueryParameterTests {
    private func parameter(_ name: String, of rules: QueryRules) throws -> Encoded {
        let parameter = try #require(rules.openAPIParameters.first { $0.name == name }, "no parameter \(name)")
        return try Encoded(parameter)
    }

    @Test func defaultRulesDescribeOnlyFieldsets() throws {
        // The defaults support sparse fieldsets for any type and any custom parameter (which has
        // no name to list); everything else gets 400, so it is not described.
        let parameters = QueryRules().openAPIParameters
        #expect(parameters.map(\.name) == ["fields"])
        let fields = try Encoded(parameters[0])
        #expect(fields["in"].string == "query")
        #expect(fields["style"].string == "deepObject")
        #expect(fields["explode"].bool == true)
        #expect(fields["schema"]["type"].string == "object")
        // Types are member names; each value is a comma-separated list of them.
        #expect(fields["schema"]["additionalProperties"].bool == false)
        let values = fields["schema"]["patternProperties"]
        let patterns = values.keys ?? []
        #expect(patterns.count == 1)
        #expect(values[patterns.first ?? ""]["type"].string == "string")
    }

    @Test func includeListsEveryPathAndPrefix() throws {
        let rules = QueryRules(includePaths: ["comments.author", "author"])
        let include = try parameter("include", of: rules)
        // `form`, the default style of a query parameter, is left out of the encoded parameter.
        #expect((include["style"].string ?? "form") == "form")
        #expect(include["explode"].bool == false)
        #expect(include["allowEmptyValue"].bool == true)
        #expect(include["schema"]["type"].string == "array")
        #expect(include["schema"]["items"]["enum"].strings == ["author", "comments", "comments.author"])
        // The parser agrees: the prefix is accepted, a path not listed is not.
        #expect(throws: Never.self) { try JSONAPIQuery(parsing: "include=comments", rules: rules) }
        #expect(throws: QueryFailure.self) { try JSONAPIQuery(parsing: "include=tags", rules: rules) }
    }

    @Test func includeAnyIsAnyPathOfMemberNames() throws {
        let include = try parameter("include", of: QueryRules(includePaths: .any))
        #expect(include["schema"]["items"]["type"].string == "string")
        #expect(include["schema"]["items"]["pattern"].string != nil)
        #expect(include["schema"]["items"]["enum"].isAbsent)
        #expect(include["schema"]["maxItems"].int == QueryOptions().maximumIncludePaths)
    }

    @Test func fieldsetsPerTypeAreEnumsOfTheirFields() throws {
        let rules = QueryRules(fieldsets: ["people": ["name"], "articles": ["title", "author"]])
        #expect(rules.openAPIParameters.map(\.name) == ["fields[articles]", "fields[people]"])
        let articles = try parameter("fields[articles]", of: rules)
        #expect((articles["style"].string ?? "form") == "form")
        #expect(articles["explode"].bool == false)
        #expect(articles["schema"]["items"]["enum"].strings == ["author", "title"])
        #expect(QueryRules(fieldsets: .unsupported).openAPIParameters.isEmpty)
    }

    @Test func sortFieldsComeInBothDirections() throws {
        let sort = try parameter("sort", of: QueryRules(sortFields: ["title", "created"]))
        #expect(sort["schema"]["items"]["enum"].strings == ["created", "-created", "title", "-title"])
        let any = try parameter("sort", of: QueryRules(sortFields: .any))
        let pattern = try NSRegularExpression(pattern: try #require(any["schema"]["items"]["pattern"].string))
        func matches(_ field: String) -> Bool {
            let whole = NSRange(field.startIndex..., in: field)
            return pattern.firstMatch(in: field, range: whole)?.range == whole
        }
        for field in ["created", "-created", "author.name", "-a-b.c_d"] { #expect(matches(field), "\(field)") }
        for field in ["", "-", "--created", "a,b", "a.", ".a", "a b-", "created\n"] {
            #expect(!matches(field), "\(field)")
        }
    }

    @Test func pageParametersFollowTheStrategy() throws {
        let pages = QueryRules(pagination: .pages(defaultSize: 20, maximumSize: 50))
        #expect(pages.openAPIParameters.map(\.name) == ["fields", "page[number]", "page[size]"])
        let size = try parameter("page[size]", of: pages)
        #expect(size["schema"]["type"].string == "integer")
        #expect(size["schema"]["minimum"].int == 1)
        #expect(size["schema"]["maximum"].int == 50)
        #expect(size["schema"]["default"].int == 20)
        let number = try parameter("page[number]", of: pages)
        #expect(number["schema"]["minimum"].int == 1)

        let offsets = QueryRules(pagination: .offsets(defaultLimit: 10, maximumLimit: 30))
        #expect(offsets.openAPIParameters.map(\.name) == ["fields", "page[offset]", "page[limit]"])
        #expect(try parameter("page[offset]", of: offsets)["schema"]["minimum"].int == 0)
        #expect(try parameter("page[limit]", of: offsets)["schema"]["maximum"].int == 30)

        let cursors = QueryRules(pagination: .cursors(defaultSize: 5, maximumSize: 25))
        #expect(cursors.openAPIParameters.map(\.name) == ["fields", "page[after]", "page[before]", "page[size]"])
        #expect(try parameter("page[after]", of: cursors)["schema"]["minLength"].int == 1)
    }

    @Test func filterIsADeepObjectWhenTheEndpointFilters() throws {
        #expect(!QueryRules().openAPIParameters.contains { $0.name == "filter" })
        let filter = try parameter("filter", of: QueryRules(filter: { _ in }))
        #expect(filter["style"].string == "deepObject")
        #expect(filter["explode"].bool == true)
        #expect(filter["schema"]["type"].string == "object")
    }

    @Test func listedCustomParametersAreStrings() throws {
        let rules = QueryRules(customParameters: ["withDrafts", "x-trace"])
        #expect(rules.openAPIParameters.map(\.name) == ["fields", "withDrafts", "x-trace"])
        #expect(try parameter("withDrafts", of: rules)["schema"]["type"].string == "string")
    }

    @Test func limitsOfTheQueryOptions() throws {
        var options = QueryOptions()
        options.maximumSortFields = 4
        options.maximumIncludePaths = 3
        let rules = QueryRules(
            includePaths: .any, sortFields: ["title"], pagination: .pages(defaultSize: 7, maximumSize: 30),
            filter: { _ in })
        let filter = JSONSchema.object(
            properties: ["title": .string(required: false, maxLength: 40)], additionalProperties: .a(false))
        let parameters = try rules.openAPIParameters(options: options, filter: filter).map { try Encoded($0) }
        func named(_ name: String) throws -> Encoded {
            try #require(parameters.first { $0["name"].string == name }, "no parameter \(name)")
        }
        let sort = try named("sort")["schema"]
        #expect(sort["minItems"].int == 1)
        #expect(sort["maxItems"].int == 4)
        #expect(try named("include")["schema"]["maxItems"].int == 3)
        let number = try named("page[number]")["schema"]
        #expect(number["minimum"].int == 1)
        #expect((number["maximum"].value as? NSNumber)?.int64Value == Int64.max)
        let size = try named("page[size]")["schema"]
        #expect(size["default"].int == 7)
        #expect(size["maximum"].int == 30)
        let filterSchema = try named("filter")["schema"]
        #expect(filterSchema["properties"]["title"]["maxLength"].int == 40)
        #expect(filterSchema["additionalProperties"].bool == false)

        // What the parser does at those limits.
        let many = Array(repeating: "title", count: 5).joined(separator: ",")
        #expect(throws: QueryFailure.self) { try JSONAPIQuery(parsing: "sort=" + many, rules: rules, options: options) }
        #expect(throws: QueryFailure.self) { try JSONAPIQuery(parsing: "sort=", rules: rules, options: options) }
        let last = try JSONAPIQuery(parsing: "page[number]=9223372036854775807", rules: rules, options: options)
        #expect(last.page == .number(Int.max, size: 7))
        #expect(throws: QueryFailure.self) {
            try JSONAPIQuery(parsing: "page[number]=9223372036854775808", rules: rules, options: options)
        }
    }

    @Test func longestValueFitsTheQuery() throws {
        let options = QueryOptions()
        let length = options.maximumValueLength(ofParameter: "page[after]")
        #expect(length == options.maximumQueryBytes - "page%5Bafter%5D=".count)
        let rules = QueryRules(pagination: .cursors())
        let longest = String(repeating: "a", count: length)
        #expect(throws: Never.self) { try JSONAPIQuery(parsing: "page%5Bafter%5D=" + longest, rules: rules) }
        #expect(throws: QueryFailure.self) { try JSONAPIQuery(parsing: "page%5Bafter%5D=a" + longest, rules: rules) }
        let after = try parameter("page[after]", of: rules)
        #expect(after["schema"]["maxLength"].int == length)
    }
}
