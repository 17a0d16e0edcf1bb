import Benchmark
import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels

// Encoding the generated compound document, three ways:
//
// - `Encode/<size>`: `JSONAPIEncoder` writes the primary articles of `GeneratedModels` with their
//   included people, comments and tags (decoded once in `setup`) as a JSON:API document,
// - `JSONEncoder/<size>`: Foundation's `JSONEncoder` writes `PlainCodableModel.Document`, the
//   same document as plain `Codable` types (decoded once in `setup` with `JSONDecoder`).
//
// - `WriteDocument/<size>`: a parsed `Document` written back out, compact (`jsonBytes()`).
//
// All three write every member of every resource; scripts/bench compares them with `JSONEncoder`. `documentBytes` records the size of the document
// written in the first iteration, so MB/s compares bytes produced per second.

/// The typed models of one generated document, ready to encode.
struct EncodingInput: @unchecked Sendable {
    // SAFETY (`@unchecked Sendable`): built once in setup and only read by the benchmark body.
    var articles: [GeneratedModels.Article]
    var included: [any Encodable]
}

/// Registers `Encode/<size>`, `JSONEncoder/<size>` and `WriteDocument/<size>`.
func registerEncodingBenchmarks(size: DocumentSize) {
    Benchmark("Encode/\(size.name)", configuration: size.configuration(of: "Encode")) { benchmark, input in
        let encoder = JSONAPIEncoder()
        var written = 0
        for _ in benchmark.scaledIterations {
            let bytes = try encoder.encode(input.articles, included: input.included)
            written = bytes.count
            blackHole(bytes)
        }
        benchmark.measurement(.documentBytes, written)
    } setup: { () throws -> EncodingInput in
        let document = try Document(parsing: size.generate())
        let people = try document.included(of: GeneratedModels.Person.self).decodeAll()
        let comments = try document.included(of: GeneratedModels.Comment.self).decodeAll()
        let tags = try document.included(of: GeneratedModels.Tag.self).decodeAll()
        return EncodingInput(
            articles: try document.primary(as: GeneratedModels.Article.self).decodeAll(),
            included: people + comments + tags)
    }

    Benchmark("JSONEncoder/\(size.name)", configuration: size.configuration(of: "JSONEncoder")) { benchmark, model in
        let encoder = JSONEncoder()
        var written = 0
        for _ in benchmark.scaledIterations {
            let data = try encoder.encode(model)
            written = data.count
            blackHole(data)
        }
        benchmark.measurement(.documentBytes, written)
    } setup: {
        try JSONDecoder().decode(PlainCodableModel.Document.self, from: Data(size.generate()))
    }

    Benchmark("WriteDocument/\(size.name)", configuration: size.configuration(of: "WriteDocument")) {
        benchmark, document in
        var written = 0
        for _ in benchmark.scaledIterations {
            let bytes = document.jsonBytes()
            written = bytes.count
            blackHole(bytes)
        }
        benchmark.measurement(.documentBytes, written)
    } setup: {
        try Document(parsing: size.generate())
    }
}
