import ArgumentParser
import JSONAPI

/// `jsonapi format`: parses a document and writes it back, pretty or compact, keys optionally sorted.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Parse a document and write it back out, pretty-printed or compact.",
        discussion: """
            The document is checked first (strictly, unless --lenient); an invalid document prints its \
            problems as FILE:LINE:COLUMN: error: MESSAGE (POINTER) and nothing else. The output keeps \
            every member and its order (unless --sort-keys), strings as escaped in the input and numbers \
            as written, so it parses back as the same document.
            Exit status: 0 when written, 1 when the document is invalid, 2 on usage or I/O errors.
            """
    )

    @OptionGroup var document: DocumentOptions
    @OptionGroup var output: OutputLayoutOptions

    @Flag(help: "Order the members of every object by key, at every depth.")
    var sortKeys = false

    @Argument(help: ArgumentHelp("The document to format; - reads standard input.", valueName: "file"))
    var file: String

    func run() throws {
        let parsed = try WriterCommandSupport.load(file, options: document.parsingOptions)
        var options = output.writingOptions
        options.sortsKeys = sortKeys
        try WriterCommandSupport.emit(parsed.jsonBytes(options: options))
    }
}

/// `--pretty` / `--compact` and `--indent`, shared by the commands that print JSON.
struct OutputLayoutOptions: ParsableArguments {
    /// How the JSON is laid out.
    enum Layout: String, EnumerableFlag {
        case pretty
        case compact

        static func help(for value: Layout) -> ArgumentHelp? {
            switch value {
            case .pretty: "One member or element per line, indented (the default)."
            case .compact: "One line, no whitespace between tokens."
            }
        }
    }

    @Flag var layout: Layout = .pretty

    @Option(help: ArgumentHelp("Spaces per level when pretty-printing.", valueName: "n"))
    var indent = 2

    func validate() throws {
        if indent < 0 || indent > 16 { throw ValidationError("--indent must be between 0 and 16") }
    }

    /// The writing options these flags select (keys in their original order).
    var writingOptions: JSONWritingOptions {
        JSONWritingOptions(prettyPrinted: layout == .pretty, indent: indent)
    }
}

/// Reading a document and printing JSON, the same way for `format`, `get` and `flatten`.
enum WriterCommandSupport {
    /// Reads and parses `file` (`-` for standard input). Warnings of a lenient parse go to
    /// standard error.
    ///
    /// - Throws: ``ExitStatus/usageOrIOError`` when the input cannot be read,
    ///   ``ExitStatus/invalid`` when the document is invalid (its problems printed first).
    static func load(_ file: String, options: ParsingOptions) throws -> Document {
        let source = InputSource(argument: file)
        let bytes: [UInt8]
        do {
            bytes = try source.readAll()
        } catch {
            Console.standardError.line("jsonapi: error: \(error)")
            throw ExitStatus.usageOrIOError
        }
        do {
            let document = try Document(parsing: bytes, options: options)
            for diagnostic in document.diagnostics {
                Console.standardError.line(diagnostic.formatted(file: source.displayName))
            }
            return document
        } catch {
            for diagnostic in error.allDiagnostics {
                Console.standardError.line(diagnostic.formatted(file: source.displayName))
            }
            throw ExitStatus.invalid
        }
    }

    /// Writes `bytes` and a newline to standard output.
    ///
    /// - Throws: ``ExitStatus/usageOrIOError`` when standard output cannot be written.
    static func emit(_ bytes: [UInt8]) throws {
        var bytes = bytes
        bytes.append(UInt8(ascii: "\n"))
        // A typed-throws closure through `withUnsafeBytes` crashes Swift 6.3.1's IR generation;
        // the failure is carried out by hand.
        var failure: IOFailure?
        bytes.withUnsafeBytes { buffer in
            do throws(IOFailure) {
                try FileDescriptor.standardOutput.write(buffer, name: "standard output")
            } catch {
                failure = error
            }
        }
        if let failure {
            Console.standardError.line("jsonapi: error: \(failure)")
            throw ExitStatus.usageOrIOError
        }
    }
}
