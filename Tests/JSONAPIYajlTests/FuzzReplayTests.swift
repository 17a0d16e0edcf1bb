import Foundation
import JSONAPI
import JSONAPIFuzzChecks
import Testing

/// Replays the inputs the fuzz targets found (Tests/Fuzz/Crashes/TARGET/) and the committed
/// seeds through the same checks libFuzzer runs (scripts/fuzz), so a fixed crash stays fixed.
@Suite("Fuzz inputs replayed")
struct FuzzReplayTests {
    static let fuzzURL: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }  // JSONAPIYajlTests, Tests
        return url.appendingPathComponent("Fuzz")
    }()

    static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }

    /// `(target, input)` for every committed crash input, as `target/name`.
    static let crashInputs: [String] = FuzzTarget.allCases.flatMap { target in
        files(in: fuzzURL.appendingPathComponent("Crashes/\(target.rawValue)")).map {
            "\(target.rawValue)/\($0.lastPathComponent)"
        }
    }

    static let seeds: [String] = files(in: fuzzURL.appendingPathComponent("Seeds")).map(\.lastPathComponent)

    @Test("crash inputs", arguments: crashInputs)
    func crash(_ input: String) throws {
        let parts = input.split(separator: "/", maxSplits: 1)
        let target = try #require(FuzzTarget(rawValue: String(parts[0])))
        let bytes = try [UInt8](Data(contentsOf: Self.fuzzURL.appendingPathComponent("Crashes/\(input)")))
        #expect(throws: Never.self) { try target.check(bytes) }
    }

    @Test("seeds through every target", arguments: seeds)
    func seed(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.fuzzURL.appendingPathComponent("Seeds/\(name)")))
        #expect(!bytes.isEmpty)
        for target in FuzzTarget.allCases {
            #expect(throws: Never.self, "\(target.rawValue)") { try target.check(bytes) }
        }
    }

    @Test("every target has a folder for its crash inputs")
    func crashFolders() {
        for target in FuzzTarget.allCases {
            let folder = Self.fuzzURL.appendingPathComponent("Crashes/\(target.rawValue)")
            #expect(FileManager.default.fileExists(atPath: folder.path), "\(folder.path)")
        }
    }
}
