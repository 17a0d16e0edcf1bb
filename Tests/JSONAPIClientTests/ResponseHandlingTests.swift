import Foundation
import JSONAPI
import JSONAPIClient
import JSONAPIGenerator
import Synchronization
import Testing

/// The client against answers no well-behaved framework sends, written byte by byte by
/// ``CannedHTTPServer``: each failure gets its own error kind, and statuses follow JSON:API.
@Suite struct ResponseHandlingTests {
    static let jsonapi = "application/vnd.api+json"
    static let person = Array(#"{"data":{"type":"people","id":"9","attributes":{"name":"Ann"}}}"#.utf8)

    func kind(
        of transport: TransportKind, configuration: JSONAPIClient.Configuration = JSONAPIClient.Configuration(),
        _ handler: @escaping CannedHTTPServer.Handler
    ) async throws -> JSONAPIClientError? {
        let server = try CannedHTTPServer(handler)
        defer { server.stop() }
        let people = transport.client(server.baseURL, configuration: configuration).resources(Person.self)
        return await #expect(throws: JSONAPIClientError.self) { try await people.get(id: "9") }
    }

    @Test(arguments: TransportKind.allCases)
    func eachFailureHasItsKind(_ transport: TransportKind) async throws {
        let html = try await kind(of: transport) { _, connection in
            connection.respond(status: 200, contentType: "text/html", body: Array("<html></html>".utf8))
        }
        #expect(html?.kind == .unsupportedMediaType)

        let notJSON = try await kind(of: transport) { _, connection in
            connection.respond(status: 200, contentType: Self.jsonapi, body: Array("{\"data\": nope}".utf8))
        }
        #expect(notJSON?.kind == .invalidDocument)
        #expect((9...10).contains(notJSON?.parsingError?.offset ?? 0))

        let notJSONAPI = try await kind(of: transport) { _, connection in
            connection.respond(status: 200, contentType: Self.jsonapi, body: Array(#"{"data":{"type":"people"}}"#.utf8))
        }
        #expect(notJSONAPI?.kind == .invalidDocument)

        let serverError = try await kind(of: transport) { _, connection in
            connection.respond(status: 502, contentType: "text/plain", body: Array("bad gateway".utf8))
        }
        #expect(serverError?.kind == .unexpectedStatus)
        #expect(serverError?.status == 502)
        #expect(serverError?.message.contains("bad gateway") == true)

        let errorDocument = try await kind(of: transport) { _, connection in
            connection.respond(
                status: 403, contentType: Self.jsonapi,
                body: Array(#"{"errors":[{"status":"403","title":"Forbidden","detail":"no access"}]}"#.utf8))
        }
        #expect(errorDocument?.kind == .errorResponse)
        #expect(errorDocument?.errors.map(\.detail) == ["no access"])

        let truncated = try await kind(of: transport) { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: \(Self.jsonapi)\r\nContent-Length: 500\r\n\r\n")
            connection.write(Array(Self.person.prefix(20)))
        }
        #expect(truncated?.kind == .truncatedBody)

        var small = JSONAPIClient.Configuration()
        small.maximumResponseBytes = 32
        let declaredTooLarge = try await kind(of: transport, configuration: small) { _, connection in
            connection.respond(status: 200, contentType: Self.jsonapi, body: Self.person)
        }
        #expect(declaredTooLarge?.kind == .responseTooLarge)

        let streamedTooLarge = try await kind(of: transport, configuration: small) { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: \(Self.jsonapi)\r\nTransfer-Encoding: chunked\r\n\r\n")
            for piece in [Self.person.prefix(30), Self.person.dropFirst(30)] {
                connection.write(String(piece.count, radix: 16) + "\r\n")
                connection.write(Array(piece))
                connection.write("\r\n")
            }
            connection.write("0\r\n\r\n")
        }
        #expect(streamedTooLarge?.kind == .responseTooLarge)

        let redirect = try await kind(of: transport) { _, connection in
            connection.respond(status: 300, contentType: nil, body: [])
        }
        #expect(redirect?.kind == .unexpectedStatus)
    }

    @Test(arguments: TransportKind.allCases)
    func timeoutAndCancellation(_ transport: TransportKind) async throws {
        let release = Mutex(false)
        let server = try CannedHTTPServer { _, connection in
            // Answers only once the test is over.
            for _ in 0..<6000 where !release.withLock({ $0 }) { usleep(10_000) }
            connection.respond(status: 200, contentType: Self.jsonapi, body: Self.person)
        }
        defer {
            release.withLock { $0 = true }
            server.stop()
        }
        var quick = JSONAPIClient.Configuration()
        quick.timeout = .milliseconds(300)
        let people = transport.client(server.baseURL, configuration: quick).resources(Person.self)
        let timeout = await #expect(throws: JSONAPIClientError.self) { try await people.get(id: "9") }
        #expect(timeout?.kind == .timeout)

        var patient = JSONAPIClient.Configuration()
        patient.timeout = nil
        let waiting = transport.client(server.baseURL, configuration: patient).resources(Person.self)
        let task = Task { try await waiting.get(id: "9") }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let cancelled = await #expect(throws: JSONAPIClientError.self) { try await task.value }
        #expect(cancelled?.kind == .cancelled)
    }

    @Test(arguments: TransportKind.allCases)
    func writeStatusesAsTheSpecSays(_ transport: TransportKind) async throws {
        let server = try CannedHTTPServer { request, connection in
            switch (request.method, request.target) {
            case ("POST", "/people"):
                connection.respond(
                    status: 201, contentType: Self.jsonapi, body: Self.person,
                    extraHeaders: "Location: http://127.0.0.1/people/9\r\n")
            case ("PATCH", "/people/9"):
                connection.respond(status: 204, contentType: nil, body: [])
            case ("PATCH", "/people/10"):
                connection.respond(
                    status: 202, contentType: Self.jsonapi,
                    body: Array(#"{"meta":{"queued":true},"links":{"self":"/jobs/5"}}"#.utf8))
            case ("DELETE", "/people/9"):
                connection.respond(status: 200, contentType: Self.jsonapi, body: Array(#"{"meta":{"gone":1}}"#.utf8))
            case ("DELETE", "/people/10"):
                connection.respond(status: 202, contentType: nil, body: [])
            default:
                connection.respond(status: 404, contentType: nil, body: [])
            }
        }
        defer { server.stop() }
        let store = ResourceStore()
        let people = transport.client(server.baseURL, store: store).resources(Person.self)
        let created = try await people.create(NewPerson(name: "Ann"))
        #expect(created.status == 201)
        #expect(created.resource == Person(id: "9", name: "Ann"))
        #expect(created.location == "http://127.0.0.1/people/9")
        #expect(store.resource(type: "people", id: "9") != nil)

        struct Rename: Encodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
        }
        let unchanged = try await people.update(Rename(id: "9", name: "Bea"))
        #expect(unchanged.status == 204)
        #expect(unchanged.resource == nil && unchanged.document == nil)
        let queued = try await people.update(Rename(id: "10", name: "Cy"))
        #expect(queued.isAccepted)
        #expect(queued.meta?["queued"] == true)
        #expect(queued.resource == nil)

        let deleted = try await people.delete(id: "9")
        #expect(deleted.status == 200)
        #expect(deleted.meta?["gone"] == 1)
        #expect(store.resource(type: "people", id: "9") == nil)
        let accepted = try await people.delete(id: "10")
        #expect(accepted.isAccepted && accepted.document == nil)
    }

    /// A malformed body fails while the server is still sending: the parser reads each chunk as
    /// it arrives instead of waiting for the end.
    @Test(arguments: TransportKind.allCases)
    func parsesWhileTheBodyStreams(_ transport: TransportKind) async throws {
        let sentEverything = Atomic<Bool>(false)
        let release = Mutex(false)
        // A syntax error (rule violations are all reported together at the end).
        let prefix = Array(#"{"data":[{"type":"people","id":"1","attributes":{"name":"x"}},{"type":}"#.utf8)
        let server = try CannedHTTPServer { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: \(Self.jsonapi)\r\nContent-Length: 1000000\r\n\r\n")
            connection.write(prefix)
            // Holds the rest back until the test has its answer (or five minutes pass, the
            // bound for a client that wrongly waits for the end). No deadline on the client's
            // side: on a loaded machine the answer may take seconds to be scheduled.
            for _ in 0..<30_000 where !release.withLock({ $0 }) { usleep(10_000) }
            sentEverything.store(true, ordering: .sequentiallyConsistent)
        }
        defer {
            release.withLock { $0 = true }
            server.stop()
        }
        let client = transport.client(server.baseURL)
        let caught = await #expect(throws: JSONAPIClientError.self) { try await client.resources(Person.self).list() }
        let failure = try #require(caught)
        #expect(failure.kind == .invalidDocument)
        #expect(failure.parsingError?.offset == prefix.count - 1)
        let finished = sentEverything.load(ordering: .sequentiallyConsistent)
        #expect(!finished)
    }

    /// A 100 MB compound document, generated as it is sent in chunked encoding, decoded while
    /// it streams.
    @Test(arguments: TransportKind.allCases)
    func largeResponse(_ transport: TransportKind) async throws {
        let generator = CompoundDocumentGenerator(
            resources: CompoundDocumentGenerator.resourceCount(approximateBytes: 100_000_000), seed: 11)
        let sent = Atomic<Int>(0)
        let server = try CannedHTTPServer { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: \(Self.jsonapi)\r\nTransfer-Encoding: chunked\r\n\r\n")
            generator.write(chunkSize: 1 << 18) { chunk in
                connection.write(String(chunk.count, radix: 16) + "\r\n")
                connection.write(chunk)
                connection.write("\r\n")
                sent.add(chunk.count, ordering: .relaxed)
            }
            connection.write("0\r\n\r\n")
        }
        defer { server.stop() }
        struct GeneratedArticle: Decodable, JSONAPIResource {
            static let resourceType = "articles"
            var id: String
            var title: String
            var wordCount: Int
        }
        let response = try await transport.client(server.baseURL).resources(GeneratedArticle.self).list()
        #expect(sent.load(ordering: .relaxed) > 95_000_000)
        #expect(response.document.statistics.inputByteCount == sent.load(ordering: .relaxed))
        #expect(response.value.count == generator.primaryCount)
        #expect(response.document.included.count == generator.includedCount)
        #expect(response.value.first?.id == generator.identifier(ofResourceAt: 0).id)
    }

    /// JSON:API has the client treat the resource it sent as accepted when a create or update is
    /// answered without a document: `204`, and `201` without a body.
    @Test(arguments: TransportKind.allCases)
    func createdWithoutABody(_ transport: TransportKind) async throws {
        let server = try CannedHTTPServer { request, connection in
            switch request.target {
            case "/people":
                connection.respond(
                    status: 201, contentType: nil, body: [], extraHeaders: "Location: http://127.0.0.1/people/c1\r\n")
            case "/people/9":
                connection.respond(status: 204, contentType: nil, body: [])
            default:
                connection.respond(status: 201, contentType: Self.jsonapi, body: Self.person)
            }
        }
        defer { server.stop() }
        let store = ResourceStore()
        let people = transport.client(server.baseURL, store: store).resources(Person.self)
        let created = try await people.create(NewPerson(id: "c1", name: "Ann"))
        #expect(created.status == 201)
        #expect(created.isSentResourceAccepted)
        #expect(created.document == nil && created.resource == nil)
        #expect(created.location == "http://127.0.0.1/people/c1")
        #expect(store.count == 0)

        struct Rename: Encodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
        }
        let updated = try await people.update(Rename(id: "9", name: "Bea"))
        #expect(updated.status == 204 && updated.isSentResourceAccepted)

        // A 201 with the resource is the server's word, not the sent resource's.
        let returned = try await people.update(Rename(id: "10", name: "Cy"))
        #expect(returned.status == 201 && !returned.isSentResourceAccepted)
        #expect(returned.resource == Person(id: "9", name: "Ann"))
    }

    /// A chunked body whose connection closes before the last chunk: cut inside a chunk, and cut
    /// between two chunks (which only the missing terminating chunk gives away).
    @Test(arguments: TransportKind.allCases)
    func chunkedBodyCutOff(_ transport: TransportKind) async throws {
        for cutInsideAChunk in [true, false] {
            let server = try CannedHTTPServer { _, connection in
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: \(Self.jsonapi)\r\nTransfer-Encoding: chunked\r\n\r\n")
                let first = Self.person.prefix(30)
                connection.write(String(first.count, radix: 16) + "\r\n")
                connection.write(Array(first))
                connection.write("\r\n")
                if cutInsideAChunk {
                    connection.write(String(Self.person.count - 30, radix: 16) + "\r\n")
                    connection.write(Array(Self.person.dropFirst(30).prefix(10)))
                }
                // The handler returns: the server closes the connection.
            }
            defer { server.stop() }
            let people = transport.client(server.baseURL).resources(Person.self)
            let cut = await #expect(throws: JSONAPIClientError.self) { try await people.get(id: "9") }
            #expect(cut?.kind == .truncatedBody, "cut inside a chunk: \(cutInsideAChunk)")
            #expect(cut?.status == 200)
        }
    }

    /// A `next` link that leads back to a page already read ends the pages with an error after
    /// the pages before it, and asks the server for nothing more: whether it repeats the page's
    /// own URL or spells an earlier one differently (brackets raw or percent-encoded).
    @Test(arguments: TransportKind.allCases)
    func nextLinkLoop(_ transport: TransportKind) async throws {
        let requests = Mutex<[String]>([])
        let server = try CannedHTTPServer { request, connection in
            requests.withLock { $0.append(request.target) }
            let number = request.target.contains("number%5D=2") || request.target.contains("number]=2") ? 2 : 1
            // Page 1 points on to page 2; page 2 points back to page 1, with its brackets
            // percent-encoded where the client's first URL has them raw.
            let next =
                number == 1 ? "/people?page[number]=2&page[size]=1" : "/people?page%5Bnumber%5D=1&page%5Bsize%5D=1"
            let body =
                #"{"data":[{"type":"people","id":"\#(number)","attributes":{"name":"P\#(number)"}}],"#
                + #""links":{"next":"\#(next)"}}"#
            connection.respond(status: 200, contentType: Self.jsonapi, body: Array(body.utf8))
        }
        defer { server.stop() }
        let people = transport.client(server.baseURL).resources(Person.self)
        var read: [String] = []
        let loop = await #expect(throws: JSONAPIClientError.self) {
            for try await page in people.pages(JSONAPIQuery().paged(number: 1, size: 1)) {
                read += page.value.map(\.id)
            }
        }
        #expect(loop?.kind == .unexpectedDocument)
        #expect(read == ["1", "2"])
        #expect(requests.withLock { $0.count } == 2)

        // A page whose next link is its own URL.
        let selfServer = try CannedHTTPServer { request, connection in
            let body = #"{"data":[],"links":{"next":"\#(request.target)"}}"#
            connection.respond(status: 200, contentType: Self.jsonapi, body: Array(body.utf8))
        }
        defer { selfServer.stop() }
        var pages = 0
        let again = await #expect(throws: JSONAPIClientError.self) {
            for try await _ in transport.client(selfServer.baseURL).resources(Person.self).pages() { pages += 1 }
        }
        #expect(again?.kind == .unexpectedDocument)
        #expect(pages == 1)
    }

    /// Cancelled once the head and the first bytes of the body have arrived, while the transport
    /// waits for more.
    @Test(arguments: TransportKind.allCases)
    func cancelledDuringTheBody(_ transport: TransportKind) async throws {
        let release = Mutex(false)
        let server = try CannedHTTPServer { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: \(Self.jsonapi)\r\nContent-Length: 1000000\r\n\r\n")
            connection.write(#"{"data":[{"type":"people","id":"1","attributes":{"name":"x"}}"#)
            // The rest never comes (until the test is over, or a minute has passed).
            for _ in 0..<6000 where !release.withLock({ $0 }) { usleep(10_000) }
        }
        defer {
            release.withLock { $0 = true }
            server.stop()
        }
        var patient = JSONAPIClient.Configuration()
        patient.timeout = nil
        let (client, log) = transport.observedClient(server.baseURL, configuration: patient)
        let task = Task { try await client.resources(Person.self).list() }
        await log.waitForFirstChunk()
        task.cancel()
        let cancelled = await #expect(throws: JSONAPIClientError.self) { try await task.value }
        #expect(cancelled?.kind == .cancelled)
        #expect(!log.reachedEnd)
    }
}
