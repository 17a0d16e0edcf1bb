import JSONAPI
import Testing
import Vapor

@testable import JSONAPIExample
@testable import JSONAPITestSupport
@testable import JSONAPIVapor

/// The example service's Vapor front over connections that stay open: bodies that fail early,
/// query spellings, repeated header lines, `Vary` and 405, timeouts
/// (``ExampleServiceScenario`` holds the checks every front passes).
@Suite struct ConnectionTests {
    func withServer(
        maximumBodyBytes: Int = 1 << 20, idleTimeout: Duration = testServerIdleTimeout,
        _ body: @Sendable (ExampleServiceScenario) async throws -> Void
    ) async throws {
        let service = try await ExampleService(store: .seeded(articles: 12, seed: 7))
        let app = try await VaporFront.application(
            service: service, port: 0, configuration: ExampleService.configuration(maximumBodyBytes: maximumBodyBytes),
            timeouts: JSONAPIServerTimeouts(idleTimeout: idleTimeout))
        try await withRunningServer(app) { port in try await body(ExampleServiceScenario(port: port)) }
    }

    @Test func connectionAfterEarlyFailures() async throws {
        try await withServer(maximumBodyBytes: 64 * 1024) {
            try await $0.connectionAfterEarlyFailures(limit: 64 * 1024)
        }
    }

    @Test func querySpellings() async throws {
        try await withServer { try await $0.querySpellings() }
    }

    @Test func repeatedHeaderLines() async throws {
        try await withServer { try await $0.repeatedHeaderLines() }
    }

    @Test func varyAndMethodNotAllowed() async throws {
        try await withServer { try await $0.varyAndMethodNotAllowed() }
    }

    @Test func idleConnectionsClose() async throws {
        try await withServer(idleTimeout: .seconds(2)) { try await $0.idleConnectionsClose(idleTimeout: 2) }
    }

    /// Vapor's idle timeout restarts with every byte: a head is closed when its bytes come
    /// further apart than the timeout (Vapor has no deadline for a whole head).
    @Test func slowHeadCloses() async throws {
        try await withServer(idleTimeout: .seconds(1)) { try await $0.slowHeadCloses(interval: 1.5, deadline: 6) }
    }

    /// Foundation's re-encoding of a target with a raw `[` is undone; a target it left alone is
    /// read as sent.
    @Test(arguments: [
        ("/articles?filter[title]=query%20api%20small", "filter%5Btitle%5D=query%20api%20small"),
        ("/articles?filter%5Btitle%5D=query%20api%20small", "filter%5Btitle%5D=query%20api%20small"),
        ("/a?page%5Bsize%5D=5&page[number]=2", "page%5Bsize%5D=5&page%5Bnumber%5D=2"),
        ("/a?q=%2520", "q=%2520"),
        ("/a?q=%25", "q=%25"),
        ("/a?q=100%25&r=[", "q=100%25&r=%5B"),
        ("/a?q=%&r=1", "q=%25&r=1"),
        ("/p[1]?q=a%20b", "q=a%20b"),
        ("/a", ""),
    ])
    func rawQuery(target: String, query: String) async throws {
        let app = try await Application.make(.testing)
        let request = Request(application: app, url: URI(path: target), on: app.eventLoopGroup.any())
        #expect(request.jsonapiRawQuery == query)
        try await app.asyncShutdown()
    }
}
