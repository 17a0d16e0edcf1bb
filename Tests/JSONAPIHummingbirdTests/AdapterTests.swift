import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@Suite struct AdapterTests {
    struct SecretFailure: Error, CustomStringConvertible {
        var description: String { "database password is hunter2" }
    }

    @Test func plainErrorIsAGeneric500() async throws {
        let router = Router()
        router.add(middleware: JSONAPIMiddleware())
        router.get("boom") { _, _ -> JSONAPIResponse in throw SecretFailure() }
        router.get("ok") { _, _ in JSONAPIResponse(bytes: Array(#"{"meta":{}}"#.utf8)) }
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/boom", method: .get) { response in
                #expect(response.status == .internalServerError)
                let text = String(buffer: response.body)
                #expect(!text.contains("hunter2"))
                let document = try Document(parsing: Array(text.utf8))
                #expect(document.errors.first?.status == "500")
            }
            try await client.execute(uri: "/ok", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.api+json")
            }
        }
    }
}
