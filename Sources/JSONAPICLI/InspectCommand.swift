import ArgumentParser
import JSONAPI

/// `jsonapi inspect`: what a document holds, and how fast and how compactly it parses.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Report a document's contents, arena size, parse throughput and peak memory.",
        discussion: """
            Counts resources by section and type, relationships and linkage (unresolved identifiers \
            included), and included resources unreachable from primary data. The input is read into \
            memory first; only the parse is timed, repeated for about a second (at least 3, at most \
            100 runs) unless --runs is given, and the median is reported next to the best run. MB are 10^6 \
            bytes. Peak memory is the process's peak resident set size (getrusage ru_maxrss).
            With --stream, and for files larger than --stream-threshold (256 MiB unless set), the \
            document is read once through the resource stream instead, in memory bounded by its \
            largest resource (standard input as it arrives): the report says it is a streaming pass \
            and gives what one pass can count (resources by section and type, relationships, \
            linkage identifiers, unreachable included resources), the pass's time and throughput \
            (read and parse, one run; --runs and --compare-foundation do not apply), the peak RSS, \
            and the stream's window and identity index figures. Linkage is not resolved.
            """
    )

    @OptionGroup var document: DocumentOptions

    @OptionGroup var streaming: StreamingOptions

    @Flag(help: "Print a JSON report instead of text.")
    var json = false

    @Option(help: "Parse exactly this many times (default: about one second of runs, 3 to 100).")
    var runs: Int?

    // Used by scripts/demo: decodes the same bytes with Foundation for a side-by-side figure.
    @Flag(help: .hidden)
    var compareFoundation = false

    @Argument(help: ArgumentHelp("The document to inspect; - reads standard input.", valueName: "file"))
    var file: String

    func validate() throws {
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
    }

    func run() throws {
        let residentBeforeReading = peakResidentBytes()
        let source = InputSource(argument: file)
        if streaming.streams(source) {
            return try runStreaming(source, residentBeforeReading: residentBeforeReading)
        }
        let bytes: [UInt8]
        do {
            bytes = try source.readAll()
        } catch {
            Console.standardError.line("jsonapi: error: \(error)")
            throw ExitStatus.usageOrIOError
        }

        let options = document.parsingOptions
        var parsed: Document?
        let timings: Timings
        do {
            timings = try Timings.measure(exactRuns: runs, reset: { parsed = nil }) {
                parsed = try Document(parsing: bytes, options: options)
            }
        } catch let error as JSONAPIError {
            let verdict = FileVerdict(file: source.displayName, error: error)
            if json {
                Console.standardOutput.line(verdict.report.rendered)
            } else {
                verdict.print(quiet: false)
                if !options.isLenient && !error.code.isSyntaxError {
                    Console.standardError.line("jsonapi: note: --lenient inspects documents that break rules")
                }
            }
            throw ExitStatus.invalid
        }
        guard let parsed else { throw ExitStatus.invalid }
        let residentAfterParsing = peakResidentBytes()

        var report = InspectReport(
            file: source.displayName, document: parsed, timings: timings,
            residentBeforeReading: residentBeforeReading, residentAfterParsing: residentAfterParsing)
        if compareFoundation {
            report.comparison = FoundationComparison.run(on: bytes, ours: timings, exactRuns: runs)
        }
        Console.standardOutput.line(json ? report.json.rendered : report.text)
        if !report.isValid { throw ExitStatus.invalid }
    }
}

extension InspectCommand {
    /// Inspects `source` in one pass of the resource stream.
    func runStreaming(_ source: InputSource, residentBeforeReading: Int) throws {
        let options = document.parsingOptions
        var report = StreamInspectReport(file: source.displayName, options: options)
        let outcome: StreamingPass.Outcome
        do {
            outcome = try StreamingPass(options: ResourceStream.Options(parsing: options)).run(source) { part in
                report.add(part)
            }
        } catch let status as ExitCode {
            throw status
        } catch {
            Console.standardError.line("jsonapi: error: \(error)")
            throw ExitStatus.usageOrIOError
        }
        if outcome.failure != nil {
            let verdict = FileVerdict(
                file: source.displayName, isValid: false,
                diagnostics: outcome.reportedDiagnostics(lenient: options.isLenient))
            if json {
                Console.standardOutput.line(verdict.report.rendered)
            } else {
                verdict.print(quiet: false)
                if !options.isLenient && outcome.failure?.code.isSyntaxError == false {
                    Console.standardError.line("jsonapi: note: --lenient inspects documents that break rules")
                }
            }
            throw ExitStatus.invalid
        }
        report.diagnostics = outcome.reportedDiagnostics(lenient: options.isLenient)
        report.bytes = outcome.bytesRead
        report.elapsed = outcome.elapsed
        report.statistics = outcome.summary.statistics
        report.residentBeforeReading = residentBeforeReading
        report.residentAfterParsing = peakResidentBytes()
        Console.standardOutput.line(json ? report.json.rendered : report.text)
        if !report.isValid { throw ExitStatus.invalid }
    }
}
