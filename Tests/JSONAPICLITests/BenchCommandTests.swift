import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

/// `jsonapi bench`, `jsonapi generate --shape` and the hidden `jsonapi measure` of scripts/native-bench.
@Suite(
    "jsonapi bench and generate --shape", .enabled(if: CLIHarness.runs, "the jsonapi product is not built")
)
struct BenchCommandTests {
    let directory: URL

    init() throws {
        directory = try CLIHarness.temporaryDirectory()
    }

    static let paths = [
        "tokenizer (syntax only)", "Document (whole buffer)", "DocumentParser, 64 KiB", "DocumentParser, 64 KiB, sized",
        "Document, yajl backend", "ResourceStream, 64 KiB", "JSONDecoder, any JSON",
    ]

    @Test("bench: every untyped path with its MB/s beside the tokenizer's, exit 0")
    func everyPath() throws {
        try Data(CompoundDocumentGenerator(resources: 400, seed: 3).generate())
            .write(to: directory.appendingPathComponent("doc.json"))
        let result = try CLIHarness.run(["bench", "--runs", "3", "doc.json"], in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.lines.first?.hasPrefix("doc.json: ") == true)
        #expect(result.lines.first?.contains("median of 3 runs") == true)
        let rows = result.lines.dropFirst()
        #expect(rows.count == Self.paths.count)
        for (row, path) in zip(rows, Self.paths) {
            #expect(row.trimmingCharacters(in: .whitespaces).hasPrefix(path), "\(row)")
            #expect(row.contains(" MB/s") && row.hasSuffix("x the tokenizer"), "\(row)")
        }
        #expect(rows.first?.contains("1.00x the tokenizer") == true)
    }

    @Test("bench: a document that breaks a rule fails every JSON:API path, exit 1; --lenient reads it")
    func invalidDocument() throws {
        // A field that is both an attribute and a relationship, as in two of the realworld documents.
        let text = #"""
            {"data": {"type": "classes", "id": "1", "attributes": {"module": "a"},
                      "relationships": {"module": {"data": null}}}}
            """#
        let file = try CLIHarness.write(text, to: "bad.json", in: directory)
        let strict = try CLIHarness.run(["bench", "--runs", "1", file], in: directory)
        #expect(strict.status == 1)
        let failed = strict.lines.filter { $0.contains("failed: ") }
        #expect(failed.count == 5, "\(strict.text)")
        #expect(failed.allSatisfy { $0.contains("both an attribute and a relationship") }, "\(strict.text)")
        #expect(!strict.lines[1].contains("failed") && !(strict.lines.last ?? "").contains("failed"))
        let lenient = try CLIHarness.run(["bench", "--runs", "1", "--lenient", file], in: directory)
        #expect(lenient.status == 0, "\(lenient.text)")
    }

    @Test("bench: standard input, and bad --runs is a usage error")
    func usage() throws {
        let input = Array(#"{"data": null}"#.utf8)
        let result = try CLIHarness.run(["bench", "--runs", "2", "-"], input: input, in: directory)
        #expect(result.status == 0)
        #expect(result.lines.first?.hasPrefix("-: 14 bytes") == true)
        #expect(try CLIHarness.run(["bench", "--runs", "0", "-"], input: input, in: directory).status == 2)
        #expect(try CLIHarness.run(["bench"], in: directory).status == 2)
    }

    @Test("generate --shape: the corpus generator's exact bytes, verified; the default output is unchanged")
    func generateShape() throws {
        for shape in CorpusShape.allCases {
            let expected = CorpusDocumentGenerator(shape: shape, primaryCount: 50, seed: 5).generate()
            let result = try CLIHarness.run(
                ["generate", "--shape", shape.rawValue, "--resources", "50", "--seed", "5"], in: directory)
            #expect(result.status == 0)
            #expect(result.output == expected, "\(shape)")
            let verified = try CLIHarness.run(
                ["generate", "--shape", shape.rawValue, "--approximate-bytes", "50000", "--verify"], in: directory)
            #expect(verified.status == 0, "\(verified.error)")
            #expect(verified.error.contains("verify: ok"), "\(verified.error)")
        }
        let plain = try CLIHarness.run(["generate", "--resources", "30", "--seed", "2"], in: directory)
        #expect(plain.output == CompoundDocumentGenerator(resources: 30, seed: 2).generate())
        #expect(try CLIHarness.run(["generate", "--shape", "nope", "--resources", "3"], in: directory).status == 2)
        #expect(
            try CLIHarness.run(
                ["generate", "--shape", "tiny", "--id-scheme", "uuid", "--resources", "3"], in: directory
            ).status == 2)
    }

    @Test("measure: build, typed and encode of a shape print one parsable line each")
    func measure() throws {
        try Data(CorpusDocumentGenerator(shape: .numbers, primaryCount: 80, seed: 1).generate())
            .write(to: directory.appendingPathComponent("numbers.json"))
        for path in ["build", "typed", "encode"] {
            let result = try CLIHarness.run(
                ["measure", "--path", path, "--shape", "numbers", "--runs", "2", "numbers.json"], in: directory)
            #expect(result.status == 0, "\(result.error)")
            let fields = result.text.split(separator: " ")
            #expect(fields.count == 6 && fields[0] == path, "\(result.text)")
            #expect(((Int(fields[2]) ?? 0) > 0) == (path == "encode"), "\(result.text)")
        }
        #expect(try CLIHarness.run(["measure", "--path", "typed", "numbers.json"], in: directory).status == 2)
    }

    /// The decoding floor of every shape: each resource rebuilt from its tape is checked, before
    /// the runs, to encode as the model recorded (the command fails otherwise).
    @Test("measure: the decoding floor rebuilds every shape's models", arguments: CorpusShape.allCases)
    func decodeFloor(shape: CorpusShape) throws {
        let file = "\(shape.rawValue).json"
        try Data(CorpusDocumentGenerator(shape: shape, primaryCount: 60, seed: 4).generate())
            .write(to: directory.appendingPathComponent(file))
        let result = try CLIHarness.run(
            ["measure", "--path", "decode-floor", "--shape", shape.rawValue, "--runs", "2", file], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let fields = result.text.split(separator: " ")
        #expect(fields.count == 6 && fields[0] == "decode-floor" && fields[2] == "0", "\(result.text)")
    }
}
