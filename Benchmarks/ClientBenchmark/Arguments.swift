/// The command line: `serve --bytes N --seed S` or `fetch --url URL --variant NAME [--bytes N]
/// [--seed S]`, parsed by hand (the benchmark depends on no argument parser).
enum Command {
    case serve(bytes: Int, seed: UInt64)
    case fetch(url: String, variant: Variant, bytes: Int, seed: UInt64)
}

/// A command line that cannot be run, with the reason.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

/// The default document size: about 100 MB.
let defaultBytes = 100_000_000
/// The default seed of the generated document.
let defaultSeed: UInt64 = 1

let usage = """
    usage: jsonapi-client-benchmark serve [--bytes N] [--seed S]
           jsonapi-client-benchmark fetch --url URL --variant NAME [--bytes N] [--seed S]

    serve  generates a compound document of about N bytes (default \(defaultBytes)) from seed S
           (default \(defaultSeed)), listens on 127.0.0.1 on an ephemeral port, prints the port on
           the first line of standard output and a description of the document on the second,
           and answers every GET with the document.
    fetch  requests URL once with the variant NAME, decodes every resource into typed models,
           checks the counts against the generator's for N and S (the server's), and prints one
           line: variant, milliseconds, peak RSS in MiB, resources decoded.

    variants: \(Variant.allCases.map(\.rawValue).joined(separator: ", "))
    """

extension Command {
    /// Parses `arguments` (without the executable's name).
    init(_ arguments: [String]) throws(UsageError) {
        guard let mode = arguments.first else { throw UsageError(description: "no mode given") }
        var options: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard ["--bytes", "--seed", "--url", "--variant"].contains(name) else {
                throw UsageError(description: "unknown option `\(name)`")
            }
            guard let value = rest.popFirst() else { throw UsageError(description: "`\(name)` needs a value") }
            guard options[name] == nil else { throw UsageError(description: "`\(name)` given twice") }
            options[name] = value
        }
        let bytes = try Self.integer(options["--bytes"], "--bytes", default: defaultBytes)
        let seed = try Self.seed(options["--seed"])
        guard bytes > 0 else { throw UsageError(description: "`--bytes` must be positive") }
        switch mode {
        case "serve":
            for name in ["--url", "--variant"] where options[name] != nil {
                throw UsageError(description: "`serve` takes no `\(name)`")
            }
            self = .serve(bytes: bytes, seed: seed)
        case "fetch":
            guard let url = options["--url"] else { throw UsageError(description: "`fetch` needs `--url URL`") }
            guard url.hasPrefix("http://") else { throw UsageError(description: "the URL must start with http://") }
            guard let name = options["--variant"] else {
                throw UsageError(description: "`fetch` needs `--variant NAME`")
            }
            guard let variant = Variant(rawValue: name) else {
                throw UsageError(description: "unknown variant `\(name)`")
            }
            self = .fetch(url: url, variant: variant, bytes: bytes, seed: seed)
        default:
            throw UsageError(description: "unknown mode `\(mode)`")
        }
    }

    private static func integer(_ text: String?, _ name: String, default value: Int) throws(UsageError) -> Int {
        guard let text else { return value }
        guard let number = Int(text.filter { $0 != "_" }) else {
            throw UsageError(description: "`\(name)` takes a whole number, not `\(text)`")
        }
        return number
    }

    private static func seed(_ text: String?) throws(UsageError) -> UInt64 {
        guard let text else { return defaultSeed }
        guard let seed = UInt64(text) else {
            throw UsageError(description: "`--seed` takes a non-negative whole number, not `\(text)`")
        }
        return seed
    }
}
