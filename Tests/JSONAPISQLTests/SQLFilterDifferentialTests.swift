import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// The filters and sorts the database runs against the in-memory source's, which evaluates them
/// in Swift: the same books in both, random expressions of the filter language (comparisons,
/// text matches, `any`, `isNull`, `and`, `or`, `not`, a field through a relationship, the id) and random
/// sorts, the same ids in the same order from both services.
@Suite("SQL filters and sorts against the in-memory source")
struct SQLFilterDifferentialTests {
    static let titles = [
        "Dune", "dune", "Émile", "Emma", "A", "Zazie", "Dune Messiah", "Ulysses", "Beloved", "ü", "50%_off", "O'Brien",
    ]
    static let names = ["Frank Herbert", "Ursula K. Le Guin", "Émile Zola"]

    struct Data {
        var authors: [Library.Author] = []
        var books: [Library.Book] = []
    }

    static func data(_ random: inout SplitMix64) -> Data {
        var data = Data()
        for (index, name) in names.enumerated() {
            data.authors.append(
                Library.Author(id: String(index + 1), name: name, born: index == 2 ? nil : 1900 + index))
        }
        for index in 1...60 {
            let title = titles[Int(random.next() % UInt64(titles.count))]
            let year = 1960 + Int(random.next() % 8)
            let rating: Double? = random.next() % 4 == 0 ? nil : Double(random.next() % 10) / 2
            let author = String(1 + random.next() % 3)
            data.books.append(
                Library.Book(
                    id: String(index), title: title, year: year, rating: rating, author: .init(author), reviews: []))
        }
        return data
    }

    /// A random filter expression of `depth` levels at most.
    static func expression(_ random: inout SplitMix64, depth: Int) -> String {
        let choice = depth > 0 ? random.next() % 10 : random.next() % 6
        func title() -> String {
            titles[Int(random.next() % UInt64(titles.count))].replacingOccurrences(of: "'", with: "''")
        }
        switch choice {
        case 0:
            switch random.next() % 4 {
            case 0: return "\(random.next() % 2 == 0 ? "equals" : "notEquals")(id,'\(1 + random.next() % 60)')"
            case 1: return "notEquals(id,'0\(1 + random.next() % 9)')"
            case 2: return "equals(author.id,\(1 + random.next() % 4))"
            default: return "equals(title,'\(title())')"
            }
        case 1:
            let comparisons = ["lessThan", "greaterOrEqual", "notEquals", "lessOrEqual", "greaterThan", "equals"]
            let field = random.next() % 2 == 0 ? "year" : "rating"
            let value = field == "year" ? String(1960 + random.next() % 8) : String(Double(random.next() % 10) / 2)
            return "\(comparisons[Int(random.next() % 6)])(\(field),\(value))"
        case 2:
            let matches = ["contains", "startsWith", "endsWith"]
            let text = String(title().prefix(Int(1 + random.next() % 3)))
            return "\(matches[Int(random.next() % 3)])(title,'\(text)')"
        case 3:
            guard random.next() % 2 == 0 else {
                // Ids: unquoted integers, their strings, forms no integer id is written in.
                let ids = ["\(1 + random.next() % 60)", "'\(1 + random.next() % 60)'", "'07'", "'x'", "'-0'"]
                return "any(id,\(ids[Int(random.next() % 5)]),\(ids[Int(random.next() % 5)]))"
            }
            return "any(year,\(1960 + random.next() % 8),\(1960 + random.next() % 8))"
        case 4: return random.next() % 2 == 0 ? "isNull(rating)" : "isNull(author.born)"
        case 5:
            let name = names[Int(random.next() % UInt64(names.count))]
            return random.next() % 2 == 0
                ? "equals(author.name,'\(name)')" : "startsWith(author.name,'\(name.prefix(3))')"
        case 6: return "not(\(expression(&random, depth: depth - 1)))"
        case 7, 8:
            let items = (0..<(1 + random.next() % 3)).map { _ in expression(&random, depth: depth - 1) }
            return "\(choice == 7 ? "and" : "or")(\(items.joined(separator: ",")))"
        default: return "not(isNull(rating))"
        }
    }

    static func sort(_ random: inout SplitMix64) -> String {
        let fields = ["title", "-title", "year", "-year", "rating", "-rating"]
        let count = Int(random.next() % 3)
        var chosen: [String] = []
        for _ in 0..<count {
            let field = fields[Int(random.next() % UInt64(fields.count))]
            if !chosen.contains(where: { $0.trimmingPrefix("-") == field.trimmingPrefix("-") }) { chosen.append(field) }
        }
        return chosen.joined(separator: ",")
    }

    @Test("random filters and sorts: the same ids in the same order", arguments: SQLTestDatabase.available)
    func differential(_ kind: SQLTestDatabase) async throws {
        var random = SplitMix64(seed: 50)
        let data = Self.data(&random)
        var memory = ResourceService()
        memory.serve(ResourceDeclaration(source: try InMemoryDataSource(data.authors)))
        memory.serve(ResourceDeclaration(source: try InMemoryDataSource(data.books)))
        memory.serve(ResourceDeclaration(source: InMemoryDataSource<Library.Review>()))
        try await kind.with { database in
            let sources = SQLLibrary.sources(database)
            var service = SQLLibrary.service(sources)
            service.responseCacheLimit = 0
            try await database.createTables()
            for author in data.authors { _ = try await sources.authors.create(author) }
            for book in data.books { _ = try await sources.books.create(book) }
            var compared = 0
            for round in 0..<300 {
                let filter = Self.expression(&random, depth: 3)
                let sort = Self.sort(&random)
                var query = "filter=" + (filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                if !sort.isEmpty { query += "&sort=" + sort }
                if round % 3 == 0 { query += "&page[size]=7&page[number]=\(1 + random.next() % 3)" }
                let expected = await memory.send("GET", "books", .collection, query: query)
                let actual = await service.send("GET", "books", .collection, query: query)
                #expect(actual.status == expected.status, "\(query): \(actual.text)")
                let expectedIDs = expected.document?.primaryResources.compactMap(\.id) ?? []
                let actualIDs = actual.document?.primaryResources.compactMap(\.id) ?? []
                #expect(actualIDs == expectedIDs, "\(query)")
                #expect(
                    (actual.document?.links?["next"] == nil) == (expected.document?.links?["next"] == nil), "\(query)")
                if !expectedIDs.isEmpty { compared += 1 }
            }
            // The generator is not all empty answers.
            #expect(compared > 150)
        }
    }
}
