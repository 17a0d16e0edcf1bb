import Foundation
@_spi(Backend) import JSONAPI
import Testing

/// `../shared/corpus/JSONTestSuite/test_parsing` beside the package root, if present.
let jsonTestSuiteDirectory: URL? = {
    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Scanner
        .deletingLastPathComponent()  // JSONAPICoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
    let directory = root.appendingPathComponent("../shared/corpus/JSONTestSuite/test_parsing").standardized
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
    else { return nil }
    return directory
}()

/// The corpus file names, sorted (empty when the corpus is absent).
let jsonTestSuiteFiles: [String] = {
    guard let directory = jsonTestSuiteDirectory,
        let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return [] }
    return names.filter { $0.hasSuffix(".json") }.sorted()
}()

func jsonTestSuiteBytes(_ name: String) throws -> [UInt8] {
    let directory = try #require(jsonTestSuiteDirectory)
    return try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
}

@Suite("JSONScanner against JSONTestSuite")
struct JSONScannerCorpusTests {
    @Test(
        "y_ accepted, n_ rejected, i_ answered; whole = every split = bytewise",
        .enabled(
            if: jsonTestSuiteDirectory != nil,
            "JSONTestSuite not found at ../shared/corpus/JSONTestSuite/test_parsing beside the package root"),
        arguments: jsonTestSuiteFiles)
    func corpusFile(_ name: String) throws {
        let bytes = try jsonTestSuiteBytes(name)
        let whole = scan(bytes)
        if name.hasPrefix("y_") {
            #expect(whole.isAccepted, "\(name) should be accepted: \(whole)")
        } else if name.hasPrefix("n_") {
            #expect(!whole.isAccepted, "\(name) should be rejected")
        }
        if let error = whole.error {
            #expect(error.code.isSyntaxError || error.code == .stringTooLong)
            #expect(error.offset >= 0 && error.offset <= bytes.count, "\(name): \(error)")
        }
        // Every split in two, with and without an empty final chunk after it.
        for cut in 0...bytes.count {
            let split = scan(bytes, cuts: [cut])
            #expect(split == whole, "\(name) split at \(cut): \(split) vs whole \(whole)")
            if split != whole { break }
        }
        let withEmptyFinal = scan(bytes, emptyFinalChunk: true)
        #expect(withEmptyFinal == whole, "\(name) with an empty final chunk")
        let bytewise = scanBytewise(bytes)
        #expect(bytewise == whole, "\(name) one byte at a time: \(bytewise) vs whole \(whole)")
    }

    @Test(
        "The corpus is complete", .enabled(if: jsonTestSuiteDirectory != nil, "JSONTestSuite not found"))
    func corpusCount() {
        #expect(jsonTestSuiteFiles.count == 318)
        #expect(jsonTestSuiteFiles.filter { $0.hasPrefix("y_") }.count == 95)
        #expect(jsonTestSuiteFiles.filter { $0.hasPrefix("n_") }.count == 188)
    }
}
