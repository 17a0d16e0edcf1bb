import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@testable import JSONAPIExample
@testable import JSONAPITestSupport

/// The example service's Hummingbird front over a real loopback socket (`.live`), through the
/// checks every front passes (``ExampleServiceScenario``).
@Suite struct ExampleServerTests {
    func withServer(
        maximumBodyBytes: Int = 1 << 20, _ body: @Sendable (ExampleServiceScenario) async throws -> Void
    ) async throws {
        let service = try await ExampleService(store: .seeded(articles: 12, seed: 7))
        let app = HummingbirdFront.application(
            service: service, port: 0, configuration: ExampleService.configuration(maximumBodyBytes: maximumBodyBytes),
            timeouts: JSONAPIServerTimeouts(idleTimeout: testServerIdleTimeout))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(ExampleServiceScenario(port: port))
        }
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

    /// Each path answers the methods of the service's route table and no other.
    @Test func routesFollowTheTable() async throws {
        let table = try await ExampleService(store: .seeded(articles: 1, seed: 7)).resources
        try await withServer { try await $0.routesFollowTheTable(table) }
    }

    /// What the OpenAPI document promises, one request each: the regressions schemathesis found.
    @Test func documentedBehaviour() async throws {
        try await withServer { try await $0.documentedBehaviour() }
    }

    #if OpenAPI
        @Test func servedOpenAPIDocument() async throws {
            try await withServer { try await $0.servedOpenAPIDocument() }
        }

        /// schemathesis against the service from the document it serves (`/openapi.json`), every
        /// phase and check, bounded in time (``Schemathesis``): no failure.
        @Test func schemathesisFromItsOwnDocument() async throws {
            try await withServer { try await $0.schemathesisRunsClean() }
        }
    #endif

    @Test(.enabled(if: corpusURL != nil)) func corpusThroughTheSocket() async throws {
        try await withServer { scenario in
            let sent = try await scenario.corpusThroughTheSocket()
            #expect(sent > 300)
        }
    }
}
