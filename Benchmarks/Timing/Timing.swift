// Timing shared by the in-process benchmarks (jsonapi-server-benchmark, jsonapi-client-overhead):
// medians and minimums of repeated calls, printed as `key=value` lines for their scripts.
import Foundation

/// Says what went wrong on standard error, prefixed with `program`, and ends the process with
/// `status` (1, or 2 for a usage error).
public func fail(_ program: String, _ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((program + ": " + message + "\n").utf8))
    exit(status)
}

/// `duration` in microseconds.
public func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// Prints `variant=NAME median_us=… min_us=…` and the extra fields.
public func report(_ name: String, _ times: [Double], _ extra: String) {
    let sorted = times.sorted()
    print("variant=\(name) median_us=\(sorted[sorted.count / 2]) min_us=\(sorted[0]) \(extra)")
}

/// Times `iterations` calls of `work` after a tenth as many untimed ones, in microseconds.
public func measure(_ iterations: Int, _ work: () async throws -> Void) async throws -> [Double] {
    for _ in 0..<max(iterations / 10, 1) { try await work() }
    let clock = ContinuousClock()
    var times: [Double] = []
    times.reserveCapacity(iterations)
    for _ in 0..<iterations { times.append(microseconds(try await clock.measure { try await work() })) }
    return times
}

/// Times `iterations` calls of synchronous `work` on one thread (an `await` between calls may
/// move the task to another core, away from the bytes in its cache), in microseconds.
public func measureOnOneThread(_ iterations: Int, _ work: () -> Void) -> [Double] {
    for _ in 0..<max(iterations / 10, 1) { work() }
    let clock = ContinuousClock()
    return (0..<iterations).map { _ in microseconds(clock.measure { work() }) }
}
