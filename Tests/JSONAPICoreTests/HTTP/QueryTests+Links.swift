import JSONAPI
import Testing

/// Pagination links for each strategy: which links exist at the edges, and that every other
/// parameter of the request stays exactly as it was.
@Suite("Query: pagination links")
struct QueryLinksTests {
    private func hrefs(_ links: JSONAPILinks) -> [String: String] {
        Dictionary(uniqueKeysWithValues: links.map { ($0.key, $0.value.href) })
    }

    // MARK: - Page number

    @Test func pageNumberInTheMiddle() {
        let links = JSONAPIQuery.Page.number(2, size: 10).links(
            forRequest: "/articles?sort=-created&page%5Bnumber%5D=2&page[size]=10", result: .total(35))
        #expect(links.keys == ["self", "first", "prev", "next", "last"])
        #expect(
            hrefs(links) == [
                "self": "/articles?sort=-created&page%5Bnumber%5D=2&page[size]=10",
                "first": "/articles?sort=-created&page%5Bnumber%5D=1&page[size]=10",
                "prev": "/articles?sort=-created&page%5Bnumber%5D=1&page[size]=10",
                "next": "/articles?sort=-created&page%5Bnumber%5D=3&page[size]=10",
                "last": "/articles?sort=-created&page%5Bnumber%5D=4&page[size]=10",
            ])
    }

    @Test func pageNumberAtTheEdges() {
        let first = JSONAPIQuery.Page.number(1, size: 10).links(forRequest: "/a", result: .total(35))
        #expect(first.keys == ["self", "first", "next", "last"])
        #expect(first["next"]?.href == "/a?page%5Bnumber%5D=2")
        let last = JSONAPIQuery.Page.number(4, size: 10).links(forRequest: "/a?page[number]=4", result: .total(35))
        #expect(last.keys == ["self", "first", "prev", "last"])
        #expect(last["last"]?.href == "/a?page%5Bnumber%5D=4")
        let only = JSONAPIQuery.Page.number(1, size: 10).links(forRequest: "/a", result: .total(10))
        #expect(only.keys == ["self", "first", "last"])
        let empty = JSONAPIQuery.Page.number(1, size: 10).links(forRequest: "/a", result: .total(0))
        #expect(empty.keys == ["self", "first", "last"])
        #expect(empty["last"]?.href == "/a?page%5Bnumber%5D=1")
        // Past the end: `prev` leads back to the last page.
        let beyond = JSONAPIQuery.Page.number(9, size: 10).links(forRequest: "/a?page[number]=9", result: .total(35))
        #expect(beyond.keys == ["self", "first", "prev", "last"])
        #expect(beyond["prev"]?.href == "/a?page%5Bnumber%5D=4")
    }

    @Test func pageNumberWithoutATotal() {
        let more = JSONAPIQuery.Page.number(3, size: 10).links(
            forRequest: "/a?page[number]=3", result: PageResult(hasNextPage: true))
        #expect(more.keys == ["self", "first", "prev", "next"])
        let end = JSONAPIQuery.Page.number(3, size: 10).links(
            forRequest: "/a?page[number]=3", result: PageResult(hasNextPage: false))
        #expect(end.keys == ["self", "first", "prev"])
        let unknown = JSONAPIQuery.Page.number(1, size: 10).links(forRequest: "/a", result: PageResult())
        #expect(unknown.keys == ["self", "first", "next"])
    }

    // MARK: - Offset

    @Test func offsetInTheMiddleAndAtTheEdges() {
        let middle = JSONAPIQuery.Page.offset(20, limit: 10).links(
            forRequest: "https://example.com/articles?page[limit]=10&page[offset]=20&filter[x]=a%2Cb",
            result: .total(45))
        #expect(
            hrefs(middle) == [
                "self": "https://example.com/articles?page[limit]=10&page[offset]=20&filter[x]=a%2Cb",
                "first": "https://example.com/articles?page[limit]=10&page%5Boffset%5D=0&filter[x]=a%2Cb",
                "prev": "https://example.com/articles?page[limit]=10&page%5Boffset%5D=10&filter[x]=a%2Cb",
                "next": "https://example.com/articles?page[limit]=10&page%5Boffset%5D=30&filter[x]=a%2Cb",
                "last": "https://example.com/articles?page[limit]=10&page%5Boffset%5D=40&filter[x]=a%2Cb",
            ])
        let first = JSONAPIQuery.Page.offset(0, limit: 10).links(forRequest: "/a", result: .total(45))
        #expect(first.keys == ["self", "first", "next", "last"])
        let last = JSONAPIQuery.Page.offset(40, limit: 10).links(forRequest: "/a", result: .total(45))
        #expect(last.keys == ["self", "first", "prev", "last"])
        // An offset that is not a multiple of the limit: `prev` stops at 0.
        let odd = JSONAPIQuery.Page.offset(5, limit: 10).links(forRequest: "/a", result: .total(45))
        #expect(odd["prev"]?.href == "/a?page%5Boffset%5D=0")
        #expect(odd["next"]?.href == "/a?page%5Boffset%5D=15")
        let exact = JSONAPIQuery.Page.offset(30, limit: 10).links(forRequest: "/a", result: .total(40))
        #expect(exact.keys == ["self", "first", "prev", "last"])
        #expect(exact["last"]?.href == "/a?page%5Boffset%5D=30")
        let huge = JSONAPIQuery.Page.offset(Int.max - 1, limit: 10).links(forRequest: "/a", result: .total(Int.max))
        #expect(huge["next"] == nil)
        let hasNext = JSONAPIQuery.Page.offset(0, limit: 10).links(
            forRequest: "/a", result: PageResult(hasNextPage: true))
        #expect(hasNext.keys == ["self", "first", "next"])
    }

    // MARK: - Cursor

    @Test func cursorFirstPage() {
        let links = JSONAPIQuery.Page.cursor(after: nil, before: nil, size: 2).links(
            forRequest: "/example-data?page[size]=2",
            result: .cursors(first: "yyy", last: "zzz", hasPrevious: false, hasNext: true))
        #expect(links.keys == ["self", "first", "next"])
        #expect(links["next"]?.href == "/example-data?page[size]=2&page%5Bafter%5D=zzz")
    }

    /// The profile's example: `GET /example-data?page[after]=abcde&page[size]=2`.
    @Test func cursorAfter() {
        let links = JSONAPIQuery.Page.cursor(after: "abcde", before: nil, size: 2).links(
            forRequest: "/example-data?page[after]=abcde&page[size]=2", result: .cursors(first: "yyy", last: "zzz"))
        #expect(
            hrefs(links) == [
                "self": "/example-data?page[after]=abcde&page[size]=2",
                "first": "/example-data?page[size]=2",
                "prev": "/example-data?page%5Bbefore%5D=yyy&page[size]=2",
                "next": "/example-data?page%5Bafter%5D=zzz&page[size]=2",
            ])
    }

    /// The profile's range example: both cursors dropped in favour of one.
    @Test func cursorRange() {
        let links = JSONAPIQuery.Page.cursor(after: "abcde", before: "xxx", size: 100).links(
            forRequest: "/example-data?page[after]=abcde&page[before]=xxx", result: .cursors(first: "yyy", last: "zzz"))
        #expect(links["prev"]?.href == "/example-data?page%5Bbefore%5D=yyy")
        #expect(links["next"]?.href == "/example-data?page%5Bafter%5D=zzz")
        #expect(links["first"]?.href == "/example-data")
    }

    @Test func cursorLastAndEmptyPages() {
        let last = JSONAPIQuery.Page.cursor(after: "a", before: nil, size: 2).links(
            forRequest: "/d?page[after]=a", result: .cursors(first: "b", last: "c", hasNext: false))
        #expect(last.keys == ["self", "first", "prev"])
        let empty = JSONAPIQuery.Page.cursor(after: "a", before: nil, size: 2).links(
            forRequest: "/d?page[after]=a", result: .cursors(first: nil, last: nil))
        #expect(empty.keys == ["self", "first"])
        // Cursors are encoded as values.
        let encoded = JSONAPIQuery.Page.cursor(after: nil, before: nil, size: 2).links(
            forRequest: "/d", result: .cursors(first: nil, last: "a+b/c=="))
        #expect(encoded["next"]?.href == "/d?page%5Bafter%5D=a%2Bb/c%3D%3D")
    }

    // MARK: - Preservation

    /// The link a client got when it sent `page[size]` encoded and `page[number]` not: one
    /// encoding for the name written, the client's own parameter as it was.
    @Test func theReplacedParameterIsWrittenEncoded() {
        let links = JSONAPIQuery.Page.number(2, size: 10).links(
            forRequest: "/tags?page%5Bsize%5D=10&page[number]=2", result: .total(35))
        #expect(links["next"]?.href == "/tags?page%5Bsize%5D=10&page%5Bnumber%5D=3")
        #expect(links["first"]?.href == "/tags?page%5Bsize%5D=10&page%5Bnumber%5D=1")
    }

    @Test func otherParametersKeepTheirOrderAndEncoding() {
        let request =
            "/articles?include=author&fields%5Barticles%5D=title,author&filter[name]=Ann+Lee&page%5Bnumber%5D=2"
            + "&x=%7e&filter[tag][]=a&filter[tag][]=b&weird=%ZZ"
        let links = JSONAPIQuery.Page.number(2, size: 20).links(forRequest: request, result: .total(100))
        #expect(
            links["next"]?.href
                == "/articles?include=author&fields%5Barticles%5D=title,author&filter[name]=Ann+Lee&page%5Bnumber%5D=3"
                + "&x=%7e&filter[tag][]=a&filter[tag][]=b&weird=%ZZ")
    }

    @Test func duplicatesOfTheLocatorAreDroppedAndFragmentsIgnored() {
        let links = JSONAPIQuery.Page.number(1, size: 20).links(
            forRequest: "/a?page[number]=1&b=2&page%5Bnumber%5D=1#top", result: .total(100))
        #expect(links["self"]?.href == "/a?page[number]=1&b=2&page%5Bnumber%5D=1")
        #expect(links["next"]?.href == "/a?page%5Bnumber%5D=2&b=2")
    }

    @Test func linksParseBackToTheirPages() throws {
        let rules = QueryRules(includePaths: .any, pagination: .pages(defaultSize: 20, maximumSize: 100))
        let links = JSONAPIQuery.Page.number(2, size: 20).links(
            forRequest: "/articles?include=author&page[number]=2", result: .total(95))
        for (name, expected) in [("first", 1), ("prev", 1), ("next", 3), ("last", 5)] {
            let href = try #require(links[name]?.href)
            let query = try JSONAPIQuery(parsing: href.split(separator: "?")[1], rules: rules)
            #expect(query.page == .number(expected, size: 20), "\(name)")
            #expect(query.include == ["author"])
        }
    }

    @Test func linksAreWritten() throws {
        let links = JSONAPIQuery.Page.number(1, size: 10).links(forRequest: "/a", result: .total(5))
        #expect(
            try links.jsonString() == #"{"self":"/a","first":"/a?page%5Bnumber%5D=1","last":"/a?page%5Bnumber%5D=1"}"#)
    }
}
