import JSONAPI
import JSONAPIGenerator

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Parse throughput of Foundation's decoders on the same bytes, next to ours (`inspect
/// --compare-foundation`, used by `scripts/demo`).
///
/// Each decoder gets the same in-memory bytes and the same run policy as our parse; its result
/// is freed untimed between runs, as ours is. The typed `JSONDecoder` figure uses
/// ``PlainCodableModel``, a plain `Codable` model of the generator's documents; for other
/// documents that entry reports why the model does not fit.
struct FoundationComparison {
    struct Entry {
        var name: String
        var timings: Timings?
        /// What was decoded, or why decoding failed.
        var note: String
        /// The process's peak resident set size after this entry's runs.
        var peakResidentAfter: Int
    }

    var inputBytes: Int
    var ours: Timings
    var entries: [Entry]

    static func run(on bytes: [UInt8], ours: Timings, exactRuns: Int?) -> FoundationComparison {
        var entries: [Entry] = []

        let tokenizing = Timings.measure(exactRuns: exactRuns) {
            // The document was valid, so the syntax check cannot fail here.
            _ = try? JSONSyntaxValidator.validate(bytes)
        }
        entries.append(
            Entry(
                name: "JSONSyntaxValidator", timings: tokenizing, note: "RFC 8259 check only, no document built",
                peakResidentAfter: peakResidentBytes()))

        let data = Data(bytes)
        var model: PlainCodableModel.Document?
        do {
            let decoder = JSONDecoder()
            let timings = try Timings.measure(exactRuns: exactRuns, reset: { model = nil }) {
                model = try decoder.decode(PlainCodableModel.Document.self, from: data)
            }
            let note =
                "Codable model: \(model?.data.count.grouped ?? "0") articles, "
                + "\(model?.included?.count.grouped ?? "0") included (polymorphic by type)"
            entries.append(
                Entry(name: "JSONDecoder", timings: timings, note: note, peakResidentAfter: peakResidentBytes()))
        } catch {
            entries.append(
                Entry(
                    name: "JSONDecoder", timings: nil,
                    note: "the generated-document model does not fit this document: \(error)", peakResidentAfter: 0))
        }
        return FoundationComparison(inputBytes: bytes.count, ours: ours, entries: entries)
    }

    private var ourRate: Double { megabytesPerSecond(bytes: inputBytes, in: ours.median) }

    /// How many times faster our median parse is than `timings`' median.
    private func speedup(_ timings: Timings) -> Double {
        ours.median.value > 0 ? timings.median.value / ours.median.value : 0
    }

    var textLines: [String] {
        var lines = ["same bytes, in memory (median MB/s; ratio = their time / our Document parse time)"]
        func row(_ name: String, _ value: String) { lines.append("  " + name.padding(to: 22) + value) }
        row("jsonapi Document", "\(ourRate.fixed(1)) MB/s  1.00x  (\(ours.runs.count) runs)")
        for entry in entries {
            guard let timings = entry.timings else {
                row(entry.name, "-  (\(entry.note))")
                continue
            }
            let rate = megabytesPerSecond(bytes: inputBytes, in: timings.median)
            let ratio = speedup(timings)
            let verdict =
                ratio >= 1
                ? "Document parse is \(ratio.fixed(2))x faster" : "\((1 / ratio).fixed(2))x faster than Document parse"
            row(
                entry.name,
                "\(rate.fixed(1)) MB/s  \(ratio.fixed(2))x  (\(timings.runs.count) runs; \(entry.note); \(verdict); "
                    + "peak RSS so far \(entry.peakResidentAfter.bytesFormatted))")
        }
        return lines
    }

    var json: ReportValue {
        .object([
            ("oursMedianMegabytesPerSecond", .number(ourRate, places: 2)),
            (
                "decoders",
                .array(
                    entries.map { entry in
                        var members: [(String, ReportValue)] = [
                            ("name", .string(entry.name)), ("note", .string(entry.note)),
                        ]
                        if let timings = entry.timings {
                            members += [
                                ("runs", .integer(timings.runs.count)),
                                ("medianSeconds", .number(timings.median.value, places: 6)),
                                (
                                    "medianMegabytesPerSecond",
                                    .number(megabytesPerSecond(bytes: inputBytes, in: timings.median), places: 2)
                                ),
                                ("oursFasterBy", .number(speedup(timings), places: 3)),
                                ("peakResidentBytesAfter", .integer(entry.peakResidentAfter)),
                            ]
                        }
                        return .object(members)
                    })
            ),
        ])
    }
}
