import JSONAPI
import Testing

/// The example of the QueryParameters article, run: what it prints is what the article says.
@Suite("Query: the article's example")
struct QueryArticleExampleTests {
    struct Person: Codable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Article: Codable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var body: String
        var author: Person
    }

    static let ann = Person(id: "9", name: "Ann")
    static let articles = (1...5).map { Article(id: "\($0)", title: "Article \($0)", body: "…", author: ann) }

    static let rules = QueryRules(
        includePaths: ["author"],
        fieldsets: ["articles": ["title", "body", "author"], "people": ["name"]],
        sortFields: ["title"],
        pagination: .pages(defaultSize: 2, maximumSize: 50))

    static func listArticles(target: String) -> (status: Int, body: String) {
        let rawQuery = target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        do {
            let query = try JSONAPIQuery(parsing: rawQuery, rules: rules)
            var sorted = articles
            if let first = query.sort.first {
                sorted.sort { first.isDescending ? $0.title > $1.title : $0.title < $1.title }
            }
            guard let page = query.page, case .number(let number, let size) = page else { return (500, "") }
            let start = min(number - 1, sorted.count) * size
            let items = Array(sorted.dropFirst(start).prefix(size))
            let links = page.links(forRequest: target, result: .total(sorted.count))
            let encoder = JSONAPIEncoder(options: EncodingOptions(query: query))
            let bytes = try encoder.encode(items, meta: ["total": sorted.count], links: links)
            return (200, String(decoding: bytes, as: UTF8.self))
        } catch {
            let errors = JSONAPIErrorDocument(describing: error)
            return (errors.httpStatus, (try? errors.jsonString()) ?? "")
        }
    }

    @Test func successfulRequest() throws {
        let target = "/articles?include=author&fields%5Bpeople%5D=name&sort=-title&page[number]=2"
        let (status, body) = Self.listArticles(target: target)
        #expect(status == 200)
        let document = try Document(parsing: body)
        #expect(document.diagnostics.isEmpty)
        #expect(document.primaryResources.map { $0.id ?? "" } == ["3", "2"])
        #expect(document.included.map { $0.attributes.keys } == [["name"]])
        #expect(document.meta?["total"]?.int64Value == 5)
        let links = try #require(document.links)
        #expect(links.names == ["self", "first", "prev", "next", "last"])
        #expect(links["self"]?.href == target)
        #expect(
            links["first"]?.href == "/articles?include=author&fields%5Bpeople%5D=name&sort=-title&page%5Bnumber%5D=1")
        #expect(
            links["next"]?.href == "/articles?include=author&fields%5Bpeople%5D=name&sort=-title&page%5Bnumber%5D=3")
        #expect(
            links["last"]?.href == "/articles?include=author&fields%5Bpeople%5D=name&sort=-title&page%5Bnumber%5D=3")
    }

    /// The article's two calls, as written there.
    @Test func articleCalls() throws {
        func listArticles(target: String) -> (status: Int, body: String) { Self.listArticles(target: target) }
        var printed: [(status: Int, body: String)] = []
        func print(_ response: (status: Int, body: String)) { printed.append(response) }

        print(listArticles(target: "/articles?include=author&fields%5Bpeople%5D=name&sort=-title&page[number]=2"))
        print(listArticles(target: "/articles?include=comments&page[size]=500&foo=1"))

        #expect(printed.map(\.status) == [200, 400])
    }

    @Test func refusedRequest() throws {
        let (status, body) = Self.listArticles(target: "/articles?include=comments&page[size]=500&foo=1")
        #expect(status == 400)
        let document = try Document(parsing: body)
        #expect(document.errors.map(\.code) == ["unsupported-include", "max-size-exceeded", "unsupported-parameter"])
        #expect(document.errors.map(\.source?.parameter) == ["include", "page[size]", "foo"])
        #expect(document.errors[0].detail == "this endpoint cannot include `comments` (it supports `author`)")
        #expect(document.errors[1].detail == "`page[size]` is `500`, but 50 is the maximum")
        #expect(document.errors[1].meta?["page"]?["maxSize"]?.int64Value == 50)
    }

    @Test func hugePageNumbersDoNotTrap() {
        let (status, body) = Self.listArticles(target: "/articles?page[number]=9223372036854775807")
        #expect(status == 200)
        #expect(body.contains(#""data":[]"#))
    }
}
