import Foundation
import JSONAPIGenerator
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// A build's diagnostics are located from its arena (the resource, relationship or member that
/// holds each offset), not by walking the document again: every one must still be where a walk
/// of the whole document puts it.
@Suite("Diagnostic locations")
struct DiagnosticLocationTests {
    /// Expects each diagnostic's line, column and pointer to be `SourceLocator`'s over the whole
    /// document; returns how many were compared.
    @discardableResult
    static func expectWholeDocumentLocations(
        _ bytes: [UInt8], options: ParsingOptions, _ name: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Int {
        let diagnostics: [Diagnostic]
        do {
            diagnostics = try Document(parsing: bytes, options: options).diagnostics
        } catch {
            diagnostics = error.diagnostics
        }
        let located = diagnostics.filter { $0.offset >= 0 }
        let expected = bytes.withUnsafeBytes { SourceLocator.locate(offsets: located.map(\.offset), in: $0) }
        for (diagnostic, place) in zip(located, expected) {
            #expect(
                diagnostic.line == place.line && diagnostic.column == place.column
                    && diagnostic.pointer == place.pointer,
                "\(name): \(diagnostic.message) at \(diagnostic.line):\(diagnostic.column) \(diagnostic.pointer), walk says \(place.line):\(place.column) \(place.pointer)",
                sourceLocation: sourceLocation)
        }
        return located.count
    }

    @Test("elements of data and included that are not objects keep the places of those after them")
    func skippedElements() {
        let documents = [
            #"{"data":[],"included":[1,{"type":"a","id":"1","attributes":{"a=b":1}}]}"#,
            #"{"data":[null,"x",{"type":"a","id":"1","attributes":{"a=b":1}},[{"c=d":2}],{"type":"a"}]}"#,
            #"{"data":[{"type":"a","id":"1"},[],true],"included":[{"type":"b","id":"2"},7,{"type":"b","id":"2"}]}"#,
        ]
        for text in documents {
            let compared = Self.expectWholeDocumentLocations(
                Array(text.utf8), options: ParsingOptions(kind: .response, lenient: true), text)
            #expect(compared >= 2, "\(text)")
        }
    }

    @Test(
        "Corpus documents, strict and lenient",
        .enabled(if: corpusURL != nil, "../shared/corpus is not present"),
        arguments: CorpusTests.jsonapiTests)
    func corpus(_ row: CorpusTests.IndexRow) throws {
        let bytes = try corpusBytes(row.file)
        Self.expectWholeDocumentLocations(bytes, options: ParsingOptions(kind: row.kind), row.file)
        Self.expectWholeDocumentLocations(bytes, options: ParsingOptions(kind: row.kind, lenient: true), row.file)
    }

    @Test(
        "Real-world documents read leniently",
        .enabled(if: corpusURL != nil, "../shared/corpus is not present"))
    func realWorld() throws {
        let folder = try #require(corpusURL).appendingPathComponent("realworld-ember")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        var compared = 0
        for name in names.sorted() {
            let bytes = try corpusBytes("realworld-ember/" + name)
            compared += Self.expectWholeDocumentLocations(
                bytes, options: ParsingOptions(kind: .response, lenient: true), name)
        }
        #expect(compared >= 2, "the corpus's two invalid documents each have a diagnostic")
    }

    @Test("Generated documents with broken member names everywhere", arguments: CorpusShape.allCases)
    func brokenMemberNames(_ shape: CorpusShape) {
        var bytes = CorpusDocumentGenerator(shape: shape, primaryCount: 40, seed: 3).generate()
        var rng = JSONAPITestSupport.SplitMix64(seed: 99)
        // The last byte of about one key in six becomes `+`, which no member name may hold: keys
        // of attributes, relationships, identifiers, links, meta and the top level alike.
        var i = 1
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "\"") && bytes[i + 1] == UInt8(ascii: ":") && bytes[i - 1] != UInt8(ascii: "\\")
                && bytes[i - 1] != UInt8(ascii: "\"") && Int.random(in: 0..<6, using: &rng) == 0
            {
                bytes[i - 1] = UInt8(ascii: "+")
            }
            i += 1
        }
        let compared = Self.expectWholeDocumentLocations(
            bytes, options: ParsingOptions(kind: .response, lenient: true), "\(shape)")
        #expect(compared > 10)
    }
}
