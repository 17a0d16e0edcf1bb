import JSONAPIExample

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `jsonapi-example-server [--port N] [--articles N] [--seed S] [--database WHERE] [--maximum-page-size N]
/// [--idle-timeout S] [--framework NAME] [--baseline] [--streamed-articles N]`
struct ServerOptions {
    var port = 8080
    var articles = 50
    var seed: UInt64 = 1
    var storage = ExampleStorage.default
    var maximumPageSize = ExampleServer.defaultMaximumPageSize
    var framework = "hummingbird"
    var baseline = false
    var streamedArticles = 0
    var idleTimeout = ExampleServer.defaultIdleTimeout

    static let usage = """
        USAGE: jsonapi-example-server [--port N] [--articles N] [--seed S] [--database WHERE]
                                      [--maximum-page-size N] [--idle-timeout S]
                                      [--framework hummingbird|vapor] [--baseline] [--streamed-articles N]

        A JSON:API 1.1 service declared on the resource layer: /articles, /people, /comments,
        /tags and POST /operations (Atomic Operations), described by its OpenAPI document at
        GET /openapi.json (in a build with the OpenAPI trait).

        OPTIONS:
          --port N          TCP port on 127.0.0.1 (default 8080; 0 picks a free one)
          --articles N      number of generated articles (default 50)
          --seed S          seed of the generated data; the same seed gives the same data (default 1)
          --database WHERE  where the resources are kept: sqlite (in memory; the default in a build
                            with the SQL trait), sqlite:PATH (a file), memory (the process's own),
                            or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE; the seed goes into
                            empty tables, and a database holding resources is served as it is
          --maximum-page-size N
                            the largest page[size] a collection serves (\(ExampleServer.maximumPageSizes.lowerBound)...\(ExampleServer.maximumPageSizes.upperBound),
                            default \(ExampleServer.defaultMaximumPageSize)); pages are 10 resources unless page[size] asks
                            for more, and a larger page[size] is a 400
          --idle-timeout S  seconds a connection may do nothing before the server closes it
                            (default \(ExampleServer.defaultIdleTimeout.components.seconds); fractions allowed)
          --framework NAME  the HTTP framework: hummingbird (default) or vapor
          --baseline        also serve the load benchmark's Codable baseline under /baseline/ and
                            the service without its response cache under /uncached/
          --streamed-articles N
                            also N generated articles as one streamed collection at
                            /streamed-articles (0...100000000; default 0)
          -h, --help        show this help
        """

    /// Parses the arguments after the program name; nil with a message on a bad one.
    static func parse(_ arguments: [String]) -> Result<ServerOptions?, ParseFailure> {
        var options = ServerOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" { return .success(nil) }
            if argument == "--baseline" {
                options.baseline = true
                continue
            }
            guard let value = rest.popFirst() else { return .failure(ParseFailure("\(argument) needs a value")) }
            switch argument {
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    return .failure(ParseFailure("--port takes 0...65535"))
                }
                options.port = port
            case "--articles":
                guard let count = Int(value), (0...1_000_000).contains(count) else {
                    return .failure(ParseFailure("--articles takes 0...1000000"))
                }
                options.articles = count
            case "--maximum-page-size":
                let sizes = ExampleServer.maximumPageSizes
                guard let size = Int(value), sizes.contains(size) else {
                    return .failure(ParseFailure("--maximum-page-size takes \(sizes.lowerBound)...\(sizes.upperBound)"))
                }
                options.maximumPageSize = size
            case "--idle-timeout":
                // Checked as a number first: converting an out-of-range one would trap.
                guard let seconds = Double(value), (0.001...86_400).contains(seconds) else {
                    return .failure(ParseFailure("--idle-timeout takes seconds from 0.001 to 86400"))
                }
                options.idleTimeout = .milliseconds(Int64((seconds * 1000).rounded()))
            case "--streamed-articles":
                guard let count = Int(value), (0...100_000_000).contains(count) else {
                    return .failure(ParseFailure("--streamed-articles takes 0...100000000"))
                }
                options.streamedArticles = count
            case "--database":
                do {
                    options.storage = try ExampleStorage(parsing: value)
                } catch {
                    return .failure(ParseFailure("\(error)"))
                }
            case "--seed":
                guard let seed = UInt64(value) else {
                    return .failure(ParseFailure("--seed takes an unsigned integer"))
                }
                options.seed = seed
            case "--framework":
                guard ExampleServer.frameworks.contains(value) else {
                    let available = ExampleServer.frameworks.map { "`\($0)`" }.joined(separator: ", ")
                    return .failure(ParseFailure("--framework takes one of \(available) (this build has those)"))
                }
                options.framework = value
            default:
                return .failure(ParseFailure("unknown option \(argument)"))
            }
        }
        return .success(options)
    }

    struct ParseFailure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

switch ServerOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(nil):
    print(ServerOptions.usage)
case .success(let options?):
    try await ExampleServer.run(
        framework: options.framework, port: options.port, articles: options.articles, seed: options.seed,
        storage: options.storage, baseline: options.baseline, maximumPageSize: options.maximumPageSize,
        idleTimeout: options.idleTimeout,
        streamedArticles: options.streamedArticles)
case .failure(let failure):
    print("error: \(failure.message)\n\n\(ServerOptions.usage)")
    exit(2)
}
