import JSONAPI
import JSONAPIServer
import JSONAPIVapor
import Testing
import Vapor

@testable import JSONAPITestSupport

/// Declared resources served by `jsonapiService`, over a real loopback socket.
@Suite struct ResourceServiceTests {
    @Test func everyEndpointOverTheSocket() async throws {
        let service = ResourceServiceScenario.service(try Library.sources())
        let app = try await Application.make(Environment(name: "testing", arguments: ["resource-service-tests"]))
        app.middleware.use(JSONAPIMiddleware(configuration: service.configuration))
        app.jsonapiService(service, operations: "operations") { request in
            ["role": request.headers.first(name: "X-Role") ?? ""]
        }
        try await withRunningServer(app) { port in
            try await ResourceServiceScenario(port: port).everyEndpoint()
        }
    }

    @Test func streamedCollectionOverTheSocket() async throws {
        let service = try ResourceServiceScenario.streamingService()
        let app = try await Application.make(Environment(name: "testing", arguments: ["resource-service-tests"]))
        app.middleware.use(JSONAPIMiddleware(configuration: service.configuration))
        app.jsonapiService(service)
        try await withRunningServer(app) { port in
            try await ResourceServiceScenario(port: port).streamedCollection(
                headLengthIssue: "Vapor writes Content-Length: 0 for a HEAD answered without a body")
        }
    }
}
