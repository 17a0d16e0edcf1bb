import JSONAPI
import Testing

/// The checks of the HTTP layer itself every front must pass, over connections that stay open
/// (``LoopbackConnection``): a connection still carries a request after a body that failed
/// early, a query reads the same however it is spelled, repeated header lines are combined,
/// negotiated responses say `Vary: Accept`, a wrong method on a known path is a 405, and idle or
/// slow connections are closed.
extension ExampleServiceScenario {
    /// After each way a request body can fail before its end, the connection either answers the
    /// next request or is closed, never left hanging; a body the server can afford to read to its
    /// end (up to the body limit past the failure) leaves the connection open. Needs a service
    /// whose body limit is `limit` bytes (64 KiB or so: the bodies here are sized from it).
    func connectionAfterEarlyFailures(limit: Int) async throws {
        let jsonapi = Self.jsonapi
        let create = Array(#"{"data":{"type":"articles","attributes":{"title":"after"}}}"#.utf8)
        let spaces = [UInt8](repeating: 32, count: 1024)

        func chunked(_ chunks: [[UInt8]]) -> [UInt8] {
            var body: [UInt8] = []
            for chunk in chunks {
                body += Array("\(String(chunk.count, radix: 16))\r\n".utf8) + chunk + [13, 10]
            }
            return body + Array("0\r\n\r\n".utf8)
        }
        func post(_ body: [UInt8], chunked: Bool = false, declared: Int? = nil) -> [UInt8] {
            let framing =
                chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(declared ?? body.count)"
            let head =
                "POST /articles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(jsonapi)\r\n"
                + "Accept: \(jsonapi)\r\n\(framing)\r\n\r\n"
            return Array(head.utf8) + body
        }

        // The issue's body: `x` and spaces, wrong from its first byte, read to its end.
        let malformedEarly = [UInt8(ascii: "x")] + [UInt8](repeating: 32, count: limit - 6000)
        try await afterBadRequest("400, malformed early", post(malformedEarly), status: 400, staysOpen: true)

        let title = [UInt8](repeating: UInt8(ascii: "a"), count: limit / 2)
        let malformedLate =
            Array(#"{"data":{"type":"articles","attributes":{"title":""#.utf8) + title + Array(#""}}}}"#.utf8)
        try await afterBadRequest("400, malformed late", post(malformedLate), status: 400, staysOpen: true)

        let pastLimit = Array(repeating: spaces, count: limit / spaces.count + 4) + [create]
        try await afterBadRequest(
            "413, chunked past the limit", post(chunked(pastLimit), chunked: true), status: 413, staysOpen: true)

        // Further past the limit than the server reads: it may close instead of reading on.
        let farPast = Array(repeating: spaces, count: 3 * limit / spaces.count) + [create]
        try await afterBadRequest(
            "413, chunked far past the limit", post(chunked(farPast), chunked: true), status: 413, staysOpen: false,
            mayCloseFirst: true)

        let declaredPast = [UInt8](repeating: 32, count: limit + 2048)
        try await afterBadRequest(
            "413, Content-Length past the limit", post(declaredPast), status: 413, staysOpen: false)

        // A body cut short by the end of the client's stream: an answer (400) or a close.
        let connection = try await LoopbackConnection.open(port: port)
        _ = await connection.write(post(Array(create.prefix(30)), declared: 120))
        connection.shutdownWrite()
        let outcome = await connection.response()
        switch outcome {
        case .response(let response): #expect(response.status == 400, "body cut short: \(outcome)")
        case .closed: break
        case .timedOut: Issue.record("body cut short: neither answered nor closed")
        }
        let fresh = try await LoopbackConnection.open(port: port)
        let next = await fresh.get("/articles/1")
        #expect(next.status == 200, "a new connection after a body cut short: \(next)")
    }

    /// Sends `request` on a new connection, expects `status` (or, with `mayCloseFirst`, a close),
    /// then `GET /articles/1` on the same connection: it must be answered (200) or the connection
    /// closed, and with `staysOpen` answered.
    private func afterBadRequest(
        _ name: String, _ request: [UInt8], status: Int, staysOpen: Bool, mayCloseFirst: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let connection = try await LoopbackConnection.open(port: port)
        let wrote = await connection.write(request)
        let first = await connection.response()
        switch first {
        case .response(let response):
            try Self.check(response, method: "POST", target: "/articles (\(name))", status: status)
            #expect(response.header("Vary")?.contains("Accept") == true, "\(name)", sourceLocation: sourceLocation)
            if response.headers.contains(where: { $0.name.lowercased() == "connection" && $0.value == "close" }) {
                #expect(!staysOpen, "\(name): closes the connection", sourceLocation: sourceLocation)
                #expect(await connection.closes(within: 30), "\(name): says close, stays open")
                return
            }
        case .closed:
            #expect(mayCloseFirst, "\(name): closed without an answer", sourceLocation: sourceLocation)
            return
        case .timedOut:
            Issue.record(
                "\(name): no answer within \(LoopbackConnection.patience) s (wrote whole request: \(wrote))",
                sourceLocation: sourceLocation)
            return
        }
        #expect(wrote || !staysOpen, "\(name): the request was not read whole", sourceLocation: sourceLocation)
        let second = await connection.get("/articles/1")
        switch second {
        case .response(let response):
            #expect(response.status == 200, "\(name), then GET: \(second)", sourceLocation: sourceLocation)
        case .closed:
            #expect(!staysOpen, "\(name), then GET: the connection was closed", sourceLocation: sourceLocation)
        case .timedOut:
            Issue.record("\(name), then GET: neither answered nor closed", sourceLocation: sourceLocation)
        }
    }

    /// The same query spelled raw (`filter[title]`), percent-encoded (`filter%5Btitle%5D`) and
    /// mixed answers the same resources, and links followed twice stay the same, without a `%25`
    /// growing per hop. Needs a service seeded with 12 articles, seed 7.
    func querySpellings() async throws {
        let article = try await send("GET", "/articles/1", expect: 200)
        let title = try #require(article?.primaryResources.first?.attributes["title"]?.stringValue)
        let value = Self.percentEncoded(title)
        let spellings = [
            "/articles?filter[title]=\(value)",
            "/articles?filter%5Btitle%5D=\(value)",
            "/articles?filter[title]=\(value)&page%5Bsize%5D=5",
            "/articles?filter%5Btitle%5D=\(value)&page[size]=5",
        ]
        for target in spellings {
            let found = try await send("GET", target, expect: 200)
            let ids = found?.primaryResources.compactMap(\.id) ?? []
            #expect(ids.contains("1"), "\(target): \(ids)")
        }

        // A literal `%` in a value, escaped by the client in a fully encoded target (what
        // schemathesis sends): a valid query, read as sent, never decoded twice.
        for target in [
            "/tags?filter%5Bname%5D=%25", "/tags?filter%5Bname%5D=a%25%5D", "/tags?filter%5Bname%5D=%C3%92%25%5D%7F",
        ] {
            _ = try await send("GET", target, expect: 200)
        }

        for start in ["/articles?page[size]=2&page[number]=2", "/articles?page%5Bsize%5D=2&page[number]=2"] {
            var target = start
            var nextLinks: [String] = []
            for _ in 0..<2 {
                let page = try await send("GET", target, expect: 200)
                let next = try #require(page?.links?["next"]?.href, "\(target): no next link")
                #expect(!next.contains("%25"), "\(target): next link \(next)")
                nextLinks.append(next)
                target = Self.pathAndQuery(next)
            }
            let second = try await send("GET", target, expect: 200)
            let selfLink = try #require(second?.links?["self"]?.href)
            let again = try await send("GET", Self.pathAndQuery(selfLink), expect: 200)
            #expect(again?.links?["self"]?.href == selfLink, "self link of \(selfLink)")
            #expect(!selfLink.contains("%25"), "\(start): self link \(selfLink)")
            #expect(second?.primaryResources.count == 2, "\(start), two pages on")
        }
    }

    /// Repeated `Accept` lines are one list (RFC 9110 §5.3); repeated `Content-Type` lines are
    /// refused (415), since the field may appear once.
    func repeatedHeaderLines() async throws {
        let jsonapi = Self.jsonapi
        func get(_ headers: [(String, String)]) async throws -> LoopbackHTTP.Response? {
            try await LoopbackHTTP.send(port: port, "GET", "/articles/1", headers: headers)
        }
        let split = try await get([("Accept", "application/json"), ("Accept", jsonapi)])
        #expect(split?.status == 200, "two Accept lines, the second JSON:API: \(split?.text ?? "no answer")")
        let refusedThenUsable = try await get([("Accept", jsonapi + "; foo=bar"), ("Accept", jsonapi)])
        #expect(refusedThenUsable?.status == 200, "\(refusedThenUsable?.text ?? "no answer")")
        let bothRefused = try await get([("Accept", jsonapi + "; foo=bar"), ("Accept", jsonapi + "; charset=utf-8")])
        #expect(bothRefused?.status == 406, "\(bothRefused?.text ?? "no answer")")

        let create = Array(#"{"data":{"type":"articles","attributes":{"title":"twice"}}}"#.utf8)
        for lines in [[jsonapi, jsonapi], ["application/json", jsonapi], [jsonapi, "application/json"]] {
            let response = try await LoopbackHTTP.send(
                port: port, "POST", "/articles", headers: lines.map { ("Content-Type", $0) }, body: .bytes(create))
            let answer = try #require(response, "Content-Type lines \(lines): no answer")
            try Self.check(answer, method: "POST", target: "/articles (Content-Type \(lines))", status: 415)
        }
    }

    /// Every negotiated response says `Vary: Accept`, errors included; a known path with a
    /// method it does not serve is a 405 with `Allow` and an error document.
    func varyAndMethodNotAllowed() async throws {
        let jsonapi = Self.jsonapi
        let cases: [(String, String, String?, Int)] = [
            ("GET", "/articles/1", nil, 200),
            ("GET", "/articles", jsonapi + "; foo=bar", 406),
            ("GET", "/articles/999", nil, 404),
            ("GET", "/nowhere", nil, 404),
            ("GET", "/articles?sort=nope", nil, 400),
        ]
        for (method, target, accept, status) in cases {
            let response = try await LoopbackHTTP.send(port: port, method, target, text: nil, accept: accept)
            let answer = try #require(response, "\(method) \(target): no answer")
            try Self.check(answer, method: method, target: target, status: status)
            #expect(answer.header("Vary")?.contains("Accept") == true, "\(method) \(target): Vary \(answer.headers)")
        }

        let notAllowed: [(String, String, String)] = [
            ("PUT", "/articles/1", "GET, PATCH, DELETE"),
            ("DELETE", "/articles", "GET, POST"),
            ("PATCH", "/articles", "GET, POST"),
            ("PATCH", "/articles/1/author", "GET"),
            ("PUT", "/articles/1/relationships/tags", "GET, PATCH, POST, DELETE"),
            ("GET", "/operations", "POST"),
        ]
        for (method, target, allow) in notAllowed {
            let response = try await LoopbackHTTP.send(port: port, method, target, text: nil)
            let answer = try #require(response, "\(method) \(target): no answer")
            let document = try Self.check(answer, method: method, target: target, status: 405)
            #expect(answer.header("Allow") == allow, "\(method) \(target): Allow \(answer.header("Allow") ?? "absent")")
            #expect(document?.errors.first?.status == "405")
            #expect(answer.header("Vary")?.contains("Accept") == true)
        }
    }

    /// A connection left idle, before or after a request, is closed within the server's idle
    /// timeout (`idleTimeout` seconds) and a little slack.
    func idleConnectionsClose(idleTimeout: Double) async throws {
        let silent = try await LoopbackConnection.open(port: port)
        #expect(await silent.closes(within: idleTimeout + 4), "a silent connection stays open")

        let used = try await LoopbackConnection.open(port: port)
        let answer = await used.get("/articles/1")
        // On a loaded machine the server can take longer than the timeout to read the request,
        // and may close first: an answer or a close, never a hang.
        #expect(answer.status == 200 || answer.description == "closed", "\(answer)")
        #expect(await used.closes(within: idleTimeout + 4), "an idle keep-alive connection stays open")
    }

    /// A request head sent a byte every `interval` seconds does not hold the connection: the
    /// server closes it before the head is complete, within `deadline` seconds.
    func slowHeadCloses(interval: Double, deadline: Double) async throws {
        let head = Array(
            "GET /articles/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: \(String(repeating: "s", count: 64))\r\n\r\n".utf8)
        let connection = try await LoopbackConnection.open(port: port)
        let budget = Int(deadline / interval)
        let written = await connection.trickle(Array(head.prefix(budget)), interval: interval)
        #expect(
            await connection.closes(within: 2), "a head trickled for \(deadline) s (\(written) bytes) is still open")
        #expect(written < budget, "every byte of the trickled head was taken")
    }

    /// `text` with every byte but the unreserved ones percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// The path and query of a link, absolute or not.
    static func pathAndQuery(_ link: String) -> String {
        guard let scheme = link.range(of: "://") else { return link }
        let rest = link[scheme.upperBound...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }
}
