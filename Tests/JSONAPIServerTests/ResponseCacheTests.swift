import JSONAPI
import JSONAPIServer
import Synchronization
import Testing

@testable import JSONAPITestSupport

/// Reads answered again from the bytes written before, only while nothing they read changed.
@Suite("Resource service: reusing answers")
struct ResponseCacheTests {
    /// An in-memory source that counts its reads and may hide its version.
    final class Counting<Model: JSONAPIResource & Codable & Sendable>: ResourceDataSource {
        let inner: InMemoryDataSource<Model>
        let tellsVersion: Bool
        let reads = Mutex(0)

        init(_ inner: InMemoryDataSource<Model>, tellsVersion: Bool) {
            self.inner = inner
            self.tellsVersion = tellsVersion
        }

        var version: UInt64? { tellsVersion ? inner.version : nil }
        func list(_ query: ResourceListQuery) async throws -> ResourceList<Model> {
            reads.withLock { $0 += 1 }
            return try await inner.list(query)
        }
        func fetch(id: String) async throws -> Model? {
            reads.withLock { $0 += 1 }
            return try await inner.fetch(id: id)
        }
        func fetch(ids: [String]) async throws -> [Model] { try await inner.fetch(ids: ids) }
        func makeID() async throws -> String { try await inner.makeID() }
        func create(_ model: Model) async throws -> Model { try await inner.create(model) }
        func update(_ model: Model) async throws -> Model { try await inner.update(model) }
        func delete(id: String) async throws -> Bool { try await inner.delete(id: id) }
    }

    static func service(
        _ sources: Library.Sources, tellsVersion: Bool = true,
        configure: (inout ResourceDeclaration<Counting<Library.Book>>) -> Void = { _ in }
    ) -> (ResourceService, Counting<Library.Book>) {
        let books = Counting(sources.books, tellsVersion: tellsVersion)
        var service = ResourceService()
        service.serve(ResourceDeclaration(source: sources.authors))
        var declaration = ResourceDeclaration(source: books)
        configure(&declaration)
        service.serve(declaration)
        service.serve(ResourceDeclaration(source: sources.reviews))
        return (service, books)
    }

    @Test("a repeated read is answered from the cache; any write through any source ends it")
    func reuseUntilWritten() async throws {
        let sources = try Library.sources()
        let (service, books) = Self.service(sources)
        let first = await service.send("GET", "books", .collection, query: "include=author")
        let second = await service.send("GET", "books", .collection, query: "include=author")
        #expect(first.status == 200)
        #expect(second.body == first.body)
        #expect(second.response?.etag == first.response?.etag)
        #expect(books.reads.withLock { $0 } == 1)
        // A 304 from the cache.
        let unchanged = await service.send(
            "GET", "books", .collection, query: "include=author", ifNoneMatch: first.response?.etag)
        #expect(unchanged.status == 304)
        #expect(books.reads.withLock { $0 } == 1)

        // A write through the service to an included type: the answer is written again.
        let renamed = await service.send(
            "PATCH", "authors", .resource(id: "1"),
            body: #"{"data":{"type":"authors","id":"1","attributes":{"name":"F. Herbert"}}}"#)
        #expect(renamed.status == 200)
        let third = await service.send("GET", "books", .collection, query: "include=author")
        #expect(third.body != first.body)
        #expect(third.document?.included.contains { $0.attributes["name"]?.stringValue == "F. Herbert" } == true)
        #expect(books.reads.withLock { $0 } == 2)

        // A write straight to a source, past the service.
        _ = try await sources.reviews.delete(id: "2")
        _ = await service.send("GET", "books", .collection, query: "include=author")
        #expect(books.reads.withLock { $0 } == 3)
        // Another query, another answer.
        _ = await service.send("GET", "books", .collection, query: "include=author&sort=title")
        #expect(books.reads.withLock { $0 } == 4)
    }

    @Test("no reuse for a source without a version, with an authorization rule, or with the cache off")
    func noReuse() async throws {
        let (silent, silentBooks) = Self.service(try Library.sources(), tellsVersion: false)
        _ = await silent.send("GET", "books", .collection)
        _ = await silent.send("GET", "books", .collection)
        #expect(silentBooks.reads.withLock { $0 } == 2)

        let (authorized, authorizedBooks) = Self.service(try Library.sources()) { books in
            books.authorize = { action, request in
                guard case .read = action, request.userInfo["role"] as? String != "admin" else { return .allow }
                return .hide
            }
        }
        let admin = await authorized.send("GET", "books", .collection, userInfo: ["role": "admin"])
        let guest = await authorized.send("GET", "books", .collection)
        #expect(admin.document?.primaryResources.count == 3)
        #expect(guest.document?.primaryResources.count == 0)
        #expect(authorizedBooks.reads.withLock { $0 } == 2)

        var (off, offBooks) = Self.service(try Library.sources())
        off.responseCacheLimit = 0
        _ = await off.send("GET", "books", .collection)
        _ = await off.send("GET", "books", .collection)
        #expect(offBooks.reads.withLock { $0 } == 2)
    }

    @Test("a copy of a service changed afterwards answers from its own settings")
    func copiesDoNotShare() async throws {
        let (service, _) = Self.service(try Library.sources())
        var elsewhere = service
        elsewhere.linkBase = "https://api.example.com"
        let here = await service.send("GET", "books", .resource(id: "1"))
        let there = await elsewhere.send("GET", "books", .resource(id: "1"))
        #expect(here.document?.primaryResources.first?.links?["self"]?.href == "/books/1")
        #expect(there.document?.primaryResources.first?.links?["self"]?.href == "https://api.example.com/books/1")
    }

    @Test("the limit is checked")
    func limit() {
        var service = ResourceService()
        service.responseCacheLimit = -1
        #expect(throws: JSONAPIError.self) { try service.validate() }
        service.responseCacheLimit = (1 << 30) + 1
        #expect(throws: JSONAPIError.self) { try service.validate() }
    }
}
