import Foundation
import JSONAPI
import Synchronization
import Testing

@testable import JSONAPIClient

/// The retry policy and the interceptor chain: against scripted answers, and over loopback
/// against a server that fails the way servers do (503 with `Retry-After`, a connection cut in
/// the middle of the body).
@Suite struct RetriesAndInterceptorsTests {
    static let url = "https://api.example.com/articles/1"
    static let quick = JSONAPIClient.RetryPolicy(
        maximumAttempts: 3, initialDelay: .milliseconds(1), maximumDelay: .seconds(1), jitter: 0)

    static func client(
        _ transport: some JSONAPITransport, retries: JSONAPIClient.RetryPolicy? = quick,
        interceptors: [any JSONAPIInterceptor] = []
    ) -> JSONAPIClient {
        var configuration = JSONAPIClient.Configuration()
        configuration.retries = retries
        configuration.interceptors = interceptors
        configuration.caching.isEnabled = false
        return JSONAPIClient(baseURL: "https://api.example.com", transport: transport, configuration: configuration)
    }

    static func failure(_ work: () async throws -> Void) async -> JSONAPIClientError? {
        do {
            try await work()
            return nil
        } catch {
            return error as? JSONAPIClientError
        }
    }

    @Test("429, 503 and lost connections are tried again, up to the limit")
    func retried() async throws {
        let transport = ScriptedTransport([
            .status(503, ["Retry-After": "0"]), .failing, .status(429), .article("A"),
        ])
        let client = Self.client(
            transport, retries: JSONAPIClient.RetryPolicy(maximumAttempts: 4, initialDelay: .milliseconds(1), jitter: 0)
        )
        let response = try await client.send(client.request("GET", Self.url))
        #expect(response.status == 200 && transport.requests.count == 4)

        // The limit: the last failure is what is thrown.
        let limited = ScriptedTransport([.status(503), .status(503), .status(503), .article("A")])
        let error = await Self.failure {
            _ = try await Self.client(limited).send(Self.client(limited).request("GET", Self.url))
        }
        #expect(error?.status == 503 && limited.requests.count == 3)
    }

    @Test("a POST goes once unless it says it may go again; other statuses and errors are not retried")
    func notRetried() async throws {
        let post = ScriptedTransport([.status(503), .article("A")])
        let client = Self.client(post)
        let error = await Self.failure { _ = try await client.send(client.request("POST", Self.url, body: [])) }
        #expect(error?.status == 503 && post.requests.count == 1)

        let marked = ScriptedTransport([.status(503), .article("A")])
        let markedClient = Self.client(marked)
        var request = markedClient.request("POST", Self.url, body: [])
        request.isRetryable = true
        #expect(try await markedClient.send(request).status == 200 && marked.requests.count == 2)

        for answer in [ScriptedTransport.Answer.status(500), .status(404), .status(412)] {
            let transport = ScriptedTransport([answer, .article("A")])
            let client = Self.client(transport)
            _ = await Self.failure { _ = try await client.send(client.request("GET", Self.url)) }
            #expect(transport.requests.count == 1, "\(answer.status)")
        }
        // Off by default.
        let plain = ScriptedTransport([.status(503), .article("A")])
        let plainClient = Self.client(plain, retries: nil)
        _ = await Self.failure { _ = try await plainClient.send(plainClient.request("GET", Self.url)) }
        #expect(plain.requests.count == 1)
    }

    @Test("waits grow, are capped and shortened by jitter; Retry-After replaces them, too long ends them")
    func waits() throws {
        let policy = JSONAPIClient.RetryPolicy(
            maximumAttempts: 10, initialDelay: .milliseconds(100), maximumDelay: .seconds(1), multiplier: 3,
            jitter: 0.5)
        let unavailable = JSONAPIClientError(.errorResponse, method: "GET", url: Self.url, status: 503, message: "")
        #expect(policy.delay(after: unavailable, attempt: 1, random: 0) == .milliseconds(100))
        #expect(policy.delay(after: unavailable, attempt: 2, random: 0) == .milliseconds(300))
        #expect(policy.delay(after: unavailable, attempt: 4, random: 0) == .seconds(1))
        #expect(policy.delay(after: unavailable, attempt: 2, random: 1) == .milliseconds(150))
        #expect(policy.delay(after: unavailable, attempt: 10, random: 0) == nil)
        var later = unavailable
        later.headers = ["Retry-After": "1"]
        #expect(policy.delay(after: later, attempt: 1, random: 0.9) == .seconds(1))
        later.headers = ["Retry-After": "120"]
        #expect(policy.delay(after: later, attempt: 1, random: 0) == nil)
        later.headers = ["Retry-After": "Thu, 01 Jan 1970 00:00:00 GMT"]
        #expect(policy.delay(after: later, attempt: 1, random: 0) == .zero)
        later.headers = ["Retry-After": "soon"]
        #expect(policy.delay(after: later, attempt: 1, random: 0) == nil)

        var invalid = JSONAPIClient.Configuration()
        for bad in [
            JSONAPIClient.RetryPolicy(maximumAttempts: 0), JSONAPIClient.RetryPolicy(multiplier: 0.5),
            JSONAPIClient.RetryPolicy(jitter: 2), JSONAPIClient.RetryPolicy(initialDelay: .seconds(60)),
        ] {
            invalid.retries = bad
            #expect(throws: JSONAPIError.self) { try invalid.validate() }
        }
    }

    @Test("cancelling the task ends the wait")
    func cancelledWait() async throws {
        let transport = ScriptedTransport([.status(503, ["Retry-After": "20"]), .article("A")])
        let client = Self.client(
            transport, retries: JSONAPIClient.RetryPolicy(maximumDelay: .seconds(60)))
        let task = Task { try await client.send(client.request("GET", Self.url)) }
        while transport.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let error = await Self.failure { _ = try await task.value }
        #expect(error?.kind == .cancelled && transport.requests.count == 1)
    }

    /// A value several interceptors share.
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func withLock<R>(_ body: (inout sending Value) -> sending R) -> sending R { value.withLock(body) }
    }

    /// Records the order interceptors see requests and responses in, and adds a header.
    struct Tracing: JSONAPIInterceptor {
        let name: String
        let log: Shared<[String]>

        func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws
            -> JSONAPIClientResponse
        {
            var request = request
            request.headers.add(name: "X-Trace", value: name)
            log.withLock { $0.append("\(name) >") }
            defer { log.withLock { $0.append("\(name) <") } }
            return try await next(request)
        }
    }

    /// Sends a token; on a 401, takes the next token and sends the request again.
    struct Authentication: JSONAPIInterceptor {
        let tokens: Shared<[String]>

        func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws
            -> JSONAPIClientResponse
        {
            var request = request
            request.headers.replaceOrAdd(name: "Authorization", value: "Bearer " + (tokens.withLock { $0.first } ?? ""))
            do {
                return try await next(request)
            } catch let error as JSONAPIClientError where error.status == 401 {
                let refreshed = tokens.withLock { tokens in
                    tokens.removeFirst()
                    return tokens.first ?? ""
                }
                request.headers.replaceOrAdd(name: "Authorization", value: "Bearer " + refreshed)
                return try await next(request)
            }
        }
    }

    @Test("interceptors run in order around every attempt; one can refresh a token and send again")
    func interceptors() async throws {
        let log = Shared<[String]>([])
        let unauthorized = #"{"errors":[{"status":"401","title":"Unauthorized"}]}"#
        let transport = ScriptedTransport([.status(503), .status(401, body: unauthorized), .article("A")])
        let traced = Self.client(
            transport,
            interceptors: [
                Tracing(name: "outer", log: log), Authentication(tokens: Shared(["old", "new"])),
                Tracing(name: "inner", log: log),
            ])
        let response = try await traced.send(traced.request("GET", Self.url))
        #expect(response.status == 200)
        let requests = transport.requests
        #expect(requests.count == 3)
        #expect(requests.map { $0.headers.values("X-Trace") } == Array(repeating: ["outer", "inner"], count: 3))
        #expect(requests.map { $0.headers["Authorization"] } == ["Bearer old", "Bearer old", "Bearer new"])
        // The 503 is retried by the policy (outside the chain), the 401 by the interceptor (inside).
        #expect(
            log.withLock { $0 } == [
                "outer >", "inner >", "inner <", "outer <",
                "outer >", "inner >", "inner <", "inner >", "inner <", "outer <",
            ])
    }

    @Test(
        "over loopback: a 503 with Retry-After, then a connection cut in the body, then the answer",
        arguments: TransportKind.allCases)
    func loopback(_ kind: TransportKind) async throws {
        let person = Array(#"{"data":{"type":"people","id":"9","attributes":{"name":"Ann"}}}"#.utf8)
        let count = Mutex(0)
        let server = try CannedHTTPServer { _, connection in
            switch count.withLock({ value -> Int in
                value += 1
                return value
            }) {
            case 1:
                connection.respond(
                    status: 503, contentType: nil, body: Array("busy".utf8), extraHeaders: "Retry-After: 0\r\n")
            case 2:
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/vnd.api+json\r\nContent-Length: \(person.count)\r\n\r\n"
                )
                connection.write(Array(person.prefix(10)))
            default:
                connection.respond(status: 200, contentType: "application/vnd.api+json", body: person)
            }
        }
        defer { server.stop() }
        var configuration = JSONAPIClient.Configuration()
        configuration.retries = Self.quick
        configuration.retries?.maximumAttempts = 3
        let people = kind.client(server.baseURL, configuration: configuration).resources(Person.self)
        let ann = try await people.get(id: "9")
        #expect(ann.value.name == "Ann" && count.withLock { $0 } == 3)
    }
}
