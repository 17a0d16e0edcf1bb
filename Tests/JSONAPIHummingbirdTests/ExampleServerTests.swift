import Hummingbird
import HummingbirdTesting
import JSONAPI
import JSONAPIHummingbird
import Testing

@testable import JSONAPIExampleServer

/// The example service over a real loopback socket (`.live`): every endpoint, query family,
/// negotiation failure and error status, each error answered with a valid error document.
@Suite struct ExampleServerTests {
    static let jsonapi = "application/vnd.api+json"
    static let atomic = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#

    func withServer(
        maximumBodyBytes: Int = 1 << 20, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let service = ExampleService(store: .seeded(articles: 12, seed: 7))
        let app = HummingbirdFront.application(
            service: service, port: 0, configuration: HummingbirdFront.configuration(maximumBodyBytes: maximumBodyBytes)
        )
        try await app.test(.live) { client in try await body(client) }
    }

    /// Sends a request; checks the status, the Content-Type and that the body parses.
    @discardableResult
    func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, body: String? = nil,
        contentType: String? = jsonapi, accept: String? = nil, expect status: Int
    ) async throws -> Document? {
        var headers = HTTPFields()
        if body != nil, let contentType { headers[.contentType] = contentType }
        if let accept { headers[.accept] = accept }
        return try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            #expect(response.status.code == status, "\(method) \(uri): \(String(buffer: response.body))")
            if status == 204 {
                #expect(response.body.readableBytes == 0)
                return nil
            }
            let type = response.headers[.contentType] ?? ""
            #expect(type.hasPrefix(Self.jsonapi) && !type.contains("charset"), "\(type)")
            let document = try Document(parsing: Array(buffer: response.body))
            if status >= 400 {
                #expect(document.hasErrors)
                #expect(document.errors.allSatisfy { $0.status == String(status) || status == 400 })
            }
            return document
        }
    }

    @Test func readEndpointsAndQueries() async throws {
        try await withServer { client in
            let list = try await send(client, .get, "/articles", expect: 200)
            #expect(list?.primaryResources.count == 10)
            let page = try await send(client, .get, "/articles?page[number]=2&page[size]=5&sort=-id", expect: 200)
            #expect(page?.primaryResources.map { $0.id ?? "" } == ["7", "6", "5", "4", "3"])
            #expect(page?.links?["next"] != nil)
            let included = try await send(
                client, .get, "/articles?include=author,comments.author,tags&fields%5Bpeople%5D=name", expect: 200)
            #expect(included?.included.isEmpty == false)
            let sparse = try await send(client, .get, "/articles/1?fields[articles]=title", expect: 200)
            #expect(sparse?.primaryResources.first?.attributes.keys == ["title"])
            let tagged = try await send(client, .get, "/tags?filter[name]=swift", expect: 200)
            #expect(tagged?.primaryResources.count == 1)
            try await send(client, .get, "/articles/1/author", expect: 200)
            try await send(client, .get, "/articles/1/comments?include=author", expect: 200)
            try await send(client, .get, "/articles/1/relationships/tags", expect: 200)
            try await send(client, .get, "/people", expect: 200)
            try await send(client, .get, "/comments?include=author", expect: 200)
        }
    }

    @Test func writeEndpoints() async throws {
        try await withServer { client in
            let created = try await send(
                client, .post, "/articles",
                body:
                    #"{"data":{"type":"articles","lid":"a","attributes":{"title":"New","body":"Text"},"relationships":{"author":{"data":{"type":"people","id":"1"}}}}}"#,
                expect: 201)
            let id = created?.primaryResources.first?.id ?? ""
            try await send(
                client, .post, "/articles",
                body: #"{"data":{"type":"articles","id":"cg-1","attributes":{"title":"Mine"}}}"#,
                expect: 201)
            let patched = try await send(
                client, .patch, "/articles/\(id)",
                body: #"{"data":{"type":"articles","id":"\#(id)","attributes":{"body":null}}}"#,
                expect: 200)
            let attributes = patched?.primaryResources.first?.attributes
            #expect(attributes?["title"]?.stringValue == "New")
            #expect(attributes?["body"]?.isNull == true)
            try await send(
                client, .post, "/articles/\(id)/relationships/tags", body: #"{"data":[{"type":"tags","id":"1"}]}"#,
                expect: 204)
            try await send(
                client, .delete, "/articles/\(id)/relationships/tags", body: #"{"data":[{"type":"tags","id":"1"}]}"#,
                expect: 204)
            try await send(
                client, .patch, "/articles/\(id)/relationships/author", body: #"{"data":null}"#, expect: 204)
            try await send(client, .delete, "/articles/\(id)", expect: 204)
            try await send(client, .get, "/articles/\(id)", expect: 404)
            let operations = #"""
                {"atomic:operations":[
                  {"op":"add","data":{"type":"people","lid":"p","attributes":{"name":"Zed"}}},
                  {"op":"add","data":{"type":"articles","attributes":{"title":"T"},
                    "relationships":{"author":{"data":{"type":"people","lid":"p"}}}}},
                  {"op":"remove","ref":{"type":"articles","id":"2"}}]}
                """#
            try await send(client, .post, "/operations", body: operations, contentType: Self.atomic, expect: 200)
            try await send(client, .get, "/articles/2", expect: 404)
        }
    }

    @Test func errorsAndNegotiation() async throws {
        try await withServer(maximumBodyBytes: 256) { client in
            let create = #"{"data":{"type":"articles","attributes":{"title":"x"}}}"#
            try await send(
                client, .post, "/articles", body: create, contentType: Self.jsonapi + "; charset=utf-8", expect: 415)
            try await send(client, .post, "/articles", body: create, contentType: "application/json", expect: 415)
            try await send(client, .get, "/articles", accept: Self.jsonapi + "; foo=bar", expect: 406)
            try await send(client, .post, "/articles", body: "{\"data\": {", expect: 400)
            try await send(client, .post, "/articles", body: "{\"data\": {\"type\": \"articles\"", expect: 400)
            try await send(client, .post, "/articles", body: "{not json}", expect: 400)
            try await send(client, .post, "/articles", body: String(repeating: " ", count: 300) + create, expect: 413)
            try await send(client, .get, "/articles?include=nope", expect: 400)
            try await send(client, .get, "/articles?page[size]=100000", expect: 400)
            try await send(client, .get, "/articles?foo=1", expect: 400)
            try await send(client, .get, "/articles/999", expect: 404)
            try await send(client, .get, "/nowhere", expect: 404)
            try await send(client, .post, "/people", body: create, expect: 409)
            try await send(
                client, .post, "/articles", body: #"{"data":{"type":"articles","attributes":{}}}"#, expect: 422)
            try await send(
                client, .post, "/operations", body: #"{"atomic:operations":[]}"#, contentType: Self.atomic, expect: 400)
            try await send(
                client, .post, "/operations", body: #"{"data":null}"#, contentType: Self.jsonapi, expect: 415)
            // Still answering.
            try await send(client, .get, "/tags", expect: 200)
        }
    }
}
