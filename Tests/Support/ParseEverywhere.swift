import Foundation
import Testing

@testable @_spi(Backend) import JSONAPI

/// The outcome of one parse, reduced to what every way of feeding the same bytes must agree on.
enum ParseOutcome: Equatable {
    case document(ResourceArena.Fingerprint, [Diagnostic])
    case failure(code: JSONAPIError.Code, offset: Int, message: String, diagnostics: [Diagnostic])

    init(_ body: () throws(JSONAPIError) -> Document) {
        do {
            let document = try body()
            self = .document(document.storage.arena.fingerprint, document.diagnostics)
        } catch {
            self = .failure(
                code: error.code, offset: error.offset, message: error.message, diagnostics: error.diagnostics)
        }
    }
}

/// Parses `bytes` whole, in 1-byte chunks, in 64 KiB chunks and (for small inputs) split in two
/// at every byte boundary; expects the same outcome every time and sound arena invariants.
@discardableResult
func parseEverywhere(
    _ bytes: [UInt8], options: ParsingOptions = ParsingOptions(), everySplit: Bool = true,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Result<Document, JSONAPIError> {
    let whole: Result<Document, JSONAPIError>
    do { whole = .success(try Document(parsing: bytes, options: options)) } catch { whole = .failure(error) }
    if case .success(let document) = whole {
        let problems = document.storage.arena.checkInvariants(inputCount: bytes.count)
        #expect(problems.isEmpty, "arena invariants: \(problems)", sourceLocation: sourceLocation)
    }
    let expected = ParseOutcome { () throws(JSONAPIError) in try whole.get() }

    func chunked(_ sizes: some Sequence<Int>) -> ParseOutcome {
        ParseOutcome { () throws(JSONAPIError) in
            var parser = DocumentParser(options: options)
            var offset = 0
            for size in sizes where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                try parser.feed(Array(bytes[offset..<end]))
                offset = end
            }
            if offset < bytes.count { try parser.feed(Array(bytes[offset...])) }
            return try parser.finish()
        }
    }
    #expect(chunked(repeatElement(1, count: bytes.count)) == expected, "1-byte chunks", sourceLocation: sourceLocation)
    #expect(
        chunked(repeatElement(65536, count: bytes.count / 65536 + 1)) == expected, "64 KiB chunks",
        sourceLocation: sourceLocation)
    if everySplit && bytes.count <= 4096 {
        for split in 0...bytes.count {
            let outcome = chunked([split, bytes.count])
            if outcome != expected {
                Issue.record("split at \(split) differs", sourceLocation: sourceLocation)
                break
            }
        }
    }
    return whole
}

@discardableResult
func parseEverywhere(
    _ text: String, options: ParsingOptions = ParsingOptions(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Result<Document, JSONAPIError> {
    parseEverywhere(Array(text.utf8), options: options, sourceLocation: sourceLocation)
}

/// The shared corpus beside the package (`../shared/corpus`), when present.
let corpusURL: URL? = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // Support, Tests, package root
    let corpus = url.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    return FileManager.default.fileExists(atPath: corpus.path) ? corpus : nil
}()

/// Bytes of a file in the corpus.
func corpusBytes(_ relative: String) throws -> [UInt8] {
    guard let corpusURL else { throw CocoaError(.fileNoSuchFile) }
    return [UInt8](try Data(contentsOf: corpusURL.appendingPathComponent(relative)))
}

/// Parses `bytes` whole (`chunkSize` nil) or fed to a `DocumentParser` in chunks of `chunkSize`.
func parseDocument(_ bytes: [UInt8], options: ParsingOptions, chunkSize: Int?) throws(JSONAPIError) -> Document {
    guard let chunkSize else { return try Document(parsing: bytes, options: options) }
    var parser = DocumentParser(options: options)
    var offset = 0
    while offset < bytes.count {
        try parser.feed(Array(bytes[offset..<min(bytes.count, offset + chunkSize)]))
        offset += chunkSize
    }
    return try parser.finish()
}
