import JSONAPI
import Vapor

/// Runs `body` with `app` serving on a free loopback port, then shuts it down.
func withRunningServer<T: Sendable>(
    _ app: Application, _ body: @Sendable (_ port: Int) async throws -> T
) async throws -> T {
    // Request logs at info level would bury the test output; errors the tests cause stay visible.
    app.logger.logLevel = .warning
    do {
        try await app.asyncBoot()
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        guard let port = app.http.server.shared.localAddress?.port else {
            throw Abort(.internalServerError, reason: "the server has no local address")
        }
        let result = try await body(port)
        await app.server.shutdown()
        try await app.asyncShutdown()
        return result
    } catch {
        await app.server.shutdown()
        try? await app.asyncShutdown()
        throw error
    }
}
