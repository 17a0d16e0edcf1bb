import ArgumentParser
import JSONAPI
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

            --id-scheme chooses what the ids look like: standard (the default: articles, comments \
            and tags numbered from 1, people as UUIDs), sequential[:START] (every type numbered \
            from START, default 1), uuid, slug, opaque (40 to 100 characters) or escaped (quotes, \
            backslashes, control characters and non-ASCII, written with escapes).

            --verify builds the document (strict mode) and checks that every resource is found \
            by its (type, id) where the generator put it and that every linkage names the \
            resource it resolves to; the exit status is 1 when any check fails. Without --output, \
            the document is only verified, not written.

            --shape writes a document of a second generator instead, written apart from the \
            first: unicode (text in many scripts, \\u escapes and surrogate pairs), numbers \
            (floats with exponents, integers, nulls, nested objects), tiny (many resources with \
            one attribute), long-strings (attributes of several KB) or ids (ids of every width \
            and scheme). Its members come in other orders and its whitespace varies (compact, \
            indented, tabs and CRLF). --resources then counts the primary resources; \
            --id-scheme does not apply.
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
        help: ArgumentHelp(
            "What the ids look like: standard, sequential[:START], uuid, slug, opaque or escaped.",
            valueName: "scheme"))
    var idScheme: String = "standard"

    @Option(
        help: ArgumentHelp(
            "A document of the second generator: unicode, numbers, tiny, long-strings or ids.",
            valueName: "shape"))
    var shape: String?

    @Flag(help: "Build the document and check every lookup and every linkage against the generator.")
    var verify = false

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
        if IDScheme(argument: idScheme) == nil {
            throw ValidationError(
                "--id-scheme must be standard, sequential, sequential:START, uuid, slug, opaque or escaped")
        }
        if let shape {
            guard CorpusShape(argument: shape) != nil else {
                throw ValidationError(
                    "--shape must be " + CorpusShape.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if idScheme != "standard" { throw ValidationError("--id-scheme does not apply to --shape") }
        }
    }

    /// The resource count asked for, directly or by size.
    private var resourceCount: Int {
        if let resources { return resources }
        return CompoundDocumentGenerator.resourceCount(approximateBytes: approximateBytes ?? 0)
    }

    func run() throws {
        if let shape = shape.flatMap(CorpusShape.init(argument:)) {
            try runShape(shape)
            return
        }
        var generator = CompoundDocumentGenerator(resources: resourceCount, seed: seed)
        generator.idScheme = IDScheme(argument: idScheme) ?? .standard
        try writeDocument(generator)
        if verify { try Self.verify(generator) }
    }

    private func writeDocument(_ generator: CompoundDocumentGenerator) throws {
        guard let output else {
            if !verify { try write(generator, to: .standardOutput, name: "standard output") }
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
                    + "seed \(seed), ids \(generator.idScheme)) to \(output) in \(seconds.formatted)")
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

extension GenerateCommand {
    /// Builds the generated document in strict mode and checks it against what the generator
    /// knows: every resource where it was put, found by its (type, id) at its own position, and
    /// every linkage resolved to a resource with the identifier's type and id.
    ///
    /// - Throws: ``ExitStatus/invalid`` when the document does not build or any check fails.
    static func verify(_ generator: CompoundDocumentGenerator) throws {
        let clock = ContinuousClock()
        let bytes = generator.generate()
        let start = clock.now
        let document: Document
        do {
            document = try Document(parsing: bytes)
        } catch {
            Console.standardError.line("jsonapi: verify: the generated document does not build: \(error)")
            throw ExitStatus.invalid
        }
        let built = clock.now
        var problems: [String] = []
        func problem(_ text: String) {
            if problems.count < 20 { problems.append(text) } else if problems.count == 20 { problems.append("...") }
        }
        let all = document.allResources
        if all.count != generator.resources { problem("\(all.count) resources, expected \(generator.resources)") }
        if !document.diagnostics.isEmpty {
            problem("\(document.diagnostics.count) diagnostics: \(document.diagnostics[0])")
        }
        var identifiers = 0
        for position in 0..<min(all.count, generator.resources) {
            let expected = generator.identifier(ofResourceAt: position)
            let resource = all[position]
            if resource.type != expected.type || !(resource.id ?? "").utf8.elementsEqual(expected.id.utf8) {
                problem("resource \(position) is \(resource.identifier), expected \(expected.type)/\(expected.id)")
            }
            let found = document.resource(type: expected.type, id: expected.id)
            if found?.recordIndex != position {
                problem(
                    "resource(type: \(expected.type), id: \(expected.id.debugDescription)) found "
                        + "\(found.map { "resource \($0.recordIndex)" } ?? "nothing"), expected resource \(position)")
            }
            for relationship in resource.relationships {
                for identifier in relationship.identifiers {
                    identifiers += 1
                    guard let target = identifier.resource else {
                        problem("\(resource.identifier) \(relationship.name): \(identifier.identifier) is unresolved")
                        continue
                    }
                    if target.type != identifier.type
                        || !(target.id ?? "").utf8.elementsEqual((identifier.id ?? "").utf8)
                    {
                        problem(
                            "\(resource.identifier) \(relationship.name): \(identifier.identifier) resolved to \(target.identifier)"
                        )
                    }
                }
            }
        }
        let checked = clock.now
        for line in problems { Console.standardError.line("jsonapi: verify: \(line)") }
        Console.standardError.line(
            "jsonapi: verify: \(problems.isEmpty ? "ok" : "FAILED"): \(bytes.count.grouped) bytes, "
                + "\(all.count.grouped) resources and \(identifiers.grouped) linkage identifiers checked "
                + "(ids \(generator.idScheme)); build \(Seconds(start.duration(to: built)).formatted), "
                + "checks \(Seconds(built.duration(to: checked)).formatted)")
        if !problems.isEmpty { throw ExitStatus.invalid }
    }
}
