import Foundation
import JSONAPIGenerator
import JSONAPIYajl
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// Both tokenizers must build the same document from the same bytes: same records, same
/// diagnostics, same verdict; and reject bad bytes with the same error code at the same offset.
@Suite("Scanner and yajl backends agree")
struct BackendEquivalenceTests {
    enum Verdict: Equatable {
        case document(ResourceArena.Fingerprint, [Diagnostic])
        case ruleViolation([Diagnostic], JSONAPIError.Code)
        case syntaxError(JSONAPIError.Code, offset: Int)

        /// Whether this is a syntax error (at any place, with any code).
        var isSyntaxError: Bool {
            if case .syntaxError = self { return true }
            return false
        }
    }

    static func verdict(_ bytes: [UInt8], _ options: ParsingOptions, chunk: Int? = nil) -> Verdict {
        do {
            let document: Document
            if let chunk {
                var parser = DocumentParser(options: options)
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunk)
                    try parser.feed(Array(bytes[offset..<end]))
                    offset = end
                }
                document = try parser.finish()
            } else {
                document = try Document(parsing: bytes, options: options)
            }
            return .document(document.storage.arena.fingerprint, document.diagnostics)
        } catch {
            return error.code.isSyntaxError
                ? .syntaxError(error.code, offset: error.offset) : .ruleViolation(error.diagnostics, error.code)
        }
    }

    /// Whether the yajl backend, whole and in chunks, gives the scanner's verdict on `bytes`,
    /// strict and lenient; records an issue for the first difference.
    @discardableResult
    static func compare(_ bytes: [UInt8], kind: ParsingOptions.Kind = .response, name: String) -> Bool {
        for lenient in [false, true] {
            var scanner = ParsingOptions(kind: kind, lenient: lenient)
            scanner.backend = .scanner
            var yajl = scanner
            yajl.backend = .yajl
            let expected = verdict(bytes, scanner)
            let chunkings: [Int?] = bytes.count <= 2048 ? [nil, 1, 7, 65536] : [nil, 4096, 65536]
            for chunk in chunkings {
                let got = verdict(bytes, yajl, chunk: chunk)
                if got != expected {
                    Issue.record(
                        "\(name) (lenient: \(lenient), chunk: \(chunk.map(String.init) ?? "whole")): scanner \(expected) vs yajl \(got)"
                    )
                    return false
                }
            }
        }
        return true
    }

    static let corpusFiles: [String] = {
        guard let corpusURL else { return [] }
        var files: [String] = []
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: corpusURL.path) else { return [] }
        for case let path as String in walker where path.hasSuffix(".json") && !path.contains("schemas/") {
            files.append(path)
        }
        return files.sorted()
    }()

    @Test("every corpus file", .enabled(if: corpusURL != nil), arguments: corpusFiles)
    func corpus(_ path: String) throws {
        let bytes = try corpusBytes(path)
        var kind = ParsingOptions.Kind.response
        if path.contains("request-resource-create") { kind = .createRequest }
        if path.contains("request-resource-update") { kind = .updateRequest }
        if path.contains("request-relationship-update") { kind = .relationshipUpdate }
        Self.compare(bytes, kind: kind, name: path)
        if path.contains("JSONTestSuite/test_parsing") {
            // The verdict on the RFC itself, through yajl: y_ accepted, n_ rejected as syntax.
            var options = ParsingOptions(kind: .response, lenient: true)
            options.backend = .yajl
            let name = (path as NSString).lastPathComponent
            let verdict = Self.verdict(bytes, options)
            switch String(name.prefix(2)) {
            case "y_" where verdict.isSyntaxError: Issue.record("yajl backend rejected \(name)")
            case "n_" where !verdict.isSyntaxError: Issue.record("yajl backend accepted \(name)")
            default: break
            }
        }
    }

    @Test("generated documents", arguments: [1, 50, 800])
    func generated(_ resources: Int) {
        let bytes = CompoundDocumentGenerator(resources: resources, seed: UInt64(resources)).generate()
        Self.compare(bytes, name: "generated \(resources)")
    }

    /// Every proper prefix of a document ends too early; yajl must say so where the scanner does,
    /// at the prefix's end (yajl's own count is one byte past it: it finishes by parsing a space).
    @Test("a truncated document ends where the input ends, as with the scanner")
    func truncationOffsets() {
        for text in ParsingFixtures.truncatedDocuments {
            let bytes = Array(text.utf8)
            for length in 0..<bytes.count {
                Self.compare(Array(bytes[..<length]), name: "prefix of \(length) bytes of \(text)")
            }
        }
    }

    @Test(
        "generated documents in each id scheme",
        arguments: [
            IDScheme.standard, .sequential(start: 99_990), .uuid, .slug, .opaque, .escaped,
        ])
    func idSchemes(_ scheme: IDScheme) {
        var generator = CompoundDocumentGenerator(resources: 400, seed: 21)
        generator.idScheme = scheme
        Self.compare(generator.generate(), name: "\(scheme)")
    }

    @Test("readings documents", arguments: [0, 1, 3, 40, 2_000])
    func readings(_ resources: Int) {
        let bytes = ReadingsDocumentGenerator(resources: resources, seed: 7).generate()
        Self.compare(bytes, name: "readings \(resources)")
    }

    /// The random documents the differential tests check against the reference model (the same
    /// seeds), some with hundreds of types: ids of every length and character, escaped and raw,
    /// near-duplicates and duplicates.
    @Test("random documents of the reference model")
    func randomModelDocuments() {
        let seed = DifferentialSettings.seed
        var failures = 0
        for iteration in 0..<DifferentialSettings.iterations(150, share: 0.25) where failures < 3 {
            let documentSeed = seed &+ UInt64(iteration) &* 0x9E37_79B9
            var generator = RandomModelDocuments(seed: documentSeed)
            let model = generator.document(typeCount: iteration % 25 == 24 ? .hundreds : .few)
            let kind: ParsingOptions.Kind = model.kind == .linkage ? .relationshipUpdate : .response
            let name = "JSONAPI_DIFFERENTIAL_SEED=\(seed), iteration \(iteration) (document seed \(documentSeed))"
            if !Self.compare(model.render().bytes, kind: kind, name: name) { failures += 1 }
        }
    }

    /// Limits are checked before a byte is read, whichever backend would read it.
    @Test("an out-of-range limit is the scanner's invalid-option error, on every entry point")
    func outOfRangeOptions() {
        let valid = Array(#"{"data":null}"#.utf8)
        for (name, scanner) in ParsingFixtures.outOfRangeOptions {
            var options = scanner
            options.backend = .yajl
            let expected = #expect(throws: JSONAPIError.self) { try Document(parsing: valid, options: scanner) }
            let whole = #expect(throws: JSONAPIError.self) { try Document(parsing: valid, options: options) }
            #expect(whole == expected, "\(name)")
            var parser = DocumentParser(options: options, expectedByteCount: 1 << 20)
            let fed = #expect(throws: JSONAPIError.self) { try parser.feed(valid) }
            #expect(fed == expected, "\(name)")
            #expect(throws: JSONAPIError.self) { _ = try parser.finish() }
            var unfed = DocumentParser(options: options)
            #expect(throws: JSONAPIError.self) { _ = try unfed.finish() }
        }
    }

    /// The tokenizer backend is a decoder option; both backends give the same values.
    @Test("JSONAPIDecoder.backend: yajl decodes what the scanner decodes")
    func decoderBackend() throws {
        let decoder = JSONAPIDecoder()
        decoder.backend = .yajl
        #expect(decoder.parsingOptions.backend == .yajl)
        let bytes = Array(specCompoundDocument.utf8)
        let articles = try decoder.decode([SpecArticle].self, from: bytes)
        #expect(articles.first?.author.lastName == "Gebhardt")
        #expect(articles == (try JSONAPIDecoder().decode([SpecArticle].self, from: bytes)))
    }

    @Test("RFC checks yajl lacks are added by the backend")
    func addedChecks() {
        var options = ParsingOptions(kind: .response, lenient: true)
        options.backend = .yajl
        let cases: [(String, [UInt8])] = [
            ("form feed as whitespace", Array("{\u{0C}\"meta\":{}}".utf8)),
            ("vertical tab after the value", Array("{\"meta\":{}}\u{0B}".utf8)),
            ("overlong UTF-8", Array(#"{"meta":{"a":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8)),
            ("UTF-8 encoded surrogate", Array(#"{"meta":{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8)),
            ("above U+10FFFF", Array(#"{"meta":{"a":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}}"#.utf8)),
            ("lone high surrogate escape", Array(#"{"meta":{"a":"\ud800"}}"#.utf8)),
            ("lone low surrogate escape", Array(#"{"meta":{"a":"\udc00x"}}"#.utf8)),
            ("an unterminated string after the document", Array(#"{"meta":{}}"x"#.utf8)),
            ("a quote after the document", Array(#"{"meta":{}}""#.utf8)),
            ("a string after a top-level string", Array(#" "itB"""#.utf8)),
            ("a leading zero", Array(#"{"meta":{"a":01}}"#.utf8)),
            ("a bad byte in an array", Array("[*]".utf8)),
            ("a missing colon", Array(#"{"meta" 1}"#.utf8)),
            ("a trailing comma", Array("[1,]".utf8)),
            ("trailing garbage", Array(#"{"meta":{}} x"#.utf8)),
            (
                "depth limit",
                Array(
                    ("{\"meta\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}").utf8)
            ),
        ]
        for (name, bytes) in cases {
            var scanner = options
            scanner.backend = .scanner
            let expected = Self.verdict(bytes, scanner)
            #expect(expected.isSyntaxError, "scanner: \(name)")
            #expect(Self.verdict(bytes, options) == expected, "\(name)")
        }
    }
}
