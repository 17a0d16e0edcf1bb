import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

/// `jsonapi stream`, and `validate` and `inspect` reading through the resource stream
/// (`--stream`, `--stream-threshold`), run as the built executable.
@Suite("jsonapi stream and --stream", .enabled(if: CLIHarness.runs, "the jsonapi product is not built"))
struct StreamCommandTests {
    let directory: URL

    init() throws {
        directory = try CLIHarness.temporaryDirectory()
    }

    /// A generated compound document large enough to make the stream's window slide.
    static let generated = CompoundDocumentGenerator(resources: 1500, seed: 11).generate()

    /// `count` primary resources, one per line; the one at `numericID` has a number as its id.
    static func articles(_ count: Int, numericID: Int? = nil) -> String {
        let resources = (0..<count).map { index in
            let id = index == numericID ? "\(index)" : "\"\(index)\""
            return #"{"type":"articles","id":\#(id),"attributes":{"title":"Article \#(index)","n":\#(index)}}"#
        }
        return "{\"data\": [\n" + resources.joined(separator: ",\n") + "\n]}\n"
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
        return name
    }

    func objects(_ result: CLIHarness.Result) throws -> [[String: Any]] {
        try result.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    static func json(_ bytes: [UInt8]) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? NSObject)
    }

    @Test("stream: one NDJSON line per resource, matching Document(parsing:) in order, place and JSON")
    func resourcesMatchDocument() throws {
        let file = try write(Self.generated, "doc.json")
        let result = try CLIHarness.run(["stream", file], in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "\(result.error)")
        let lines = try objects(result)
        let document = try Document(parsing: Self.generated)

        let resources = lines.filter { $0["part"] as? String == "resource" }
        var expected: [(resource: ResourceObject, section: String, pointer: String)] = []
        for (index, resource) in document.primaryResources.enumerated() {
            expected.append((resource, "primary", "/data/\(index)"))
        }
        for (index, resource) in document.included.enumerated() {
            expected.append((resource, "included", "/included/\(index)"))
        }
        #expect(resources.count == expected.count)
        for (line, want) in zip(resources, expected) {
            #expect(line["type"] as? String == want.resource.type)
            #expect(line["id"] as? String == want.resource.id)
            #expect(line["section"] as? String == want.section)
            #expect(line["pointer"] as? String == want.pointer)
            #expect(line["index"] as? Int == Int(want.pointer.split(separator: "/").last ?? ""))
            #expect(line["offset"] as? Int == want.resource.byteOffset)
            let streamed = try #require(line["resource"] as? NSObject)
            #expect(streamed.isEqual(try Self.json(want.resource.jsonBytes())), "\(want.pointer)")
        }
        // Parts appear in document order: resource offsets increase.
        let offsets = resources.compactMap { $0["offset"] as? Int }
        #expect(offsets == offsets.sorted())

        let others = lines.filter { $0["part"] as? String != "resource" }
        var top: [String] = []
        if document.meta != nil { top.append("meta") }
        if document.links != nil { top.append("links") }
        if document.jsonapi != nil { top.append("jsonapi") }
        #expect(Set(others.compactMap { $0["part"] as? String }) == Set(top))
        if let meta = document.meta, let line = others.first(where: { $0["part"] as? String == "meta" }) {
            #expect((line["value"] as? NSObject)?.isEqual(try Self.json(meta.jsonBytes())) == true)
        }
    }

    @Test("stream: top-level meta, links, jsonapi, errors and extension members are parts too")
    func topLevelParts() throws {
        let text = """
            {"jsonapi": {"version": "1.1", "ext": ["https://example.com/ext"]},
             "errors": [{"status": "404", "title": "Not Found"}, {"status": "500"}],
             "meta": {"requestId": "r-1"}, "links": {"self": "/x"},
             "ext:trace": {"span": 7}}
            """
        let file = try CLIHarness.write(text, to: "errors.json", in: directory)
        let result = try CLIHarness.run(["stream", file], in: directory)
        #expect(result.status == 0, "\(result.error)")
        let lines = try objects(result)
        #expect(lines.compactMap { $0["part"] as? String } == ["jsonapi", "error", "error", "meta", "links", "member"])
        #expect(lines[1]["index"] as? Int == 0)
        #expect(lines[2]["index"] as? Int == 1)
        #expect((lines[2]["value"] as? [String: Any])?["status"] as? String == "500")
        #expect((lines[3]["value"] as? [String: Any])?["requestId"] as? String == "r-1")
        #expect(lines[5]["name"] as? String == "ext:trace")
        #expect((lines[5]["value"] as? [String: Any])?["span"] as? Int == 7)
        #expect(result.lines[0] == #"{"part":"jsonapi","value":{"version":"1.1","ext":["https://example.com/ext"]}}"#)
    }

    @Test("stream --only and --type: filters on section and type")
    func filters() throws {
        let file = try write(Self.generated, "doc.json")
        let generator = CompoundDocumentGenerator(resources: 1500, seed: 11)
        let primary = try CLIHarness.run(["stream", "--only", "primary", file], in: directory)
        #expect(primary.status == 0)
        #expect(primary.lines.count == generator.primaryCount)
        let included = try CLIHarness.run(["stream", "--only", "included", file], in: directory)
        #expect(included.lines.count == generator.includedCount)
        let resources = try CLIHarness.run(["stream", "--only", "resources", file], in: directory)
        #expect(resources.lines.count == generator.primaryCount + generator.includedCount)
        let people = try CLIHarness.run(["stream", "--type", "people", "--only", "resources", file], in: directory)
        #expect(try objects(people).allSatisfy { $0["type"] as? String == "people" })
        #expect(people.lines.count == generator.personCount)
        let two = try CLIHarness.run(
            ["stream", "--type", "people", "--type", "tags", "--only", "included", file], in: directory)
        #expect(two.lines.count == generator.personCount + generator.tagCount)
    }

    @Test("stream: a strict error mid-file prints the parts before it, then the error on standard error; exit 1")
    func strictErrorMidFile() throws {
        let text = Self.articles(3000, numericID: 2000)
        let file = try CLIHarness.write(text, to: "bad.json", in: directory)
        let result = try CLIHarness.run(["stream", file], in: directory)
        #expect(result.status == 1)
        let lines = try objects(result)
        // Every resource before the broken one is printed, in order, and neither the broken one
        // nor anything after it.
        #expect(lines.map { $0["pointer"] as? String } == (0..<2000).map { "/data/\($0)" })
        let errors = result.error.split(separator: "\n")
        #expect(errors.count == 1, "\(result.error)")
        let error = String(errors.first ?? "")
        // The resource is on line 2002: `{"data": [` is line 1.
        #expect(error.hasPrefix("bad.json:2002:"), "\(error)")
        #expect(error.contains(": error: "), "\(error)")
        #expect(error.hasSuffix("(/data/2000/id)"), "\(error)")
    }

    @Test("stream --lenient: problems print as warnings on standard error, every part is printed")
    func lenientDiagnostics() throws {
        let text = Self.articles(3000, numericID: 2000)
        let file = try CLIHarness.write(text, to: "bad.json", in: directory)
        let result = try CLIHarness.run(["stream", "--lenient", file], in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.lines.count == 3000)
        let warnings = result.error.split(separator: "\n").map(String.init)
        #expect(warnings.count == 1, "\(result.error)")
        #expect(warnings.first?.hasPrefix("bad.json:2002:") == true, "\(warnings)")
        #expect(warnings.first?.contains(": warning: ") == true, "\(warnings)")
        #expect(warnings.first?.hasSuffix("(/data/2000/id)") == true, "\(warnings)")
    }

    @Test("stream: a syntax error stops the stream after the parts before it; exit 1")
    func syntaxError() throws {
        var text = Self.articles(500)
        text.removeLast(6)  // `}}\n]}\n` ends the text: cut the last resource's closing brace
        let file = try CLIHarness.write(text, to: "cut.json", in: directory)
        let result = try CLIHarness.run(["stream", file], in: directory)
        #expect(result.status == 1)
        #expect(result.lines.count == 499)
        #expect(result.error.contains("cut.json:") && result.error.contains(": error: "), "\(result.error)")
    }

    @Test("stream -: standard input streams as it arrives, with the same output as the file")
    func standardInput() throws {
        let file = try write(Self.generated, "doc.json")
        let fromFile = try CLIHarness.run(["stream", file], in: directory)
        let fromInput = try CLIHarness.run(["stream", "-"], input: Self.generated, in: directory)
        #expect(fromInput.status == 0)
        #expect(fromInput.output == fromFile.output)
        #expect(!fromFile.output.isEmpty)
    }

    @Test(
        "stream: I/O errors exit 2",
        arguments: [["stream", "missing.json"], ["stream"], ["stream", "--only", "x", "-"]])
    func streamUsageErrors(_ arguments: [String]) throws {
        let result = try CLIHarness.run(arguments, in: directory)
        #expect(result.status == 2, "\(arguments): \(result.error)")
        #expect(!result.error.isEmpty)
    }

    /// Documents `validate --stream` must report exactly as `validate` does.
    static let validateCases: [(name: String, text: String)] = [
        (
            "duplicate",
            """
            {"data": [{"type": "articles", "id": "1"},
                      {"type": "articles", "id": "1"}]}
            """
        ),
        (
            "unreachable",
            """
            {"data": {"type": "articles", "id": "1"},
             "included": [{"type": "people", "id": "9"}]}
            """
        ),
        ("syntax", "{\"data\": [{\"type\": \"articles\", \"id\": \"1\"},\n {\"type\": \"articles\" \"id\": \"2\"}]}"),
        ("bad-member", "{\"data\": {\"type\": \"articles\", \"id\": \"1\"},\n \"bogus\": true}"),
        ("numeric-id", articles(3000, numericID: 2000)),
        ("valid", String(decoding: generated, as: UTF8.self)),
        (
            "several",
            """
            {"data": [{"type": "articles", "id": "1", "attributes": {"type": 1}},
             {"type": "articles", "id": "1"}],
             "included": [{"type": "people", "id": "9"}, {"type": "people", "id": "10", "bogus": 1}],
             "meta": {}, "foo": 2}
            """
        ),
        ("not-an-object", "[1, 2]"),
        ("empty", ""),
    ]

    /// `validate`'s output with the line and column of unreachable-resource warnings dropped:
    /// the stream reports those at the end, when it knows no line.
    static func comparable(_ text: String) -> [String] {
        text.split(separator: "\n").map { line in
            guard line.contains("is not reachable from primary data") else { return String(line) }
            let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, Int(parts[1]) != nil, Int(parts[2]) != nil else { return String(line) }
            return parts[0] + ":" + parts[3]
        }
    }

    @Test("validate --stream: the same report as validate", arguments: [false, true])
    func validateStreamMatches(lenient: Bool) throws {
        // In strict mode the stream stops at the first broken rule; the in-memory parse lists them all.
        for (name, text) in Self.validateCases where lenient || name != "several" {
            let file = try CLIHarness.write(text, to: "\(name).json", in: directory)
            let flags = lenient ? ["validate", "--lenient"] : ["validate"]
            let memory = try CLIHarness.run(flags + [file], in: directory)
            let streamed = try CLIHarness.run(flags + ["--stream", file], in: directory)
            #expect(streamed.status == memory.status, "\(name): \(streamed.text) vs \(memory.text)")
            #expect(Self.comparable(streamed.text) == Self.comparable(memory.text), "\(name)")
            let input = try CLIHarness.run(flags + ["--stream", "-"], input: Array(text.utf8), in: directory)
            #expect(input.status == memory.status, "\(name)")
            #expect(
                Self.comparable(input.text) == Self.comparable(memory.text.replacingOccurrences(of: file, with: "-")),
                "\(name)")
        }
    }

    @Test("validate --stream, strict: the problems up to the first broken rule, and the same verdict")
    func validateStreamStopsAtFirstError() throws {
        let text = try #require(Self.validateCases.first { $0.name == "several" }?.text)
        let file = try CLIHarness.write(text, to: "several.json", in: directory)
        let memory = try CLIHarness.run(["validate", file], in: directory)
        let streamed = try CLIHarness.run(["validate", "--stream", file], in: directory)
        #expect(memory.status == 1 && streamed.status == 1)
        #expect(streamed.lines == [memory.lines[0], "several.json: invalid (1 error)"])
    }

    @Test("validate --stream-threshold: files above it are streamed, with the same report")
    func threshold() throws {
        let file = try write(Self.generated, "doc.json")
        let memory = try CLIHarness.run(["validate", file], in: directory)
        let streamed = try CLIHarness.run(["validate", "--stream-threshold", "1K", file], in: directory)
        #expect(streamed.status == 0)
        #expect(streamed.text == memory.text)
        let inspected = try CLIHarness.run(["inspect", "--json", "--stream-threshold", "1K", file], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(inspected.output)) as? [String: Any])
        #expect(report["streaming"] as? Bool == true)
        let below = try CLIHarness.run(
            ["inspect", "--json", "--runs", "1", "--stream-threshold", "1G", file], in: directory)
        let inMemory = try #require(try JSONSerialization.jsonObject(with: Data(below.output)) as? [String: Any])
        #expect(inMemory["streaming"] == nil)
        #expect(try CLIHarness.run(["validate", "--stream-threshold", "lots", file], in: directory).status == 2)
    }

    @Test("validate --syntax --stream: plain JSON checked in chunks")
    func syntaxInChunks() throws {
        let good = try CLIHarness.write("[1, {\"a\": [true, null]}]", to: "good.json", in: directory)
        let bad = try CLIHarness.write("[1,\n 2,]", to: "bad.json", in: directory)
        #expect(try CLIHarness.run(["validate", "--syntax", "--stream", good], in: directory).status == 0)
        let memory = try CLIHarness.run(["validate", "--syntax", bad], in: directory)
        let streamed = try CLIHarness.run(["validate", "--syntax", "--stream", bad], in: directory)
        #expect(streamed.status == 1)
        // Read in chunks, a syntax error has its line and column but no JSON Pointer.
        #expect(streamed.lines.first?.hasPrefix("bad.json:2:4: error: ") == true, "\(streamed.text)")
        #expect(streamed.lines.first?.hasSuffix(" ()") == true, "\(streamed.text)")
        #expect(streamed.lines.dropFirst() == memory.lines.dropFirst())
        #expect(memory.lines.first?.hasPrefix(String(streamed.lines.first?.dropLast(3) ?? "")) == true)
    }

    @Test("inspect --stream: a streaming pass whose counts equal the in-memory report's")
    func inspectStreamCounts() throws {
        for (name, bytes, flags) in [
            ("doc.json", Self.generated, ["--lenient"]),
            ("unreachable.json", Array((Self.validateCases[1].text).utf8), []),
        ] {
            let file = try write(bytes, name)
            let memory = try CLIHarness.run(["inspect", "--json", "--runs", "1"] + flags + [file], in: directory)
            let streamed = try CLIHarness.run(["inspect", "--json", "--stream"] + flags + [file], in: directory)
            #expect(memory.status == 0 && streamed.status == 0, "\(streamed.error)")
            let a = try #require(try JSONSerialization.jsonObject(with: Data(memory.output)) as? [String: Any])
            let b = try #require(try JSONSerialization.jsonObject(with: Data(streamed.output)) as? [String: Any])
            #expect(b["streaming"] as? Bool == true)
            #expect(b["inputBytes"] as? Int == a["inputBytes"] as? Int)
            #expect(b["valid"] as? Bool == a["valid"] as? Bool)
            let sections = (a["sections"] as? [String: Any], b["sections"] as? [String: Any])
            for key in ["primary", "included", "errors", "primaryShape"] {
                #expect(
                    (sections.1?[key] as? NSObject)?.isEqual(sections.0?[key]) == true, "\(name) sections.\(key)")
            }
            #expect(
                Set((sections.1?["topLevelMembers"] as? [String]) ?? [])
                    == Set((sections.0?["topLevelMembers"] as? [String]) ?? []))
            let types = (a["types"] as? [[String: Any]] ?? [], b["types"] as? [[String: Any]] ?? [])
            func counts(_ list: [[String: Any]]) -> [String: [Int]] {
                var result: [String: [Int]] = [:]
                for entry in list {
                    let total = (entry["primary"] as? Int ?? 0) + (entry["included"] as? Int ?? 0)
                    // Types seen only in linkage are in the in-memory report alone.
                    guard total > 0, let type = entry["type"] as? String else { continue }
                    result[type] = [entry["primary"] as? Int ?? 0, entry["included"] as? Int ?? 0]
                }
                return result
            }
            #expect(counts(types.1) == counts(types.0), "\(name)")
            let relationships = (a["relationships"] as? [String: Int], b["relationships"] as? [String: Int])
            #expect(relationships.1 == relationships.0, "\(name)")
            let linkage = (
                (a["linkage"] as? [String: Any])?["total"] as? Int, (b["linkage"] as? [String: Any])?["total"] as? Int
            )
            #expect(linkage.1 == linkage.0, "\(name)")
            let unreachable = (
                (a["unreachableIncluded"] as? [String: Any])?["count"] as? Int,
                (b["unreachableIncluded"] as? [String: Any])?["count"] as? Int
            )
            #expect(unreachable.1 == unreachable.0, "\(name)")
            let stream = try #require(b["stream"] as? [String: Any])
            #expect((stream["windowCapacity"] as? Int ?? 0) > 0)
            #expect((b["memory"] as? [String: Any])?["peakResidentKiB"] as? Int ?? 0 > 0)
        }
        let text = try CLIHarness.run(["inspect", "--stream", "--lenient", "doc.json"], in: directory)
        #expect(text.status == 0)
        #expect(text.lines.first?.contains("streaming pass") == true, "\(text.lines.first ?? "")")
        #expect(text.text.contains("identity index"))
    }

    /// The peak resident size each report gives, compared: the streaming pass over a 16 MB
    /// document stays within a few MiB of its run over a tiny one, while the in-memory report
    /// holds at least the document's bytes.
    @Test("inspect --stream: the peak resident size stays bounded; in memory it grows with the document")
    func inspectMemory() throws {
        let size = 16_000_000
        let big = try CLIHarness.run(
            ["generate", "--approximate-bytes", "\(size)", "--seed", "3", "--output", "big.json"],
            in: directory)
        #expect(big.status == 0, "\(big.error)")
        let tiny = try write(Array(#"{"data":[]}"#.utf8), "tiny.json")
        func peak(_ arguments: [String]) throws -> Int {
            let result = try CLIHarness.run(["inspect", "--json"] + arguments, in: directory)
            #expect(result.status == 0, "\(arguments): \(result.error)")
            let report = try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any]
            return try #require((report?["memory"] as? [String: Any])?["peakResidentKiB"] as? Int) * 1024
        }
        let streamed = try peak(["--stream", "big.json"]) - peak(["--stream", tiny])
        let inMemory = try peak(["--runs", "1", "big.json"]) - peak(["--runs", "1", tiny])
        #expect(streamed < 8 << 20, "streaming grew by \(streamed) bytes")
        #expect(inMemory > size, "in memory grew by \(inMemory) bytes")
    }

    @Test("inspect --stream -: standard input streams; an invalid document exits 1 with its diagnostics")
    func inspectStreamInput() throws {
        let result = try CLIHarness.run(
            ["inspect", "--stream", "--lenient", "-"], input: Self.generated, in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.lines.first?.hasPrefix("- (streaming pass") == true)
        let invalid = try CLIHarness.run(
            ["inspect", "--stream", "-"], input: Array(Self.articles(10, numericID: 5).utf8), in: directory)
        #expect(invalid.status == 1)
        #expect(invalid.lines.first?.hasPrefix("-:7:") == true, "\(invalid.text)")
    }
}
