import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

@Suite("The filter expression language")
struct FilterLanguageTests {
    @Test("expressions parse into the typed tree, fields with their offsets")
    func parsing() throws {
        let expression = try FilterExpression(
            parsing:
                "and(greaterThan(year,1960), contains(author.name,'Herb''s'), not(isNull(rating)), any(year,1,-2.5e1))")
        #expect(
            expression
                == .and([
                    .compare(FilterField(["year"], offset: 16), .greaterThan, 1960),
                    .text(FilterField(["author", "name"], offset: 37), .contains, "Herb's"),
                    .not(.isNull(FilterField(["rating"], offset: 72))),
                    .oneOf(FilterField(["year"], offset: 86), [1, -25.0]),
                ]))
        #expect(try FilterExpression(parsing: "equals(rating,null)") == .isNull(FilterField(["rating"], offset: 7)))
        #expect(
            try FilterExpression(parsing: "notEquals(rating, null)")
                == .not(.isNull(FilterField(["rating"], offset: 10))))
    }

    @Test(
        "syntax errors name the byte offset of the first problem",
        arguments: [
            ("equals(year,1965", 16, "expected `)`"),
            ("equals(year 1965)", 12, "expected `,` or `)`"),
            ("equal(year,1)", 0, "unknown function `equal`"),
            ("equals(year)", 0, "`equals` takes 2 arguments"),
            ("equals(1,year)", 7, "takes a field"),
            ("contains(title,5)", 15, "takes text in quotes"),
            ("equals(title,'open", 13, "no closing"),
            ("and(year)", 4, "takes expressions"),
            ("equals(year,1) x", 15, "unexpected text"),
            ("lessThan(year,null)", 14, "cannot compare with null"),
            ("equals(year,1e999)", 12, "out of range"),
            ("equals(a.,1)", 9, "expected a name"),
            ("", 0, "expected a function"),
        ])
    func syntaxErrors(text: String, offset: Int, message: String) {
        #expect {
            try FilterExpression(parsing: text)
        } throws: { error in
            guard let error = error as? FilterSyntaxError else { return false }
            return error.offset == offset && error.message.contains(message)
        }
    }

    @Test("nesting past the limit is an error, not deep recursion")
    func nesting() {
        let deep = String(repeating: "not(", count: 10_000) + "isNull(a)" + String(repeating: ")", count: 10_000)
        #expect(throws: FilterSyntaxError.self) { try FilterExpression(parsing: deep) }
        let allowed = String(repeating: "not(", count: 15) + "isNull(a)" + String(repeating: ")", count: 15)
        #expect(throws: Never.self) { try FilterExpression(parsing: allowed) }
    }

    @Test("collections filtered by expressions, through relationships too")
    func service() async throws {
        let service = Library.service(try Library.sources())
        func ids(_ filter: String) async throws -> [String] {
            let answer = await service.send("GET", "books", .collection, query: "filter=" + filter)
            return try #require(answer.document, "\(filter): \(answer.text)").primaryResources.map { $0.id ?? "" }
        }
        #expect(try await ids("and(greaterThan(year,1960),contains(author.name,'Herbert'))") == ["1", "3"])
        #expect(try await ids("isNull(rating)") == ["3"])
        #expect(try await ids("any(year,1965,1974)") == ["1", "2"])
        #expect(try await ids("equals(reviews.stars,3)") == ["1"])
        #expect(try await ids("not(isNull(reviews))") == ["1"])
        #expect(try await ids("or(startsWith(title,'Children'),lessOrEqual(rating,4.5))") == ["1", "3"])
        #expect(try await ids("greaterThan(author.born,1925)") == ["2"])
        // The id, by default: as a string or an integer, equality only.
        #expect(try await ids("any(id,2,'3')") == ["2", "3"])
        #expect(try await ids("notEquals(id,1)") == ["2", "3"])
        #expect(try await ids("equals(author.id,'1')") == ["1", "3"])
        let plain = await service.send("GET", "books", .collection, query: "filter[id]=2")
        #expect(plain.document?.primaryResources.map(\.id) == ["2"])
        for refused in ["lessThan(id,2)", "isNull(id)", "contains(id,'1')", "equals(id,true)"] {
            let answer = await service.send("GET", "books", .collection, query: "filter=" + refused)
            #expect(answer.status == 400 && answer.errors.first?.source?.parameter == "filter", "\(refused)")
        }
        let unfilterable = Library.service(try Library.sources()) { $0.fields.filterable.remove("id") }
        #expect(await unfilterable.send("GET", "books", .collection, query: "filter[id]=2").status == 400)
        #expect(await unfilterable.send("GET", "books", .collection, query: "filter=equals(id,'2')").status == 400)
    }

    @Test("a filtered read names the filter language's profile, also when answered again")
    func profile() async throws {
        let service = Library.service(try Library.sources())
        let profile = [ResourceService.filterProfile]
        for query in ["filter=isNull(rating)", "filter[year]=1965", "filter=any(year,1965)&include=author"] {
            let first = await service.send("GET", "books", .collection, query: query)
            #expect(first.status == 200 && first.response?.profiles == profile, "\(query)")
            // The second answer comes from the response cache, the third is a 304 without a body.
            let again = await service.send("GET", "books", .collection, query: query)
            #expect(again.response?.profiles == profile && again.body == first.body, "\(query)")
            let etag = try #require(first.response?.etag)
            let unchanged = await service.send("GET", "books", .collection, query: query, ifNoneMatch: etag)
            #expect(unchanged.status == 304 && unchanged.body == nil)
        }
        for query in ["", "include=author", "sort=-year"] {
            #expect(await service.send("GET", "books", .collection, query: query).response?.profiles == [])
        }
        #expect(await service.send("GET", "books", .resource(id: "1")).response?.profiles == [])
        #expect(ResourceService.filterProfile.hasPrefix("urn:uuid:"))
    }

    @Test("each problem of an expression is a 400 naming `filter` and the offset")
    func problems() async throws {
        let service = Library.service(try Library.sources())
        let answer = await service.send(
            "GET", "books", .collection, query: "filter=and(equals(isbn,1),contains(year,'x'),equals(title,3))")
        #expect(answer.status == 400)
        #expect(answer.errors.allSatisfy { $0.source?.parameter == "filter" })
        #expect(answer.errors.compactMap { $0.meta?["offset"]?.int64Value } == [11, 28, 45])
        let syntax = await service.send("GET", "books", .collection, query: "filter=equals(year")
        #expect(syntax.errors.first?.meta?["offset"]?.int64Value == 11)
    }

    /// Random expressions over the library, evaluated by the service and by plain Swift over the
    /// models.
    @Test("random expressions agree with a reference evaluation over the models")
    func differential() async throws {
        var random = SplitMix64(seed: 0xF117_0035)
        let sources = try Library.sources()
        let service = Library.service(sources)
        let books = try await sources.books.list(ResourceListQuery()).models
        let authors = Dictionary(
            uniqueKeysWithValues: try await sources.authors.list(ResourceListQuery()).models.map { ($0.id, $0) })
        typealias Predicate = @Sendable (Library.Book) -> Bool
        func make(_ depth: Int) -> (String, Predicate) {
            let choice = depth > 2 ? random.next() % 6 : random.next() % 11
            switch choice {
            case 0:
                let year = 1960 + Int(random.next() % 20)
                return ("greaterThan(year,\(year))", { $0.year > year })
            case 1:
                let rating = Double(random.next() % 10) / 2
                return ("lessOrEqual(rating,\(rating))", { $0.rating.map { $0 <= rating } ?? false })
            case 2:
                let text = ["Dune", "D", "e", "The", "x"][Int(random.next() % 5)]
                return ("contains(title,'\(text)')", { $0.title.contains(text) })
            case 3: return ("isNull(rating)", { $0.rating == nil })
            case 4:
                let born = 1915 + Int(random.next() % 20)
                return (
                    "lessThan(author.born,\(born))",
                    { book in authors[book.author.id]?.born.map { $0 < born } ?? false }
                )
            case 5:
                let name = ["Frank Herbert", "Ursula K. Le Guin", "Nobody"][Int(random.next() % 3)]
                return ("equals(author.name,'\(name)')", { authors[$0.author.id]?.name == name })
            case 9:
                let ids = (0..<(1 + Int(random.next() % 3))).map { _ in Int(random.next() % 6) }
                let written = ids.map { $0 % 2 == 0 ? "\($0)" : "'\($0)'" }.joined(separator: ",")
                return ("any(id,\(written))", { book in ids.map(String.init).contains(book.id) })
            case 10:
                let id = String(1 + random.next() % 3)
                return (
                    "notEquals(author.id,'\(id)')", { book in authors[book.author.id] != nil && book.author.id != id }
                )
            case 6:
                let (text, predicate) = make(depth + 1)
                return ("not(\(text))", { !predicate($0) })
            default:
                let parts = (0..<(1 + Int(random.next() % 3))).map { _ in make(depth + 1) }
                let isAnd = choice == 7
                let predicates = parts.map(\.1)
                return (
                    (isAnd ? "and(" : "or(") + parts.map(\.0).joined(separator: ",") + ")",
                    { book in isAnd ? predicates.allSatisfy { $0(book) } : predicates.contains { $0(book) } }
                )
            }
        }
        for _ in 0..<300 {
            let (text, predicate) = make(0)
            let query =
                "filter=" + text.split(separator: " ", omittingEmptySubsequences: false).joined(separator: "%20")
            let answer = await service.send("GET", "books", .collection, query: query)
            let document = try #require(answer.document, "\(text): \(answer.text)")
            #expect(
                document.primaryResources.map { $0.id ?? "" } == books.filter(predicate).map(\.id), "\(text)")
        }
    }
}
