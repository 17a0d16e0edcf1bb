import Foundation
import JSONAPI
import Testing

/// Runs schemathesis (PyPI), a property-based tester of HTTP APIs, against a running example
/// service from the OpenAPI document the service serves itself (`/openapi.json`): every phase
/// (examples, coverage, fuzzing, stateful), every check (server errors, status codes, content
/// types, response schemas, valid data accepted and invalid data refused, 405 with `Allow` for
/// undeclared methods, ...; two narrowed, see ``configuration``), for a bounded time. A run is
/// clean when schemathesis exits 0; any failure it reports fails the test with its report.
///
/// schemathesis is installed with pip (``version``) when `python3 -m schemathesis` cannot run it.
enum Schemathesis {
    /// The version installed when none is present; the checks and phases named here are its.
    static let version = "4.32.5"

    /// The time schemathesis spends generating requests, in seconds (`--max-time`); the run
    /// also loads the document and shrinks what fails, so it is given ``deadline`` in all.
    static let budget = 60
    /// How long a run may take before it is stopped and counted as a failure.
    static let deadline: Double = 150

    /// What a run printed and how it ended.
    struct Run: Sendable {
        var status: Int32
        var output: String
        var timedOut: Bool
        var isClean: Bool { status == 0 && !timedOut }
        /// schemathesis's summary: the lines from its last section on, for the test's message.
        var summary: String {
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.suffix(80).joined(separator: "\n")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Fetches `/openapi.json` from the service on `port`, checks that it is an OpenAPI 3.1
    /// document served as JSON, and runs schemathesis against the service from it.
    static func run(port: Int, seed: Int = 1) async throws -> Run {
        let response = try #require(try await LoopbackHTTP.send(port: port, "GET", "/openapi.json"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)

        try await python { try installIfMissing() }
        let configURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonapi-schemathesis-\(UUID().uuidString).toml")
        try Data(configuration.utf8).write(to: configURL)
        defer { try? FileManager.default.removeItem(at: configURL) }
        // Every check is on unless the configuration turns it off (schemathesis's default).
        let arguments = [
            "-m", "schemathesis.cli", "--config-file", configURL.path, "run", "http://127.0.0.1:\(port)/openapi.json",
            "--phases", "examples,coverage,fuzzing,stateful", "--max-time", String(budget), "--seed", String(seed),
            "--workers", "1", "--request-timeout", "10", "--no-color", "--generation-database", "none",
            "--suppress-health-check", "all",
        ]
        return try await python { try runSync(arguments, deadline: deadline) }
    }

    /// Two checks turned off, each only where it cannot be right. `ensure_resource_availability`
    /// takes a 404 from a request that follows a create as the created resource gone missing;
    /// but a body that names a related resource that does not exist gets 404 as JSON:API
    /// requires ("Creating Resources", "Updating a Resource's Relationships"), and the stateful
    /// phase sends such bodies to the created resource's update and relationship routes. The
    /// check stays on for every route without a body (fetching the created resource, its
    /// related resources and linkage, and deleting it).
    ///
    /// `use_after_free` takes a `DELETE` as the deletion of the resource at its path, and a later
    /// successful read of that path as a read of something deleted. On a relationship route a
    /// `DELETE` removes members from a to-many relationship ("Removing from To-Many
    /// Relationships"): the relationship stays, and reading it answers 200 with the linkage left,
    /// as JSON:API requires. The check is off for reads of relationship routes only; it stays on
    /// for reads of resources and related resources, and the example scenario reads a deleted
    /// resource's relationship and related routes and expects 404.
    static let configuration = """
        [[operations]]
        include-path-regex = "/relationships/"
        exclude-method = "GET"
        checks.ensure_resource_availability.enabled = false

        [[operations]]
        include-method = "PATCH"
        checks.ensure_resource_availability.enabled = false

        [[operations]]
        include-path-regex = "/relationships/"
        include-method = "GET"
        checks.use_after_free.enabled = false
        """

    /// Installs schemathesis with pip unless it runs already.
    static func installIfMissing() throws {
        if (try? runSync(["-m", "schemathesis.cli", "--version"], deadline: 60))?.status == 0 { return }
        let install = try runSync(
            ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "schemathesis==\(version)"],
            deadline: 600)
        guard install.status == 0 else {
            throw Failure(description: "pip could not install schemathesis==\(version):\n\(install.output)")
        }
    }

    /// Runs `work` (which waits for python3) off the concurrency pool: the server under test
    /// answers on that pool, and on two cores two blocked threads would stall it.
    static func python<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try work() })
            }
        }
    }

    /// Runs `python3 ARGUMENTS`, its output to a temporary file (a pipe could fill and stall
    /// it), and stops it after `deadline` seconds.
    static func runSync(_ arguments: [String], deadline: Double) throws -> Run {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonapi-schemathesis-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        // schemathesis keeps state (`.schemathesis/`) in its working directory: not the checkout.
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.standardOutput = output
        process.standardError = output
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let timedOut = finished.wait(timeout: .now() + deadline) == .timedOut
        if timedOut {
            process.terminate()
            finished.wait()
        }
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return Run(status: process.terminationStatus, output: text, timedOut: timedOut)
    }
}
