import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Declared resources served by `addJSONAPIService`, over a real loopback socket.
@Suite struct ResourceServiceTests {
    @Test func everyEndpointOverTheSocket() async throws {
        let service = ResourceServiceScenario.service(try Library.sources())
        let router = Router()
        router.add(middleware: JSONAPIMiddleware(configuration: service.configuration))
        router.addJSONAPIService(service, operations: "operations") { request, _ in
            ["role": request.headers[values: HTTPField.Name("X-Role")!].first ?? ""]
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await ResourceServiceScenario(port: try #require(client.port)).everyEndpoint()
        }
    }

    @Test func streamedCollectionOverTheSocket() async throws {
        let service = try ResourceServiceScenario.streamingService()
        let router = Router()
        router.add(middleware: JSONAPIMiddleware(configuration: service.configuration))
        router.addJSONAPIService(service)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await ResourceServiceScenario(port: try #require(client.port)).streamedCollection()
        }
    }
}
