import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// `jsonapi format`, `get` and `flatten`, run as the built executable.
@Suite("jsonapi format, get, flatten", .enabled(if: CLIHarness.runs, "the jsonapi product is not built"))
struct WriterCommandsTests {
    let directory: URL

    init() throws {
        directory = try CLIHarness.temporaryDirectory()
    }

    static let document = """
        {"data": {"type": "articles", "id": "1", "attributes": {"title": "Hi", "z": 1, "a": 2},
                  "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
         "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"},
                       "relationships": {"articles": {"data": [{"type": "articles", "id": "1"}]}}}]}
        """

    func file(_ text: String = Self.document, _ name: String = "doc.json") throws -> String {
        try CLIHarness.write(text, to: name, in: directory)
    }

    @Test("format: pretty by default, --compact on one line, --sort-keys sorted; the output is the same document")
    func format() throws {
        let name = try file()
        let original = try Document(parsing: Self.document)
        let pretty = try CLIHarness.run(["format", name], in: directory)
        #expect(pretty.status == 0)
        #expect(pretty.text == String(decoding: original.jsonBytes(options: .pretty), as: UTF8.self) + "\n")
        let compact = try CLIHarness.run(["format", "--compact", name], in: directory)
        #expect(compact.lines.count == 1)
        let sorted = try CLIHarness.run(["format", "--compact", "--sort-keys", name], in: directory)
        #expect(sorted.text.hasPrefix(#"{"data":{"attributes":{"a":2,"title":"Hi","z":1},"id":"1""#))
        for output in [pretty, compact, sorted] {
            let reparsed = try Document(parsing: output.output)
            #expect(DocumentEquivalence.differences(original, reparsed, ordered: false).isEmpty)
        }
        let indented = try CLIHarness.run(["format", "--indent", "4", name], in: directory)
        #expect(indented.lines[1] == #"    "data": {"#)
    }

    @Test("format: strict by default, --lenient keeps what it can; --kind for requests")
    func formatStrictness() throws {
        let name = try file(#"{"data": {"type": "articles", "id": "1", "bogus": 1}}"#, "bad.json")
        let strict = try CLIHarness.run(["format", name], in: directory)
        #expect(strict.status == 1)
        #expect(strict.output.isEmpty)
        #expect(strict.error.contains("bad.json:1:"))
        let lenient = try CLIHarness.run(["format", "--lenient", "--compact", name], in: directory)
        #expect(lenient.status == 0)
        #expect(lenient.text == #"{"data":{"type":"articles","id":"1","bogus":1}}"# + "\n")
        #expect(lenient.error.contains("warning"))
        let create = try file(#"{"data": {"type": "photos"}}"#, "create.json")
        #expect(try CLIHarness.run(["format", create], in: directory).status == 1)
        #expect(try CLIHarness.run(["format", "--kind", "create", create], in: directory).status == 0)
        let stdin = try CLIHarness.run(["format", "--compact", "-"], input: Array(Self.document.utf8), in: directory)
        #expect(stdin.status == 0 && stdin.lines.count == 1)
    }

    @Test("get: the resource with related resources to the depth; 1 when there is none")
    func get() throws {
        let name = try file()
        let article = try CLIHarness.run(["get", "--compact", name, "articles", "1"], in: directory)
        #expect(article.status == 0)
        #expect(
            article.text
                == #"{"type":"articles","id":"1","title":"Hi","z":1,"a":2,"author":{"type":"people","id":"9","name":"Dan","articles":[{"type":"articles","id":"1"}]}}"#
                + "\n")
        let shallow = try CLIHarness.run(["get", "--compact", "--depth", "0", name, "people", "9"], in: directory)
        #expect(
            shallow.text == #"{"type":"people","id":"9","name":"Dan","articles":[{"type":"articles","id":"1"}]}"# + "\n"
        )
        let deep = try CLIHarness.run(["get", name, "people", "9", "--depth", "5"], in: directory)
        #expect(deep.status == 0)
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(deep.output)) }
        let missing = try CLIHarness.run(["get", name, "people", "10"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.error.contains("no resource with type `people` and id `10`"))
    }

    @Test("flatten: primary data flattened, the other top-level members kept")
    func flatten() throws {
        let name = try file()
        let flat = try CLIHarness.run(["flatten", "--compact", "--depth", "0", name], in: directory)
        #expect(
            flat.text
                == #"{"data":{"type":"articles","id":"1","title":"Hi","z":1,"a":2,"author":{"type":"people","id":"9"}}}"#
                + "\n")
        let page = try file(
            #"{"data": [], "meta": {"totalPages": 13}, "links": {"next": "/articles?page[number]=2"}}"#, "page.json")
        let flatPage = try CLIHarness.run(["flatten", "--compact", page], in: directory)
        #expect(
            flatPage.text == #"{"data":[],"meta":{"totalPages":13},"links":{"next":"/articles?page[number]=2"}}"# + "\n"
        )
        let errors = try file(#"{"errors": [{"status": "404", "title": "Not Found"}]}"#, "errors.json")
        let flatErrors = try CLIHarness.run(["flatten", "--compact", errors], in: directory)
        #expect(flatErrors.text == #"{"errors":[{"status":"404","title":"Not Found"}]}"# + "\n")
    }

    @Test(
        "usage and I/O errors exit 2",
        arguments: [
            ["format"], ["format", "missing.json"], ["format", "--indent", "-1", "doc.json"],
            ["get", "doc.json", "people"], ["get", "--depth", "x", "doc.json", "a", "1"], ["flatten", "missing.json"],
            ["flatten", "--pretty", "--compact", "doc.json"],
        ])
    func usageErrors(_ arguments: [String]) throws {
        _ = try file()
        let result = try CLIHarness.run(arguments, in: directory)
        #expect(result.status == 2, "\(arguments): \(result.error)")
        #expect(!result.error.isEmpty)
    }
}
