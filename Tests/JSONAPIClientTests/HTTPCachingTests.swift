import JSONAPI
import Synchronization
import Testing

@testable import JSONAPIClient
@testable import JSONAPIExample

/// A transport that answers from a script, in order, and keeps every request it was handed.
final class ScriptedTransport: JSONAPITransport, Sendable {
    struct Answer: Sendable {
        var status: Int
        var headers: JSONAPIHTTPHeaders
        var body: String

        static func article(_ title: String, _ headers: JSONAPIHTTPHeaders = [:]) -> Answer {
            var fields: JSONAPIHTTPHeaders = ["Content-Type": "application/vnd.api+json"]
            for field in headers { fields.add(name: field.name, value: field.value) }
            return Answer(
                status: 200, headers: fields,
                body: #"{"data":{"type":"articles","id":"1","attributes":{"title":"\#(title)"}}}"#)
        }

        /// No answer: the transport throws, as one does for a refused or lost connection.
        static let failing = Answer(status: 0, headers: [:], body: "")

        static func status(_ status: Int, _ headers: JSONAPIHTTPHeaders = [:], body: String = "") -> Answer {
            var fields = headers
            if !body.isEmpty { fields.add(name: "Content-Type", value: "application/vnd.api+json") }
            return Answer(status: status, headers: fields, body: body)
        }
    }

    struct OutOfAnswers: Error {}
    struct ConnectionLost: Error {}

    private let state: Mutex<(answers: [Answer], requests: [JSONAPIHTTPRequest])>

    init(_ answers: [Answer]) { state = Mutex((answers, [])) }

    /// The requests sent so far.
    var requests: [JSONAPIHTTPRequest] { state.withLock { $0.requests } }

    func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<AsyncStream<[UInt8]>> {
        let answer = try state.withLock { state in
            state.requests.append(request)
            guard !state.answers.isEmpty else { throw OutOfAnswers() }
            return state.answers.removeFirst()
        }
        if answer.status == 0 { throw ConnectionLost() }
        let bytes = Array(answer.body.utf8)
        return JSONAPITransportResponse(
            status: answer.status, headers: answer.headers,
            body: AsyncStream { continuation in
                if !bytes.isEmpty { continuation.yield(bytes) }
                continuation.finish()
            })
    }
}

/// The client's HTTP cache (RFC 9111) and conditional writes, against scripted answers and
/// against the example service over loopback.
@Suite struct HTTPCachingTests {
    static let url = "https://api.example.com/articles/1"

    static func client(
        _ transport: ScriptedTransport, _ configure: (inout JSONAPIClient.Configuration) -> Void = { _ in }
    ) -> JSONAPIClient {
        var configuration = JSONAPIClient.Configuration()
        configure(&configuration)
        return JSONAPIClient(baseURL: "https://api.example.com", transport: transport, configuration: configuration)
    }

    static func title(_ response: JSONAPIClientResponse) -> String? {
        response.document?.primaryResources.first?.attributes["title"]?.stringValue
    }

    @Test("a kept answer with an ETag is revalidated, and a 304 answers with it")
    func revalidation() async throws {
        let transport = ScriptedTransport([
            .article("A", ["ETag": #""v1""#]), .status(304, ["ETag": #""v1""#]), .article("B", ["ETag": #""v2""#]),
            .status(304),
        ])
        let store = ResourceStore()
        let client = JSONAPIClient(baseURL: "https://api.example.com", transport: transport, store: store)
        let first = try await client.send(client.request("GET", Self.url))
        #expect(first.source == .network && Self.title(first) == "A")
        let second = try await client.send(client.request("GET", Self.url))
        #expect(second.status == 200 && second.source == .revalidated && Self.title(second) == "A")
        #expect(transport.requests[1].headers["If-None-Match"] == #""v1""#)
        // A changed resource: the new answer replaces the kept one, and its tag is sent next.
        let third = try await client.send(client.request("GET", Self.url))
        #expect(third.source == .network && Self.title(third) == "B")
        let fourth = try await client.send(client.request("GET", Self.url))
        #expect(Self.title(fourth) == "B" && transport.requests[3].headers["If-None-Match"] == #""v2""#)
        #expect(store.resource(type: "articles", id: "1")?.attributes["title"]?.stringValue == "B")
    }

    @Test("a fresh answer is given again without a request, until the caller asks for the server's")
    func freshness() async throws {
        let transport = ScriptedTransport([
            .article("A", ["Cache-Control": "private, max-age=60", "ETag": #""v1""#]), .status(304),
            .article("C", ["Cache-Control": "max-age=0"]), .article("D"),
        ])
        let client = Self.client(transport)
        _ = try await client.send(client.request("GET", Self.url))
        let again = try await client.send(client.request("GET", Self.url))
        #expect(again.source == .cache && Self.title(again) == "A" && transport.requests.count == 1)
        // `Cache-Control: no-cache` in the request: revalidated.
        let asked = try await client.send(client.request("GET", Self.url, headers: ["Cache-Control": "no-cache"]))
        #expect(asked.source == .revalidated && transport.requests.count == 2)
        // max-age=0: stale at once, and without an ETag fetched whole.
        let other = "https://api.example.com/articles/2"
        _ = try await client.send(client.request("GET", other))
        let refetched = try await client.send(client.request("GET", other))
        #expect(refetched.source == .network && Self.title(refetched) == "D")
        #expect(transport.requests[3].headers["If-None-Match"] == nil)
    }

    @Test("Expires counts from the answer's Date; an Expires that is no date is already stale")
    func expires() async throws {
        let date = "Wed, 02 Dec 2026 10:00:00 GMT"
        let transport = ScriptedTransport([
            .article("A", ["Date": date, "Expires": "Wed, 02 Dec 2026 10:00:30 GMT"]),
            .article("B", ["Date": date, "Expires": "Wed, 02 Dec 2026 09:59:00 GMT"]), .article("C"),
            .article("D", ["Expires": "0", "ETag": #""d""#]), .status(304),
        ])
        let client = Self.client(transport)
        let urls = (1...3).map { "https://api.example.com/articles/\($0)" }
        _ = try await client.send(client.request("GET", urls[0]))
        #expect(try await client.send(client.request("GET", urls[0])).source == .cache)
        _ = try await client.send(client.request("GET", urls[1]))
        #expect(try await client.send(client.request("GET", urls[1])).source == .network)
        _ = try await client.send(client.request("GET", urls[2]))
        #expect(try await client.send(client.request("GET", urls[2])).source == .revalidated)
        #expect(transport.requests.count == 5)
    }

    @Test("no-store, Vary: * and the caller's own conditions keep the cache out")
    func notKept() async throws {
        let transport = ScriptedTransport([
            .article("A", ["Cache-Control": "no-store", "ETag": #""a""#]), .article("A"),
            .article("B", ["Vary": "*", "ETag": #""b""#]), .article("B"),
            .article("C", ["ETag": #""c""#]), .status(304, ["ETag": #""c""#]),
        ])
        let client = Self.client(transport)
        for url in [Self.url, "https://api.example.com/articles/2"] {
            _ = try await client.send(client.request("GET", url))
            let again = try await client.send(client.request("GET", url))
            #expect(again.source == .network)
        }
        #expect(transport.requests.allSatisfy { $0.headers["If-None-Match"] == nil })
        // A request with its own If-None-Match gets the server's 304 as it is.
        let url = "https://api.example.com/articles/3"
        _ = try await client.send(client.request("GET", url))
        let own = try await client.send(client.request("GET", url, headers: ["If-None-Match": #""c""#]))
        #expect(own.status == 304 && own.document == nil && own.source == .network)
    }

    @Test("an answer that varies by Accept is not given for another Accept")
    func vary() async throws {
        let transport = ScriptedTransport([
            .article("A", ["Vary": "Accept", "Cache-Control": "max-age=60"]), .article("B"),
        ])
        let client = Self.client(transport)
        _ = try await client.send(client.request("GET", Self.url))
        let profiled = JSONAPIMediaType(profiles: ["https://example.com/p"]).description
        let other = try await client.send(client.request("GET", Self.url, headers: ["Accept": profiled]))
        #expect(other.source == .network && Self.title(other) == "B")
    }

    /// Sets `Authorization` from the request's `X-User`, as an authentication interceptor would.
    struct Credentials: JSONAPIInterceptor {
        func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws
            -> JSONAPIClientResponse
        {
            var request = request
            request.headers.replaceOrAdd(name: "Authorization", value: "Bearer " + (request.headers["X-User"] ?? ""))
            return try await next(request)
        }
    }

    @Test("an answer is given only to requests with the same credentials, also those an interceptor sets")
    func credentials() async throws {
        let fresh: JSONAPIHTTPHeaders = ["Cache-Control": "max-age=60"]
        let transport = ScriptedTransport([
            .article("Ann's", fresh), .article("Bo's", fresh), .article("Ann's", fresh), .article("Cy's", fresh),
            .article("nobody's", fresh),
        ])
        let client = Self.client(transport) { $0.interceptors = [Credentials()] }
        func read(_ user: String) async throws -> JSONAPIClientResponse {
            try await client.send(client.request("GET", Self.url, headers: ["X-User": user]))
        }
        #expect(try await read("ann").source == .network)
        let bo = try await read("bo")
        #expect(bo.source == .network && Self.title(bo) == "Bo's")
        // One answer is kept per URL: Bo's, which is not given to Ann; hers is kept again after.
        let ann = try await read("ann")
        #expect(ann.source == .network && Self.title(ann) == "Ann's")
        #expect(try await read("ann").source == .cache)
        #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer ann", "Bearer bo", "Bearer ann"])
        // Credentials set on the request itself, and none at all.
        let plain = Self.client(transport)
        let cy = try await plain.send(plain.request("GET", Self.url, headers: ["Cookie": "session=cy"]))
        #expect(cy.source == .network && Self.title(cy) == "Cy's")
        let cyAgain = try await plain.send(plain.request("GET", Self.url, headers: ["Cookie": "session=cy"]))
        #expect(cyAgain.source == .cache)
        let nobody = try await plain.send(plain.request("GET", Self.url))
        #expect(nobody.source == .network && Self.title(nobody) == "nobody's")
        #expect(transport.requests.count == 5)
    }

    @Test("writes carry If-Match with the kept ETag; a success drops the kept answer; 412 is its own kind")
    func conditionalWrites() async throws {
        let problem = #"{"errors":[{"status":"412","title":"Precondition Failed"}]}"#
        let transport = ScriptedTransport([
            .article("A", ["ETag": #""v1""#, "Cache-Control": "max-age=60"]), .article("A2"), .status(204),
            .article("B", ["ETag": #""v3""#, "Cache-Control": "max-age=60"]), .status(412, body: problem),
            .status(304, ["ETag": #""v3""#]),
        ])
        let client = Self.client(transport)
        let body = Array(#"{"data":{"type":"articles","id":"1","attributes":{"title":"A2"}}}"#.utf8)
        _ = try await client.send(client.request("GET", Self.url))
        _ = try await client.send(client.request("PATCH", Self.url, body: body))
        #expect(transport.requests[1].headers["If-Match"] == #""v1""#)
        // The write answered with success: nothing kept, so no If-Match.
        _ = try await client.send(client.request("DELETE", Self.url))
        #expect(transport.requests[2].headers["If-Match"] == nil)

        _ = try await client.send(client.request("GET", Self.url))
        await #expect {
            _ = try await client.send(client.request("PATCH", Self.url, body: body))
        } throws: { error in
            let error = error as? JSONAPIClientError
            return error?.kind == .preconditionFailed && error?.status == 412 && error?.errors.count == 1
        }
        #expect(transport.requests[4].headers["If-Match"] == #""v3""#)
        // The kept answer is stale now, though its max-age has not run out.
        let reread = try await client.send(client.request("GET", Self.url))
        #expect(reread.source == .revalidated && transport.requests[5].headers["If-None-Match"] == #""v3""#)
    }

    @Test("the byte limit: an answer over it is not kept, the oldest go first, 0 and off keep none")
    func limits() async throws {
        let answer = ScriptedTransport.Answer.article("A", ["Cache-Control": "max-age=60"])
        let size = answer.body.utf8.count
        let urls = (1...3).map { "https://api.example.com/articles/\($0)" }
        let transport = ScriptedTransport(Array(repeating: answer, count: 5))
        let client = Self.client(transport) { $0.caching.maximumBytes = 2 * size }
        for url in urls { _ = try await client.send(client.request("GET", url)) }
        #expect(try await client.send(client.request("GET", urls[2])).source == .cache)
        #expect(try await client.send(client.request("GET", urls[1])).source == .cache)
        #expect(try await client.send(client.request("GET", urls[0])).source == .network)
        #expect(transport.requests.count == 4)

        for configure in [
            { (c: inout JSONAPIClient.Configuration) in c.caching.maximumBytes = 0 }, { $0.caching.isEnabled = false },
        ] {
            let transport = ScriptedTransport([
                .article("A", ["ETag": #""a""#, "Cache-Control": "max-age=60"]), .article("A"),
                .article("A"),
            ])
            let client = Self.client(transport, configure)
            _ = try await client.send(client.request("GET", Self.url))
            #expect(try await client.send(client.request("GET", Self.url)).source == .network)
            _ = try await client.send(client.request("PATCH", Self.url, body: Array("{}".utf8)))
            #expect(
                transport.requests.allSatisfy { $0.headers["If-None-Match"] == nil && $0.headers["If-Match"] == nil })
        }
        var negative = JSONAPIClient.Configuration()
        negative.caching.maximumBytes = -1
        #expect(throws: JSONAPIError.self) { try negative.validate() }
    }

    /// The example service sends an `ETag` on every read, answers `If-None-Match` with 304 and a
    /// stale `If-Match` with 412: one client's write after another client's change fails.
    @Test(arguments: ExampleServiceFront.allCases, TransportKind.allCases)
    func againstTheExampleService(_ front: ExampleServiceFront, _ transport: TransportKind) async throws {
        try await front.serve(try await ExampleService(store: .seeded(articles: 3, seed: 7))) { base in
            let reader = transport.client(base)
            let writer = transport.client(base)
            let url = base + "/articles/1"
            let first = try await reader.send(reader.request("GET", url))
            let second = try await reader.send(reader.request("GET", url))
            #expect(first.source == .network && second.source == .revalidated)
            #expect(second.document?.primaryResources.first?.id == "1")

            _ = try await writer.resources(Article.self).update(ArticlePatch(id: "1", title: .value("Theirs")))
            await #expect {
                _ = try await reader.resources(Article.self).update(ArticlePatch(id: "1", title: .value("Mine")))
            } throws: { error in
                (error as? JSONAPIClientError)?.kind == .preconditionFailed
            }
            // Read again (the server's answer, not the kept one), then the write goes through.
            let reread = try await reader.resources(Article.self).get(id: "1")
            #expect(reread.value.title == "Theirs")
            let mine = try await reader.resources(Article.self).update(ArticlePatch(id: "1", title: .value("Mine")))
            #expect(mine.resource?.title == "Mine")
        }
    }

    @Test("HTTP dates: the preferred form and the two obsolete ones, checked field by field")
    func httpDates() {
        #expect(HTTPDate.seconds("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.seconds("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.seconds("Tue, 29 Feb 2028 23:59:59 GMT") == 1_835_481_599)
        // RFC 9110 §5.6.7: a recipient must accept RFC 850's form and asctime's as well.
        let december2026 = 1_796_601_600
        #expect(HTTPDate.seconds("Sunday, 06-Nov-94 08:49:37 GMT", now: december2026) == 784_111_777)
        #expect(HTTPDate.seconds("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(HTTPDate.seconds("Tue Feb 29 23:59:59 2028") == 1_835_481_599)
        // A two-digit year more than 50 years ahead is the century before; 50 years or less is ahead.
        #expect(HTTPDate.seconds("Saturday, 01-Jan-77 00:00:00 GMT", now: december2026) == 220_924_800)
        #expect(HTTPDate.seconds("Wednesday, 01-Jan-70 00:00:00 GMT", now: december2026) == 3_155_760_000)
        #expect(HTTPDate.seconds("Friday, 01-Jan-76 00:00:00 GMT", now: 0) == 189_302_400)
        #expect(HTTPDate.seconds("Wednesday, 01-Jan-60 00:00:00 GMT", now: december2026) == 2_840_140_800)
        for text in [
            "0", "", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Xyz 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 31 Apr 1994 08:49:37 GMT", "Sun, 29 Feb 2100 08:49:37 GMT",
            "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 UTC", "Sun Nov 6 08:49:37 1994",
            "Sun Nov  06 08:49:37 1994", "Sun Nov 06 08:49:37 94", "Sun Nov  6 08:49:37 1994 GMT",
            "Sun Nov  6 8:49:37 1994",
        ] {
            #expect(HTTPDate.seconds(text) == nil, "\(text)")
        }
    }
}
