import Foundation
import JSONAPI
import JSONAPISQL
import JSONAPIServer
import PostgresKit
import Testing

@testable import JSONAPITestSupport

/// What a service on a database answers when the database goes away, and what no answer ever
/// shows: the PostgreSQL server scripts/test starts for this (`JSONAPI_TEST_POSTGRES_STOPPABLE`)
/// is stopped mid-run and started again; hostile strings go through every parameter a request
/// can carry, on every database.
@Suite("SQL data source: failures and hostile input")
struct SQLFailureTests {
    static var stoppable: (address: String, control: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let address = environment["JSONAPI_TEST_POSTGRES_STOPPABLE"],
            let control = environment["JSONAPI_TEST_POSTGRES_STOPPABLE_CTL"]
        else { return nil }
        return (address, control)
    }

    /// Words that would show an error body leaked what it must not.
    static let leaks = ["SELECT", "INSERT", "UPDATE ", "jsonapi_", "PSQL", "postgres", "sqlite", "SQLite", "syntax"]

    /// Runs the server's control script with `command` (`stop`, `start`), waiting for it to end
    /// without blocking a thread of the concurrency pool.
    static func control(_ command: String, _ script: String) async throws {
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: script)
            process.arguments = [command]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        guard status == 0 else { throw TestSetupError("\(script) \(command) failed") }
    }

    @Test(
        "the server stopped: 503 with Retry-After within the timeout, nothing leaked; started again: answers",
        .enabled(if: stoppable != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
    func serverStopped() async throws {
        let (address, script) = try #require(Self.stoppable, "scripts/test starts the stoppable server")
        let parts = address.split(separator: ":")
        var configuration = PostgresClient.Configuration(
            host: String(parts[0]), port: Int(parts[1]) ?? 5432, username: "postgres", password: nil,
            database: "postgres", tls: .disable)
        configuration.options.connectTimeout = .seconds(1)
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await SQLTestDatabase.admin("CREATE SCHEMA \(schema)", configuration: configuration)
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        let database = SQLResourceDatabase.postgres(
            configuration, connectionTimeout: .seconds(2), logger: SQLTestDatabase.logger)
        defer { Task { await database.shutdown() } }
        let service = SQLLibrary.service(SQLLibrary.sources(database))
        try await database.createTables()
        try await SQLLibrary.seed(service)
        #expect(await service.send("GET", "books", .collection).status == 200)

        try await Self.control("stop", script)
        for (method, endpoint, body) in [
            ("GET", ResourceRequest.Endpoint.collection, nil),
            ("GET", .resource(id: "1"), nil),
            ("POST", .collection, SQLLibrary.book("9", "Z", 2000, "null", author: "1")),
            ("DELETE", .resource(id: "2"), nil),
        ] as [(String, ResourceRequest.Endpoint, String?)] {
            let started = ContinuousClock.now
            var request = ResourceRequest(method: method, type: "books", endpoint: endpoint)
            if let body {
                request = ResourceRequest(method: method, type: "books", endpoint: endpoint, body: Array(body.utf8))
            }
            do {
                _ = try await service.respond(to: request)
                Issue.record("\(method) answered while the database is down")
            } catch let error as JSONAPIHTTPError {
                let elapsed = ContinuousClock.now - started
                #expect(error.httpStatus == 503, "\(method): \(error.errors)")
                #expect(error.headerFields.contains { $0.name == "Retry-After" })
                #expect(elapsed < .seconds(8), "\(method) waited \(elapsed)")
                let text = String(decoding: JSONAPIErrorDocument(errors: error.errors).responseBytes(), as: UTF8.self)
                for word in Self.leaks { #expect(!text.contains(word), "\(method): \(text)") }
            }
        }

        try await Self.control("start", script)
        var answer = await service.send("GET", "books", .collection)
        let deadline = ContinuousClock.now + .seconds(30)
        while answer.status != 200, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            answer = await service.send("GET", "books", .collection)
        }
        #expect(answer.status == 200, "the service answers again once the server is back: \(answer.text)")
        #expect(answer.document?.primaryResources.count == 3)
    }

    /// Strings that break SQL built from text, and others that break JSON, URLs and decoders.
    static let hostile = [
        "'", "''", "\"", "'; DROP TABLE books; --", "1' OR '1'='1", "1 OR 1=1", "%", "_", "\\", "\\'",
        "books\"; DROP TABLE authors; --", "$1", "?", "NULL", "\u{0}", "é", "😀", "x`y", "/**/", ");",
    ]

    @Test("hostile strings in every parameter: sane answers, tables intact", arguments: SQLTestDatabase.available)
    func injection(_ kind: SQLTestDatabase) async throws {
        try await kind.with { database in
            let service = SQLLibrary.service(SQLLibrary.sources(database))
            try await database.createTables()
            try await SQLLibrary.seed(service)
            func encoded(_ text: String) -> String {
                text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            }
            for text in Self.hostile {
                let quoted = "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
                var answers: [Answer] = []
                answers.append(await service.send("GET", "books", .collection, query: "filter[title]=" + encoded(text)))
                answers.append(
                    await service.send(
                        "GET", "books", .collection, query: "filter=" + encoded("equals(title,\(quoted))")))
                answers.append(
                    await service.send(
                        "GET", "books", .collection, query: "filter=" + encoded("contains(title,\(quoted))")))
                answers.append(
                    await service.send(
                        "GET", "books", .collection, query: "filter=" + encoded("startsWith(author.name,\(quoted))")))
                answers.append(
                    await service.send("GET", "books", .collection, query: "filter=" + encoded("equals(\(text),'x')")))
                answers.append(await service.send("GET", "books", .collection, query: "sort=" + encoded(text)))
                answers.append(await service.send("GET", "books", .collection, query: "fields[books]=" + encoded(text)))
                answers.append(await service.send("GET", "books", .collection, query: "include=" + encoded(text)))
                answers.append(await service.send("GET", "books", .collection, query: "page[number]=" + encoded(text)))
                answers.append(await service.send("GET", "books", .resource(id: text)))
                answers.append(await service.send("GET", "books", .related(id: text, relationship: "reviews")))
                answers.append(await service.send("DELETE", "books", .resource(id: text)))
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\""
                )
                .replacingOccurrences(of: "\u{0}", with: "\\u0000")
                answers.append(
                    await service.send(
                        "PATCH", "books", .resource(id: "3"),
                        body: #"{"data":{"type":"books","id":"3","attributes":{"title":"\#(escaped)"}}}"#))
                let stored = await service.send("GET", "books", .resource(id: "3"))
                let title = stored.document?.primaryResources.first?.attributes["title"]?.stringValue
                if text.utf8.contains(0) {
                    // Text with U+0000 cannot be stored: refused whole, never cut short.
                    #expect(answers.last?.status == 422, "\(answers.last?.text ?? "")")
                    #expect(title != text && title?.utf8.contains(0) == false)
                } else {
                    #expect(title == text, "\(text)")
                }
                for answer in answers {
                    #expect(answer.status < 500, "\(text): \(answer.text)")
                    if answer.status >= 400 {
                        for word in Self.leaks { #expect(!answer.text.contains(word), "\(text): \(answer.text)") }
                    }
                }
            }
            // Every table is there, with every row.
            #expect(await service.send("GET", "books", .collection).document?.primaryResources.count == 3)
            #expect(await service.send("GET", "authors", .collection).document?.primaryResources.count == 2)
            #expect(await service.send("GET", "reviews", .collection).document?.primaryResources.count == 2)
        }
    }
}
