import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import JSONAPIVapor
import Testing
import Vapor

@testable import JSONAPIExample
@testable import JSONAPITestSupport

/// The example service's HTTP fronts: the client tests run against each, so that what one
/// framework does differently (chunking, headers, how it answers an aborted body) is covered.
enum ExampleServiceFront: String, CaseIterable, Sendable, CustomStringConvertible {
    case hummingbird
    case vapor

    var description: String { rawValue }

    /// Serves `service` on a free loopback port for the duration of `body`, which gets the base
    /// URL, then stops the server.
    func serve(
        _ service: ExampleService, maximumBodyBytes: Int = 1 << 20, _ body: @Sendable (String) async throws -> Void
    ) async throws {
        let configuration = ExampleService.configuration(maximumBodyBytes: maximumBodyBytes)
        switch self {
        case .hummingbird:
            let app = HummingbirdFront.application(
                service: service, port: 0, configuration: configuration,
                timeouts: JSONAPIHummingbird.JSONAPIServerTimeouts(idleTimeout: testServerIdleTimeout))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                try await body("http://127.0.0.1:\(port)")
            }
        case .vapor:
            let app = try await VaporFront.application(
                service: service, port: 0, configuration: configuration,
                timeouts: JSONAPIVapor.JSONAPIServerTimeouts(idleTimeout: testServerIdleTimeout))
            // Request logs at info level would bury the test output.
            app.logger.logLevel = .warning
            do {
                try await app.asyncBoot()
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                try await body("http://127.0.0.1:\(port)")
            } catch {
                await app.server.shutdown()
                try? await app.asyncShutdown()
                throw error
            }
            await app.server.shutdown()
            try await app.asyncShutdown()
        }
    }
}
