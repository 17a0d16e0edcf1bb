import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `jsonapi` command-line tool: validate, inspect, stream, generate, format, query, flatten
/// and time JSON:API documents.
///
/// Exit status is the same for every subcommand: 0 when everything checked is valid, 1 when a
/// document is invalid, 2 for usage errors (including those ArgumentParser reports, which it
/// would otherwise exit with 64) and for I/O errors.
@main
struct JSONAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jsonapi",
        abstract: "Validate, inspect, stream, generate, format, query, flatten and time JSON:API (1.0/1.1) documents.",
        discussion: """
            Exit status: 0 when every document is valid, 1 when any is invalid, \
            2 on usage or I/O errors.
            """,
        subcommands: [
            ValidateCommand.self, InspectCommand.self, StreamCommand.self, GenerateCommand.self, FormatCommand.self,
            GetCommand.self, FlattenCommand.self, ProjectCommand.self, BenchCommand.self, MeasureCommand.self,
        ]
    )

    /// Parses the arguments and runs the subcommand, mapping every failure to the exit status above.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let status as ExitCode {
            exit(withError: status)
        } catch {
            // Help and version requests are errors too (exit 0); let ArgumentParser print them.
            if exitCode(for: error) == .success { exit(withError: error) }
            Console.standardError.write(fullMessage(for: error) + "\n")
            exit(withError: ExitStatus.usageOrIOError)
        }
    }
}

/// The tool's exit statuses.
enum ExitStatus {
    /// Everything checked is valid.
    static let valid = ExitCode.success
    /// At least one document is invalid.
    static let invalid = ExitCode(1)
    /// Bad arguments, or a file that could not be read or written.
    static let usageOrIOError = ExitCode(2)
}
