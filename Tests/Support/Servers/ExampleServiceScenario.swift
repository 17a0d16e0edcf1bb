import Foundation
import JSONAPI
import Testing

/// The checks every front of the example service must pass over a real socket, whatever the
/// framework: every endpoint, query family, negotiation failure, error status and body limit,
/// each error answered with a valid error document, and the server still answering after bad
/// input. An adapter's tests start the service on a free port and run these against it.
struct ExampleServiceScenario {
    static let jsonapi = "application/vnd.api+json"
    static let atomic = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#

    /// The port of a running example service.
    var port: Int

    /// Sends a request; checks the status, the `Content-Type` (exactly the JSON:API media type,
    /// never a `charset`) and that the body parses, as an error document for a 4xx or 5xx.
    @discardableResult
    func send(
        _ method: String, _ target: String, body: String? = nil, contentType: String? = jsonapi,
        accept: String? = nil, expect status: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Document? {
        let response = try await LoopbackHTTP.send(
            port: port, method, target, text: body, contentType: contentType, accept: accept)
        guard let response else {
            Issue.record("\(method) \(target): connection closed without an answer", sourceLocation: sourceLocation)
            return nil
        }
        return try Self.check(response, method: method, target: target, status: status, sourceLocation: sourceLocation)
    }

    /// Checks a response as ``send(_:_:body:contentType:accept:expect:sourceLocation:)`` does.
    @discardableResult
    static func check(
        _ response: LoopbackHTTP.Response, method: String, target: String, status: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Document? {
        #expect(response.status == status, "\(method) \(target): \(response.text)", sourceLocation: sourceLocation)
        if response.status == 204 {
            #expect(response.body.isEmpty, sourceLocation: sourceLocation)
            return nil
        }
        let type = response.header("Content-Type") ?? ""
        #expect(
            type == jsonapi || type.hasPrefix(jsonapi + ";") && !type.contains("charset"),
            "\(method) \(target): Content-Type \(type)", sourceLocation: sourceLocation)
        let document = try Document(parsing: response.body)
        if response.status >= 400 {
            #expect(document.hasErrors, sourceLocation: sourceLocation)
            #expect(
                document.errors.allSatisfy { $0.status == String(response.status) || response.status == 400 },
                "\(method) \(target): \(response.text)", sourceLocation: sourceLocation)
        }
        return document
    }

    /// Reads: collections, pages, sorting, includes, sparse fieldsets, filters, related
    /// resources and linkage. Needs a service seeded with 12 articles, seed 7.
    func readEndpointsAndQueries() async throws {
        let list = try await send("GET", "/articles", expect: 200)
        #expect(list?.primaryResources.count == 10)
        let all = try await send("GET", "/articles?page[size]=12", expect: 200)
        func titles(_ document: Document?) -> [String] {
            guard let document else { return [] }
            return document.primaryResources.map { $0.attributes["title"]?.stringValue ?? "" }
        }
        let page = try await send("GET", "/articles?page[number]=2&page[size]=5&sort=-title", expect: 200)
        let expected: [String] = Array(titles(all).sorted(by: >).dropFirst(5).prefix(5))
        #expect(titles(page) == expected)
        #expect(page?.links?["next"] != nil)
        let included = try await send(
            "GET", "/articles?include=author,comments.author,tags&fields%5Bpeople%5D=name", expect: 200)
        #expect(included?.included.isEmpty == false)
        #expect(included?.included.filter { $0.type == "people" }.allSatisfy { $0.attributes.keys == ["name"] } == true)
        let sparse = try await send("GET", "/articles/1?fields[articles]=title", expect: 200)
        #expect(sparse?.primaryResources.first?.attributes.keys == ["title"])
        let tagged = try await send("GET", "/tags?filter[name]=swift", expect: 200)
        #expect(tagged?.primaryResources.count == 1)
        try await send("GET", "/articles/1/author", expect: 200)
        try await send("GET", "/articles/1/comments?include=author", expect: 200)
        try await send("GET", "/articles/1/relationships/tags", expect: 200)
        try await send("GET", "/people", expect: 200)
        try await send("GET", "/comments?include=author", expect: 200)
        // HEAD: the head GET answers (its type and ETag), no body.
        for target in ["/articles?include=author", "/articles/1", "/articles/1/relationships/tags"] {
            let head = try #require(try await LoopbackHTTP.send(port: port, "HEAD", target), "HEAD \(target)")
            #expect(head.status == 200, "HEAD \(target): \(head.status)")
            #expect(head.body.isEmpty && head.header("Content-Type") == Self.jsonapi, "HEAD \(target)")
            #expect(head.header("ETag") != nil, "HEAD \(target)")
        }
    }

    /// Writes: create with `lid` and with a client id, `PATCH` keeping absent and `null` apart,
    /// relationship endpoints, delete, and an Atomic Operations batch.
    func writeEndpoints() async throws {
        let created = try await send(
            "POST", "/articles",
            body:
                #"{"data":{"type":"articles","lid":"a","attributes":{"title":"New","body":"Text"},"relationships":{"author":{"data":{"type":"people","id":"1"}}}}}"#,
            expect: 201)
        let id = created?.primaryResources.first?.id ?? ""
        try await send(
            "POST", "/articles", body: #"{"data":{"type":"articles","id":"cg-1","attributes":{"title":"Mine"}}}"#,
            expect: 201)
        let patched = try await send(
            "PATCH", "/articles/\(id)", body: #"{"data":{"type":"articles","id":"\#(id)","attributes":{"body":null}}}"#,
            expect: 200)
        let attributes = patched?.primaryResources.first?.attributes
        #expect(attributes?["title"]?.stringValue == "New")
        #expect(attributes?["body"]?.isNull == true)
        // Relationship changes answer the relationship as it now is (200, as JSON:API allows);
        // a response's `data` of type/id pairs reads as resource objects.
        func linkage(_ document: Document?) -> [ResourceIdentifier]? {
            document.map { $0.primaryResources.map(\.identifier) + $0.primaryIdentifiers.map(\.identifier) }
        }
        let added = try await send(
            "POST", "/articles/\(id)/relationships/tags", body: #"{"data":[{"type":"tags","id":"1"}]}"#, expect: 200)
        #expect(linkage(added) == [ResourceIdentifier(type: "tags", id: "1")])
        let removed = try await send(
            "DELETE", "/articles/\(id)/relationships/tags", body: #"{"data":[{"type":"tags","id":"1"}]}"#, expect: 200)
        #expect(linkage(removed) == [])
        // Removing members leaves the relationship: its linkage reads as empty, not as gone.
        let emptied = try await send("GET", "/articles/\(id)/relationships/tags", expect: 200)
        #expect(linkage(emptied) == [])
        let cleared = try await send(
            "PATCH", "/articles/\(id)/relationships/author", body: #"{"data":null}"#, expect: 200)
        #expect(cleared.map { if case .null = $0.primary { true } else { false } } == true)
        try await send("DELETE", "/articles/\(id)", expect: 204)
        try await send("GET", "/articles/\(id)", expect: 404)
        // With the resource gone, so are its relationship and related routes.
        try await send("GET", "/articles/\(id)/relationships/tags", expect: 404)
        try await send("GET", "/articles/\(id)/tags", expect: 404)
        let operations = #"""
            {"atomic:operations":[
              {"op":"add","data":{"type":"people","lid":"p","attributes":{"name":"Zed"}}},
              {"op":"add","data":{"type":"articles","attributes":{"title":"T"},
                "relationships":{"author":{"data":{"type":"people","lid":"p"}}}}},
              {"op":"remove","ref":{"type":"articles","id":"2"}}]}
            """#
        try await send("POST", "/operations", body: operations, contentType: Self.atomic, expect: 200)
        try await send("GET", "/articles/2", expect: 404)
        try await idsLinksAndIncluded()
    }

    /// A client id is checked, a `self` link encodes its id as a path segment, and `included` is
    /// there exactly when `include` asked for it; a write's query is checked as a read's is.
    func idsLinksAndIncluded() async throws {
        // An empty client id names no resource: 422 at `/data/id`.
        let empty = try await send(
            "POST", "/tags", body: #"{"data":{"type":"tags","id":"","attributes":{"name":"x"}}}"#, expect: 422)
        #expect(empty?.errors.first?.source?.pointer == "/data/id")
        // Any other id is the client's choice; its links encode it.
        let odd = try await send(
            "POST", "/tags", body: #"{"data":{"type":"tags","id":"a|b]c d/e","attributes":{"name":"odd"}}}"#,
            expect: 201)
        #expect(odd?.primaryResources.first?.links?["self"]?.href == "/tags/a%7Cb%5Dc%20d%2Fe")
        // `include` asked, nothing to include: `"included": []`; not asked: no `included`.
        let comment = try await send(
            "POST", "/comments", body: #"{"data":{"type":"comments","attributes":{"body":"b"}}}"#, expect: 201)
        let commentID = comment?.primaryResources.first?.id ?? ""
        let none = try await send("GET", "/comments/\(commentID)?include=author", expect: 200)
        #expect(none?.hasIncluded == true && none?.included.isEmpty == true)
        let plain = try await send("GET", "/comments/\(commentID)", expect: 200)
        #expect(plain?.hasIncluded == false)
        // Writes check their query as reads do.
        let tag = #"{"data":{"type":"tags","attributes":{"name":"q"}}}"#
        try await send("POST", "/tags?include=bogus&foo=bar", body: tag, expect: 400)
        try await send("POST", "/tags?foo=bar", body: tag, expect: 400)
        try await send("PATCH", "/tags/1?include=bogus", body: #"{"data":{"type":"tags","id":"1"}}"#, expect: 400)
        try await send("DELETE", "/tags/1?include=author", expect: 400)
        try await send(
            "POST", "/articles/1/relationships/tags?foo=bar", body: #"{"data":[{"type":"tags","id":"1"}]}"#, expect: 400
        )
        try await send("GET", "/tags/1", expect: 200)
    }

    /// Bad input of every kind, against a service whose body limit is 256 bytes: each gets its
    /// status and an error document, and the service keeps answering.
    func errorsAndNegotiation() async throws {
        let create = #"{"data":{"type":"articles","attributes":{"title":"x"}}}"#
        try await send("POST", "/articles", body: create, contentType: Self.jsonapi + "; charset=utf-8", expect: 415)
        try await send("POST", "/articles", body: create, contentType: "application/json", expect: 415)
        try await send("POST", "/articles", body: create, contentType: nil, expect: 415)
        try await send("GET", "/articles", accept: Self.jsonapi + "; foo=bar", expect: 406)
        try await send("POST", "/articles", body: "{\"data\": {", expect: 400)
        try await send("POST", "/articles", body: "{\"data\": {\"type\": \"articles\"", expect: 400)
        try await send("POST", "/articles", body: "{not json}", expect: 400)
        try await send("POST", "/articles", body: "", expect: 400)
        try await send("POST", "/articles", body: String(repeating: " ", count: 300) + create, expect: 413)
        try await send("GET", "/articles?include=nope", expect: 400)
        try await send("GET", "/articles?page[size]=100000", expect: 400)
        try await send("GET", "/articles?foo=1", expect: 400)
        try await send("GET", "/articles?sort=nope", expect: 400)
        try await send("GET", "/articles/999", expect: 404)
        try await send("GET", "/nowhere", expect: 404)
        try await send("POST", "/people", body: create, expect: 409)
        try await send("POST", "/articles", body: #"{"data":{"type":"articles","attributes":{}}}"#, expect: 422)
        try await send("POST", "/operations", body: #"{"atomic:operations":[]}"#, contentType: Self.atomic, expect: 400)
        try await send("POST", "/operations", body: #"{"data":null}"#, contentType: Self.jsonapi, expect: 415)
        try await streamedBodies(limit: 256)
        try await send("GET", "/tags", expect: 200)
    }

    /// Bodies that arrive in pieces: a chunked body is parsed as it comes and refused (413) at
    /// the chunk that passes the limit, a chunked body under it is accepted, and a body shorter
    /// than its `Content-Length` is refused or dropped, never parsed as if whole.
    func streamedBodies(limit: Int) async throws {
        let headers = [("Content-Type", Self.jsonapi)]
        let create = Array(#"{"data":{"type":"articles","attributes":{"title":"chunked"}}}"#.utf8)
        let pieces = stride(from: 0, to: create.count, by: 7).map { Array(create[$0..<min($0 + 7, create.count)]) }
        let accepted = try await LoopbackHTTP.send(
            port: port, "POST", "/articles", headers: headers, body: .chunked(pieces))
        if let accepted {
            let document = try Self.check(accepted, method: "POST", target: "/articles (chunked)", status: 201)
            #expect(document?.primaryResources.first?.attributes["title"]?.stringValue == "chunked")
        } else {
            Issue.record("chunked create: no answer")
        }
        let padding = [UInt8](repeating: 32, count: 64)
        let tooLong = try await LoopbackHTTP.send(
            port: port, "POST", "/articles", headers: headers,
            body: .chunked(Array(repeating: padding, count: limit / padding.count + 2) + [create]))
        if let tooLong {
            try Self.check(tooLong, method: "POST", target: "/articles (chunked past the limit)", status: 413)
        } else {
            Issue.record("chunked body past the limit: no answer")
        }
        let short = try await LoopbackHTTP.send(
            port: port, "POST", "/articles", headers: headers,
            body: .short(declared: 120, bytes: Array(create.prefix(30))))
        if let short {
            #expect((400..<500).contains(short.status), "short body: \(short.status) \(short.text)")
        }
    }
}

extension ExampleServiceScenario {
    /// Every `.json` file of the shared corpus (JSONTestSuite, the JSON:API schema tests, the
    /// spec's examples: input nobody here wrote), posted to `/imports` chunked in 13-byte pieces,
    /// against the same bytes parsed in-process as a response document: a document the parser
    /// refuses is a 400 (or 413) error document, one it accepts is imported (200) or refused by
    /// the service's schema (422); the server keeps answering. Returns how many files were sent.
    @discardableResult
    func corpusThroughTheSocket() async throws -> Int {
        guard let corpusURL else { return 0 }
        let manager = FileManager.default
        var files: [String] = []
        guard let walker = manager.enumerator(atPath: corpusURL.path) else { return 0 }
        for case let path as String in walker where path.hasSuffix(".json") && !path.contains("schemas/") {
            files.append(path)
        }
        for path in files.sorted() {
            let bytes = try corpusBytes(path)
            let accepted = (try? Document(parsing: bytes, options: ParsingOptions(kind: .response))) != nil
            let pieces = stride(from: 0, to: bytes.count, by: 13).map { Array(bytes[$0..<min($0 + 13, bytes.count)]) }
            let response = try await LoopbackHTTP.send(
                port: port, "POST", "/imports", headers: [("Content-Type", Self.jsonapi)],
                body: .chunked(pieces.isEmpty ? [] : pieces))
            guard let response else {
                Issue.record("\(path): connection closed without an answer")
                continue
            }
            let expected: Set<Int> = accepted ? [200, 422] : [400, 413]
            #expect(expected.contains(response.status), "\(path): \(response.status) \(response.text)")
            try Self.check(response, method: "POST", target: "/imports (\(path))", status: response.status)
        }
        try await send("GET", "/tags", expect: 200)
        return files.count
    }
}
