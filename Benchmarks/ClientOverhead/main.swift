// What the client adds around the transport, in one process (scripts/client-overhead): a
// request through `JSONAPIClient.send` over an in-memory transport that answers a small
// document at once, with no interceptor and with three that pass the request on; the same
// request answered from the client's cache, and from its store (`queryLifetime`); and
// `ResourceStore.merge` per resource, into an empty store and over the same resources again.
//
//     jsonapi-client-overhead [ITERATIONS]
//
// Prints one line per measurement: `variant=NAME median_us=… min_us=… count=…`.
import Foundation
import JSONAPI
import JSONAPIClient
import Timing

/// Ends the process with `message`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    fail("jsonapi-client-overhead", message, status: status)
}

/// Answers every request with the same document, whole, at once.
struct InMemoryTransport: JSONAPITransport {
    let body: [UInt8]
    let headers: JSONAPIHTTPHeaders

    func send(_ request: JSONAPIHTTPRequest) async throws -> JSONAPITransportResponse<AsyncStream<[UInt8]>> {
        let body = body
        return JSONAPITransportResponse(
            status: 200, headers: headers,
            body: AsyncStream { continuation in
                continuation.yield(body)
                continuation.finish()
            })
    }
}

/// Passes the request on unchanged.
struct PassOn: JSONAPIInterceptor {
    func intercept(_ request: JSONAPIHTTPRequest, next: JSONAPIInterceptorNext) async throws
        -> JSONAPIClientResponse
    {
        try await next(request)
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, let iterations = Int(arguments.first ?? "2000"), iterations > 0 else {
    fail("usage: jsonapi-client-overhead [ITERATIONS]", status: 2)
}

let article = Array(
    #"{"data":{"type":"articles","id":"1","attributes":{"title":"Overhead","body":"A short body."},"relationships":{"author":{"data":{"type":"people","id":"9"}}}}}"#
        .utf8)
let media = "application/vnd.api+json"

func client(interceptors: Int, cached: Bool, remembered: Bool = false) -> JSONAPIClient {
    var configuration = JSONAPIClient.Configuration()
    configuration.caching.isEnabled = cached
    configuration.interceptors = Array(repeating: PassOn(), count: interceptors)
    if remembered { configuration.queryLifetime = .seconds(3600) }
    var headers: JSONAPIHTTPHeaders = ["Content-Type": media]
    if cached { headers.add(name: "Cache-Control", value: "max-age=3600") }
    return JSONAPIClient(
        baseURL: "http://127.0.0.1:1", transport: InMemoryTransport(body: article, headers: headers),
        configuration: configuration, store: remembered ? ResourceStore() : nil)
}

/// A document of `count` people, ids 1 to `count`.
func people(_ count: Int) throws -> Document {
    var text = #"{"data":["#
    for index in 1...count {
        if index > 1 { text += "," }
        text +=
            #"{"type":"people","id":"\#(index)","attributes":{"name":"Person \#(index)","age":\#(20 + index % 60)}}"#
    }
    text += "]}"
    return try Document(parsing: Array(text.utf8))
}

do {
    for (name, interceptors, cached, remembered) in [
        ("send", 0, false, false), ("send-3-interceptors", 3, false, false), ("send-cached", 0, true, false),
        ("send-store", 0, false, true),
    ] {
        let client = client(interceptors: interceptors, cached: cached, remembered: remembered)
        let request = client.request("GET", "http://127.0.0.1:1/articles/1")
        let first = try await client.send(request)
        guard first.document?.primaryResources.first?.id == "1" else { fail("\(name): no article in the answer") }
        report(name, try await measure(iterations) { _ = try await client.send(request) }, "count=1")
        if cached, try await client.send(request).source != .cache {
            fail("the cached client did not answer from its cache")
        }
        if remembered, try await client.send(request).source != .store {
            fail("the remembering client did not answer from its store")
        }
    }
    let count = 10_000
    let document = try people(count)
    let rounds = max(iterations / 100, 5)
    var fresh: [Double] = []
    var again: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<rounds {
        let store = ResourceStore()
        fresh.append(microseconds(clock.measure { store.merge(document) }) / Double(count))
        again.append(microseconds(clock.measure { store.merge(document) }) / Double(count))
        guard store.count == count else { fail("the store holds \(store.count) resources, not \(count)") }
    }
    report("merge-new", fresh, "count=\(count)")
    report("merge-again", again, "count=\(count)")
} catch {
    fail("\(error)")
}
