import Foundation
import JSONAPIGenerator
import Testing

/// Runs the built `jsonapi` executable. `swift build --build-tests` (as scripts/test does) puts it
/// beside the test bundle; set JSONAPI_BIN to test another binary.
enum CLIHarness {
    /// The executable, or nil when it has not been built.
    static let executable: URL? = {
        if let path = ProcessInfo.processInfo.environment["JSONAPI_BIN"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        // macOS runs tests inside a bundle (`….xctest/Contents/MacOS/…`); the products sit beside it.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories.map { $0.appendingPathComponent("jsonapi") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Whether the command-line suites run: when the executable is built, and always under CI
    /// (`CI=true`), where a missing executable fails them instead of skipping them.
    static let runs = executable != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    struct Result {
        var status: Int32
        var output: [UInt8]
        var error: String
        var text: String { String(decoding: output, as: UTF8.self) }
        var lines: [String] { text.split(separator: "\n").map(String.init) }
    }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonapi-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `jsonapi ARGUMENTS`, with `input` as standard input, capturing both outputs in files
    /// (pipes could fill up and block a large output).
    static func run(_ arguments: [String], input: [UInt8] = [], in directory: URL) throws -> Result {
        guard let executable else { throw CocoaError(.fileNoSuchFile) }
        let inputURL = directory.appendingPathComponent("stdin-\(UUID().uuidString)")
        let outputURL = directory.appendingPathComponent("stdout-\(UUID().uuidString)")
        let errorURL = directory.appendingPathComponent("stderr-\(UUID().uuidString)")
        try Data(input).write(to: inputURL)
        #expect(FileManager.default.createFile(atPath: outputURL.path, contents: nil))
        #expect(FileManager.default.createFile(atPath: errorURL.path, contents: nil))
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "jsonapi \(arguments) was killed by a signal")
        return Result(
            status: process.terminationStatus, output: Array(try Data(contentsOf: outputURL)),
            error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }

    static func write(_ text: String, to name: String, in directory: URL) throws -> String {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        return name
    }
}

@Suite("jsonapi command-line tool", .enabled(if: CLIHarness.runs, "the jsonapi product is not built"))
struct CLITests {
    let directory: URL

    init() throws {
        directory = try CLIHarness.temporaryDirectory()
    }

    static let valid = """
        {"data": {"type": "articles", "id": "1", "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
         "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
        """
    static let invalid = #"{"data": {"type": "articles", "id": 1}}"#

    @Test("validate: a valid document exits 0 with a verdict line")
    func validDocument() throws {
        let file = try CLIHarness.write(Self.valid, to: "valid.json", in: directory)
        let result = try CLIHarness.run(["validate", file], in: directory)
        #expect(result.status == 0)
        #expect(result.lines == ["valid.json: valid"])
        let quiet = try CLIHarness.run(["validate", "--quiet", file], in: directory)
        #expect(quiet.status == 0 && quiet.output.isEmpty)
    }

    @Test("validate: problems print as FILE:LINE:COLUMN: error: MESSAGE (POINTER), exit 1")
    func invalidDocument() throws {
        let file = try CLIHarness.write("\n" + Self.invalid, to: "invalid.json", in: directory)
        let result = try CLIHarness.run(["validate", file], in: directory)
        #expect(result.status == 1)
        let first = try #require(result.lines.first)
        #expect(first.hasPrefix("invalid.json:2:"), "\(first)")
        #expect(first.contains(": error: "), "\(first)")
        #expect(first.hasSuffix("(/data/id)"), "\(first)")
        #expect(result.lines.last?.hasPrefix("invalid.json: invalid (") == true)
    }

    @Test("validate --json: one report entry per file with every diagnostic field")
    func jsonReport() throws {
        let good = try CLIHarness.write(Self.valid, to: "good.json", in: directory)
        let bad = try CLIHarness.write(Self.invalid, to: "bad.json", in: directory)
        let result = try CLIHarness.run(["validate", "--json", good, bad], in: directory)
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output)) as? [[String: Any]])
        #expect(report.count == 2)
        #expect(report[0]["file"] as? String == "good.json")
        #expect(report[0]["valid"] as? Bool == true)
        #expect(report[1]["valid"] as? Bool == false)
        let diagnostic = try #require((report[1]["diagnostics"] as? [[String: Any]])?.first)
        #expect(diagnostic["severity"] as? String == "error")
        #expect(diagnostic["pointer"] as? String == "/data/id")
        #expect(diagnostic["line"] as? Int == 1)
        #expect((diagnostic["offset"] as? Int ?? -1) > 0)
        #expect((diagnostic["column"] as? Int ?? 0) > 1)
        #expect(!(diagnostic["code"] as? String ?? "").isEmpty)
        #expect(!(diagnostic["message"] as? String ?? "").isEmpty)
    }

    @Test("validate --kind: the kind decides whether a missing id is allowed")
    func kinds() throws {
        let file = try CLIHarness.write(
            #"{"data": {"type": "photos", "attributes": {"title": "Ember"}}}"#, to: "new.json", in: directory)
        #expect(try CLIHarness.run(["validate", "--kind", "create", file], in: directory).status == 0)
        #expect(try CLIHarness.run(["validate", "--kind", "response", file], in: directory).status == 1)
    }

    @Test("validate -: standard input gives the same diagnostics as the file")
    func standardInput() throws {
        let text = "\n" + Self.invalid
        let file = try CLIHarness.write(text, to: "in.json", in: directory)
        let fromFile = try CLIHarness.run(["validate", file], in: directory)
        let fromInput = try CLIHarness.run(["validate", "-"], input: Array(text.utf8), in: directory)
        #expect(fromInput.status == fromFile.status)
        #expect(fromInput.text == fromFile.text.replacingOccurrences(of: "in.json:", with: "-:"))
    }

    @Test("validate: a large document on standard input is parsed in chunks like the file")
    func largeStandardInput() throws {
        let bytes = CompoundDocumentGenerator(resources: 400, seed: 4).generate()  // several 64 KiB chunks
        try Data(bytes).write(to: directory.appendingPathComponent("big.json"))
        let fromFile = try CLIHarness.run(["validate", "--lenient", "big.json"], in: directory)
        let fromInput = try CLIHarness.run(["validate", "--lenient", "-"], input: bytes, in: directory)
        #expect(fromInput.status == fromFile.status)
        #expect(fromInput.text == fromFile.text.replacingOccurrences(of: "big.json:", with: "-:"))
    }

    @Test("validate --syntax: RFC 8259 only, bytes that are not UTF-8 rejected without a crash")
    func syntax() throws {
        #expect(try CLIHarness.run(["validate", "--syntax", "-"], input: Array("[1]".utf8), in: directory).status == 0)
        let trailing = try CLIHarness.run(["validate", "--syntax", "-"], input: Array("[1,]".utf8), in: directory)
        #expect(trailing.status == 1)
        #expect(trailing.lines.first?.hasPrefix("-:1:") == true, "\(trailing.text)")
        let latin1 = try CLIHarness.run(
            ["validate", "--syntax", "-"], input: [0x5B, 0x22, 0xE9, 0x22, 0x5D], in: directory)
        #expect(latin1.status == 1)
        // Plain JSON that is not JSON:API: valid syntax, invalid document.
        #expect(try CLIHarness.run(["validate", "-"], input: Array("[1]".utf8), in: directory).status == 1)
    }

    @Test(
        "usage and I/O errors exit 2",
        arguments: [
            ["validate"], ["validate", "--kind", "bogus", "x.json"], ["validate", "--backend", "bogus", "x.json"],
            ["validate", "--no-such-flag", "x.json"], ["nonsense"], ["validate", "does-not-exist.json"],
            ["inspect", "does-not-exist.json"], ["generate"], ["generate", "--resources", "-1"],
            ["validate", "-", "-"],
        ])
    func usageErrors(_ arguments: [String]) throws {
        let result = try CLIHarness.run(arguments, in: directory)
        #expect(result.status == 2, "\(arguments): \(result.error)")
        #expect(!result.error.isEmpty)
    }

    @Test("an unreadable file does not stop the others; exit 2 wins over 1")
    func mixedFiles() throws {
        let good = try CLIHarness.write(Self.valid, to: "good.json", in: directory)
        let bad = try CLIHarness.write(Self.invalid, to: "bad.json", in: directory)
        let result = try CLIHarness.run(["validate", good, "missing.json", bad], in: directory)
        #expect(result.status == 2)
        #expect(result.lines.contains("good.json: valid"))
        #expect(result.lines.contains { $0.hasPrefix("bad.json: invalid") })
        #expect(result.error.contains("missing.json"))
    }

    @Test("help exits 0")
    func help() throws {
        let result = try CLIHarness.run(["validate", "--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.text.contains("--kind"))
    }

    @Test("generate: the generator's exact bytes, to standard output or a file")
    func generate() throws {
        let expected = CompoundDocumentGenerator(resources: 120, seed: 5).generate()
        let toOutput = try CLIHarness.run(["generate", "--resources", "120", "--seed", "5"], in: directory)
        #expect(toOutput.status == 0)
        #expect(toOutput.output == expected)
        let toFile = try CLIHarness.run(
            ["generate", "--resources", "120", "--seed", "5", "-o", "doc.json"], in: directory)
        #expect(toFile.status == 0)
        #expect(Array(try Data(contentsOf: directory.appendingPathComponent("doc.json"))) == expected)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(".partial-")
        }
        #expect(leftovers.isEmpty)
    }

    @Test("generate | validate: a generated document is valid JSON:API")
    func generatedDocumentIsValid() throws {
        let document = try CLIHarness.run(["generate", "--resources", "200"], in: directory)
        let result = try CLIHarness.run(["validate", "--quiet", "-"], input: document.output, in: directory)
        #expect(result.status == 0, "\(result.lines.prefix(3))")
    }

    @Test("inspect --json: counts agree with the generator, linkage fully resolved")
    func inspect() throws {
        let generator = CompoundDocumentGenerator(resources: 300, seed: 2)
        try Data(generator.generate()).write(to: directory.appendingPathComponent("doc.json"))
        let result = try CLIHarness.run(["inspect", "--lenient", "--json", "--runs", "2", "doc.json"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])
        let sections = try #require(report["sections"] as? [String: Any])
        #expect(sections["primary"] as? Int == generator.primaryCount)
        #expect(sections["included"] as? Int == generator.includedCount)
        let linkage = try #require(report["linkage"] as? [String: Any])
        #expect(linkage["unresolved"] as? Int == 0)
        #expect((linkage["total"] as? Int ?? 0) > generator.primaryCount)
        let unreachable = try #require(report["unreachableIncluded"] as? [String: Any])
        #expect(unreachable["count"] as? Int == 0)
        let parse = try #require(report["parse"] as? [String: Any])
        #expect(parse["runs"] as? Int == 2)
        #expect((parse["medianMegabytesPerSecond"] as? Double ?? 0) > 0)
        let memory = try #require(report["memory"] as? [String: Any])
        #expect((memory["peakResidentKiB"] as? Int ?? 0) > 0)
        let types = try #require(report["types"] as? [[String: Any]])
        #expect(Set(types.compactMap { $0["type"] as? String }) == ["articles", "people", "comments", "tags"])
    }

    @Test("inspect: an invalid document exits 1 with its diagnostics")
    func inspectInvalid() throws {
        let file = try CLIHarness.write(Self.invalid, to: "bad.json", in: directory)
        let result = try CLIHarness.run(["inspect", file], in: directory)
        #expect(result.status == 1)
        #expect(result.lines.first?.hasPrefix("bad.json:1:") == true)
    }

    @Test("inspect --compare-foundation: Foundation decodes the generated document with the Codable model")
    func compareFoundation() throws {
        try Data(CompoundDocumentGenerator(resources: 60, seed: 9).generate())
            .write(to: directory.appendingPathComponent("doc.json"))
        let result = try CLIHarness.run(
            ["inspect", "--lenient", "--json", "--runs", "1", "--compare-foundation", "doc.json"], in: directory)
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])
        let decoders = try #require((report["foundation"] as? [String: Any])?["decoders"] as? [[String: Any]])
        #expect(decoders.map { $0["name"] as? String } == ["JSONSyntaxValidator", "JSONDecoder"])
        for decoder in decoders {
            #expect(decoder["medianMegabytesPerSecond"] != nil, "\(decoder["name"] ?? ""): \(decoder["note"] ?? "")")
        }
    }
}
