import Foundation
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The external corpus (`../shared/corpus`) through the resource stream: every document gets the
/// same parts, diagnostics and error as from `Document(parsing:)`, with a window small enough to
/// slide inside every resource and with the whole input in one window, fed whole and in small
/// chunks.
@Suite("Corpus through the resource stream", .enabled(if: corpusURL != nil, "../shared/corpus is not present"))
struct ResourceStreamCorpusTests {
    static func check(
        _ bytes: [UInt8], _ parsing: ParsingOptions, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        ResourceStreamTests.check(
            bytes, lenient: parsing.isLenient, kind: parsing.kind, windows: [64, 1 << 20], chunks: [[], [1], [7, 3]],
            sourceLocation: sourceLocation)
    }

    @Test("official JSON:API test documents", arguments: CorpusTests.jsonapiTests)
    func jsonapiTests(_ row: CorpusTests.IndexRow) throws {
        let bytes = try corpusBytes(row.file)
        Self.check(bytes, ParsingOptions(kind: row.kind))
        Self.check(bytes, ParsingOptions(kind: row.kind, lenient: true))
    }

    @Test("documents of the specification text", arguments: CorpusTests.specDocuments)
    func specDocuments(_ row: CorpusTests.IndexRow) throws {
        Self.check(try corpusBytes(row.file), ParsingOptions(kind: row.kind))
    }

    @Test("JSONTestSuite", arguments: CorpusTests.jsonTestSuite)
    func jsonTestSuite(_ name: String) throws {
        let bytes = try corpusBytes("JSONTestSuite/test_parsing/" + name)
        Self.check(bytes, ParsingOptions(kind: .response))
        Self.check(bytes, ParsingOptions(kind: .response, lenient: true))
    }
}
