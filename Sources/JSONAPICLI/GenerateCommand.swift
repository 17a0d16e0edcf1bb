import ArgumentParser
import JSONAPIGenerator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `jsonapi generate`: writes a deterministic compound document of any size.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a generated JSON:API compound document (articles with people, comments and tags).",
        discussion: """
            The same resource count and seed always give the same bytes. The document is streamed \
            in 1 MiB chunks, so memory stays small whatever its size. With --output, it is written \
            to a temporary file beside FILE and renamed when complete, so an interrupted run never \
            leaves a partial document under that name.
            """
    )

    @Option(help: "The number of resource objects, primary and included.")
    var resources: Int?

    @Option(
        help: ArgumentHelp(
            "Instead of --resources: as many resources as make a document of about this many bytes.",
            valueName: "bytes"))
    var approximateBytes: Int?

    @Option(help: "The seed that fixes every random choice.")
    var seed: UInt64 = 1

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write the document (default: standard output).", valueName: "file"))
    var output: String?

    func validate() throws {
        switch (resources, approximateBytes) {
        case (nil, nil): throw ValidationError("Missing expected argument '--resources <resources>'")
        case (.some, .some): throw ValidationError("Give --resources or --approximate-bytes, not both")
        case (let count?, nil) where count < 0: throw ValidationError("--resources must be 0 or more")
        case (nil, let bytes?) where bytes <= 0: throw ValidationError("--approximate-bytes must be positive")
        default: break
        }
    }

    /// The resource count asked for, directly or by size.
    private var resourceCount: Int {
        if let resources { return resources }
        return CompoundDocumentGenerator.resourceCount(approximateBytes: approximateBytes ?? 0)
    }

    func run() throws {
        let generator = CompoundDocumentGenerator(resources: resourceCount, seed: seed)
        guard let output else {
            try write(generator, to: .standardOutput, name: "standard output")
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        let temporary = "\(output).partial-\(getpid())"
        do {
            let file = try FileDescriptor.create(temporary)
            let written: Int
            do {
                defer { file.close() }
                written = try write(generator, to: file, name: temporary)
            }
            guard rename(temporary, output) == 0 else {
                throw IOFailure("cannot rename \(temporary) to \(output)", errno: errno)
            }
            let seconds = Seconds(start.duration(to: clock.now))
            Console.standardError.line(
                "jsonapi: wrote \(written.grouped) bytes (\(generator.resources.grouped) resources: "
                    + "\(generator.primaryCount.grouped) primary, \(generator.includedCount.grouped) included; "
                    + "seed \(seed)) to \(output) in \(seconds.formatted)")
        } catch let failure as IOFailure {
            _ = unlink(temporary)
            Console.standardError.line("jsonapi: error: \(failure)")
            throw ExitStatus.usageOrIOError
        }
    }

    /// Streams the document to `file`; returns the number of bytes written.
    @discardableResult
    private func write(_ generator: CompoundDocumentGenerator, to file: FileDescriptor, name: String) throws -> Int {
        var written = 0
        do {
            try generator.write(chunkSize: 1 << 20) { chunk in
                try file.write(chunk, name: name)
                written += chunk.count
            }
        } catch let failure as IOFailure where file.rawValue == FileDescriptor.standardOutput.rawValue {
            Console.standardError.line("jsonapi: error: \(failure)")
            throw ExitStatus.usageOrIOError
        }
        return written
    }
}
