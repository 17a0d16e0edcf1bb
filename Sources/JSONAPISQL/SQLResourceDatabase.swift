import JSONAPI
import JSONAPIServer
import Logging
import NIOCore
import SQLKit

/// A SQL database holding declared resources: SQLite embedded in the process (a file, or memory),
/// or a PostgreSQL server that several instances of a service share. It hands each declared table
/// its data source, runs every write in one transaction, and keeps the change counters that tell
/// the service when an answer it wrote before is still current.
///
/// ```swift
/// let database = try await SQLResourceDatabase.sqlite(.file(path: "library.sqlite"))
/// var books = SQLTable(Book.self)
/// books.toOne("author", column: "author_id")
/// books.toMany("reviews", inverseOf: "book")
/// var service = ResourceService()
/// service.serve(ResourceDeclaration(source: database.source(books)))
/// service.serve(ResourceDeclaration(source: database.source(SQLTable(Author.self))))
/// service.serve(ResourceDeclaration(source: database.source(SQLTable(Review.self))))
/// service.transaction = database        // Atomic Operations in one transaction
/// try await database.createTables()     // for a new database; existing tables are used as they are
/// ```
///
/// Every value a request carries reaches the database as a bound parameter, never as SQL text;
/// every name in a statement is one of the declaration's, quoted. Errors never show SQL, a table
/// name or a driver's message to a client: a database that cannot be reached is a 503 with
/// `Retry-After`, a constraint the write breaks is the JSON:API answer for it (409, 404), and
/// anything else a 500 whose detail says only that the database failed.
public final class SQLResourceDatabase: ResourceTransaction, Sendable {
    /// How long a request waits for a connection (a server that is down, every connection busy)
    /// before it is answered 503. Default 5 seconds.
    public let connectionTimeout: Duration
    /// The `Retry-After` of a 503, in seconds. Default 5.
    public let retryAfterSeconds: Int
    let sessions: any SQLSessions
    let flavor: SQLFlavor
    let logger: Logger
    private let state = Locked(State())

    private struct State {
        /// The declared tables, by resource type.
        var tables: [String: SQLTableInfo] = [:]
        /// Whether the database has the change counters (``installChangeTracking()``); nil until
        /// first asked.
        var tracksChanges: Bool?
        /// Statements run since the database was opened.
        var statements = 0
    }

    init(
        sessions: any SQLSessions, flavor: SQLFlavor, connectionTimeout: Duration, retryAfterSeconds: Int,
        logger: Logger
    ) {
        self.sessions = sessions
        self.flavor = flavor
        self.connectionTimeout = connectionTimeout
        self.retryAfterSeconds = retryAfterSeconds
        self.logger = logger
    }

    /// Closes the database's connections (and stops a PostgreSQL client it started).
    public func shutdown() async {
        await sessions.shutdown()
    }

    /// The data source of `table`'s resources; declares the table to the database, which needs
    /// every table a relationship reaches.
    public func source<Model>(_ table: SQLTable<Model>) -> SQLDataSource<Model> {
        let info = SQLTableInfo(table)
        state.withLock { $0.tables[info.type] = info }
        return SQLDataSource(database: self, table: info)
    }

    /// How many statements the database has run since it was opened: what a benchmark or a test
    /// compares before and after a request to count its statements.
    public var statementsExecuted: Int { state.withLock { $0.statements } }

    /// The declared table of a resource type.
    func table(_ type: String) -> SQLTableInfo? { state.withLock { $0.tables[type] } }

    /// Every declared table.
    var tables: [SQLTableInfo] { state.withLock { Array($0.tables.values) }.sorted { $0.type < $1.type } }

    func countStatement() { state.withLock { $0.statements += 1 } }

    /// Whether the database has change counters (nil until known).
    var tracksChanges: Bool? {
        get { state.withLock { $0.tracksChanges } }
        set { state.withLock { $0.tracksChanges = newValue } }
    }

    // MARK: Sessions and transactions

    /// The connection a task's transaction holds, per database.
    @TaskLocal static var active: ActiveSessions = ActiveSessions()

    struct ActiveSessions: Sendable {
        var sessions: [ObjectIdentifier: any SQLDatabase] = [:]
    }

    /// Runs `body` with a connection of the database: inside a write (a hook such as
    /// `beforeWrite` or `afterWrite`, an Atomic Operations request) the connection of its
    /// transaction, so that what `body` writes is committed with the request or rolled back with
    /// it; elsewhere a connection of its own, waited for at most ``connectionTimeout``.
    ///
    /// ```swift
    /// books.afterWrite = { book, write, _ in
    ///     try await database.withConnection { sql in
    ///         try await sql.insert(into: "audit").columns("book", "change").values(SQLBind(book.id), SQLBind("\(write)")).run()
    ///     }
    /// }
    /// ```
    public func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await session(body)
    }

    /// Runs `body` on the connection of the task's transaction with this database, or on a
    /// connection of its own.
    func session<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result)
        async throws -> Result
    {
        if let active = Self.active.sessions[ObjectIdentifier(self)] {
            return try await guarded { try await Self.storedValues { try await body(active) } }
        }
        return try await guarded {
            try await self.sessions.withSession(timeout: self.connectionTimeout, writing: false) { database in
                try await Self.storedValues { try await body(CountingDatabase(database, counter: self)) }
            }
        }
    }

    /// Runs `body`, which reads rows: a value a row holds that its column's declaration cannot
    /// (a text in an integer column of SQLite, a table changed under the declaration) is the
    /// server's failure, answered 500 and logged, never a client's 422 with the driver's words.
    static func storedValues<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as DecodingError {
            throw SQLStoredValueError(underlying: error)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// Inside, every statement of this database's sources runs on the transaction's connection; a
    /// transaction begun inside one joins it.
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        if Self.active.sessions[ObjectIdentifier(self)] != nil { return try await body() }
        return try await guarded {
            try await self.sessions.withSession(timeout: self.connectionTimeout, writing: true) { connection in
                let database = CountingDatabase(connection, counter: self)
                try await database.raw(SQLQueryString(self.flavor.beginWrite)).run()
                var active = Self.active
                active.sessions[ObjectIdentifier(self)] = database
                do {
                    let result = try await Self.$active.withValue(active) { try await body() }
                    try await database.raw("COMMIT").run()
                    return result
                } catch {
                    do {
                        try await database.raw("ROLLBACK").run()
                    } catch {
                        self.logger.error("rollback failed", metadata: ["error": "\(String(reflecting: error))"])
                    }
                    throw error
                }
            }
        }
    }

    /// An Atomic Operations request in one transaction (`ResourceTransaction`).
    public func run(_ body: @escaping @Sendable () async throws -> AtomicResultsDocument) async throws
        -> AtomicResultsDocument
    {
        try await transaction(body)
    }

    /// Runs `body`, turning what the driver throws into what a client may see.
    func guarded<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch let error as any JSONAPIErrorConvertible {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SQLFailure.classify(error, flavor: flavor, retryAfter: retryAfterSeconds, logger: logger)
        }
    }
}

/// Which SQL the database speaks where the two differ.
enum SQLFlavor: Sendable {
    case sqlite
    case postgres

    /// Begins a write transaction. SQLite takes the write lock at once (`IMMEDIATE`), so that
    /// what a write checks first is what it writes over; PostgreSQL locks rows as they are read
    /// for update.
    var beginWrite: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }
}

/// A database that hands the statements it is given to another one, and describes itself as
/// that one does.
protocol ForwardingSQLDatabase: SQLDatabase {
    var base: any SQLDatabase { get }
}

extension ForwardingSQLDatabase {
    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }
}

/// A database that counts the statements run on it.
struct CountingDatabase: ForwardingSQLDatabase {
    let base: any SQLDatabase
    let counter: SQLResourceDatabase

    init(_ base: any SQLDatabase, counter: SQLResourceDatabase) {
        self.base = (base as? CountingDatabase)?.base ?? base
        self.counter = counter
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        counter.countStatement()
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        counter.countStatement()
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// A row holds a value its column's declaration cannot: a failure of the database, not of the
/// request.
struct SQLStoredValueError: Error {
    var underlying: DecodingError
}
