import Benchmark
import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels
import JSONAPIYajl

// Parsing a generated compound document of about 10 KB (a typical API response), 1 MB, 10 MB
// and 100 MB several ways, and at 1 MB also one whose text is mostly non-ASCII (`1MB-nonASCII`):
//
// - `JSONDecoder/<size>`: Foundation's `JSONDecoder` into the `Codable` model in FoundationModel.swift,
// - `JSONSerialization/<size>`: Foundation's untyped `JSONSerialization`,
// - `Document/<size>`: this library's `Document(parsing:)` with the handwritten scanner,
// - `DocumentChunked/<size>`: the same through `DocumentParser`, fed 64 KiB chunks,
// - `DocumentChunkedSized/<size>`: the same, with the length given up front (`expectedByteCount`),
// - `DocumentYajl/<size>`: the same document built with the libyajl backend,
// - `TypedProjection/<size>`: build, then decode every primary and included resource into the
//   typed models of `GeneratedModels` (the same members `JSONDecoder` decodes), which are
//   `@ResourceReadable`, so through their generated `init(from: ResourceReader)`,
// - `TypedProjectionCodable/<size>`: the same through `init(from: any Decoder)`
//   (`DecodingOptions.usesResourceReaders = false`), what a model without the macro costs,
// - `TypedProjectionStreaming/<size>`: the same structs as `TypedProjection`, each handed to a
//   closure by `forEachDecoded` and dropped, instead of all of them kept in arrays: what a
//   caller that processes resources one at a time (writes rows, forwards them) pays,
// - `ValuesFloor/<size>`: build, then make and release the structs `TypedProjection` keeps,
//   with strings of the same lengths copied from a constant buffer instead of read from the
//   document: the least any decoder of these structs pays (see ValuesFloor.swift),
// - `TypedPrimaryToOne/<size>`: build, then decode the primary articles with their to-one
//   `author` resolved into a `Person` through the index,
// - `SingleResource/<size>`: build, then decode one article found by (type, id); compare it
//   with `Document/<size>`.
//
// `<size>-readings` (ReadingsBenchmarks.swift) is a second document shape: many small resources of
// numbers, nulls and deep objects, for `JSONDecoder`, `Document` and `DocumentYajl`.
//
// Each benchmark runs in its own process and generates its document in `setup`, outside the
// measurement, from a fixed seed (documents are never stored). The custom metric `documentBytes`
// records the document's exact size, so MB/s is `documentBytes / wall clock`; scripts/bench
// prints that, and each parser's speed-up over JSONDecoder, as Markdown tables.

/// The document sizes measured, with iteration budgets that keep the whole suite to a few
/// minutes on two cores (the 100 MB `JSONDecoder` run alone takes about 5 s per iteration).
enum DocumentSize: CaseIterable {
    /// A typical API response: what a latency-sensitive service parses per request.
    case tenKB
    case oneMB
    /// About 1 MB whose text is mostly non-ASCII words (accented Latin, CJK, Greek, Cyrillic,
    /// emoji), the same structure as `oneMB`: strings in other scripts, measured on their own.
    case oneMBNonASCII
    case tenMB
    case hundredMB

    /// The suffix of the benchmark names.
    var name: String {
        switch self {
        case .tenKB: "10KB"
        case .oneMB: "1MB"
        case .oneMBNonASCII: "1MB-nonASCII"
        case .tenMB: "10MB"
        case .hundredMB: "100MB"
        }
    }

    var approximateBytes: Int {
        switch self {
        case .tenKB: 10_000
        case .oneMB, .oneMBNonASCII: 1_000_000
        case .tenMB: 10_000_000
        case .hundredMB: 100_000_000
        }
    }

    /// A fixed seed per size, so every run measures the same bytes.
    var seed: UInt64 {
        switch self {
        case .tenKB: 1_000
        case .oneMB: 1
        case .oneMBNonASCII: 2
        case .tenMB: 10
        case .hundredMB: 100
        }
    }

    /// The document, generated anew in every benchmark process (100 MB takes about 0.15 s).
    func generate() -> [UInt8] {
        var generator = CompoundDocumentGenerator(
            resources: CompoundDocumentGenerator.resourceCount(approximateBytes: approximateBytes),
            seed: seed)
        generator.mostlyNonASCIIText = self == .oneMBNonASCII
        return generator.generate()
    }

    /// The configuration of `<benchmark>/<size>`: `configuration`, or the allocation gate's
    /// (AllocationGate.swift) when JSONAPI_BENCH_GATE=1.
    func configuration(of benchmark: String) -> Benchmark.Configuration {
        AllocationGate.configuration("\(benchmark)/\(name)", otherwise: configuration)
    }

    var configuration: Benchmark.Configuration {
        let metrics: [BenchmarkMetric] = [
            .wallClock, .throughput, .mallocCountTotal, .peakMemoryResident, .documentBytes,
        ]
        // Exact units: the exported percentiles are integers in these units.
        let units: [BenchmarkMetric: BenchmarkUnits] = [
            .documentBytes: .count, .mallocCountTotal: .count, .peakMemoryResident: .mega,
        ]
        switch self {
        case .tenKB:
            // Microseconds would round a 7 µs build to whole units; nanoseconds keep it.
            return .init(
                metrics: metrics, timeUnits: .nanoseconds, units: units, warmupIterations: 20,
                maxDuration: .seconds(2), maxIterations: 2_000)
        case .oneMB, .oneMBNonASCII:
            return .init(
                metrics: metrics, timeUnits: .microseconds, units: units, warmupIterations: 3,
                maxDuration: .seconds(3), maxIterations: 100)
        case .tenMB:
            return .init(
                metrics: metrics, timeUnits: .microseconds, units: units, warmupIterations: 1,
                maxDuration: .seconds(5), maxIterations: 20)
        case .hundredMB:
            return .init(
                metrics: metrics, timeUnits: .microseconds, units: units, warmupIterations: 1,
                maxDuration: .seconds(10), maxIterations: 5)
        }
    }
}

extension BenchmarkMetric {
    /// The size in bytes of the document parsed, recorded once per iteration.
    static var documentBytes: BenchmarkMetric { .custom("documentBytes") }
}

let benchmarks: @Sendable () -> Void = {
    registerReadingsBenchmarks()
    for size in DocumentSize.allCases {
        registerEncodingBenchmarks(size: size)

        Benchmark("JSONDecoder/\(size.name)", configuration: size.configuration(of: "JSONDecoder")) { benchmark, data in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONDecoder().decode(PlainCodableModel.Document.self, from: data))
            }
            benchmark.measurement(.documentBytes, data.count)
        } setup: {
            Data(size.generate())
        }

        Benchmark("JSONSerialization/\(size.name)", configuration: size.configuration(of: "JSONSerialization")) {
            benchmark, data in
            for _ in benchmark.scaledIterations {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
            benchmark.measurement(.documentBytes, data.count)
        } setup: {
            Data(size.generate())
        }

        Benchmark("Document/\(size.name)", configuration: size.configuration(of: "Document")) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                blackHole(try Document(parsing: bytes))
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        for (name, sized) in [("DocumentChunked", false), ("DocumentChunkedSized", true)] {
            Benchmark("\(name)/\(size.name)", configuration: size.configuration(of: name)) { benchmark, bytes in
                for _ in benchmark.scaledIterations {
                    var parser = DocumentParser(expectedByteCount: sized ? bytes.count : 0)
                    try bytes.withUnsafeBytes { all in
                        var offset = 0
                        while offset < all.count {
                            let end = min(all.count, offset + 65_536)
                            try parser.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                            offset = end
                        }
                    }
                    blackHole(try parser.finish())
                }
                benchmark.measurement(.documentBytes, bytes.count)
            } setup: {
                size.generate()
            }
        }

        Benchmark("DocumentYajl/\(size.name)", configuration: size.configuration(of: "DocumentYajl")) {
            benchmark, bytes in
            var options = ParsingOptions()
            options.backend = .yajl
            for _ in benchmark.scaledIterations {
                blackHole(try Document(parsing: bytes, options: options))
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        Benchmark("TypedProjection/\(size.name)", configuration: size.configuration(of: "TypedProjection")) {
            benchmark, bytes in
            for _ in benchmark.scaledIterations {
                try projectEveryResource(bytes, options: DecodingOptions())
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        Benchmark(
            "TypedProjectionCodable/\(size.name)", configuration: size.configuration(of: "TypedProjectionCodable")
        ) { benchmark, bytes in
            var options = DecodingOptions()
            options.usesResourceReaders = false
            for _ in benchmark.scaledIterations {
                try projectEveryResource(bytes, options: options)
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        Benchmark(
            "TypedProjectionStreaming/\(size.name)", configuration: size.configuration(of: "TypedProjectionStreaming")
        ) { benchmark, bytes in
            for _ in benchmark.scaledIterations {
                try streamEveryResource(bytes)
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        Benchmark("ValuesFloor/\(size.name)", configuration: size.configuration(of: "ValuesFloor")) {
            (benchmark: Benchmark, input: (bytes: [UInt8], shapes: ValueShapes)) in
            for _ in benchmark.scaledIterations {
                try makeEveryValue(input.bytes, shapes: input.shapes)
            }
            benchmark.measurement(.documentBytes, input.bytes.count)
        } setup: { () throws -> (bytes: [UInt8], shapes: ValueShapes) in
            let bytes = size.generate()
            return (bytes: bytes, shapes: try ValueShapes(recording: bytes))
        }

        Benchmark("TypedPrimaryToOne/\(size.name)", configuration: size.configuration(of: "TypedPrimaryToOne")) {
            benchmark, bytes in
            for _ in benchmark.scaledIterations {
                let document = try Document(parsing: bytes)
                blackHole(try document.primary(as: GeneratedModels.ArticleWithAuthor.self).decodeAll())
            }
            benchmark.measurement(.documentBytes, bytes.count)
        } setup: {
            size.generate()
        }

        Benchmark("SingleResource/\(size.name)", configuration: size.configuration(of: "SingleResource")) {
            (benchmark: Benchmark, input: (bytes: [UInt8], id: String)) in
            for _ in benchmark.scaledIterations {
                let document = try Document(parsing: input.bytes)
                blackHole(try document.resource(GeneratedModels.Article.self, id: input.id))
            }
            benchmark.measurement(.documentBytes, input.bytes.count)
        } setup: { () throws -> (bytes: [UInt8], id: String) in
            let bytes = size.generate()
            // The article in the middle of `data`, found by its id, as a user would.
            let articles = try Document(parsing: bytes).primaryResources
            return (bytes: bytes, id: articles[articles.count / 2].id ?? "")
        }
    }
}

/// Builds the document and decodes every primary and included resource into `GeneratedModels`.
func projectEveryResource(_ bytes: [UInt8], options: DecodingOptions) throws {
    let document = try Document(parsing: bytes)
    blackHole(try document.primary(as: GeneratedModels.Article.self, options: options).decodeAll())
    blackHole(try document.included(of: GeneratedModels.Person.self, options: options).decodeAll())
    blackHole(try document.included(of: GeneratedModels.Comment.self, options: options).decodeAll())
    blackHole(try document.included(of: GeneratedModels.Tag.self, options: options).decodeAll())
}

/// Builds the document and decodes every primary and included resource into `GeneratedModels`
/// one at a time, keeping none of them.
func streamEveryResource(_ bytes: [UInt8]) throws {
    let document = try Document(parsing: bytes)
    try document.primary(as: GeneratedModels.Article.self).forEachDecoded { blackHole($0) }
    try document.included(of: GeneratedModels.Person.self).forEachDecoded { blackHole($0) }
    try document.included(of: GeneratedModels.Comment.self).forEachDecoded { blackHole($0) }
    try document.included(of: GeneratedModels.Tag.self).forEachDecoded { blackHole($0) }
}
