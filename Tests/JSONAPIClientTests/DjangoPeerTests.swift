import Dispatch
import Foundation
import JSONAPI
import JSONAPIClient
import Testing

/// A JSON:API server nobody here wrote: djangorestframework-jsonapi (PyPI), with the small
/// Django app in `Tests/Peers/drf_jsonapi`, started on a loopback port. pip installs the pinned
/// versions when they are missing.
final class DjangoPeer: Sendable {
    static let packages = ["django==5.2.19", "djangorestframework==3.18.3", "djangorestframework-jsonapi==8.1.0"]
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Peers/drf_jsonapi/server.py")

    struct Failure: Error, CustomStringConvertible { var description: String }

    let process: Process
    let output: URL
    let baseURL: String

    /// Starts the server with `articles` seeded articles (and three people: Ann, Bo, Cy).
    static func start(articles: Int = 12) async throws -> DjangoPeer {
        try await offThePool {
            try installIfMissing()
            return try DjangoPeer(articles: articles)
        }
    }

    private init(articles: Int) throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("drf-jsonapi-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, String(articles)]
        process.standardOutput = handle
        process.standardError = handle
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var port: Int?
        while port == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            port = text.split(separator: "\n").first { $0.hasPrefix("PORT ") }.flatMap { Int($0.dropFirst(5)) }
            if port == nil { usleep(50_000) }
        }
        guard let port else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw Failure(description: "the Django server did not start:\n\(text)")
        }
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Stops the server: SIGKILL, since a child started from a thread that blocks signals keeps
    /// SIGTERM blocked.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: output)
    }

    private static func installIfMissing() throws {
        if run(["-c", "import rest_framework_json_api, django"]) == 0 { return }
        let status = run(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages)
        guard status == 0 else { throw Failure(description: "pip could not install \(packages)") }
    }

    private static func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `work`, which waits for processes, off the concurrency pool.
    private static func offThePool<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws
        -> Result
    {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }
}

/// The client against djangorestframework-jsonapi over both transports: reads with includes,
/// sparse fieldsets, sorting and its own pagination links, related resources, writes, its error
/// documents mapped to the model, and the store.
@Suite(.serialized) struct DjangoPeerTests {
    struct PeerArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var body: String?
        var author: Identifier<Person>?
    }

    struct AuthoredArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person
    }

    struct Draft: Encodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id = ""
        var title: String
        var body: String?
        var author: Identifier<Person>?
    }

    @Test(arguments: TransportKind.allCases)
    func readsAndWrites(_ transport: TransportKind) async throws {
        let peer = try await DjangoPeer.start()
        defer { peer.stop() }
        let store = ResourceStore()
        let client = transport.client(peer.baseURL, store: store)
        let articles = client.resources(PeerArticle.self)

        // Its pagination (page[number], page[size], absolute links), followed to the end.
        var ids: [String] = []
        for try await page in articles.pages(JSONAPIQuery().paged(number: 1, size: 5)) { ids += page.value.map(\.id) }
        #expect(ids == (1...12).map(String.init))

        // Included authors resolve into the model; sort and sparse fieldsets as the server reads them.
        let authored = try await client.resources(AuthoredArticle.self)
            .list(JSONAPIQuery().including("author").sorted(by: "-title").paged(number: 1, size: 3))
        #expect(authored.value.map(\.title) == ["Article 9", "Article 8", "Article 7"])
        #expect(authored.value.map(\.author.name) == ["Ann", "Cy", "Bo"])
        let sparse = try await articles.get(id: "1", query: JSONAPIQuery().fields(PeerArticle.self, "title"))
        #expect(sparse.value.title == "Article 1" && sparse.value.body == nil && sparse.value.author == nil)
        let author = try await articles.related(id: "1", "author", as: Person.self)
        #expect(author.value.map(\.name) == ["Bo"])

        // Writes: create (201), update, delete (204), then 404.
        let created = try await articles.create(Draft(title: "Fresh", body: "New.", author: Identifier("3")))
        #expect(created.status == 201 && created.resource?.title == "Fresh")
        let id = try #require(created.resource?.id)
        let renamed = try await articles.update(ArticlePatch(id: id, title: .value("Renamed")))
        #expect(renamed.resource?.title == "Renamed" && renamed.resource?.body == "New.")
        let deleted = try await articles.delete(id: id)
        #expect(deleted.status == 204)
        await #expect {
            _ = try await articles.get(id: id)
        } throws: { error in
            let error = error as? JSONAPIClientError
            return error?.kind == .errorResponse && error?.status == 404 && error?.errors.first?.code == "not_found"
        }

        // Its validation error, mapped back to the property.
        do {
            _ = try await articles.create(Draft(title: " "))
            Issue.record("a blank title was accepted")
        } catch let error as JSONAPIClientError where error.kind == .errorResponse {
            #expect(error.status == 400)
            #expect(error.problems(for: \Draft.title).compactMap(\.detail) == ["This field may not be blank."])
            #expect(error.problems(for: \Draft.body).isEmpty)
        }

        // No validators: every read goes to the server; the store holds what the reads brought.
        let again = try await client.send(client.request("GET", peer.baseURL + "/articles/1"))
        #expect(again.source == .network)
        #expect(store.resource(type: "people", id: "1")?.attributes["name"]?.stringValue == "Ann")
        #expect(store.resource(type: "articles", id: id) == nil)
    }

    /// The live store beside the server's own state: after each write the store's copy is
    /// compared with what a client without a store reads back from the server.
    @Test(arguments: TransportKind.allCases)
    func liveStoreFollowsTheServer(_ transport: TransportKind) async throws {
        let peer = try await DjangoPeer.start()
        defer { peer.stop() }
        let store = ResourceStore()
        let client = transport.client(peer.baseURL, store: store)
        let server = transport.client(peer.baseURL)  // reads the truth, outside the store
        let articles = client.resources(PeerArticle.self)
        _ = try await articles.list(JSONAPIQuery().including("author").paged(number: 1, size: 3))
        let changes = store.changes(of: ResourceStore.Key(type: "articles", id: "1"))

        func stored() -> JSONAPIRelationship.Linkage? {
            store.resource(type: "articles", id: "1")?.relationships["author"]?.data
        }
        func served() async throws -> JSONAPIRelationship.Linkage {
            let article = try await server.resources(PeerArticle.self).get(id: "1").value
            return article.author.map { .one(ResourceIdentifier(type: "people", id: $0.id)) } ?? .null
        }

        // A new author, set through the relationship endpoint.
        let dee = try await client.resources(Person.self).create(NewPerson(name: "Dee"))
        let deeID = try #require(dee.resource?.id)
        try await articles.changeRelationship(id: "1", "author", .toOne(Identifier<Person>(deeID)))
        #expect(stored() == .one(ResourceIdentifier(type: "people", id: deeID)))
        #expect(try await served() == stored())

        // Deleting the author: the server sets the article's author to null (SET_NULL), and so
        // does the store.
        _ = try await client.resources(Person.self).delete(id: deeID)
        #expect(store.resource(type: "people", id: deeID) == nil)
        #expect(stored() == .null)
        #expect(try await served() == .null)

        // An optimistic rename the server refuses (a blank title): rolled back to the server's.
        await #expect(throws: JSONAPIClientError.self) {
            try await articles.update(ArticlePatch(id: "1", title: .value(" ")), optimistic: true)
        }
        let title = try await server.resources(PeerArticle.self).get(id: "1").value.title
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"] == JSON(title))

        var kinds: [ResourceStore.Change.Kind] = []
        for await change in changes {
            kinds.append(change.kind)
            if kinds.count == 4 { break }
        }
        #expect(kinds == [.updated, .updated, .updated, .updated])
    }
    /// A read answered from the store is the document the server answers to the same request, and
    /// stays so after a write through the client (which sends the next read to the server).
    @Test(arguments: TransportKind.allCases)
    func readsAnsweredFromTheStore(_ transport: TransportKind) async throws {
        let peer = try await DjangoPeer.start()
        defer { peer.stop() }
        var configuration = JSONAPIClient.Configuration()
        configuration.queryLifetime = .seconds(300)
        configuration.caching.isEnabled = false  // every answer the server's or the store's
        let client = transport.client(peer.baseURL, configuration: configuration, store: ResourceStore())
        let server = transport.client(peer.baseURL)  // reads the truth, outside the store
        let query = JSONAPIQuery().including("author").paged(number: 1, size: 3)
        let url = client.url(for: .collection(type: "articles"), query: query)
        func read(_ reader: JSONAPIClient) async throws -> JSONAPIClientResponse {
            try await reader.send(reader.request("GET", url))
        }
        func canonical(_ response: JSONAPIClientResponse) -> String {
            response.document.map { String(decoding: $0.jsonBytes(options: .init(sortsKeys: true)), as: UTF8.self) }
                ?? ""
        }
        #expect(try await read(client).source == .network)
        let remembered = try await read(client)
        #expect(remembered.source == .store)
        #expect(canonical(remembered) == canonical(try await read(server)))

        _ = try await client.resources(PeerArticle.self).update(ArticlePatch(id: "1", title: .value("Renamed")))
        #expect(try await read(client).source == .network)
        let renamed = try await read(client)
        #expect(renamed.source == .store)
        #expect(canonical(renamed) == canonical(try await read(server)))
        #expect(
            renamed.document?.primaryResources.first { $0.id == "1" }?.attributes["title"]?.stringValue == "Renamed")
    }
    /// The peer's articles read model by model, as the body arrives, are those `list` decodes.
    @Test(arguments: TransportKind.allCases)
    func streamedModels(_ transport: TransportKind) async throws {
        let peer = try await DjangoPeer.start()
        defer { peer.stop() }
        let client = transport.client(peer.baseURL)
        let query = JSONAPIQuery().including("author").paged(number: 1, size: 50)
        let listed = try await client.resources(PeerArticle.self).list(query).value
        var streamed: [PeerArticle] = []
        for try await article in client.resources(PeerArticle.self).stream(query) { streamed.append(article) }
        #expect(!streamed.isEmpty)
        #expect(streamed.map(\.id) == listed.map(\.id))
        #expect(streamed.map(\.title) == listed.map(\.title))
        #expect(streamed.map(\.author?.id) == listed.map(\.author?.id))
    }
}
