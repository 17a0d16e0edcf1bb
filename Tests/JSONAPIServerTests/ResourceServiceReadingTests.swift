import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

@Suite("Resource service: reading")
struct ResourceServiceReadingTests {
    @Test("a collection, sorted, paged, with total and pagination links")
    func collection() async throws {
        let service = Library.service(try Library.sources())
        let answer = await service.send("GET", "books", .collection, query: "sort=-year&page[size]=2")
        #expect(answer.status == 200)
        let document = try #require(answer.document)
        #expect(document.primaryResources.map(\.id) == ["3", "2"])
        #expect(document.meta?["total"]?.int64Value == 3)
        let links = try #require(document.links)
        // The target keeps the client's spelling; only the page number is replaced.
        #expect(links["self"]?.href == "/books?sort=-year&page[size]=2")
        #expect(links["next"]?.href == "/books?sort=-year&page[size]=2&page%5Bnumber%5D=2")
        #expect(links["last"]?.href == "/books?sort=-year&page[size]=2&page%5Bnumber%5D=2")
        #expect(!document.hasIncluded)
        let first = document.primaryResources[0]
        #expect(first.links?["self"]?.href == "/books/3")
        #expect(first.relationship("author")?.links?["related"]?.href == "/books/3/author")
        #expect(first.relationship("author")?.links?["self"]?.href == "/books/3/relationships/author")
    }

    @Test("include resolves related resources through their own data sources, each once")
    func include() async throws {
        let service = Library.service(try Library.sources())
        let answer = await service.send("GET", "books", .collection, query: "include=author,reviews.book")
        #expect(answer.status == 200)
        let document = try #require(answer.document)
        let included = document.included.map { "\($0.type)/\($0.id ?? "")" }
        #expect(Set(included) == ["authors/1", "authors/2", "reviews/1", "reviews/2"])
        #expect(included.count == 4)  // books/1 (a review's book) is primary: not included again
        // Strict parsing checks full linkage.
        #expect(throws: Never.self) { try Document(parsing: answer.body ?? []) }
    }

    @Test("include= asks for none: an empty included member")
    func emptyInclude() async throws {
        let service = Library.service(try Library.sources())
        let answer = await service.send("GET", "books", .resource(id: "1"), query: "include=")
        #expect(answer.status == 200)
        #expect(answer.text.contains("\"included\":[]"))
    }

    @Test("sparse fieldsets cut every type, included ones too")
    func fieldsets() async throws {
        let service = Library.service(try Library.sources())
        let answer = await service.send(
            "GET", "books", .resource(id: "1"), query: "include=author&fields[books]=title&fields[authors]=born")
        let document = try #require(answer.document)
        let book = document.primaryResources[0]
        #expect(book.attributes.keys == ["title"])
        #expect(book.relationships.isEmpty)
        #expect(document.included[0].attributes.keys == ["born"])
    }

    @Test("filters are typed by the attribute's shape, and unknown ones are 400s naming the parameter")
    func filters() async throws {
        let service = Library.service(try Library.sources())
        let byYear = await service.send("GET", "books", .collection, query: "filter[year]=1974")
        #expect(try #require(byYear.document).primaryResources.map(\.id) == ["2"])
        let byTitle = await service.send("GET", "books", .collection, query: "filter[title]=Dune")
        #expect(try #require(byTitle.document).primaryResources.map(\.id) == ["1"])
        let bad = await service.send("GET", "books", .collection, query: "filter[year]=soon&filter[author]=1")
        #expect(bad.status == 400)
        #expect(bad.errors.compactMap(\.source?.parameter).sorted() == ["filter[author]", "filter[year]"])
    }

    @Test("unknown types, ids, relationships and query parameters")
    func notFound() async throws {
        let service = Library.service(try Library.sources())
        #expect(await service.send("GET", "movies", .collection).status == 404)
        #expect(await service.send("GET", "books", .resource(id: "9")).status == 404)
        #expect(await service.send("GET", "books", .related(id: "1", relationship: "editor")).status == 404)
        let sort = await service.send("GET", "books", .collection, query: "sort=author")
        #expect(sort.status == 400)
        #expect(sort.errors.first?.source?.parameter == "sort")
        let include = await service.send("GET", "books", .collection, query: "include=publisher")
        #expect(include.status == 400)
        let pageSize = await service.send("GET", "books", .collection, query: "page[size]=101")
        #expect(pageSize.status == 400)
    }

    @Test("related and relationship endpoints")
    func related() async throws {
        let service = Library.service(try Library.sources())
        let author = await service.send("GET", "books", .related(id: "1", relationship: "author"))
        #expect(try #require(author.document).primaryResources.map(\.id) == ["1"])
        #expect(author.document?.primaryResources.first?.type == "authors")
        let reviews = await service.send(
            "GET", "books", .related(id: "1", relationship: "reviews"), query: "include=book")
        let document = try #require(reviews.document)
        #expect(document.primaryResources.map(\.id) == ["1", "2"])
        #expect(document.included.map(\.id) == ["1"])
        let none = await service.send("GET", "books", .related(id: "2", relationship: "reviews"))
        #expect(none.text.hasPrefix("{\"data\":[]"))
        let linkage = await service.send("GET", "books", .relationship(id: "1", relationship: "reviews"))
        #expect(
            linkage.text
                == #"{"data":[{"type":"reviews","id":"1"},{"type":"reviews","id":"2"}],"links":{"self":"/books/1/relationships/reviews","related":"/books/1/reviews"}}"#
        )
    }

    @Test("a to-many related endpoint sorts, filters and pages as a collection of its resources")
    func relatedCollection() async throws {
        let sources = try Library.sources()
        _ = try await sources.reviews.create(Library.Review(id: "3", body: "Other book.", stars: 4, book: "2"))
        let service = Library.service(sources)
        func ids(_ query: String) async throws -> [String] {
            let answer = await service.send("GET", "books", .related(id: "1", relationship: "reviews"), query: query)
            return try #require(answer.document, "\(query): \(answer.text)").primaryResources.compactMap(\.id)
        }
        // Without sort, filter or page: the linkage, in its order.
        #expect(try await ids("") == ["1", "2"])
        #expect(try await ids("sort=stars") == ["2", "1"])
        #expect(try await ids("sort=-stars") == ["1", "2"])
        #expect(try await ids("filter[stars]=3") == ["2"])
        #expect(try await ids("filter=greaterThan(stars,3)") == ["1"])
        // Review 3 is not book 1's, whatever the query asks.
        #expect(try await ids("filter=any(id,'1','3')") == ["1"])
        let page = await service.send(
            "GET", "books", .related(id: "1", relationship: "reviews"), query: "sort=stars&page[size]=1")
        let document = try #require(page.document)
        #expect(document.primaryResources.compactMap(\.id) == ["2"])
        #expect(document.links?["next"]?.href.contains("page%5Bnumber%5D=2") == true)
        // The related type's rules: an unknown sort field is still a 400 naming it.
        let unknown = await service.send(
            "GET", "books", .related(id: "1", relationship: "reviews"), query: "sort=nope")
        #expect(unknown.status == 400 && unknown.errors.first?.source?.parameter == "sort")
        // Without them, a bad parameter is refused as on any single answer, and does not make
        // the request a collection: the include is named, and nothing is listed.
        let badInclude = await service.send(
            "GET", "books", .related(id: "1", relationship: "reviews"), query: "include=nope")
        #expect(badInclude.status == 400 && badInclude.errors.first?.source?.parameter == "include")
        // With them, an encoded name counts as written (`page%5Bsize%5D` is `page[size]`).
        let encoded = await service.send(
            "GET", "books", .related(id: "1", relationship: "reviews"), query: "sort=stars&page%5Bsize%5D=1")
        #expect(try #require(encoded.document).primaryResources.compactMap(\.id) == ["2"])
        // A to-one takes none of them.
        let toOne = await service.send("GET", "books", .related(id: "1", relationship: "author"), query: "sort=name")
        #expect(toOne.status == 400)
        // An empty to-many stays empty.
        let empty = await service.send(
            "GET", "books", .related(id: "3", relationship: "reviews"), query: "sort=stars")
        #expect(try #require(empty.document).primaryResources.isEmpty)
    }

    @Test("the entity tag changes with every byte, at every length and position")
    func entityTags() {
        var random = SplitMix64(seed: 11)
        var seen: Set<String> = []
        // Lengths around the 8- and 32-byte steps; each body and each one-bit change of it
        // (every position of the shorter ones) gets a tag of its own.
        for length in [0, 1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 1000] {
            let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let tag = ResourceService.entityTag(of: body)
            #expect(tag == ResourceService.entityTag(of: body))
            #expect(tag.count == 18 && tag.first == "\"" && tag.last == "\"")
            #expect(seen.insert(tag).inserted, "length \(length)")
            for position in stride(from: 0, to: length, by: max(length / 40, 1)) {
                for bit in [0, 3, 7] {
                    var changed = body
                    changed[position] ^= 1 << bit
                    #expect(
                        seen.insert(ResourceService.entityTag(of: changed)).inserted,
                        "length \(length), byte \(position), bit \(bit)")
                }
            }
        }
        // A trailing zero byte is not the same body.
        #expect(ResourceService.entityTag(of: [1, 2, 3]) != ResourceService.entityTag(of: [1, 2, 3, 0]))
    }

    @Test("ETag on reads, 304 for a matching If-None-Match, a new tag after a change")
    func etags() async throws {
        let service = Library.service(try Library.sources())
        let first = await service.send("GET", "books", .resource(id: "1"))
        let etag = try #require(first.response?.etag)
        #expect(etag.hasPrefix("\"") && etag.count == 18)
        let again = await service.send("GET", "books", .resource(id: "1"))
        #expect(again.response?.etag == etag)
        let notModified = await service.send("GET", "books", .resource(id: "1"), ifNoneMatch: "\"x\", W/\(etag)")
        #expect(notModified.status == 304)
        #expect(notModified.body == nil)
        #expect(notModified.response?.etag == etag)
        _ = await service.send(
            "PATCH", "books", .resource(id: "1"),
            body: #"{"data":{"type":"books","id":"1","attributes":{"year":1966}}}"#)
        let changed = await service.send("GET", "books", .resource(id: "1"), ifNoneMatch: etag)
        #expect(changed.status == 200)
        #expect(changed.response?.etag != etag)
    }

    @Test("authorization hides resources (404, left out of collections and includes) or forbids (403)")
    func authorization() async throws {
        let sources = try Library.sources()
        var service = Library.service(sources) { books in
            books.authorize = { action, request in
                switch action {
                case .read(let id) where id == "2": return .hide
                case .delete: return request.userInfo["role"] as? String == "admin" ? .allow : .forbid("admins only")
                default: return .allow
                }
            }
        }
        var reviews = ResourceDeclaration(source: sources.reviews)
        reviews.authorize = { action, _ in action == .read(id: "2") ? .hide : .allow }
        service.serve(reviews)
        #expect(await service.send("GET", "books", .resource(id: "2")).status == 404)
        let list = try #require(await service.send("GET", "books", .collection).document)
        #expect(list.primaryResources.map(\.id) == ["1", "3"])
        let included = try #require(
            await service.send("GET", "books", .resource(id: "1"), query: "include=reviews").document)
        #expect(included.included.map(\.id) == ["1"])
        let forbidden = await service.send("DELETE", "books", .resource(id: "1"))
        #expect(forbidden.status == 403)
        #expect(forbidden.errors.first?.detail == "admins only")
        #expect(await service.send("DELETE", "books", .resource(id: "1"), userInfo: ["role": "admin"]).status == 204)
    }

    @Test("methods a declaration does not serve are 405")
    func methods() async throws {
        let service = Library.service(try Library.sources()) { $0.operations = .readOnly }
        #expect(service.methods(type: "books", endpoint: .collection) == ["GET"])
        let answer = await service.send("POST", "books", .collection, body: "{}")
        #expect(answer.status == 405)
        #expect(service.methods(type: "authors", endpoint: .resource(id: "1")) == ["GET", "PATCH", "DELETE"])
    }
}
