import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// The service and its in-memory source against a reference written independently: a plain
/// dictionary of books, sorted, filtered and paged with the standard library. Random writes go
/// through the service as requests; after each, random collection queries must answer the
/// reference's ids, total and `next` link.
@Suite("Resource service against a reference model")
struct ReferenceModelTests {
    typealias Book = Library.Book

    struct Reference {
        var books: [String: Book] = [:]
        var order: [String] = []  // creation order

        mutating func put(_ book: Book) {
            if books[book.id] == nil { order.append(book.id) }
            books[book.id] = book
        }

        mutating func remove(_ id: String) {
            books[id] = nil
            order.removeAll { $0 == id }
        }

        /// Ids of `query`: filter, stable sort (nil ratings first), page.
        func ids(sort: [(name: String, descending: Bool)], year: Int?, number: Int, size: Int) -> (
            ids: [String], total: Int
        ) {
            var rows = order.compactMap { books[$0] }
            if let year { rows = rows.filter { $0.year == year } }
            func compare(_ a: Book, _ b: Book, _ name: String) -> Int {
                switch name {
                case "title":
                    return a.title == b.title ? 0 : (a.title.utf8.lexicographicallyPrecedes(b.title.utf8) ? -1 : 1)
                case "year": return a.year == b.year ? 0 : (a.year < b.year ? -1 : 1)
                default:
                    switch (a.rating, b.rating) {
                    case (nil, nil): return 0
                    case (nil, _): return -1
                    case (_, nil): return 1
                    case (let x?, let y?): return x == y ? 0 : (x < y ? -1 : 1)
                    }
                }
            }
            let indexed = rows.enumerated().sorted { left, right in
                for field in sort {
                    let c = compare(left.element, right.element, field.name)
                    if c != 0 { return field.descending ? c > 0 : c < 0 }
                }
                return left.offset < right.offset
            }.map(\.element)
            let start = (number - 1) * size
            let page = start < indexed.count ? Array(indexed[start..<min(start + size, indexed.count)]) : []
            return (page.map(\.id), indexed.count)
        }
    }

    static let titles = ["Dune", "Emma", "Ulysses", "Beloved", "dune", "Émile", "A", "Zazie"]

    /// A write body, and the book it describes once its id is known (the server's, for a create).
    static func randomBody(_ random: inout SplitMix64, id: String?) -> (String, @Sendable (String) -> Book) {
        let title = titles[Int(random.next() % UInt64(titles.count))]
        let year = 1900 + Int(random.next() % 6)
        let rating: Double? = random.next() % 3 == 0 ? nil : Double(random.next() % 10) / 2
        let author = random.next() % 2 == 0 ? "1" : "2"
        let idMember = id.map { #""id":"\#($0)","# } ?? ""
        let ratingText = rating.map { String($0) } ?? "null"
        let body = #"""
            {"data":{"type":"books",\#(idMember)"attributes":{"title":"\#(title)","year":\#(year),"rating":\#(ratingText)},
             "relationships":{"author":{"data":{"type":"authors","id":"\#(author)"}},"reviews":{"data":[]}}}}
            """#
        return (body, { Book(id: $0, title: title, year: year, rating: rating, author: .init(author), reviews: []) })
    }

    @Test("random writes, then random queries: the service answers what the reference does")
    func differential() async throws {
        var random = SplitMix64(seed: 0x5EED_0035)
        let sources = try Library.sources()
        let service = Library.service(sources)
        var reference = Reference()
        for book in try await sources.books.list(ResourceListQuery()).models { reference.put(book) }
        var checked = 0
        for step in 0..<150 {
            switch random.next() % 4 {
            case 0, 1:
                let (body, book) = Self.randomBody(&random, id: nil)
                let answer = await service.send("POST", "books", .collection, body: body)
                #expect(answer.status == 201, "\(answer.text)")
                let id = try #require(answer.document?.primaryResources.first?.id)
                // The reference holds what was sent, not what the service stored; the two agree.
                reference.put(book(id))
                #expect(try await sources.books.fetch(id: id) == book(id))
            case 2:
                guard let id = reference.order.randomElement(using: &random) else { continue }
                let (body, book) = Self.randomBody(&random, id: id)
                let answer = await service.send("PATCH", "books", .resource(id: id), body: body)
                #expect(answer.status == 200, "\(answer.text)")
                reference.put(book(id))
                #expect(try await sources.books.fetch(id: id) == book(id))
            default:
                guard let id = reference.order.randomElement(using: &random) else { continue }
                #expect(await service.send("DELETE", "books", .resource(id: id)).status == 204)
                reference.remove(id)
            }
            for _ in 0..<3 {
                let names = ["title", "year", "rating"]
                var sort: [(name: String, descending: Bool)] = []
                for name in names.shuffled(using: &random).prefix(Int(random.next() % 3)) {
                    sort.append((name, random.next() % 2 == 0))
                }
                let year: Int? = random.next() % 3 == 0 ? 1900 + Int(random.next() % 6) : nil
                let size = 1 + Int(random.next() % 5)
                let number = 1 + Int(random.next() % 4)
                var query = "page[number]=\(number)&page[size]=\(size)"
                if !sort.isEmpty {
                    query += "&sort=" + sort.map { ($0.descending ? "-" : "") + $0.name }.joined(separator: ",")
                }
                if let year { query += "&filter[year]=\(year)" }
                let answer = await service.send("GET", "books", .collection, query: query)
                let document = try #require(answer.document, "step \(step): \(query): \(answer.text)")
                let expected = reference.ids(sort: sort, year: year, number: number, size: size)
                #expect(document.primaryResources.map { $0.id ?? "" } == expected.ids, "step \(step): \(query)")
                #expect(document.meta?["total"]?.int64Value == Int64(expected.total), "step \(step): \(query)")
                let hasNext = number * size < expected.total
                #expect((document.links?["next"] != nil) == hasNext, "step \(step): \(query)")
                checked += 1
            }
        }
        #expect(checked > 400)
        #expect(sources.books.count == reference.books.count)
    }
}
