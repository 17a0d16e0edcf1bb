import ArgumentParser
import JSONAPI

/// `jsonapi stream`: prints each part of a document as one line of JSON (NDJSON) as soon as
/// the resource stream hands it out, in memory bounded by the largest resource.
struct StreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Print each part of a document of any size as one JSON line (NDJSON), in document order.",
        discussion: """
            The document is read through the resource stream: memory stays bounded by its largest \
            resource, whatever its size. Each part prints as one line of JSON, members in this order:
            resource: {"part":"resource","section":"primary" or "included","index":N,"offset":N,\
            "pointer":"/data/3","type":T,"id":ID,"lid":LID,"resource":{...}}
            meta, links, jsonapi: {"part":"meta","value":{...}} (and "links", "jsonapi")
            error object: {"part":"error","index":N,"value":{...}}
            other top-level member: {"part":"member","name":NAME,"value":...}
            index is the resource's position in data or included (the error object's in errors), \
            offset the byte offset of its { in the input, pointer its JSON Pointer ("/data" for a \
            single resource); id and lid appear when the resource has them. "resource" and "value" \
            are the input's JSON, whitespace dropped, members and escapes as written.
            Problems print on standard error as FILE:LINE:COLUMN: error|warning: MESSAGE (POINTER) \
            as they are found. In strict mode the stream stops at the first broken rule: the parts \
            that end before it are printed (not the resource it is in), then the error. Use - to \
            read standard input as it \
            arrives.
            Exit status: 0 when the document is valid, 1 when it is invalid, 2 on usage or I/O errors.
            """
    )

    /// Which parts `--only` keeps.
    enum Selection: String, CaseIterable, ExpressibleByArgument {
        /// Every part.
        case all
        /// Resources of data and included; no top-level members.
        case resources
        /// Resources of data only.
        case primary
        /// Resources of included only.
        case included
    }

    @OptionGroup var document: DocumentOptions

    @Option(help: ArgumentHelp("Print only these parts: all, resources, primary or included.", valueName: "parts"))
    var only: Selection = .all

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp(
            "Print only resources of this type (repeat for several); top-level parts are not affected.",
            valueName: "type"))
    var types: [String] = []

    @Argument(help: ArgumentHelp("The document to stream; - reads standard input.", valueName: "file"))
    var file: String

    func run() throws {
        let source = InputSource(argument: file)
        let name = source.displayName
        let lenient = document.lenient
        let wantedTypes = Set(types)
        var output = BufferedOutput(.standardOutput, name: "standard output")
        var writer = JSONWriter(reservingCapacity: 4096)
        let pass = StreamingPass(options: ResourceStream.Options(parsing: document.parsingOptions))

        let outcome: StreamingPass.Outcome
        do {
            outcome = try pass.run(
                source,
                diagnosed: { diagnostic in
                    // In strict mode an error stops the stream: it is printed once, as the failure.
                    guard lenient || diagnostic.severity == .warning else { return }
                    try output.flush()
                    Console.standardError.line(diagnostic.formatted(file: name))
                }
            ) { part in
                guard let line = Self.line(for: part, only: only, types: wantedTypes, writer: &writer) else { return }
                try output.line(line)
            }
            try output.flush()
        } catch let failure as IOFailure {
            try? output.flush()
            Console.standardError.line("jsonapi: error: \(failure)")
            throw ExitStatus.usageOrIOError
        }
        if let failure = outcome.failure {
            for diagnostic in failure.allDiagnostics { Console.standardError.line(diagnostic.formatted(file: name)) }
            throw ExitStatus.invalid
        }
        if outcome.summary.diagnostics.contains(where: { $0.severity == .error }) { throw ExitStatus.invalid }
    }

    /// The NDJSON line of `part` (without its newline), or nil when the filters leave it out.
    static func line(
        for part: StreamPart, only: Selection, types: Set<String>, writer: inout JSONWriter
    ) -> [UInt8]? {
        writer.reset(keepingCapacity: true)
        writer.beginObject()
        writer.key("part")
        switch part {
        case .resource(let resource):
            switch (only, resource.section) {
            case (.primary, .included), (.included, .primary): return nil
            default: break
            }
            let object = resource.object
            let type = object.type
            if !types.isEmpty && !types.contains(type) { return nil }
            writer.string("resource")
            writer.key("section")
            writer.string(resource.section.rawValue)
            writer.key("index")
            writer.number(resource.index)
            writer.key("offset")
            writer.number(resource.offset)
            writer.key("pointer")
            writer.string(resource.pointer)
            writer.key("type")
            writer.string(type)
            if let id = object.id {
                writer.key("id")
                writer.string(id)
            }
            if let lid = object.lid {
                writer.key("lid")
                writer.string(lid)
            }
            writer.key("resource")
            object.write(to: &writer, sortingKeys: false)
        case .meta(let meta):
            guard only == .all else { return nil }
            writer.string("meta")
            writer.key("value")
            meta.write(to: &writer, sortingKeys: false)
        case .links(let links):
            guard only == .all else { return nil }
            writer.string("links")
            writer.key("value")
            links.write(to: &writer, sortingKeys: false)
        case .jsonapi(let info):
            guard only == .all else { return nil }
            writer.string("jsonapi")
            writer.key("value")
            info.write(to: &writer, sortingKeys: false)
        case .error(let error, let index):
            guard only == .all else { return nil }
            writer.string("error")
            writer.key("index")
            writer.number(index)
            writer.key("value")
            error.write(to: &writer, sortingKeys: false)
        case .member(let name, let value):
            guard only == .all else { return nil }
            writer.string("member")
            writer.key("name")
            writer.string(name)
            writer.key("value")
            value.write(to: &writer, sortingKeys: false)
        }
        writer.endObject()
        return writer.bytes
    }
}
