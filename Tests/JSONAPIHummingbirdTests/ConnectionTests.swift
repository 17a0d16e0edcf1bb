import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@testable import JSONAPIExample
@testable import JSONAPITestSupport

/// The example service's Hummingbird front over connections that stay open: bodies that fail
/// early, query spellings, repeated header lines, `Vary` and 405, timeouts
/// (``ExampleServiceScenario`` holds the checks every front passes).
@Suite struct ConnectionTests {
    func withServer(
        maximumBodyBytes: Int = 1 << 20, idleTimeout: Duration = testServerIdleTimeout,
        _ body: @Sendable (ExampleServiceScenario) async throws -> Void
    ) async throws {
        let service = try await ExampleService(store: .seeded(articles: 12, seed: 7))
        let app = HummingbirdFront.application(
            service: service, port: 0, configuration: ExampleService.configuration(maximumBodyBytes: maximumBodyBytes),
            timeouts: JSONAPIServerTimeouts(idleTimeout: idleTimeout))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(ExampleServiceScenario(port: port))
        }
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

    /// Hummingbird's idle timeout counts from the last complete request part, so a head sent a
    /// byte at a time, faster than the timeout, is still closed within it.
    @Test func slowHeadCloses() async throws {
        try await withServer(idleTimeout: .seconds(1)) { try await $0.slowHeadCloses(interval: 0.25, deadline: 6) }
    }
}
