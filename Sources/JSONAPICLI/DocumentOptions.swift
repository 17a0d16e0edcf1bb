import ArgumentParser
import JSONAPI
import JSONAPIYajl

/// The tokenizers the tool can parse with, by the name `--backend` takes: the library's own
/// scanner, and libyajl from `JSONAPIYajl`. Another backend is one entry here (plus its import).
let registeredBackends: [ParsingOptions.Backend] = [.scanner, .yajl]

/// The document kind, as `--kind` spells it.
enum DocumentKind: String, CaseIterable, ExpressibleByArgument {
    case response
    case create
    case update
    case relationship

    var parsingKind: ParsingOptions.Kind {
        switch self {
        case .response: .response
        case .create: .createRequest
        case .update: .updateRequest
        case .relationship: .relationshipUpdate
        }
    }

    static func named(_ kind: ParsingOptions.Kind) -> DocumentKind {
        switch kind {
        case .response: .response
        case .createRequest: .create
        case .updateRequest: .update
        case .relationshipUpdate: .relationship
        }
    }
}

/// A `--backend` value: one of ``registeredBackends``.
struct BackendArgument: ExpressibleByArgument {
    let backend: ParsingOptions.Backend

    init(_ backend: ParsingOptions.Backend) {
        self.backend = backend
    }

    init?(argument: String) {
        guard let backend = registeredBackends.first(where: { $0.name == argument }) else { return nil }
        self.backend = backend
    }

    var defaultValueDescription: String { backend.name }

    static var allValueStrings: [String] { registeredBackends.map(\.name) }
}

/// The options every command that parses a JSON:API document shares.
struct DocumentOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The kind of document: a response, or the body of a create, update or relationship request.",
            valueName: "kind"))
    var kind: DocumentKind = .response

    @Flag(help: "Keep documents that break a rule but stay readable; report the problems as warnings.")
    var lenient = false

    @Option(help: ArgumentHelp("The tokenizer that reads the bytes.", valueName: "backend"))
    var backend = BackendArgument(.scanner)

    /// The parsing options these flags select.
    var parsingOptions: ParsingOptions {
        var options = ParsingOptions(kind: kind.parsingKind, lenient: lenient)
        options.backend = backend.backend
        return options
    }
}
