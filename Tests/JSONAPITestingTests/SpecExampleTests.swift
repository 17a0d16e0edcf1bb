import Foundation
import JSONAPI
import JSONAPITesting
import Testing

/// The corpus beside the package: `#filePath` up to the package root, then `../shared/corpus`.
private let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/corpus/jsonapi-spec")

@Suite("The specification's examples")
struct SpecExampleTests {
    @Test("the committed examples equal the corpus, file for file (run scripts/gen-spec-fixtures after a change)")
    func sameAsCorpus() throws {
        try #require(FileManager.default.fileExists(atPath: corpus.path), "corpus absent; skipped")
        var expectedFiles: Set<String> = []
        for source in SpecExample.Source.allCases {
            let index = try String(
                contentsOf: corpus.appendingPathComponent(source.rawValue).appendingPathComponent("INDEX.md"),
                encoding: .utf8)
            for line in index.split(separator: "\n") {
                let file = line.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if file.hasSuffix(".json") || file.hasSuffix(".fragment.txt") {
                    expectedFiles.insert("\(source.rawValue)/\(file)")
                }
            }
        }
        #expect(Set(SpecExample.all.map { "\($0.source.rawValue)/\($0.file)" }) == expectedFiles)
        #expect(SpecExample.all.count == expectedFiles.count)
        for example in SpecExample.all {
            let folder = corpus.appendingPathComponent(example.source.rawValue)
            let text = try String(contentsOf: folder.appendingPathComponent(example.file), encoding: .utf8)
            #expect(example.text == text, "\(example)")
            if let cleaned = example.cleanedJSON {
                let file = folder.appendingPathComponent(example.name + ".cleaned.json")
                #expect(cleaned == (try String(contentsOf: file, encoding: .utf8)), "\(example)")
            }
        }
    }

    @Test("every strict full document parses", arguments: SpecExample.all.filter(\.isStrictDocument))
    func parses(_ example: SpecExample) throws {
        let document = try Document(parsing: example.bytes, options: ParsingOptions(kind: example.parsingKind))
        #expect(document.jsonValue.kind == .object)
    }

    @Test("every example has a name, a version, and its HTTP line split")
    func metadata() {
        #expect(SpecExample.all.count > 80)
        #expect(Set(SpecExample.all.map(\.source)) == Set(SpecExample.Source.allCases))
        for example in SpecExample.all {
            #expect(["1.0", "1.1"].contains(example.version))
            #expect(example.isStrictJSON == (example.cleanedJSON == nil) || example.isStrictJSON)
            if let method = example.method { #expect(example.http?.hasPrefix(method + " ") == true) }
            if let status = example.status { #expect(example.http?.contains(" \(status) ") == true) }
        }
        let create = SpecExample.all.first { $0.name == "19-crud-creating-req-post" && $0.source == .v1_0 }
        #expect(create?.method == "POST")
        #expect(create?.parsingKind == .createRequest)
    }
}
