#if SQL
    import Foundation
    import JSONAPI
    import JSONAPISQL
    import JSONAPIServer
    import Logging
    import PostgresKit
    import SQLKit
    import Testing

    /// The databases the SQL tests run on: SQLite in memory and in a file, and the PostgreSQL server
    /// scripts/test starts (`JSONAPI_TEST_POSTGRES`, `host:port`, user `postgres`). Each test gets a
    /// database of its own: a fresh file, or a PostgreSQL schema of its own, dropped afterwards.
    enum SQLTestDatabase: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case sqliteMemory = "SQLite in memory"
        case sqliteFile = "SQLite file"
        case postgres = "PostgreSQL"

        var testDescription: String { rawValue }

        /// The kinds available here: PostgreSQL only where scripts/test (or the developer) started
        /// one. In CI (`CI=true`) it must be there.
        static var available: [SQLTestDatabase] {
            postgresAddress == nil && ProcessInfo.processInfo.environment["CI"] != "true"
                ? [.sqliteMemory, .sqliteFile] : allCases
        }

        static var postgresAddress: (host: String, port: Int)? {
            guard let value = ProcessInfo.processInfo.environment["JSONAPI_TEST_POSTGRES"] else { return nil }
            let parts = value.split(separator: ":")
            guard parts.count == 2, let port = Int(parts[1]) else { return nil }
            return (String(parts[0]), port)
        }

        static let logger: Logger = {
            var logger = Logger(label: "jsonapi.sql.tests")
            logger.logLevel = .critical
            return logger
        }()

        /// A configuration for the test server whose connections use `schema`.
        static func postgresConfiguration(schema: String?) throws -> PostgresClient.Configuration {
            guard let address = postgresAddress else {
                throw TestSetupError(
                    "JSONAPI_TEST_POSTGRES is not set: scripts/test starts a PostgreSQL server for these tests")
            }
            var configuration = PostgresClient.Configuration(
                host: address.host, port: address.port, username: "postgres", password: nil, database: "postgres",
                tls: .disable)
            if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
            configuration.options.maximumConnections = 8
            return configuration
        }

        /// Runs `body` with a new, empty database of this kind, shut down and removed afterwards.
        func with<Result: Sendable>(
            connectionTimeout: Duration = .seconds(5), _ body: (SQLResourceDatabase) async throws -> Result
        ) async throws -> Result {
            switch self {
            case .sqliteMemory:
                let database = try await SQLResourceDatabase.sqlite(
                    .memory, connectionTimeout: connectionTimeout, logger: Self.logger)
                defer { Task { await database.shutdown() } }
                return try await body(database)
            case .sqliteFile:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "jsonapi-sql-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let database = try await SQLResourceDatabase.sqlite(
                    .file(path: folder.appendingPathComponent("test.sqlite").path),
                    connectionTimeout: connectionTimeout,
                    logger: Self.logger)
                let result: Result
                do {
                    result = try await body(database)
                } catch {
                    await database.shutdown()
                    throw error
                }
                await database.shutdown()
                return result
            case .postgres:
                return try await Self.withSchema { configuration in
                    let database = SQLResourceDatabase.postgres(
                        configuration, connectionTimeout: connectionTimeout, logger: Self.logger)
                    let result: Result
                    do {
                        result = try await body(database)
                    } catch {
                        await database.shutdown()
                        throw error
                    }
                    await database.shutdown()
                    return result
                }
            }
        }

        /// Runs `body` with two databases on one store, as two instances of a service share one:
        /// two pools on one PostgreSQL schema, or two on one SQLite file. (An in-memory SQLite
        /// database lives in one connection: it runs `body` with itself twice.) A request waits
        /// up to `connectionTimeout` for a connection: these tests check what concurrent requests
        /// answer, and on a loaded machine ten writes queued for one connection take longer than
        /// the 5-second default.
        func withTwo<Result: Sendable>(
            connectionTimeout: Duration = .seconds(60),
            _ body: (SQLResourceDatabase, SQLResourceDatabase) async throws -> Result
        ) async throws -> Result {
            switch self {
            case .sqliteMemory:
                return try await with(connectionTimeout: connectionTimeout) { database in
                    try await body(database, database)
                }
            case .sqliteFile:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "jsonapi-sql-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let path = folder.appendingPathComponent("test.sqlite").path
                let first = try await SQLResourceDatabase.sqlite(
                    .file(path: path), connectionTimeout: connectionTimeout, logger: Self.logger)
                let second = try await SQLResourceDatabase.sqlite(
                    .file(path: path), connectionTimeout: connectionTimeout, logger: Self.logger)
                defer {
                    Task {
                        await first.shutdown()
                        await second.shutdown()
                    }
                }
                return try await body(first, second)
            case .postgres:
                return try await Self.withSchema { configuration in
                    let first = SQLResourceDatabase.postgres(
                        configuration, connectionTimeout: connectionTimeout, logger: Self.logger)
                    let second = SQLResourceDatabase.postgres(
                        configuration, connectionTimeout: connectionTimeout, logger: Self.logger)
                    let result: Result
                    do {
                        result = try await body(first, second)
                    } catch {
                        await first.shutdown()
                        await second.shutdown()
                        throw error
                    }
                    await first.shutdown()
                    await second.shutdown()
                    return result
                }
            }
        }

        /// Runs `body` with the configuration of a new, empty schema on the test server, dropped
        /// afterwards (whatever `body` left connected to it).
        static func withSchema<Result: Sendable>(
            _ body: (PostgresClient.Configuration) async throws -> Result
        ) async throws -> Result {
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await admin("CREATE SCHEMA \(schema)")
            let result: Result
            do {
                result = try await body(try postgresConfiguration(schema: schema))
            } catch {
                try? await admin("DROP SCHEMA \(schema) CASCADE")
                throw error
            }
            try await admin("DROP SCHEMA \(schema) CASCADE")
            return result
        }

        /// Runs one statement on the test server (or the one of `configuration`), outside any test's
        /// schema.
        static func admin(_ sql: String, configuration: PostgresClient.Configuration? = nil) async throws {
            let client = PostgresClient(
                configuration: try configuration ?? postgresConfiguration(schema: nil), backgroundLogger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                try await client.withConnection { connection in
                    try await connection.sql().raw(SQLQueryString(sql)).run()
                }
                group.cancelAll()
            }
        }
    }

    struct TestSetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
#endif
