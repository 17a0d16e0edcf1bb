import ArgumentParser
import JSONAPI

/// `jsonapi validate`: checks documents and prints every problem found.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check documents against JSON:API 1.1, or against RFC 8259 only with --syntax.",
        discussion: """
            Each problem prints as FILE:LINE:COLUMN: error|warning: MESSAGE (JSON-POINTER), warnings of \
            valid documents included, followed by a verdict line per file unless --quiet. \
            Use - to read standard input, which is parsed in 64 KiB chunks as it arrives.
            With --stream, and for files larger than --stream-threshold (256 MiB unless set), the \
            document is read through the resource stream, in memory bounded by its largest resource \
            rather than by its size. The report is the same as for an in-memory parse, except: \
            warnings about included resources unreachable from primary data carry no line and \
            column; and in strict mode the stream stops at the first broken rule, \
            so the problems after it (and those unreachable-resource warnings, decided at the end) are \
            not listed (--lenient lists them all). With --syntax, --stream reads files in chunks as \
            standard input is read: a syntax error then has its line and column but no JSON Pointer.
            Exit status: 0 when every file is valid, 1 when any is invalid, 2 on usage or I/O errors.
            """
    )

    @OptionGroup var document: DocumentOptions

    @OptionGroup var streaming: StreamingOptions

    @Flag(help: "Print a JSON report: [{file, valid, diagnostics: [{severity, code, message, offset, ...}]}].")
    var json = false

    @Flag(
        help:
            "Check plain JSON syntax (RFC 8259) only; --kind and --lenient do not apply, --backend picks the tokenizer."
    )
    var syntax = false

    @Flag(name: .shortAndLong, help: "Print only the problems, without a verdict line per file.")
    var quiet = false

    @Argument(help: ArgumentHelp("The documents to check; - reads standard input.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Missing expected argument '<file> ...' (use - for standard input)") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once") }
    }

    func run() throws {
        let options = document.parsingOptions
        var verdicts: [FileVerdict] = []
        for file in files {
            let source = InputSource(argument: file)
            let streams = streaming.streams(source)
            let verdict =
                syntax
                ? FileVerdict.checkingSyntax(of: source, backend: options.backend, inChunks: streams)
                : streams
                    ? FileVerdict.streaming(source, options: options)
                    : FileVerdict.checking(source, options: options)
            if !json { verdict.print(quiet: quiet) }
            verdicts.append(verdict)
        }
        if json {
            Console.standardOutput.line(ReportValue.array(verdicts.map(\.report)).rendered)
        }
        if verdicts.contains(where: \.couldNotRead) { throw ExitStatus.usageOrIOError }
        if verdicts.contains(where: { !$0.isValid }) { throw ExitStatus.invalid }
    }
}

/// The outcome of checking one input.
struct FileVerdict {
    /// The input's name as given (`-` for standard input).
    var file: String
    /// Whether the document was accepted: it parsed and no diagnostic is an error.
    var isValid: Bool
    /// Errors and warnings, in document order.
    var diagnostics: [Diagnostic]
    /// Whether the input could not be read at all (exit status 2 rather than 1).
    var couldNotRead = false

    init(file: String, isValid: Bool, diagnostics: [Diagnostic]) {
        self.file = file
        self.isValid = isValid
        self.diagnostics = diagnostics
    }

    init(file: String, failure: IOFailure) {
        self.init(file: file, isValid: false, diagnostics: [Diagnostic(failure)])
        couldNotRead = true
    }

    init(file: String, document: Document) {
        let diagnostics = document.diagnostics
        self.init(file: file, isValid: !diagnostics.contains { $0.severity == .error }, diagnostics: diagnostics)
    }

    init(file: String, error: JSONAPIError) {
        self.init(file: file, isValid: false, diagnostics: error.allDiagnostics)
    }

    /// Parses `source` as a JSON:API document. A file is read whole (one allocation of its size)
    /// and parsed in place; standard input is fed to a ``DocumentParser`` chunk by chunk.
    static func checking(_ source: InputSource, options: ParsingOptions) -> FileVerdict {
        let name = source.displayName
        do {
            switch source {
            case .file:
                let bytes = try source.readAll()
                return FileVerdict(file: name, document: try Document(parsing: bytes, options: options))
            case .standardInput:
                let input = FileDescriptor.standardInput
                var parser = DocumentParser(options: options, expectedByteCount: input.regularFileSize ?? 0)
                var rejection: JSONAPIError?
                try input.forEachChunk(name: "standard input") { chunk in
                    do throws(JSONAPIError) {
                        try parser.feed(chunk)
                        return true
                    } catch {
                        // The rest of the input cannot make the document valid again.
                        rejection = error
                        return false
                    }
                }
                if let rejection { return FileVerdict(file: name, error: rejection) }
                return FileVerdict(file: name, document: try parser.finish())
            }
        } catch let error as JSONAPIError {
            return FileVerdict(file: name, error: error)
        } catch let failure as IOFailure {
            return FileVerdict(file: name, failure: failure)
        } catch {
            return FileVerdict(file: name, failure: IOFailure("cannot check \(name)", reason: "\(error)"))
        }
    }

    /// Reads `source` through a ``ResourceStream``, in memory bounded by its largest resource;
    /// the diagnostics are those an in-memory parse reports (see
    /// ``StreamingPass/Outcome/reportedDiagnostics(lenient:)``).
    static func streaming(_ source: InputSource, options: ParsingOptions) -> FileVerdict {
        let name = source.displayName
        do {
            let outcome = try StreamingPass(options: ResourceStream.Options(parsing: options)).run(source) { _ in }
            let diagnostics = outcome.reportedDiagnostics(lenient: options.isLenient)
            let isValid = outcome.failure == nil && !diagnostics.contains { $0.severity == .error }
            return FileVerdict(file: name, isValid: isValid, diagnostics: diagnostics)
        } catch let failure as IOFailure {
            return FileVerdict(file: name, failure: failure)
        } catch {
            return FileVerdict(file: name, failure: IOFailure("cannot check \(name)", reason: "\(error)"))
        }
    }

    /// Checks `source` against RFC 8259 only: with ``JSONSyntaxValidator`` for the built-in
    /// scanner, or for another backend (yajl) through a lenient document parse in which only the
    /// tokenizer's verdict counts (a plain JSON file is no JSON:API document; those warnings drop).
    /// With `inChunks`, a file is read in 64 KiB chunks as standard input is (and another backend
    /// reads through the resource stream), so its size does not matter.
    static func checkingSyntax(
        of source: InputSource, backend: ParsingOptions.Backend = .scanner, inChunks: Bool = false
    ) -> FileVerdict {
        if backend != .scanner {
            var options = ParsingOptions(kind: .response, lenient: true)
            options.backend = backend
            options.checksFullLinkage = false
            var verdict = inChunks ? streaming(source, options: options) : checking(source, options: options)
            verdict.diagnostics.removeAll { $0.severity != .error }
            return verdict
        }
        let name = source.displayName
        do {
            switch source {
            case .file where !inChunks:
                try JSONSyntaxValidator.validate(try source.readAll())
            case .file, .standardInput:
                var validator = JSONSyntaxValidator()
                var rejection: JSONAPIError?
                let input = source == .standardInput ? FileDescriptor.standardInput : try FileDescriptor.open(name)
                defer { if source != .standardInput { input.close() } }
                try input.forEachChunk(name: source == .standardInput ? "standard input" : name) { chunk in
                    do throws(JSONAPIError) {
                        try validator.feed(chunk)
                        return true
                    } catch {
                        rejection = error
                        return false
                    }
                }
                if let rejection { throw rejection }
                try validator.finish()
            }
            return FileVerdict(file: name, isValid: true, diagnostics: [])
        } catch let error as JSONAPIError {
            return FileVerdict(file: name, error: error)
        } catch let failure as IOFailure {
            return FileVerdict(file: name, failure: failure)
        } catch {
            return FileVerdict(file: name, failure: IOFailure("cannot check \(name)", reason: "\(error)"))
        }
    }

    /// Prints the diagnostics and the verdict line; read failures go to standard error.
    func print(quiet: Bool) {
        if couldNotRead {
            for diagnostic in diagnostics { Console.standardError.line("jsonapi: error: \(diagnostic.message)") }
            return
        }
        for diagnostic in diagnostics { Console.standardOutput.line(diagnostic.formatted(file: file)) }
        if !quiet { Console.standardOutput.line("\(file): \(verdictText)") }
    }

    /// `valid`, `valid (1 warning)`, `invalid (2 errors, 1 warning)`.
    private var verdictText: String {
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count - errors
        var counts: [String] = []
        if errors > 0 { counts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { counts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        let verdict = isValid ? "valid" : "invalid"
        return counts.isEmpty ? verdict : "\(verdict) (\(counts.joined(separator: ", ")))"
    }

    /// The verdict as an element of the `--json` report.
    var report: ReportValue {
        .object([
            ("file", .string(file)),
            ("valid", .bool(isValid)),
            ("diagnostics", .array(diagnostics.map(\.report))),
        ])
    }
}
