import Hummingbird
import HummingbirdTesting
import JSONAPI
import Testing

@testable import JSONAPIHummingbird

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

    @Test func streamedBodyIsCountedAgainstTheLimit() async throws {
        let chunks = AsyncStream<ByteBuffer> { continuation in
            for _ in 0..<10 { continuation.yield(ByteBuffer(string: "          ")) }
            continuation.finish()
        }
        await #expect(throws: JSONAPIHTTPError.self) {
            _ = try await JSONAPIBodyReader.parse(chunks, options: ParsingOptions(), expectedByteCount: 0, limit: 64)
        }
    }

    @Test func chunksAnywhereParseLikeOneBuffer() async throws {
        let text = #"{"data":{"type":"articles","attributes":{"title":"é"}}}"#
        let bytes = Array(text.utf8)
        let chunks = AsyncStream<ByteBuffer> { continuation in
            for byte in bytes { continuation.yield(ByteBuffer(bytes: [byte])) }
            continuation.finish()
        }
        let document = try await JSONAPIBodyReader.parse(
            chunks, options: ParsingOptions(kind: .createRequest), expectedByteCount: bytes.count, limit: 1024)
        #expect(document.primaryResources.first?.attributes["title"]?.stringValue == "é")
    }
}
