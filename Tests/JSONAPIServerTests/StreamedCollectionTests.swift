import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Collections written as their data source delivers them, in chunks.
@Suite("Resource service: streamed collections")
struct StreamedCollectionTests {
    static func streamed(_ sources: Library.Sources) -> ResourceService {
        Library.service(sources) { $0.streamsCollections = true }
    }

    /// The chunks of a response, joined.
    static func body(_ response: ResourceResponse) async throws -> (bytes: [UInt8], chunks: [Int]) {
        let chunks = try #require(response.chunks)
        var bytes: [UInt8] = []
        var sizes: [Int] = []
        for try await chunk in chunks {
            bytes += chunk
            sizes.append(chunk.count)
        }
        return (bytes, sizes)
    }

    static func get(_ service: ResourceService, _ type: String, _ query: String) -> ResourceRequest {
        ResourceRequest(method: "GET", type: type, endpoint: .collection, query: query)
    }

    @Test(
        "a streamed collection holds what the paged one holds",
        arguments: [
            "", "include=author", "include=author,reviews.book", "filter[year]=1965", "sort=-year",
            "fields[books]=title&include=author", "filter=greaterThan(year,1970)&include=reviews.book",
        ])
    func sameAsPaged(query: String) async throws {
        let sources = try Library.sources()
        let streamed = Self.streamed(sources)
        let paged = Library.service(sources)
        let response = try await streamed.respond(to: Self.get(streamed, "books", query))
        let (bytes, _) = try await Self.body(response)
        let whole = try Document(parsing: bytes)
        let pagedQuery = query.isEmpty ? "page[size]=100" : query + "&page[size]=100"
        let answer = try await paged.respond(to: Self.get(paged, "books", pagedQuery))
        let reference = try Document(parsing: try #require(answer.body))
        // Both name the filter language's profile exactly when the query filters.
        #expect(response.profiles == answer.profiles)
        #expect(response.profiles == (query.contains("filter") ? [ResourceService.filterProfile] : []))
        #expect(whole.primaryResources.map(\.identifier) == reference.primaryResources.map(\.identifier))
        for (left, right) in zip(whole.primaryResources, reference.primaryResources) {
            #expect(left.jsonBytes() == right.jsonBytes())
        }
        #expect(Set(whole.included.map(\.identifier)) == Set(reference.included.map(\.identifier)))
        #expect(whole.included.count == Set(whole.included.map(\.identifier)).count)
        #expect(whole.links?["self"]?.href == "/books" + (query.isEmpty ? "" : "?" + query))
    }

    @Test("HEAD is checked as GET is and writes nothing of the collection")
    func headWritesNothing() async throws {
        let service = Self.streamed(try Library.sources())
        func head(_ query: String) -> ResourceRequest {
            ResourceRequest(method: "HEAD", type: "books", endpoint: .collection, query: query)
        }
        let response = try await service.respond(to: head("include=author"))
        #expect(response.status == 200)
        #expect(response.body == nil)
        let (bytes, sizes) = try await Self.body(response)
        #expect(bytes.isEmpty && sizes.isEmpty)
        await #expect(throws: (any Error).self) { try await service.respond(to: head("include=nope")) }
    }

    @Test("large collections come in bounded chunks; pages are refused")
    func boundedChunks() async throws {
        let authors = try InMemoryDataSource(
            (1...3000).map { (index: Int) in
                Library.Author(id: "a" + String(index), name: String(repeating: "n", count: 100), born: index)
            })
        var service = ResourceService()
        var declaration = ResourceDeclaration(source: authors)
        declaration.streamsCollections = true
        service.serve(declaration)
        let (bytes, sizes) = try await Self.body(try await service.respond(to: Self.get(service, "authors", "")))
        #expect(try Document(parsing: bytes).primaryResources.count == 3000)
        #expect(sizes.count > 4)
        // A chunk ends at the first resource that reaches the size: never much more.
        #expect(sizes.allSatisfy { $0 < ResourceBodyChunks.chunkSize + 1024 })
        await #expect(throws: (any Error).self) {
            try await service.respond(to: Self.get(service, "authors", "page[size]=2"))
        }
    }

    /// A source that delivers `failAfter` models, then fails.
    struct Failing: ResourceDataSource {
        let models: [Library.Author]
        let failAfter: Int
        struct Broken: Error {}

        func list(_ query: ResourceListQuery) async throws -> ResourceList<Library.Author> {
            ResourceList(models: models, total: models.count)
        }
        func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<Library.Author, any Error> {
            let (stream, continuation) = AsyncThrowingStream<Library.Author, any Error>.makeStream()
            for model in models.prefix(failAfter) { continuation.yield(model) }
            continuation.finish(throwing: Broken())
            return stream
        }
        func fetch(id: String) async throws -> Library.Author? { models.first { $0.id == id } }
        func makeID() async throws -> String { "x" }
        func create(_ model: Library.Author) async throws -> Library.Author { model }
        func update(_ model: Library.Author) async throws -> Library.Author { model }
        func delete(id: String) async throws -> Bool { false }
    }

    @Test("a source failing midway ends the body early: never a complete wrong document")
    func failureMidway() async throws {
        let models = (1...2000).map { Library.Author(id: "\($0)", name: String(repeating: "m", count: 80), born: nil) }
        var service = ResourceService()
        var declaration = ResourceDeclaration(source: Failing(models: models, failAfter: 1500))
        declaration.streamsCollections = true
        service.serve(declaration)
        let response = try await service.respond(to: Self.get(service, "authors", ""))
        var received: [UInt8] = []
        await #expect(throws: Failing.Broken.self) {
            for try await chunk in try #require(response.chunks) { received += chunk }
        }
        #expect(!received.isEmpty)
        #expect(throws: (any Error).self) { try Document(parsing: received) }
    }

    /// A source with no `stream` of its own: the protocol's default reads `list`.
    struct ListOnly: ResourceDataSource {
        let models: [Library.Author]

        func list(_ query: ResourceListQuery) async throws -> ResourceList<Library.Author> {
            ResourceList(models: models, total: nil)
        }
        func fetch(id: String) async throws -> Library.Author? { models.first { $0.id == id } }
        func makeID() async throws -> String { "x" }
        func create(_ model: Library.Author) async throws -> Library.Author { model }
        func update(_ model: Library.Author) async throws -> Library.Author { model }
        func delete(id: String) async throws -> Bool { false }
    }

    @Test("a source without its own stream is read through list")
    func defaultStream() async throws {
        let models = (1...50).map { Library.Author(id: "\($0)", name: "N", born: nil) }
        var count = 0
        for try await _ in ListOnly(models: models).stream(ResourceListQuery()) { count += 1 }
        #expect(count == 50)
        var service = ResourceService()
        var declaration = ResourceDeclaration(source: ListOnly(models: models))
        declaration.streamsCollections = true
        service.serve(declaration)
        let (bytes, _) = try await Self.body(try await service.respond(to: Self.get(service, "authors", "")))
        #expect(try Document(parsing: bytes).primaryResources.map(\.id) == models.map(\.id))
    }
}
