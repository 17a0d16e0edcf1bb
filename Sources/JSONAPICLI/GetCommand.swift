import ArgumentParser
import JSONAPI

/// `jsonapi get`: one resource of a document as plain JSON, related resources embedded.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print one resource as plain JSON, its related resources embedded.",
        discussion: """
            Prints {"type", "id", ...attributes, RELATIONSHIP: related resource}: each relationship holds \
            the related resource flattened the same way (an array of them for a to-many relationship, \
            null for empty to-one linkage), down to --depth levels; beyond that, or when the document \
            does not contain the related resource, the resource identifier object. Relationships \
            without linkage are left out. The resource is found in primary data or included.
            Exit status: 0 when printed, 1 when the document is invalid or has no such resource, \
            2 on usage or I/O errors.
            """
    )

    @OptionGroup var document: DocumentOptions
    @OptionGroup var output: OutputLayoutOptions

    @Option(help: ArgumentHelp("Levels of related resources to embed (0: identifiers only).", valueName: "n"))
    var depth = 1

    @Argument(help: ArgumentHelp("The document; - reads standard input.", valueName: "file"))
    var file: String

    @Argument(help: ArgumentHelp("The resource type.", valueName: "type"))
    var type: String

    @Argument(help: ArgumentHelp("The resource id.", valueName: "id"))
    var id: String

    func validate() throws {
        if depth < 0 { throw ValidationError("--depth must be at least 0") }
    }

    func run() throws {
        let parsed = try WriterCommandSupport.load(file, options: document.parsingOptions)
        guard let resource = parsed.resource(type: type, id: id) else {
            let name = InputSource(argument: file).displayName
            Console.standardError.line("\(name): error: no resource with type `\(type)` and id `\(id)`")
            throw ExitStatus.invalid
        }
        try WriterCommandSupport.emit(resource.flattenedJSON(depth: depth, options: output.writingOptions))
    }
}
