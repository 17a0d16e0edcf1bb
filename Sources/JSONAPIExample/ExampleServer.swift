import JSONAPI
import JSONAPIServer

/// The example service as a program runs it: a seeded store served by one of the frameworks this
/// build has (package traits `Hummingbird`, `Vapor`).
public enum ExampleServer {
    /// The frameworks this build was compiled with.
    public static var frameworks: [String] {
        var names: [String] = []
        #if Hummingbird
            names.append("hummingbird")
        #endif
        #if Vapor
            names.append("vapor")
        #endif
        return names
    }

    /// The values `maximumPageSize` may take: at least one resource per page, and at most a million
    /// (about 600 MB of articles with their authors, comments and tags included).
    public static let maximumPageSizes = 1...1_000_000

    /// The `page[size]` limit unless one is given: pages of 100 keep every response small.
    public static let defaultMaximumPageSize = 100

    /// How long a connection may do nothing before the server closes it, unless one is given:
    /// 30 seconds, the adapters' default (`JSONAPIServerTimeouts.defaultIdleTimeout`).
    public static let defaultIdleTimeout: Duration = .seconds(30)

    /// The values `idleTimeout` may take: from a millisecond to a day.
    public static let idleTimeouts: ClosedRange<Duration> = .milliseconds(1) ... .seconds(86_400)

    /// Serves `articles` generated articles (and their people, comments and tags) from `seed`,
    /// kept in `storage` (default ``ExampleStorage/default``: SQLite in memory with the `SQL`
    /// trait), on 127.0.0.1:`port` with `framework` until the process is stopped; a database
    /// that holds resources already is served as it is. With `streamedArticles`
    /// above 0, also that many generated articles as one streamed collection at
    /// `/streamed-articles`. With `baseline`, also the `Codable` baseline's endpoints under
    /// `/baseline/`, the service without its response cache under `/uncached/`, and the
    /// service's answer to the benchmark's list request as precomputed bytes at
    /// `/baseline/precomputed/articles` (for `scripts/loadtest`).
    ///
    /// Collections answer pages of 10 resources unless `page[size]` asks for more, up to
    /// `maximumPageSize` (default ``defaultMaximumPageSize``); a larger `page[size]` is a 400.
    /// A connection that does nothing for `idleTimeout` (default ``defaultIdleTimeout``) is
    /// closed; what "nothing" means differs by framework (see `JSONAPIServerTimeouts` in each
    /// adapter).
    ///
    /// - Throws: ``InvalidOption`` when `maximumPageSize` is outside ``maximumPageSizes`` or
    ///   `idleTimeout` outside ``idleTimeouts``; the framework's error when the port cannot be bound.
    public static func run(
        framework: String, port: Int, articles: Int, seed: UInt64, storage: ExampleStorage = .default,
        baseline: Bool = false, maximumPageSize: Int = defaultMaximumPageSize,
        idleTimeout: Duration = defaultIdleTimeout, streamedArticles: Int = 0
    ) async throws {
        guard idleTimeouts.contains(idleTimeout) else {
            throw InvalidOption(description: "the idle timeout must be from 1 ms to a day")
        }
        let service = try await ExampleService(
            store: .seeded(articles: articles, seed: seed), storage: storage, maximumPageSize: maximumPageSize,
            streamedArticles: streamedArticles)
        switch framework {
        #if Vapor
            case "vapor":
                try await VaporFront.run(
                    service: service, port: port, baseline: baseline,
                    timeouts: .init(idleTimeout: idleTimeout))
        #endif
        #if Hummingbird
            case "hummingbird":
                try await HummingbirdFront.application(
                    service: service, port: port, baseline: baseline,
                    timeouts: .init(idleTimeout: idleTimeout)
                ).runService()
        #endif
        default: throw UnknownFramework(name: framework)
        }
    }

    /// An option outside the values it may take.
    public struct InvalidOption: Error, CustomStringConvertible {
        /// What is wrong with it.
        public var description: String
    }

    /// A framework this build does not have.
    public struct UnknownFramework: Error, CustomStringConvertible {
        /// The name asked for.
        public var name: String
        public var description: String {
            "--framework \(name) is not in this build (it has: \(ExampleServer.frameworks.joined(separator: ", ")))"
        }
    }
}
