import ArgumentParser
import JSONAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One pass of a ``ResourceStream`` over a file or standard input: the bytes are read with
/// `read(2)` straight into the stream's window as they arrive, and every part goes to a closure,
/// so a document of any size is read in the memory its largest resource needs.
struct StreamingPass {
    /// What the pass found.
    struct Outcome {
        /// The stream's diagnostics (warnings, and in lenient mode errors) and statistics.
        var summary: ResourceStream.Summary
        /// The error that stopped the stream: a syntax error, a limit, or in strict mode the
        /// first broken rule. Every part before it was handed out.
        var failure: JSONAPIError?
        /// Bytes read from the input.
        var bytesRead: Int
        /// Time from the first read to the last part.
        var elapsed: Seconds
    }

    /// The stream's options.
    var options: ResourceStream.Options

    /// Largest `read(2)` per feed, as ``ResourceStream/forEachPart(inFileAt:options:_:)`` reads.
    var readSize: Int { max(1 << 16, min(options.windowBytes / 2, 1 << 20)) }

    /// Streams `source`, calling `body` with each part in document order and `diagnosed` with
    /// each diagnostic as soon as the stream records it (before the failure, if any, is thrown).
    ///
    /// - Throws: ``IOFailure`` when the input cannot be opened or read, or what `body` throws;
    ///   ``ExitStatus/usageOrIOError`` when the stream's options are out of range. A document
    ///   that breaks a rule is no throw: it is the outcome's ``Outcome/failure``.
    func run(
        _ source: InputSource,
        diagnosed: (Diagnostic) throws -> Void = { _ in },
        _ body: (StreamPart) throws -> Void
    ) throws -> Outcome {
        let file: FileDescriptor
        switch source {
        case .standardInput: file = .standardInput
        case .file(let path): file = try FileDescriptor.open(path)
        }
        defer { if source != .standardInput { file.close() } }
        file.adviseSequentialReading()

        var stream: ResourceStream
        do {
            stream = try ResourceStream(options: options)
        } catch {
            Console.standardError.line("jsonapi: error: \(error.message)")
            throw ExitStatus.usageOrIOError
        }
        let clock = ContinuousClock()
        let start = clock.now
        var failure: JSONAPIError?
        var reported = 0
        do {
            while try stream.feed(readingFrom: file.rawValue, maximumBytes: readSize) {
                while let part = try stream.next() { try body(part) }
                try Self.report(stream.diagnostics, from: &reported, to: diagnosed)
            }
            try stream.finish()
            while let part = try stream.next() { try body(part) }
        } catch let error as JSONAPIError {
            if error.code == .io {
                throw IOFailure("cannot read \(source.displayName)", reason: error.message)
            }
            failure = error
        }
        try Self.report(stream.diagnostics, from: &reported, to: diagnosed)
        return Outcome(
            summary: stream.summary, failure: failure, bytesRead: stream.bytesFed,
            elapsed: Seconds(start.duration(to: clock.now)))
    }

    private static func report(
        _ diagnostics: [Diagnostic], from reported: inout Int, to diagnosed: (Diagnostic) throws -> Void
    ) throws {
        while reported < diagnostics.count {
            try diagnosed(diagnostics[reported])
            reported += 1
        }
    }
}

extension StreamingPass.Outcome {
    /// The problems to report for the whole document, as an in-memory parse reports them: in
    /// document order (by offset, in the order found for equal offsets), followed by a count of
    /// those not recorded (``ParsingOptions/maximumDiagnostics``).
    ///
    /// A syntax error, or a failure in lenient mode, is reported alone, as `Document(parsing:)`
    /// throws it. In strict mode the stream stops at the first broken rule, so the problems up
    /// to it are reported; an in-memory parse lists those after it too.
    func reportedDiagnostics(lenient: Bool) -> [Diagnostic] {
        var diagnostics = summary.diagnostics
        if let failure {
            if lenient || failure.code.isSyntaxError || failure.offset < 0 { return failure.allDiagnostics }
            diagnostics.removeAll { $0.offset > failure.offset }
            let first = failure.allDiagnostics
            if !first.contains(where: { diagnostics.contains($0) }) { diagnostics += first }
        }
        diagnostics = diagnostics.enumerated()
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        if summary.unrecordedDiagnosticCount > 0 {
            diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .specViolation,
                    message:
                        "\(summary.unrecordedDiagnosticCount) more problems were found but not recorded (ParsingOptions.maximumDiagnostics)",
                    offset: -1))
        }
        return diagnostics
    }
}

extension FileDescriptor {
    /// Tells the kernel the file is read once from start to end (Linux), so it reads ahead.
    func adviseSequentialReading() {
        #if os(Linux)
            _ = posix_fadvise(rawValue, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }
}

/// When `validate` and `inspect` read a document through a ``ResourceStream`` instead of into
/// memory: `--stream`, or a file larger than `--stream-threshold`.
struct StreamingOptions: ParsableArguments {
    /// The default `--stream-threshold`: 256 MiB.
    static let defaultThreshold = 256 << 20

    @Flag(
        help: """
            Read the document through the resource stream, in memory bounded by its largest resource \
            (standard input too, as it arrives).
            """)
    var stream = false

    @Option(
        help: ArgumentHelp(
            "Stream files larger than this many bytes (suffixes K, M, G: binary multiples).",
            valueName: "bytes"))
    var streamThreshold = ByteCount(defaultThreshold)

    /// Whether `source` is read through the stream: `--stream`, or a regular file (standard
    /// input redirected from one included) larger than the threshold.
    func streams(_ source: InputSource) -> Bool {
        if stream { return true }
        let size: Int?
        switch source {
        case .standardInput:
            size = FileDescriptor.standardInput.regularFileSize
        case .file(let path):
            guard let file = try? FileDescriptor.open(path) else { return false }
            size = file.regularFileSize
            file.close()
        }
        return (size ?? 0) > streamThreshold.value
    }
}

/// A byte count argument: `1048576`, `64K`, `256M`, `2G` (binary multiples).
struct ByteCount: ExpressibleByArgument {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }

    init?(argument: String) {
        var digits = Substring(argument)
        var scale = 1
        switch digits.last?.uppercased() {
        case "K": scale = 1 << 10
        case "M": scale = 1 << 20
        case "G": scale = 1 << 30
        default: break
        }
        if scale > 1 { digits = digits.dropLast() }
        guard let number = Int(digits), number >= 0 else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        value = product
    }

    var defaultValueDescription: String {
        value % (1 << 20) == 0 ? "\(value >> 20)M" : "\(value)"
    }
}
