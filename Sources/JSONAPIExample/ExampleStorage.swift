import Foundation
import JSONAPI

#if SQL
    import JSONAPISQL
    import PostgresKit
#endif

/// Where the example service keeps its resources.
public enum ExampleStorage: Sendable {
    /// In the process's memory (`InMemoryDataSource`).
    case memory
    #if SQL
        /// In SQLite: a file at the path, or memory when nil (`JSONAPISQL`).
        case sqlite(path: String?)
        /// In a PostgreSQL database (`JSONAPISQL`); a request waits at most `connectionTimeout`
        /// for a connection before it is answered 503.
        case postgres(PostgresClient.Configuration, connectionTimeout: Duration = .seconds(5))
    #endif

    /// SQLite in memory where the build has the `SQL` trait, else memory.
    public static var `default`: ExampleStorage {
        #if SQL
            .sqlite(path: nil)
        #else
            .memory
        #endif
    }

    /// The storage a `--database` value names: `memory`; and with the `SQL` trait `sqlite` (in
    /// memory), `sqlite:PATH` (a file), or a PostgreSQL URL
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (no TLS; the port defaults to 5432).
    ///
    /// - Throws: ``ExampleServer/InvalidOption`` for anything else.
    public init(parsing value: String) throws {
        if value == "memory" {
            self = .memory
            return
        }
        #if SQL
            if value == "sqlite" {
                self = .sqlite(path: nil)
                return
            }
            if value.hasPrefix("sqlite:") {
                let path = String(value.dropFirst("sqlite:".count))
                guard !path.isEmpty else {
                    throw ExampleServer.InvalidOption(description: "`sqlite:` needs a file path after it")
                }
                self = .sqlite(path: path)
                return
            }
            if value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") {
                guard let url = URLComponents(string: value), let host = url.host, !host.isEmpty,
                    let user = url.user, !user.isEmpty
                else {
                    throw ExampleServer.InvalidOption(
                        description: "a PostgreSQL URL is postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
                }
                let database = String(url.path.drop { $0 == "/" })
                self = .postgres(
                    PostgresClient.Configuration(
                        host: host, port: url.port ?? 5432, username: user, password: url.password,
                        database: database.isEmpty ? user : database, tls: .disable))
                return
            }
            throw ExampleServer.InvalidOption(
                description:
                    "--database takes memory, sqlite, sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        #else
            throw ExampleServer.InvalidOption(
                description: "--database takes memory (this build has no SQL trait for SQLite or PostgreSQL)")
        #endif
    }

    #if SQL
        /// The database of a SQL storage.
        func database() async throws -> SQLResourceDatabase {
            switch self {
            case .memory: throw ExampleServer.InvalidOption(description: "memory is not a database")
            case .sqlite(let path): return try await .sqlite(path.map { .file(path: $0) } ?? .memory)
            case .postgres(let configuration, let timeout): return .postgres(configuration, connectionTimeout: timeout)
            }
        }
    #endif
}
