import Benchmark
import Foundation

// The allocation gate (scripts/bench-gate, run by scripts/test): with JSONAPI_BENCH_GATE=1 in the
// environment, the suite keeps only the main benchmarks at small sizes and measures only
// `mallocCountTotal`, a count that is the same from run to run (wall time is not, and never
// gates). `benchmark thresholds check --path Benchmarks/Thresholds` compares each p90 count with
// the one stored in Benchmarks/Thresholds/ (`scripts/bench-gate --update` rewrites them). Without
// the variable nothing here changes the suite.
enum AllocationGate {
    static let isEnabled = ProcessInfo.processInfo.environment["JSONAPI_BENCH_GATE"] == "1"

    /// The benchmarks the gate runs: the readers, the typed decoders and the writers most users
    /// call, at 10 KB and 1 MB, and `Document` on the numbers-heavy readings document.
    static let benchmarkNames: Set<String> = Set(
        [
            "Document", "DocumentChunkedSized", "DocumentYajl", "TypedProjection", "SingleResource", "Encode",
            "WriteDocument",
        ]
        .flatMap { ["\($0)/10KB", "\($0)/1MB"] }
    ).union(["Document/1MB-readings"])

    /// Allocations a benchmark may gain or lose per iteration before the tool reports it. The
    /// counts repeat exactly from run to run on one machine, so any change is real: 0.
    /// (`scripts/bench-gate` lets a count one below its threshold pass, as one machine counted
    /// one growth fewer; a count above it always fails.)
    static let mallocTolerance = 0

    static var configuration: Benchmark.Configuration {
        .init(
            metrics: [.mallocCountTotal], units: [.mallocCountTotal: .count], warmupIterations: 1,
            maxDuration: .seconds(2), maxIterations: 5,
            thresholds: [.mallocCountTotal: .init(absolute: [.p90: mallocTolerance])])
    }

    /// The configuration of the benchmark `name`: `normal` outside the gate; in gate mode, the
    /// gate's own for the benchmarks it runs, and `skip` (not registered) for the others.
    static func configuration(_ name: String, otherwise normal: Benchmark.Configuration) -> Benchmark.Configuration {
        guard isEnabled else { return normal }
        guard benchmarkNames.contains(name) else {
            var skipped = normal
            skipped.skip = true
            return skipped
        }
        return configuration
    }
}
