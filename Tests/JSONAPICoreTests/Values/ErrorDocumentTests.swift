import Foundation
import JSONAPI
import Testing

/// Error objects and documents built in code, and the mapping from thrown Swift errors.
@Suite("Error documents")
struct ErrorDocumentTests {
    @Test("an error object writes its members in the specification's order, leaving out what is nil")
    func errorObject() throws {
        let error = JSONAPIErrorObject(
            id: "e1", status: 422, code: "too-short", title: "Invalid attribute",
            detail: "First name must contain at least two characters.", source: .pointer("/data/attributes/firstName"),
            links: .init(
                about: "https://example.com/errors/e1", type: JSONAPILink(href: "https://example.com/t", title: "T")),
            meta: ["retry": false])
        #expect(
            try error.jsonString()
                == #"{"id":"e1","links":{"about":"https://example.com/errors/e1","type":{"href":"https://example.com/t","title":"T"}},"status":"422","code":"too-short","title":"Invalid attribute","detail":"First name must contain at least two characters.","source":{"pointer":"/data/attributes/firstName"},"meta":{"retry":false}}"#
        )
        #expect(error.httpStatus == 422)
        #expect(try JSONAPIErrorObject().jsonString() == "{}")
        #expect(try JSONAPIErrorObject(source: .init(), links: .init()).jsonString() == "{}")
        #expect(try JSONAPIErrorObject(source: .header("Accept")).jsonString() == #"{"source":{"header":"Accept"}}"#)
        #expect(
            try JSONAPIErrorObject(source: .parameter("include")).jsonString() == #"{"source":{"parameter":"include"}}"#
        )
    }

    @Test("an error document parses back as a valid error document with the same errors")
    func errorDocumentRoundTrip() throws {
        let document = JSONAPIErrorDocument(
            errors: [
                JSONAPIErrorObject(status: 404, title: "Not Found", detail: "No article 7."),
                JSONAPIErrorObject(status: 409, code: "conflict", source: .pointer("/data/type")),
            ],
            jsonapi: JSONAPIImplementationInfo(profiles: ["https://example.com/p"]), meta: ["requestId": "r-1"],
            links: ["describedby": "https://example.com/errors"])
        for options in [JSONWritingOptions.compact, .pretty, JSONWritingOptions(sortsKeys: true)] {
            let parsed = try Document(parsing: try document.jsonBytes(options: options))
            #expect(parsed.hasErrors)
            #expect(parsed.errors.map(\.status) == ["404", "409"])
            #expect(parsed.errors[1].source?.pointer == "/data/type")
            #expect(parsed.jsonapi?.profiles == ["https://example.com/p"])
            #expect(parsed.meta?["requestId"]?.stringValue == "r-1")
            #expect(parsed.links?["describedby"]?.href == "https://example.com/errors")
            #expect(JSONAPIErrorDocument(parsed) == document)
        }
        #expect(document.httpStatus == 400)
    }

    @Test(
        "the response status is the shared one, or the most general",
        arguments: [
            ([404], 404), ([404, 404], 404), ([404, 409], 400), ([400, 503], 500), ([503, 502], 500), ([], 500),
        ])
    func httpStatus(_ statuses: [Int], _ expected: Int) {
        let document = JSONAPIErrorDocument(errors: statuses.map { JSONAPIErrorObject(status: $0) })
        #expect(document.httpStatus == expected)
    }

    // MARK: Mapping

    @Test("a parsing error becomes one 400 error object per diagnostic, each with its pointer")
    func parsingErrors() throws {
        let body = #"{"data": {"type": "articles", "id": 1, "attributes": {"type": "x"}}, "jsonapi": {"oups": 1}}"#
        do {
            _ = try Document(parsing: body, options: ParsingOptions(kind: .updateRequest))
            Issue.record("the body should be rejected")
        } catch {
            let document = JSONAPIErrorDocument(describing: error)
            #expect(document.httpStatus == 400)
            #expect(document.errors.count == error.diagnostics.count)
            #expect(document.errors.map(\.source?.pointer) == ["/data/id", "/data/attributes/type", "/jsonapi/oups"])
            #expect(document.errors.allSatisfy { $0.status == "400" && $0.code == "spec-violation" })
            #expect(document.errors[0].detail == error.diagnostics[0].message)
            #expect(document.errors[0].meta?["line"] == JSON(1))
            #expect(document.errors[0].meta?["offset"] == JSON(error.diagnostics[0].offset))
            let parsed = try Document(parsing: try document.jsonBytes())
            #expect(parsed.errors.count == 3)
        }
    }

    @Test("a syntax error is a 400 with its code and place")
    func syntaxError() throws {
        do {
            _ = try Document(parsing: #"{"data": [1, }"#)
            Issue.record("the body should be rejected")
        } catch {
            let errors = JSONAPIErrorObject.errors(describing: error)
            #expect(errors.count == 1)
            #expect(errors[0].status == "400")
            #expect(errors[0].code == "invalid-json")
            #expect(errors[0].title == "Malformed JSON")
            #expect(errors[0].source?.pointer == error.pointer)
        }
    }

    @Test("a body over the size limit is a 413")
    func documentTooLarge() throws {
        var options = ParsingOptions()
        options.maximumDocumentBytes = 10
        do {
            _ = try Document(parsing: #"{"meta": {"a": "0123456789"}}"#, options: options)
            Issue.record("the body should be rejected")
        } catch {
            let document = JSONAPIErrorDocument(describing: error)
            #expect(document.httpStatus == 413)
            #expect(document.errors[0].code == "document-too-large")
        }
    }

    @Test("negotiation failures are 415 and 406 with the header as source")
    func negotiation() throws {
        let unsupported = JSONAPIErrorDocument(describing: NegotiationFailure.unsupportedMediaType("ext `x` unknown"))
        #expect(unsupported.httpStatus == 415)
        #expect(
            try unsupported.jsonString()
                == #"{"errors":[{"status":"415","code":"unsupported-media-type","title":"Unsupported Media Type","detail":"ext `x` unknown","source":{"header":"Content-Type"}}]}"#
        )
        let refused = JSONAPINegotiation.negotiateAccept(
            #"application/vnd.api+json; ext="https://example.com/nope""#, supportedExtensions: [], supportedProfiles: []
        )
        guard case .failure(let failure) = refused else {
            Issue.record("the Accept header should be refused")
            return
        }
        let errors = JSONAPIErrorObject.errors(describing: failure)
        #expect(errors.map(\.status) == ["406"])
        #expect(errors[0].source?.header == "Accept")
    }

    struct Article: Decodable {
        var title: String
        var wordCount: Int
        var author: Identifier
        struct Identifier: Decodable { var type: String; var id: String }
    }

    @Test("a DecodingError is a 422 whose pointer is the coding path under /data")
    func decodingErrors() throws {
        func decodingError(_ json: String) throws -> DecodingError {
            let result = Result { try JSONDecoder().decode(Article.self, from: Data(json.utf8)) }
            guard case .failure(let error) = result else { throw CocoaError(.coderInvalidValue) }
            return try #require(error as? DecodingError)
        }
        let mismatch = try decodingError(#"{"title": 1, "wordCount": 3, "author": {"type": "p", "id": "9"}}"#)
        let mismatchErrors = JSONAPIErrorObject.errors(describing: mismatch)
        #expect(mismatchErrors.map(\.status) == ["422"])
        #expect(mismatchErrors[0].source?.pointer == "/data/attributes/title")
        #expect(mismatchErrors[0].code == "type-mismatch")

        let missing = try decodingError(#"{"title": "t", "wordCount": 3, "author": {"type": "p"}}"#)
        let missingError = JSONAPIErrorObject(decodingError: missing, relationshipNames: ["author"])
        #expect(missingError.source?.pointer == "/data/relationships/author")
        #expect(missingError.detail == "the member `id` is missing")

        let nested = try decodingError(#"{"title": "t", "wordCount": "3", "author": {"type": "p", "id": "9"}}"#)
        #expect(
            JSONAPIErrorObject(decodingError: nested, resourcePointer: "/data/0").source?.pointer
                == "/data/0/attributes/wordCount")

        // Paths that start at the top of a document are used as they are; tokens are escaped.
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(_ string: String) { stringValue = string }
            init(_ int: Int) { stringValue = "\(int)"; intValue = int }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { self.init(intValue) }
        }
        let documentPath = DecodingError.typeMismatch(
            String.self,
            .init(codingPath: [Key("data"), Key(0), Key("attributes"), Key("a/b~c")], debugDescription: "x"))
        #expect(JSONAPIErrorObject(decodingError: documentPath).source?.pointer == "/data/0/attributes/a~1b~0c")
        let identity = DecodingError.valueNotFound(String.self, .init(codingPath: [Key("id")], debugDescription: "x"))
        #expect(JSONAPIErrorObject(decodingError: identity).source?.pointer == "/data/id")
    }

    struct NotFound: Error, JSONAPIErrorConvertible {
        var id: String
        var jsonapiErrors: [JSONAPIErrorObject] {
            [
                JSONAPIErrorObject(
                    status: 404, code: "article-not-found", title: "Not Found", detail: "No article \(id).")
            ]
        }
    }

    struct Secret: Error, CustomStringConvertible {
        var description: String { "password=hunter2 at /srv/app/db.swift:42" }
    }

    @Test("your own errors describe themselves; anything else is a bare 500")
    func customAndUnknownErrors() throws {
        #expect(JSONAPIErrorDocument(describing: NotFound(id: "7")).httpStatus == 404)
        #expect(JSONAPIErrorObject.errors(describing: NotFound(id: "7"))[0].detail == "No article 7.")
        let hidden = JSONAPIErrorDocument(describing: Secret())
        #expect(hidden.httpStatus == 500)
        let text = try hidden.jsonString()
        #expect(text == #"{"errors":[{"status":"500","title":"Internal Server Error"}]}"#)
        #expect(!text.contains("hunter2") && !text.contains("Secret"))
        // The library's own failures are the server's fault too.
        let io = JSONAPIError(.io, "cannot read /etc/secret")
        #expect(try JSONAPIErrorDocument(describing: io).jsonString() == text)
    }

    @Test("error documents copy a parsed error document")
    func copyParsedErrors() throws {
        let parsed = try Document(
            parsing: #"""
                {"errors": [{"id": "1", "status": "422", "source": {"pointer": "/data/attributes/x"},
                             "links": {"about": {"href": "https://e.com/1", "meta": {"n": 1}}}, "meta": {"k": [1, 2.5]}}],
                 "meta": {"m": null}}
                """#)
        let copy = JSONAPIErrorDocument(parsed)
        #expect(copy.errors[0].links?.about == JSONAPILink(href: "https://e.com/1", meta: ["n": 1]))
        #expect(copy.errors[0].meta == ["k": [1, 2.5]])
        #expect(copy.meta == ["m": nil])
        let reparsed = try Document(parsing: try copy.jsonBytes())
        #expect(reparsed.jsonValue.isEquivalent(to: parsed.jsonValue))
    }

    // MARK: The negotiation DocC example

    static let atomic = AtomicOperations.extensionURI

    /// The handler of the "Serving a request" example in ``JSONAPINegotiation``, as written there.
    static func handle(contentType: String?, accept: String?, body: [UInt8]) -> (
        status: Int, type: String, body: [UInt8]
    ) {
        do {
            _ = try JSONAPINegotiation.checkContentType(contentType, supportedExtensions: [atomic]).get()
            let responseType = try JSONAPINegotiation.negotiateAccept(
                accept, supportedExtensions: [atomic], supportedProfiles: []
            ).get()
            let request = try Document(parsing: body)
            var response = AtomicResultsDocument()
            for operation in try request.atomicOperations() {
                guard case .resource(let resource) = operation.data else {
                    response.appendEmpty()
                    continue
                }
                var created = JSONAPIResourceObject(resource)
                created.id = created.id ?? "42"  // stored by the application
                response.append(created)
            }
            return (200, responseType.description, try response.jsonBytes())
        } catch {
            let errors = JSONAPIErrorDocument(describing: error)
            return (errors.httpStatus, JSONAPIMediaType.base, (try? errors.jsonBytes()) ?? [])
        }
    }

    @Test("the negotiation example serves a request and answers every failure with an error document")
    func servingExample() throws {
        let atomicType = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#
        let body =
            Array(
                #"{"atomic:operations":[{"op":"add","data":{"type":"articles","attributes":{"title":"Hi"}}},"#.utf8)
            + Array(#"{"op":"remove","ref":{"type":"articles","id":"1"}}]}"#.utf8)
        let ok = Self.handle(contentType: atomicType, accept: atomicType, body: body)
        #expect(ok.status == 200)
        #expect(ok.type == atomicType)
        #expect(
            String(decoding: ok.body, as: UTF8.self)
                == #"{"atomic:results":[{"data":{"type":"articles","id":"42","attributes":{"title":"Hi"}}},{}]}"#)

        let unsupported = Self.handle(
            contentType: #"application/vnd.api+json; ext="https://example.com/x""#, accept: nil, body: body)
        #expect(unsupported.status == 415)
        let refused = Self.handle(
            contentType: atomicType, accept: #"application/vnd.api+json; ext="https://example.com/x""#, body: body)
        #expect(refused.status == 406)
        let broken = Self.handle(
            contentType: atomicType, accept: nil, body: Array(#"{"atomic:operations":[{"op":"x"}]}"#.utf8))
        #expect(broken.status == 400)
        let errors = try Document(parsing: broken.body)
        #expect(errors.errors.first?.source?.pointer == "/atomic:operations/0/op")
        #expect(Self.handle(contentType: nil, accept: nil, body: Array("{".utf8)).status == 400)
    }
}
