import JSONAPI
import JSONAPIVapor
import Testing
import Vapor

@testable import JSONAPIExample
@testable import JSONAPITestSupport

/// The example service's Vapor front over a real loopback socket, through the checks every
/// front passes (``ExampleServiceScenario``).
@Suite struct ExampleServerTests {
    func withServer(
        maximumBodyBytes: Int = 1 << 20, _ body: @Sendable (ExampleServiceScenario) async throws -> Void
    ) async throws {
        let service = ExampleService(store: .seeded(articles: 12, seed: 7))
        let app = try await VaporFront.application(
            service: service, port: 0, configuration: ExampleService.configuration(maximumBodyBytes: maximumBodyBytes),
            timeouts: JSONAPIServerTimeouts(idleTimeout: testServerIdleTimeout))
        try await withRunningServer(app) { port in try await body(ExampleServiceScenario(port: port)) }
    }

    @Test func readEndpointsAndQueries() async throws {
        try await withServer { try await $0.readEndpointsAndQueries() }
    }

    @Test func writeEndpoints() async throws {
        try await withServer { try await $0.writeEndpoints() }
    }

    @Test func errorsAndNegotiation() async throws {
        try await withServer(maximumBodyBytes: 256) { try await $0.errorsAndNegotiation() }
    }

    @Test(.enabled(if: corpusURL != nil)) func corpusThroughTheSocket() async throws {
        try await withServer { scenario in
            let sent = try await scenario.corpusThroughTheSocket()
            #expect(sent > 300)
        }
    }
}
