import JSONAPI
import JSONAPIServer
import Testing

@testable import JSONAPITestSupport

/// Broken requests never crash the service, never answer 5xx, and never change the store.
@Suite("Resource service: malformed requests")
struct MalformedRequestTests {
    static let bodies = [
        #"{"data":{"type":"books","attributes":{"title":"Emma","year":1815},"relationships":{"author":{"data":{"type":"authors","id":"2"}},"reviews":{"data":[{"type":"reviews","id":"1"}]}}}}"#,
        #"{"data":{"type":"books","id":"1","attributes":{"title":"Dune \u00e9","rating":null},"relationships":{"reviews":{"data":[]}}}}"#,
        #"{"data":[{"type":"reviews","id":"1"},{"type":"reviews","id":"2"}]}"#,
    ]

    @Test("mutated bodies and queries: a 2xx or a 4xx with an error document, the store intact on 4xx")
    func mutated() async throws {
        var random = SplitMix64(seed: 0xF022_0035)
        var statuses: [Int: Int] = [:]
        for round in 0..<600 {
            let sources = try Library.sources()
            let service = Library.service(sources)
            let before = try await sources.books.list(ResourceListQuery()).models
            var bytes = Array(Self.bodies[round % Self.bodies.count].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(Array(#"{}[]",:0e-"\"#.utf8)[Int(random.next() % 12)], at: position)
                default: bytes = Array(bytes[..<position])
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            let queries = [
                "", "include=author,,", "fields[books]=", "sort=-", "page[size]=0", "filter[year]=1e9", "%ZZ",
            ]
            let query = queries[Int(random.next() % UInt64(queries.count))]
            let (method, endpoint): (String, ResourceRequest.Endpoint) =
                switch round % 3 {
                case 0: ("POST", .collection)
                case 1: ("PATCH", .resource(id: "1"))
                default:
                    (
                        ["PATCH", "POST", "DELETE"][Int(random.next() % 3)],
                        .relationship(id: "1", relationship: "reviews")
                    )
                }
            let request = ResourceRequest(
                method: method, type: "books", endpoint: endpoint, query: query, body: bytes)
            let status: Int
            do {
                status = try await service.respond(to: request).status
            } catch {
                let errors = JSONAPIErrorObject.errors(describing: error)
                status = JSONAPIErrorDocument(errors: errors).httpStatus
                #expect((400..<500).contains(status), "\(error) for \(String(decoding: bytes, as: UTF8.self))")
                #expect(try await sources.books.list(ResourceListQuery()).models == before)
            }
            statuses[status, default: 0] += 1
        }
        // Most mutations break the body; some leave a valid one.
        #expect(statuses.keys.contains(400) && statuses.keys.contains { $0 < 300 })
    }
}
