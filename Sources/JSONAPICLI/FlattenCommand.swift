import ArgumentParser
import JSONAPI

/// `jsonapi flatten`: a whole document as plain nested JSON.
struct FlattenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flatten",
        abstract: "Print a document as plain nested JSON, related resources embedded.",
        discussion: """
            Prints an object whose `data` is the primary data printed as `jsonapi get` prints a \
            resource (an object, an array of them, or null), related resources embedded down to \
            --depth levels, followed by the document's other top-level members as they are (meta, \
            links, jsonapi, errors); `included` is left out, its resources embedded where linked.
            Exit status: 0 when printed, 1 when the document is invalid, 2 on usage or I/O errors.
            """
    )

    @OptionGroup var document: DocumentOptions
    @OptionGroup var output: OutputLayoutOptions

    @Option(help: ArgumentHelp("Levels of related resources to embed (0: identifiers only).", valueName: "n"))
    var depth = 1

    @Argument(help: ArgumentHelp("The document; - reads standard input.", valueName: "file"))
    var file: String

    func validate() throws {
        if depth < 0 { throw ValidationError("--depth must be at least 0") }
    }

    func run() throws {
        let parsed = try WriterCommandSupport.load(file, options: document.parsingOptions)
        try WriterCommandSupport.emit(parsed.flattenedJSON(depth: depth, options: output.writingOptions))
    }
}
