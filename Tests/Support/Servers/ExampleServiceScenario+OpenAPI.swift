import Foundation
import JSONAPI
import Testing

extension ExampleServiceScenario {
    /// What the service's OpenAPI document promises and schemathesis checked, one request each:
    /// ids that need percent-encoding reach their resource on every route; methods a path does
    /// not serve (`TRACE`, `QUERY`, adding to a to-one relationship) are 405 with `Allow`; an
    /// attribute of another JSON type, or a filter on a member the document does not list, is
    /// refused; a relationship body is read as linkage. Needs the service seeded with 12
    /// articles, seed 7.
    func documentedBehaviour() async throws {
        // Client-generated ids that are not URL-safe: `É` and `a?b` travel as `%C3%89`, `a%3Fb`.
        for id in ["É", "a?b"] {
            let escaped = Self.percentEncoded(id)
            let body = #"{"data":{"type":"articles","id":"\#(id)","attributes":{"title":"T"}}}"#
            try await send("POST", "/articles", body: body, expect: 201)
            let fetched = try await send("GET", "/articles/\(escaped)", expect: 200)
            #expect(fetched?.primaryResources.first?.id == id)
            try await send("GET", "/articles/\(escaped)/relationships/tags", expect: 200)
            try await send("GET", "/articles/\(escaped)/author", expect: 200)
            try await send(
                "PATCH", "/articles/\(escaped)", body: #"{"data":{"type":"articles","id":"\#(id)"}}"#, expect: 200)
            try await send("DELETE", "/articles/\(escaped)", expect: 204)
        }

        let notAllowed: [(String, String, String)] = [
            ("TRACE", "/articles", "GET, POST"),
            ("QUERY", "/articles/1", "GET, PATCH, DELETE"),
            ("TRACE", "/operations", "POST"),
            ("POST", "/articles/1/relationships/author", "GET, PATCH"),
            ("DELETE", "/comments/1/relationships/author", "GET, PATCH"),
        ]
        for (method, target, allow) in notAllowed {
            let response = try await LoopbackHTTP.send(port: port, method, target, text: nil)
            let answer = try #require(response, "\(method) \(target): no answer")
            try Self.check(answer, method: method, target: target, status: 405)
            #expect(answer.header("Allow") == allow, "\(method) \(target): Allow \(answer.header("Allow") ?? "absent")")
        }
        // A to-one relationship refuses POST before reading the body, whatever it holds.
        try await send(
            "POST", "/articles/1/relationships/author", body: #"{"data":{"type":"people","id":"1"}}"#, expect: 405)

        // Attributes are strings (and null when not required).
        try await send(
            "POST", "/articles", body: #"{"data":{"type":"articles","attributes":{"title":5}}}"#, expect: 422)
        try await send(
            "POST", "/articles", body: #"{"data":{"type":"articles","attributes":{"title":null}}}"#, expect: 422)
        try await send(
            "POST", "/people", body: #"{"data":{"type":"people","attributes":{"name":"N","x":1}}}"#, expect: 422)
        try await send(
            "POST", "/articles", body: #"{"data":{"type":"articles","attributes":{"title":"T","body":[]}}}"#,
            expect: 422)
        try await send(
            "POST", "/articles", body: #"{"data":{"type":"articles","attributes":{"title":"T","body":null}}}"#,
            expect: 201)

        // `filter[NAME]` names a filterable attribute; its value is compared as the attribute's
        // type, whatever its characters.
        try await send("GET", "/people?filter%5Bname%5D=" + String(repeating: "%C3%A9", count: 300), expect: 200)
        let unknown = try await send("GET", "/people?filter%5Bage%5D=3", expect: 400)
        #expect(unknown?.errors.first?.source?.parameter == "filter[age]")

        // `meta` member names follow the member-name rules, as the document's pattern says.
        try await send(
            "POST", "/tags", body: #"{"data":{"type":"tags","attributes":{"name":"n"},"meta":{"a b":1,"@c":2}}}"#,
            expect: 201)
        try await send(
            "POST", "/tags", body: #"{"data":{"type":"tags","attributes":{"name":"n"},"meta":{"a+b":1}}}"#,
            expect: 400)
    }

    /// schemathesis against the service from the document it serves (`/openapi.json`), every
    /// phase and check, bounded in time (``Schemathesis``): no failure.
    func schemathesisRunsClean() async throws {
        let run = try await Schemathesis.run(port: port)
        #expect(run.isClean, "schemathesis exited \(run.status)\(run.timedOut ? " (timed out)" : ""):\n\(run.summary)")
    }

    /// The OpenAPI document the service serves: OpenAPI 3.1 as JSON, with every path the
    /// service routes and its parameters bounded as the parser bounds them.
    func servedOpenAPIDocument() async throws {
        let response = try #require(try await LoopbackHTTP.send(port: port, "GET", "/openapi.json"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.1")
        let head = try #require(try await LoopbackHTTP.send(port: port, "HEAD", "/openapi.json"))
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Type") == "application/json")
        // Negotiated as what it is, JSON: tools that ask for `application/json` get it (and a
        // JSON:API client, which reads JSON); a client that refuses JSON is refused, and a JSON:API
        // resource still needs JSON:API's type.
        for (accept, status) in [
            ("application/json", 200), ("application/*", 200), ("text/html, application/json;q=0.5", 200),
            ("application/vnd.api+json", 200), ("text/html", 406), ("application/json;q=0", 406),
        ] {
            let answer = try #require(
                try await LoopbackHTTP.send(port: port, "GET", "/openapi.json", text: nil, accept: accept))
            #expect(answer.status == status, "Accept: \(accept)")
            if status == 200 { #expect(answer.body == response.body, "Accept: \(accept)") }
            let head = try #require(
                try await LoopbackHTTP.send(port: port, "HEAD", "/openapi.json", text: nil, accept: accept))
            #expect(head.status == status && head.body.isEmpty, "HEAD, Accept: \(accept)")
        }
        for method in ["GET", "POST"] {
            let resource = try #require(
                try await LoopbackHTTP.send(
                    port: port, method, "/articles", text: method == "GET" ? nil : "{}",
                    contentType: "application/vnd.api+json", accept: "application/json"))
            #expect(resource.status == 406, "\(method) /articles, Accept: application/json")
        }
        let paths = try #require(document["paths"] as? [String: Any])
        for path in [
            "/articles", "/articles/{id}", "/articles/{id}/author", "/articles/{id}/comments",
            "/articles/{id}/relationships/tags", "/comments/{id}/author", "/operations", "/people", "/tags/{id}",
        ] {
            #expect(paths[path] != nil, "no \(path)")
        }
        let list = try #require((paths["/articles"] as? [String: Any])?["get"] as? [String: Any])
        let parameters = try #require(list["parameters"] as? [[String: Any]])
        func schema(_ name: String) -> [String: Any]? {
            parameters.first { $0["name"] as? String == name }?["schema"] as? [String: Any]
        }
        #expect(schema("page[size]")?["default"] as? Int == 10)
        #expect(schema("page[size]")?["maximum"] as? Int == 100)
        #expect(schema("sort")?["maxItems"] as? Int == 16)
        #expect(schema("sort")?["minItems"] as? Int == 1)
        #expect(schema("include")?["maxItems"] as? Int == 32)
        #expect((schema("page[number]")?["maximum"] as? NSNumber)?.int64Value == Int64.max)
        let filter = try #require(schema("filter"))
        #expect(filter["additionalProperties"] as? Bool == false)
        #expect(((filter["properties"] as? [String: Any])?["title"] as? [String: Any])?["type"] as? String == "string")
        #expect(parameters.contains { $0["name"] as? String == "fields[people]" })
    }
}
