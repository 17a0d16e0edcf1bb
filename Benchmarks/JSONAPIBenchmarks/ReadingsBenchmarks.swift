import Benchmark
import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIYajl

// A document shaped unlike the articles of the other benchmarks (ReadingsDocumentGenerator):
// many small resources (about 490 bytes each) made mostly of numbers (negative integers,
// doubles with exponents, integers past 64 bits), `null`s, an attribute object nested six
// levels deep, and 6-digit and short numeric ids. At about 1 MB and 10 MB:
//
// - `JSONDecoder/<size>-readings`: Foundation's `JSONDecoder` into `ReadingsCodableModel`,
// - `Document/<size>-readings`: `Document(parsing:)` with the handwritten scanner,
// - `DocumentYajl/<size>-readings`: the same with the libyajl backend.

/// The sizes of the readings document, with the iteration budgets of the same sizes of the
/// articles document.
enum ReadingsSize: CaseIterable {
    case oneMB
    case tenMB

    var name: String {
        switch self {
        case .oneMB: "1MB-readings"
        case .tenMB: "10MB-readings"
        }
    }

    var articlesSize: DocumentSize {
        switch self {
        case .oneMB: .oneMB
        case .tenMB: .tenMB
        }
    }

    /// The document, generated anew in every benchmark process from a fixed seed.
    func generate() -> [UInt8] {
        let bytes = articlesSize.approximateBytes
        return ReadingsDocumentGenerator(
            resources: ReadingsDocumentGenerator.resourceCount(approximateBytes: bytes), seed: articlesSize.seed
        ).generate()
    }
}

func registerReadingsBenchmarks() {
    for size in ReadingsSize.allCases {
        // The allocation gate (AllocationGate.swift) runs `Document/1MB-readings` only.
        func configuration(_ benchmark: String) -> Benchmark.Configuration {
            AllocationGate.configuration("\(benchmark)/\(size.name)", otherwise: size.articlesSize.configuration)
        }

        Benchmark("JSONDecoder/\(size.name)", configuration: configuration("JSONDecoder")) { benchmark, data in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONDecoder().decode(ReadingsCodableModel.Document.self, from: data))
            }
            benchmark.measurement(.documentBytes, data.count)
        } setup: {
            Data(size.generate())
        }

        Benchmark("Document/\(size.name)", configuration: configuration("Document")) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                blackHole(try Document(parsing: bytes))
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        Benchmark("DocumentYajl/\(size.name)", configuration: configuration("DocumentYajl")) { benchmark, bytes in
            var options = ParsingOptions()
            options.backend = .yajl
            for _ in benchmark.scaledIterations {
                blackHole(try Document(parsing: bytes, options: options))
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }
    }
}
