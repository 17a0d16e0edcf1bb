import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// Parses `text` (every way of feeding it) and returns the error it must throw.
private func rejection(
    _ text: String, _ options: ParsingOptions = ParsingOptions(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> JSONAPIError? {
    switch parseEverywhere(text, options: options, sourceLocation: sourceLocation) {
    case .success:
        Issue.record("expected the document to be rejected", sourceLocation: sourceLocation)
        return nil
    case .failure(let error):
        return error
    }
}

/// The (pointer, message fragment) pairs of every diagnostic.
private func problems(_ error: JSONAPIError?) -> [(String, String)] {
    guard let error else { return [] }
    let all =
        error.diagnostics.isEmpty
        ? [
            Diagnostic(
                severity: .error, code: error.code, message: error.message, offset: error.offset, line: error.line,
                column: error.column, pointer: error.pointer)
        ] : error.diagnostics
    return all.map { ($0.pointer, $0.message) }
}

private func expectProblem(
    _ text: String, at pointer: String, containing fragment: String, _ options: ParsingOptions = ParsingOptions(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let found = problems(rejection(text, options, sourceLocation: sourceLocation))
    #expect(
        found.contains { $0.0 == pointer && $0.1.contains(fragment) },
        "expected `\(fragment)` at \(pointer), got \(found)", sourceLocation: sourceLocation)
}

@Suite("Document grammar and rules")
struct DocumentBuilderTests {
    @Test("top-level member rules")
    func topLevel() {
        expectProblem(
            #"{"jsonapi":{"version":"1.1"}}"#, at: "", containing: "at least one of `data`, `errors` and `meta`")
        expectProblem(#"{"data":null,"errors":[]}"#, at: "", containing: "must not both be")
        expectProblem(#"{"meta":{},"included":[]}"#, at: "", containing: "without `data` must not contain `included`")
        expectProblem(
            #"{"data":null,"something":1}"#, at: "/something", containing: "must not have a member named `something`")
        expectProblem(#"[1,2]"#, at: "", containing: "must be a JSON object, found an array")
        expectProblem(
            #"{"data":"x"}"#, at: "/data", containing: "primary data must be null, a resource object or an array")
        expectProblem(#"{"data":[],"included":{}}"#, at: "/included", containing: "`included` must be an array")
        expectProblem(#"{"errors":{}}"#, at: "/errors", containing: "`errors` must be an array")
        expectProblem(#"{"meta":[]}"#, at: "/meta", containing: "`meta` must be an object")
        expectProblem(#"{"data":null,"data":null}"#, at: "/data", containing: "duplicate member `data`")
    }

    @Test("extension and @-members are allowed; an extension member satisfies the top-level rule")
    func extensionMembers() throws {
        let document = try parseEverywhere(
            #"{"atomic:operations":[{"op":"remove","ref":{"type":"a","id":"1"}}],"@context":"x"}"#
        ).get()
        #expect(document.extensionMembers.map(\.name) == ["atomic:operations", "@context"])
        #expect(document.extensionMembers.first?.value[0]?["op"]?.stringValue == "remove")
        expectProblem(#"{"meta":{},"bad ns:x":1}"#, at: "/bad ns:x", containing: "extension namespace")
    }

    @Test("resource object rules")
    func resources() {
        expectProblem(#"{"data":{"id":"1"}}"#, at: "/data", containing: "must have a `type` member")
        expectProblem(#"{"data":{"type":"a"}}"#, at: "/data", containing: "must have an `id` member")
        expectProblem(
            #"{"data":{"type":"a","id":1}}"#, at: "/data/id", containing: "`id` must be a string, found a number")
        expectProblem(#"{"data":{"type":7,"id":"1"}}"#, at: "/data/type", containing: "`type` must be a string")
        expectProblem(#"{"data":{"type":"","id":"1"}}"#, at: "/data/type", containing: "invalid `type` value")
        expectProblem(#"{"data":{"type":"a+b","id":"1"}}"#, at: "/data/type", containing: "invalid `type` value")
        expectProblem(
            #"{"data":{"type":"a","id":"1","bad":1}}"#, at: "/data/bad",
            containing: "resource object must not have a member named `bad`")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":{"id":2}}}"#, at: "/data/attributes/id",
            containing: "must not be named `id`")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":{"type":2}}}"#, at: "/data/attributes/type",
            containing: "must not be named `type`")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":{"a.b":2}}}"#, at: "/data/attributes/a.b",
            containing: "invalid attribute name")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":{"x":{"links":{}}}}}"#, at: "/data/attributes/x/links",
            containing: "inside an attribute value")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":[]}}"#, at: "/data/attributes",
            containing: "`attributes` must be an object")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":{"author":1},"relationships":{"author":{"meta":{}}}}}"#,
            at: "/data/relationships/author", containing: "both an attribute and a relationship")
        expectProblem(
            #"{"data":{"type":"a","id":"1","attributes":{"x":1,"x":2}}}"#, at: "/data/attributes/x",
            containing: "duplicate attribute `x`")
        expectProblem(
            #"{"data":[{"type":"a","id":"1"},{"type":"a","id":"1"}]}"#, at: "/data/1",
            containing: "appears more than once")
        expectProblem(
            #"{"data":{"type":"a","id":"1"},"included":[{"type":"a","id":"1"}]}"#, at: "/included/0",
            containing: "appears more than once")
        expectProblem(
            #"{"data":["x"]}"#, at: "/data/0", containing: "resource object must be an object, found a string")
    }

    @Test("relationship and linkage rules")
    func relationships() {
        let base = #"{"data":{"type":"a","id":"1","relationships":"#
        expectProblem(base + #"[]}}"#, at: "/data/relationships", containing: "`relationships` must be an object")
        expectProblem(
            base + #"{"r":{}}}}"#, at: "/data/relationships/r", containing: "at least one of `data`, `links`, `meta`")
        expectProblem(base + #"{"r":1}}}"#, at: "/data/relationships/r", containing: "a relationship must be an object")
        expectProblem(
            base + #"{"id":{"data":null}}}}"#, at: "/data/relationships/id", containing: "must not be named `id`")
        expectProblem(
            base + #"{"r":{"data":"x"}}}}"#, at: "/data/relationships/r/data",
            containing: "relationship `data` must be null")
        expectProblem(
            base + #"{"r":{"data":{"id":"2"}}}}}"#, at: "/data/relationships/r/data",
            containing: "must have a `type` member")
        expectProblem(
            base + #"{"r":{"data":[{"type":"b","id":"2","bad":1}]}}}}"#, at: "/data/relationships/r/data/0/bad",
            containing: "resource identifier object must not have a member named `bad`")
        expectProblem(
            base + #"{"r":{"links":{"wrong":"http://x"}}}}}"#, at: "/data/relationships/r/links/wrong",
            containing: "must not have a member named `wrong`")
        expectProblem(
            base + #"{"r":{"meta":{}}}}}"#, at: "/data/relationships/r", containing: "in a request must contain `data`",
            ParsingOptions(kind: .updateRequest))
    }

    @Test("@-members in `relationships` are ignored, not taken for relationships")
    func atMembersInRelationships() throws {
        let text =
            #"{"data":{"type":"articles","id":"1","relationships":{"@context":"x","author":{"data":"#
            + #"{"type":"people","id":"9"}},"@meta":{"data":{"type":"people","id":"404"}},"@n":[1,{"a":null}]}},"#
            + #""included":[{"type":"people","id":"9","relationships":{"@only":true}}]}"#
        for lenient in [false, true] {
            let document = try parseEverywhere(text, options: ParsingOptions(kind: .response, lenient: lenient)).get()
            #expect(document.diagnostics.isEmpty)
            let article = document.primaryResources[0]
            #expect(article.relationships.map(\.name) == ["author"])
            #expect(article.relationship("@context") == nil && article.relationship("@meta") == nil)
            #expect(article.relationship("author")?.resolvedResource?.id == "9")
            #expect(document.included[0].relationships.isEmpty)
        }
        // Other names in `relationships` are still checked.
        expectProblem(
            #"{"data":{"type":"a","id":"1","relationships":{"-b":{"data":null}}}}"#,
            at: "/data/relationships/-b", containing: "invalid relationship name")
    }

    @Test("an error object needs at least one of its defined members")
    func emptyErrorObject() throws {
        expectProblem(#"{"errors":[{}]}"#, at: "/errors/0", containing: "must contain at least one of `id`")
        expectProblem(
            #"{"errors":[{"title":"x"},{"@note":"only"}]}"#, at: "/errors/1", containing: "at least one of `id`")
        let lenient = try parseEverywhere(#"{"errors":[{}]}"#, options: ParsingOptions(kind: .response, lenient: true))
            .get()
        #expect(lenient.diagnostics.map(\.severity) == [.warning])
        for member in [
            #""id":"1""#, #""links":{}"#, #""status":"400""#, #""code":"c""#, #""title":"t""#, #""detail":"d""#,
            #""source":{}"#, #""meta":{}"#,
        ] {
            #expect(throws: Never.self) { try Document(parsing: #"{"errors":[{"# + member + "}]}") }
        }
    }

    @Test("a link object must have `href`; an empty link is a valid URI-reference, on every parse path")
    func linkObjectsAndEmptyLinks() {
        let relationship = { (links: String) in
            #"{"data":{"type":"articles","id":"1","relationships":{"author":{"links":\#(links)}}}}"#
        }
        expectProblem(
            #"{"meta":{},"links":{"self":{"meta":{"x":1}}}}"#, at: "/links/self", containing: "must contain `href`")
        expectProblem(
            relationship(#"{"related":{"title":"Author"}}"#), at: "/data/relationships/author/links/related",
            containing: "must contain `href`")
        for valid in [
            #"{"meta":{},"links":{"self":""}}"#, #"{"meta":{},"links":{"self":{"href":""}}}"#,
            relationship(#"{"self":"","related":{"href":""}}"#),
        ] {
            if case .failure(let error) = parseEverywhere(valid) { Issue.record("\(valid): \(error)") }
        }
        // An extension URI names something: an empty one is still refused.
        expectProblem(#"{"meta":{},"jsonapi":{"ext":[""]}}"#, at: "/jsonapi/ext/0", containing: "it is empty")
    }

    @Test("links, errors and the jsonapi object")
    func linksErrorsJSONAPI() {
        expectProblem(#"{"meta":{},"links":{"self":"wrong"}}"#, at: "/links/self", containing: "not a valid URI")
        expectProblem(
            #"{"meta":{},"links":{"self":5}}"#, at: "/links/self",
            containing: "a link must be a string, a link object or null")
        expectProblem(
            #"{"meta":{},"links":{"self":{"href":5}}}"#, at: "/links/self/href", containing: "`href` must be a string")
        expectProblem(#"{"meta":{},"links":{"self":"http://a b"}}"#, at: "/links/self", containing: "a space")
        expectProblem(#"{"errors":["x"]}"#, at: "/errors/0", containing: "error object must be an object")
        expectProblem(#"{"errors":[{"status":400}]}"#, at: "/errors/0/status", containing: "`status` must be a string")
        expectProblem(
            #"{"errors":[{"source":{"pointer":"data"}}]}"#, at: "/errors/0/source/pointer",
            containing: "not a JSON Pointer")
        expectProblem(#"{"errors":[{"source":"x"}]}"#, at: "/errors/0/source", containing: "`source` must be an object")
        expectProblem(
            #"{"errors":[{"links":{"wrong":"http://x"}}]}"#, at: "/errors/0/links/wrong",
            containing: "must not have a member named `wrong`")
        expectProblem(
            #"{"meta":{},"jsonapi":{"version":1}}"#, at: "/jsonapi/version", containing: "`version` must be a string")
        expectProblem(
            #"{"meta":{},"jsonapi":{"oups":1}}"#, at: "/jsonapi/oups", containing: "must not have a member named `oups`"
        )
        expectProblem(#"{"meta":{},"jsonapi":[]}"#, at: "/jsonapi", containing: "must be an object")
        expectProblem(#"{"meta":{"a*":1}}"#, at: "/meta/a*", containing: "invalid member name in `meta`")
    }

    @Test("several problems are reported together, in document order, with lines and columns")
    func severalProblems() throws {
        let text = """
            {"data": {"type": "a", "id": 1,
              "attributes": {"type": 2}},
             "jsonapi": {"oups": true}}
            """
        let error = try #require(rejection(text))
        #expect(error.diagnostics.count == 3)
        #expect(error.diagnostics.map(\.pointer) == ["/data/id", "/data/attributes/type", "/jsonapi/oups"])
        #expect(error.diagnostics.map(\.line) == [1, 2, 3])
        #expect(error.line == 1 && error.column == 30 && error.pointer == "/data/id")
        #expect(error.diagnostics[1].column == 18)
        #expect(error.description.contains("1:30: error: `id` must be a string, found a number (/data/id)"))
    }

    @Test("document kinds")
    func kinds() throws {
        let create = ParsingOptions(kind: .createRequest)
        let created = try parseEverywhere(
            #"{"data":{"type":"photos","lid":"tmp","attributes":{"title":"x"}}}"#, options: create
        ).get()
        #expect(created.primaryResources.first?.id == nil)
        #expect(created.primaryResources.first?.lid == "tmp")
        expectProblem(
            #"{"data":[{"type":"a"}]}"#, at: "/data", containing: "create request must be a single resource object",
            create)
        expectProblem(
            #"{"data":{"type":"a"}}"#, at: "/data", containing: "must have an `id`",
            ParsingOptions(kind: .updateRequest))
        expectProblem(#"{"meta":{}}"#, at: "", containing: "request document must contain `data`", create)

        let relationship = ParsingOptions(kind: .relationshipUpdate)
        let tags = try parseEverywhere(
            #"{"data":[{"type":"tags","id":"2"},{"type":"tags","id":"3"}]}"#, options: relationship
        ).get()
        #expect(
            tags.primaryIdentifiers.map(\.identifier) == [
                ResourceIdentifier(type: "tags", id: "2"), ResourceIdentifier(type: "tags", id: "3"),
            ])
        guard case .identifiers(let ids) = tags.primary else {
            Issue.record("expected identifiers")
            return
        }
        #expect(ids.count == 2)
        let cleared = try parseEverywhere(#"{"data":null}"#, options: relationship).get()
        guard case .null = cleared.primary else {
            Issue.record("expected null")
            return
        }
        expectProblem(
            #"{"data":[{"type":"tags","id":"2","attributes":{}}]}"#, at: "/data/0/attributes",
            containing: "must not have a member named `attributes`", relationship)
    }

    @Test("lenient mode keeps what it can and reports warnings")
    func lenient() throws {
        let options = ParsingOptions(kind: .response, lenient: true)
        let text =
            #"{"data":[{"type":"a","id":7,"attributes":{"id":1,"ok":true},"extra":1}],"links":{"self":"rel/path"}}"#
        let document = try parseEverywhere(text, options: options).get()
        #expect(document.primaryResources[0].id == "7")
        #expect(document.resource(type: "a", id: "7") != nil)
        #expect(document.primaryResources[0].attributes["ok"]?.boolValue == true)
        #expect(document.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(
            document.diagnostics.map(\.pointer) == [
                "/data/0/id", "/data/0/attributes/id", "/data/0/extra", "/links/self",
            ])
    }

    @Test("full linkage is checked and reported as warnings, never errors")
    func fullLinkage() throws {
        let text = #"""
            {"data":{"type":"a","id":"1","relationships":{"b":{"data":{"type":"b","id":"1"}}}},
             "included":[{"type":"b","id":"1","relationships":{"c":{"data":[{"type":"c","id":"1"}]}}},
                         {"type":"c","id":"1"},{"type":"d","id":"1"}]}
            """#
        let document = try parseEverywhere(text).get()
        #expect(document.diagnostics.count == 1)
        #expect(document.diagnostics.first?.code == .unreachableResource)
        #expect(document.diagnostics.first?.pointer == "/included/2")
        var off = ParsingOptions()
        off.checksFullLinkage = false
        #expect(try parseEverywhere(text, options: off).get().diagnostics.isEmpty)
    }

    @Test("limits fail with located errors")
    func limits() throws {
        var options = ParsingOptions()
        options.maximumResourceCount = 2
        let error = try #require(
            rejection(#"{"data":[{"type":"a","id":"1"},{"type":"a","id":"2"},{"type":"a","id":"3"}]}"#, options))
        #expect(error.code == .tooManyResources)
        #expect(error.pointer == "/data/2")
        options = ParsingOptions()
        options.maximumDocumentBytes = 10
        #expect(rejection(#"{"meta":{"a":"0123456789"}}"#, options)?.code == .documentTooLarge)
        options = ParsingOptions()
        options.maximumDepth = 4
        #expect(rejection(#"{"meta":{"a":[[[1]]]}}"#, options)?.code == .depthLimitExceeded)
    }

    @Test("bad input is a located error, never a crash")
    func hostileInput() throws {
        let deep = String(repeating: "[", count: 100_000)
        let error = try #require(rejection(#"{"meta":"# + deep))
        #expect(error.code == .depthLimitExceeded)
        #expect(rejection(#"{"data":{"type":"a","#)?.code == .unexpectedEnd)
        let unterminated = Array(#"{"meta":{"x":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        guard case .failure(let e) = parseEverywhere(unterminated, everySplit: false) else {
            Issue.record("unterminated string accepted")
            return
        }
        #expect(e.code == .unexpectedEnd)
        // An unterminated string at the start of a 100 MB input.
        var huge = [UInt8](repeating: UInt8(ascii: "a"), count: 100 << 20)
        huge[0] = UInt8(ascii: "\"")
        #expect(throws: JSONAPIError.self) { try Document(parsing: huge) }
        let badUTF8: [UInt8] = Array(#"{"meta":{"x":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        guard case .failure(let u) = parseEverywhere(badUTF8) else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
        #expect(u.code == .invalidUTF8)
        #expect(u.offset == 15)  // 0x28 cannot continue the character 0xC3 starts
        #expect(u.pointer == "/meta/x")
    }

    /// Every proper prefix of a document ends too early; the error says so at the prefix's end.
    @Test("a truncated document ends where the input ends")
    func truncationOffsets() {
        for text in ParsingFixtures.truncatedDocuments {
            let bytes = Array(text.utf8)
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                do {
                    _ = try Document(parsing: prefix)
                    Issue.record("accepted the prefix \(String(decoding: prefix, as: UTF8.self))")
                } catch {
                    let name = "prefix of \(length) bytes of \(text)"
                    if length > 0 && !prefix.allSatisfy({ $0 == 0x20 }) {
                        #expect(error.code == .unexpectedEnd, "\(name): \(error)")
                    }
                    #expect(error.offset == length, "\(name): \(error)")
                }
            }
        }
    }
}
