import Foundation
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The external corpus (`../shared/corpus`), fed whole, split at every byte and in 1-byte
/// chunks: the same verdict and the same records every time.
@Suite("Corpus", .enabled(if: corpusURL != nil, "../shared/corpus is not present"))
struct CorpusTests {
    struct IndexRow: CustomTestStringConvertible, Sendable {
        var file: String
        var valid: Bool
        var kind: ParsingOptions.Kind
        var testDescription: String { file }
    }

    static let jsonapiTests: [IndexRow] = {
        guard let corpusURL,
            let text = try? String(
                contentsOf: corpusURL.appendingPathComponent("jsonapi-tests/INDEX.tsv"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count > 3 else { return nil }
            let kind: ParsingOptions.Kind
            switch columns[3] {
            case "request-resource-create": kind = .createRequest
            case "request-resource-update": kind = .updateRequest
            case "request-relationship-update": kind = .relationshipUpdate
            default: kind = .response
            }
            return IndexRow(file: "jsonapi-tests/" + columns[0], valid: columns[1] == "valid", kind: kind)
        }
    }()

    @Test("official JSON:API test documents are judged as their index says", arguments: jsonapiTests)
    func jsonapiTestsVerdicts(_ row: IndexRow) throws {
        let bytes = try corpusBytes(row.file)
        let result = parseEverywhere(bytes, options: ParsingOptions(kind: row.kind))
        switch (result, row.valid) {
        case (.success, true), (.failure, false): break
        case (.success, false): Issue.record("accepted an invalid document")
        case (.failure(let error), true): Issue.record("rejected a valid document: \(error)")
        }
        if case .failure(let error) = result {
            #expect(!error.code.isSyntaxError, "a schema test must fail on a rule, not on syntax: \(error)")
            #expect(error.line > 0 && error.column > 0)
        }
    }

    static let specDocuments: [IndexRow] = {
        guard let corpusURL else { return [] }
        var rows: [IndexRow] = []
        for folder in ["1.0", "1.1", "ext-atomic", "site-examples"] {
            let dir = corpusURL.appendingPathComponent("jsonapi-spec/\(folder)")
            guard let index = try? String(contentsOf: dir.appendingPathComponent("INDEX.md"), encoding: .utf8) else {
                continue
            }
            for line in index.split(separator: "\n") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count > 3, cells[0].hasSuffix(".json"), !cells[0].hasSuffix(".cleaned.json"),
                    cells[2] == "document"
                else { continue }
                let http =
                    (try? String(
                        contentsOf: dir.appendingPathComponent(
                            cells[0].replacingOccurrences(of: ".json", with: ".http.txt")), encoding: .utf8)) ?? ""
                rows.append(
                    IndexRow(
                        file: "jsonapi-spec/\(folder)/\(cells[0])", valid: true,
                        kind: kind(forHTTP: http, folder: folder)))
            }
        }
        return rows
    }()

    /// The document kind a spec example's HTTP request line implies.
    static func kind(forHTTP http: String, folder: String) -> ParsingOptions.Kind {
        let requestLine = http.split(separator: "\n").first.map(String.init) ?? ""
        if folder == "ext-atomic" || requestLine.hasPrefix("HTTP/") || requestLine.isEmpty { return .response }
        if requestLine.contains("/relationships/") { return .relationshipUpdate }
        if requestLine.hasPrefix("POST") { return .createRequest }
        return .updateRequest
    }

    @Test("every full document of the specification text is valid", arguments: specDocuments)
    func specDocumentsAreValid(_ row: IndexRow) throws {
        let bytes = try corpusBytes(row.file)
        if case .failure(let error) = parseEverywhere(bytes, options: ParsingOptions(kind: row.kind)) {
            Issue.record("\(row.file) (\(row.kind)): \(error)")
        }
    }

    static let jsonTestSuite: [String] = {
        guard let corpusURL,
            let names = try? FileManager.default.contentsOfDirectory(
                atPath: corpusURL.appendingPathComponent("JSONTestSuite/test_parsing").path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    @Test(
        "JSONTestSuite through the document parser: n_ rejected as syntax, y_ never a syntax error",
        arguments: jsonTestSuite)
    func jsonTestSuiteThroughDocuments(_ name: String) throws {
        let bytes = try corpusBytes("JSONTestSuite/test_parsing/" + name)
        let result = parseEverywhere(
            bytes, options: ParsingOptions(kind: .response, lenient: true), everySplit: bytes.count < 512)
        switch (name.first, result) {
        case ("y", .failure(let error)): Issue.record("y_ file rejected: \(error)")
        case ("n", .success): Issue.record("n_ file accepted")
        case ("n", .failure(let error)): #expect(error.code.isSyntaxError, "\(error)")
        default: break
        }
    }
}
