import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Encoding: JSONWriter output read back by Foundation")
struct EncodingWriterRoundTripTests {
    typealias Support = EncodingTestSupport

    @Test(arguments: [
        JSONWritingOptions(),
        JSONWritingOptions(prettyPrinted: true),
        JSONWritingOptions(prettyPrinted: true, indent: 3, escapesSlashes: true),
        JSONWritingOptions(escapesSlashes: true),
    ])
    func randomNestedValuesRoundTrip(_ options: JSONWritingOptions) throws {
        var generator = Support.SeededGenerator(seed: 0x5EED)
        for _ in 0..<400 {
            let value = Support.Value.random(depth: 5, using: &generator)
            var writer = JSONWriter(options: options)
            try value.write(to: &writer)
            let bytes = try writer.finish()
            let parsed = try Support.parse(bytes)
            let problem = value.mismatch(parsed)
            #expect(problem == nil, "\(problem ?? "")\n\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func prettyAndCompactAgreeModuloWhitespace() throws {
        var generator = Support.SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let value = Support.Value.random(depth: 4, using: &generator)
            var compact = JSONWriter()
            try value.write(to: &compact)
            var pretty = JSONWriter(options: JSONWritingOptions(prettyPrinted: true))
            try value.write(to: &pretty)
            // Re-indenting the compact text as a raw value gives the pretty text.
            var reindented = JSONWriter(options: JSONWritingOptions(prettyPrinted: true))
            try compact.finish().withUnsafeBytes { reindented.rawValue($0) }
            #expect(try reindented.finish() == pretty.finish())
            // And copying it raw in compact mode gives it back unchanged.
            var copied = JSONWriter()
            try compact.finish().withUnsafeBytes { copied.rawValue($0) }
            #expect(try copied.finish() == compact.finish())
        }
    }
}
