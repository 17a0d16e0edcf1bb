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

    static func compare(_ bytes: [UInt8], kind: ParsingOptions.Kind = .response, name: String) {
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
                    return
                }
            }
        }
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

    /// Every proper prefix of a document ends too early; both backends must say so at the
    /// prefix's end (yajl's own count is one byte past it: it finishes by parsing a space).
    @Test("a truncated document ends where the input ends, on both backends")
    func truncationOffsets() {
        let texts = [
            #"{"data":{"type":"a","id":"1","attributes":{"n":-1.5e3,"s":"\u00e9x","b":[true,false,null]}}}"#,
            "[", " {", #"{"meta":{"a":"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            for length in 0..<bytes.count {
                let prefix = Array(bytes[..<length])
                for backend in [ParsingOptions.Backend.scanner, .yajl] {
                    var options = ParsingOptions()
                    options.backend = backend
                    do {
                        _ = try Document(parsing: prefix, options: options)
                        Issue.record("\(backend) accepted the prefix \(String(decoding: prefix, as: UTF8.self))")
                    } catch {
                        let name = "\(backend), prefix of \(length) bytes of \(text)"
                        if length > 0 && !prefix.allSatisfy({ $0 == 0x20 }) {
                            #expect(error.code == .unexpectedEnd, "\(name): \(error)")
                        }
                        #expect(error.offset == length, "\(name): \(error)")
                    }
                }
            }
        }
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
