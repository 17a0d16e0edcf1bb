#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A duration as seconds, for arithmetic and printing.
struct Seconds: Comparable {
    var value: Double

    init(_ value: Double) {
        self.value = value
    }

    init(_ duration: Duration) {
        let parts = duration.components
        value = Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    static func < (lhs: Seconds, rhs: Seconds) -> Bool { lhs.value < rhs.value }

    /// `1.234 s`, `12.3 ms` or `45.6 µs`.
    var formatted: String {
        if value >= 1 { return "\(value.fixed(3)) s" }
        if value >= 1e-3 { return "\((value * 1e3).fixed(2)) ms" }
        return "\((value * 1e6).fixed(1)) µs"
    }
}

/// Timings of repeated runs of the same work.
struct Timings {
    /// Every run's duration, in the order run.
    var runs: [Seconds]

    var best: Seconds { runs.min() ?? Seconds(0) }

    var median: Seconds {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return Seconds(0) }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : Seconds((sorted[middle - 1].value + sorted[middle].value) / 2)
    }

    /// Runs `body` `minimumRuns` times, then again while the total stays under `budget` seconds
    /// and fewer than `maximumRuns` have run; with `exactRuns`, exactly that many times.
    ///
    /// Small inputs thus get enough runs for a stable median, while a 100 MB document whose
    /// parse takes a large part of the budget runs only a few times; three runs at least, so one
    /// run slowed by a busy machine does not become the median. `reset` runs untimed
    /// before each run: it frees the previous run's result, so that freeing a large tree is
    /// not charged to the next run and only one result is alive at a time.
    static func measure(
        exactRuns: Int? = nil, minimumRuns: Int = 3, budget: Double = 1.0, maximumRuns: Int = 100,
        reset: () -> Void = {},
        _ body: () throws -> Void
    ) rethrows -> Timings {
        let clock = ContinuousClock()
        var runs: [Seconds] = []
        var total = 0.0
        repeat {
            reset()
            let start = clock.now
            try body()
            let elapsed = Seconds(start.duration(to: clock.now))
            runs.append(elapsed)
            total += elapsed.value
        } while exactRuns.map { runs.count < $0 }
            ?? (runs.count < minimumRuns || (total < budget && runs.count < maximumRuns))
        return Timings(runs: runs)
    }
}

/// Decimal megabytes (10^6 bytes) per second.
func megabytesPerSecond(bytes: Int, in seconds: Seconds) -> Double {
    seconds.value > 0 ? Double(bytes) / 1e6 / seconds.value : 0
}

/// The process's peak resident set size so far, in bytes.
///
/// On Linux, `VmHWM` of `/proc/self/status`: `getrusage`'s `ru_maxrss` keeps, across `execve`,
/// the peak of the process that forked this one, so a tool started by a large process (a test
/// runner) would report that process's peak. `ru_maxrss` when `/proc` cannot be read.
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if os(Linux)
        if let kibibytes = procStatusKiB("VmHWM:") { return kibibytes * 1024 }
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024  // Linux reports KiB.
    #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)  // Darwin reports bytes.
    #endif
}

extension Double {
    /// The value with exactly `places` decimals, rounded half away from zero: `3.14159.fixed(2)` is `3.14`.
    func fixed(_ places: Int) -> String {
        guard isFinite else { return description }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(self) * scale).rounded()
        guard scaled < 9e15 else { return description }
        let whole = Int(scaled / scale)
        let fraction = Int(scaled) - whole * Int(scale)
        let sign = self < 0 && scaled > 0 ? "-" : ""
        guard places > 0 else { return "\(sign)\(whole)" }
        let digits = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }
}

extension Int {
    /// The number with thousands separators: `1,234,567`.
    var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (position, digit) in digits.enumerated() {
            if position > 0 && (digits.count - position) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }

    /// A byte count in decimal units: `987 B`, `12.3 KB`, `104.9 MB`, `1.2 GB`.
    var bytesFormatted: String {
        let value = Double(self)
        if value >= 1e9 { return "\((value / 1e9).fixed(2)) GB" }
        if value >= 1e6 { return "\((value / 1e6).fixed(1)) MB" }
        if value >= 1e3 { return "\((value / 1e3).fixed(1)) KB" }
        return "\(self) B"
    }
}

#if os(Linux)
    /// The value, in KiB, of the line of `/proc/self/status` that starts with `field`
    /// (`VmHWM:    36828 kB`), or nil.
    func procStatusKiB(_ field: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(field) else { continue }
            return Int(text.dropFirst(field.count).filter { $0.isNumber })
        }
        return nil
    }
#endif
