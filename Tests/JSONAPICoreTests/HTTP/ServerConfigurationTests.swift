import JSONAPI
import Testing

/// The framework-neutral steps the server adapters share: media types, negotiation, the declared
/// body length, the body parser's limit and the Atomic Operations checks.
@Suite struct ServerConfigurationTests {
    static let atomicType = #"application/vnd.api+json; ext="https://jsonapi.org/ext/atomic""#

    func status(of body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            return JSONAPIErrorDocument(errors: JSONAPIErrorObject.errors(describing: error)).httpStatus
        }
    }

    @Test func requestMediaTypes() throws {
        var configuration = JSONAPIConfiguration()
        #expect(try configuration.requestMediaType(contentType: "application/vnd.api+json") == JSONAPIMediaType())
        #expect(status { _ = try configuration.requestMediaType(contentType: nil) } == 415)
        #expect(status { _ = try configuration.requestMediaType(contentType: "application/json") } == 415)
        #expect(
            status { _ = try configuration.requestMediaType(contentType: "application/vnd.api+json; charset=utf-8") }
                == 415)
        #expect(status { _ = try configuration.requestMediaType(contentType: Self.atomicType) } == 415)
        configuration.supportedExtensions = [AtomicOperations.extensionURI]
        let atomic = try configuration.requestMediaType(contentType: Self.atomicType)
        #expect(atomic.extensions == [AtomicOperations.extensionURI])
    }

    @Test func negotiationBeforeAnyHandler() {
        let configuration = JSONAPIConfiguration()
        #expect(status { try configuration.negotiate(contentType: nil, accept: nil) } == nil)
        #expect(status { try configuration.negotiate(contentType: "text/plain", accept: "*/*") } == nil)
        #expect(
            status { try configuration.negotiate(contentType: "application/vnd.api+json; v=1", accept: nil) } == 415)
        #expect(
            status { try configuration.negotiate(contentType: nil, accept: "application/vnd.api+json; v=1") } == 406)
        #expect(
            status {
                try configuration.negotiate(
                    contentType: nil, accept: "application/vnd.api+json; v=1, application/vnd.api+json")
            } == nil)
    }

    /// Repeated field lines reach negotiation joined by commas (RFC 9110 §5.3): two `Accept` lines
    /// are one list, two `Content-Type` lines one malformed value.
    @Test func combinedFieldLines() {
        let configuration = JSONAPIConfiguration()
        let jsonapi = "application/vnd.api+json"
        #expect(status { try configuration.negotiate(contentType: nil, accept: "application/json, \(jsonapi)") } == nil)
        #expect(status { try configuration.negotiate(contentType: "\(jsonapi), \(jsonapi)", accept: nil) } == 415)
        #expect(status { _ = try configuration.requestMediaType(contentType: "\(jsonapi), \(jsonapi)") } == 415)
        #expect(status { _ = try configuration.requestMediaType(contentType: "application/json, \(jsonapi)") } == 415)
    }

    @Test func methodNotAllowed() throws {
        let error = JSONAPIHTTPError.methodNotAllowed("PUT", allowed: ["GET", "PATCH", "DELETE", "GET"])
        #expect(error.httpStatus == 405)
        #expect(error.errors.first?.code == "method-not-allowed")
        #expect(JSONAPIHTTPError.allowHeader(["GET", "PATCH", "DELETE", "GET"]) == "GET, PATCH, DELETE")
    }

    @Test func declaredLengths() throws {
        var configuration = JSONAPIConfiguration()
        configuration.maximumBodyBytes = 100
        #expect(try configuration.declaredBodyBytes(contentLength: nil) == 0)
        #expect(try configuration.declaredBodyBytes(contentLength: "100") == 100)
        #expect(status { _ = try configuration.declaredBodyBytes(contentLength: "101") } == 413)
        for bad in ["-1", "", "ten", "1e3", "99999999999999999999999"] {
            #expect(status { _ = try configuration.declaredBodyBytes(contentLength: bad) } == 400, "\(bad)")
        }
    }

    /// The limit holds for a body that declares no length (chunked), at whatever chunk crosses
    /// it, and the parser's kind is the one asked for.
    @Test func bodyParserLimitAndKind() throws {
        var configuration = JSONAPIConfiguration()
        configuration.maximumBodyBytes = 64
        var parser = try configuration.bodyParser(kind: .createRequest, contentLength: nil)
        let chunk = Array(repeating: UInt8(ascii: " "), count: 10)
        for _ in 0..<6 { try parser.feed(chunk) }
        #expect(status { try parser.feed(chunk) } == 413)

        configuration.maximumBodyBytes = 1 << 20
        let create = Array(#"{"data":{"type":"articles","attributes":{"title":"é"}}}"#.utf8)
        var created = try configuration.bodyParser(kind: .createRequest, contentLength: String(create.count))
        for byte in create { try created.feed([byte]) }
        #expect(try created.finish().primaryResources.first?.attributes["title"]?.stringValue == "é")
        var update = try configuration.bodyParser(kind: .updateRequest, contentLength: nil)
        try update.feed(create)
        #expect(status { _ = try update.finish() } == 400)
        #expect(configuration.parsingOptions(kind: .updateRequest).kind == .updateRequest)
    }

    @Test func atomicOperationsChecks() throws {
        let atomic = JSONAPIMediaType(extensions: [AtomicOperations.extensionURI])
        let request = try Document(
            parsing: Array(
                #"{"atomic:operations":[{"op":"remove","ref":{"type":"articles","id":"1"}}]}"#.utf8))
        #expect(try AtomicOperations.checkedOperations(of: request, requestType: atomic).count == 1)
        #expect(
            status { _ = try AtomicOperations.checkedOperations(of: request, requestType: JSONAPIMediaType()) } == 415)
        let empty = try Document(parsing: Array(#"{"meta":{}}"#.utf8))
        #expect(status { _ = try AtomicOperations.checkedOperations(of: empty, requestType: atomic) } == 400)

        var results = AtomicResultsDocument()
        results.appendEmpty()
        #expect(try AtomicOperations.responseBody(for: results) == nil)
        results.append(JSONAPIResourceObject(type: "articles", id: "1"))
        let body = try #require(try AtomicOperations.responseBody(for: results))
        #expect(String(decoding: body, as: UTF8.self).hasPrefix(#"{"atomic:results":[{},{"data""#))
    }

    @Test func frameworkErrorsKeepOnlyTheirStatus() {
        #expect(
            JSONAPIHTTPError.errorObjects(frameworkStatus: 404, reasonPhrase: "Not Found")
                == [JSONAPIErrorObject(status: 404, title: "Not Found")])
        #expect(JSONAPIHTTPError.errorObjects(frameworkStatus: 503, reasonPhrase: "x") == [.internalServerError])
        #expect(JSONAPIHTTPError.notFound().httpStatus == 404)
        #expect(JSONAPIHTTPError([]).httpStatus == 500)
    }

    @Test func errorDocumentBytes() throws {
        let document = JSONAPIErrorDocument(errors: [JSONAPIHTTPError.notFound("no article 7").errors[0]])
        let parsed = try Document(parsing: document.responseBytes())
        #expect(parsed.errors.first?.status == "404")
        #expect(parsed.errors.first?.detail == "no article 7")
    }
}
