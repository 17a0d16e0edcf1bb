import JSONAPI
import Logging
import PostgresKit
import SQLKit
import SQLiteKit

/// Where a database's connections come from.
protocol SQLSessions: Sendable {
    /// Runs `body` on one connection, held for its duration; waits at most `timeout` for it.
    /// `writing` marks a write transaction, which a store that takes one writer at a time
    /// (SQLite) lets in one after the other.
    func withSession<Result: Sendable>(
        timeout: Duration, writing: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result

    /// Closes what it opened.
    func shutdown() async
}

/// No connection came within the timeout: the database is down, unreachable, or every
/// connection is busy.
struct SQLConnectionTimeout: Error {}

/// Runs `work`, which calls its argument once it holds a connection (and gives up when that
/// answers false); throws ``SQLConnectionTimeout`` when it has not called it within `timeout`.
/// Only the wait for a connection is timed: a long request on a connection it holds is not cut
/// short. The wait is not structured: a pool that keeps trying to connect to a server that is
/// down may not end it on cancellation, and the caller must not wait for that; the work is
/// cancelled, and a connection it gets afterwards goes straight back.
func withConnectionTimeout<Result: Sendable>(
    _ timeout: Duration,
    _ work: @escaping @Sendable (_ connected: @escaping @Sendable () -> Bool) async throws -> Result
) async throws -> Result {
    let wait = ConnectionWait<Result>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            wait.start(continuation)
            let worker = Task {
                do {
                    let result = try await work { wait.connect() }
                    wait.finish(.success(result))
                } catch {
                    wait.finish(.failure(error))
                }
            }
            let timer = Task {
                // Cancelled once the work holds its connection: then there is nothing to time.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                wait.giveUp(SQLConnectionTimeout())
            }
            wait.tasks(worker, timer)
        }
    } onCancel: {
        wait.giveUp(CancellationError())
    }
}

/// The state of one ``withConnectionTimeout(_:_:)``: waiting, connected, or ended; the caller is
/// resumed once.
final class ConnectionWait<Result: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Result, any Error>?
        var connected = false
        var ended = false
        var worker: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<Result, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func tasks(_ worker: Task<Void, Never>, _ timer: Task<Void, Never>) {
        let ended = state.withLock { state -> Bool in
            state.worker = worker
            state.timer = timer
            return state.ended
        }
        if ended {
            worker.cancel()
            timer.cancel()
        }
    }

    /// The work holds a connection: true while the caller still waits.
    func connect() -> Bool {
        let (connected, timer) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard !state.ended else { return (false, nil) }
            state.connected = true
            return (true, state.timer)
        }
        timer?.cancel()
        return connected
    }

    /// The work ended: resumes the caller, unless it already gave up.
    func finish(_ result: Swift.Result<Result, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result, any Error>? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    /// The caller stops waiting for a connection (a timeout, a cancellation): true when it did
    /// stop. Once the work holds a connection the caller waits for it to end (a cancellation
    /// only cancels it), so that nothing it does outlives the caller's wait.
    @discardableResult
    func giveUp(_ error: any Error) -> Bool {
        let (continuation, worker) = state.withLock {
            state -> (CheckedContinuation<Result, any Error>?, Task<Void, Never>?) in
            guard !state.ended else { return (nil, nil) }
            guard !state.connected else { return (nil, state.worker) }
            state.ended = true
            defer { state.continuation = nil }
            return (state.continuation, state.worker)
        }
        worker?.cancel()
        guard let continuation else { return false }
        continuation.resume(throwing: error)
        return true
    }
}

// MARK: - SQLite

extension SQLResourceDatabase {
    /// A SQLite database, embedded in the process: no server to start.
    ///
    /// A file is opened with up to `maximumConnections` connections, in write-ahead-log mode (reads
    /// go on while a write runs; writes take turns). An in-memory database lives in one connection,
    /// which requests take turns on, and is gone when the database is shut down.
    ///
    /// - Parameters:
    ///   - storage: `.file(path:)` or `.memory`.
    ///   - maximumConnections: Connections to a file. Default 4.
    ///   - connectionTimeout: How long a request waits for a connection. Default 5 s.
    ///   - logger: Where statements are logged (at `debug`) and failures (at `error`).
    public static func sqlite(
        _ storage: SQLiteConnection.Storage = .memory, maximumConnections: Int = 4,
        connectionTimeout: Duration = .seconds(5), logger: Logger = Logger(label: "jsonapi.sql")
    ) async throws -> SQLResourceDatabase {
        let size: Int
        if case .memory = storage { size = 1 } else { size = max(1, maximumConnections) }
        let pool = SQLitePool(storage: storage, size: size, logger: logger)
        // The first connection now, so that a file that cannot be opened fails here.
        try await pool.withSession(timeout: connectionTimeout, writing: false) { _ in () }
        return SQLResourceDatabase(
            sessions: pool, flavor: .sqlite, connectionTimeout: connectionTimeout, retryAfterSeconds: 1, logger: logger)
    }
}

/// SQLite connections, opened as they are first needed and lent one request at a time, each
/// running on a thread pool of the database's own (one thread per connection: a statement that
/// waits for another connection's write lock blocks its thread, and must not starve the one that
/// holds the lock). Write transactions of the process take turns here, before they ask SQLite
/// for its lock, so they wait without holding a thread.
final class SQLitePool: SQLSessions {
    private let storage: SQLiteConnection.Storage
    private let logger: Logger
    private let threads: NIOThreadPool
    private let connections: AsyncPermits<SQLiteConnection>
    private let writer = AsyncPermits<Void>([()])
    private let opened = Locked(0)
    private let size: Int

    init(storage: SQLiteConnection.Storage, size: Int, logger: Logger) {
        self.storage = storage
        self.size = size
        self.logger = logger
        threads = NIOThreadPool(numberOfThreads: size)
        threads.start()
        connections = AsyncPermits([])
    }

    func withSession<Result: Sendable>(
        timeout: Duration, writing: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        if writing { try await writer.take(timeout: timeout) }
        defer { if writing { writer.give(back: ()) } }
        let connection = try await lease(timeout: timeout)
        defer { connections.give(back: connection) }
        return try await body(connection.sql(queryLogLevel: .debug))
    }

    /// An idle connection, a new one while fewer than `size` are open, or the next one given back.
    private func lease(timeout: Duration) async throws -> SQLiteConnection {
        if let idle = connections.takeIfAvailable() { return idle }
        let opens = opened.withLock { opened -> Bool in
            guard opened < size else { return false }
            opened += 1
            return true
        }
        if opens {
            do {
                return try await open()
            } catch {
                opened.withLock { $0 -= 1 }
                throw error
            }
        }
        return try await connections.take(timeout: timeout)
    }

    private func open() async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: storage, threadPool: threads, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        let database = connection.sql(queryLogLevel: .debug)
        // Foreign keys are checked only when a connection asks; a write waits up to 5 s for
        // another process's write to end; a file keeps a write-ahead log, so reads go on while a
        // write runs.
        try await database.raw("PRAGMA foreign_keys = ON").run()
        try await database.raw("PRAGMA busy_timeout = 5000").run()
        if case .file = storage { try await database.raw("PRAGMA journal_mode = WAL").run() }
        return connection
    }

    func shutdown() async {
        for connection in connections.drain() { try? await connection.close() }
        try? await threads.shutdownGracefully()
    }

    /// A pool dropped without ``shutdown()`` closes its idle connections (each close holds its
    /// connection until it has run on the pool's threads), then stops the threads.
    deinit {
        let closing = connections.drain().map { $0.close() }
        guard !closing.isEmpty else {
            threads.shutdownGracefully { _ in }
            return
        }
        let threads = self.threads
        EventLoopFuture.andAllComplete(closing, on: MultiThreadedEventLoopGroup.singleton.any()).whenComplete { _ in
            threads.shutdownGracefully { _ in }
        }
    }
}

/// Things lent one at a time: `take` hands out one that is available or waits, in order, for
/// one to be given back.
final class AsyncPermits<Element: Sendable>: Sendable {
    private struct State {
        var available: [Element]
        var waiters: [(id: Int, continuation: CheckedContinuation<Element, any Error>)] = []
        var nextWaiter = 0
    }

    private let state: Locked<State>

    init(_ available: [Element]) { state = Locked(State(available: available)) }

    /// One that is available now, if any.
    func takeIfAvailable() -> Element? {
        state.withLock { $0.available.popLast() }
    }

    /// One that is available, or the next one given back; throws ``SQLConnectionTimeout`` when
    /// none came within `timeout`, and `CancellationError` when the task is cancelled. A waiter
    /// is removed under the lock when it gives up, so nothing given back is ever lost to it.
    func take(timeout: Duration) async throws -> Element {
        if let element = takeIfAvailable() { return element }
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let handed = state.withLock { state -> Element? in
                    if let element = state.available.popLast() { return element }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let handed {
                    continuation.resume(returning: handed)
                    return
                }
                Task {
                    try? await Task.sleep(for: timeout)
                    self.abandon(id, throwing: SQLConnectionTimeout())
                }
            }
        } onCancel: {
            abandon(id, throwing: CancellationError())
        }
    }

    /// Ends the wait of waiter `id` with `error`, if it is still waiting.
    private func abandon(_ id: Int, throwing error: any Error) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, any Error>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        waiter?.resume(throwing: error)
    }

    /// Gives one back: to the first waiter, or to the available ones.
    func give(back element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element, any Error>? in
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            state.available.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// Every available one, taken for good.
    func drain() -> [Element] {
        state.withLock { state in
            defer { state.available = [] }
            return state.available
        }
    }
}

// MARK: - PostgreSQL

extension SQLResourceDatabase {
    /// A PostgreSQL database, through PostgresNIO's connection pool (`PostgresClient`), which the
    /// database runs until it is shut down.
    ///
    /// - Parameters:
    ///   - configuration: Where the server is and how to log in; its `options` size the pool.
    ///   - connectionTimeout: How long a request waits for a connection (a server that is down is
    ///     answered 503 after it). Default 5 s.
    ///   - logger: Where statements are logged (at `debug`) and failures (at `error`).
    public static func postgres(
        _ configuration: PostgresClient.Configuration, connectionTimeout: Duration = .seconds(5),
        logger: Logger = Logger(label: "jsonapi.sql")
    ) -> SQLResourceDatabase {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let sessions = PostgresSessions(client: client, runsClient: true)
        return SQLResourceDatabase(
            sessions: sessions, flavor: .postgres, connectionTimeout: connectionTimeout, retryAfterSeconds: 5,
            logger: logger)
    }

    /// A PostgreSQL database through a `PostgresClient` the application runs itself (and shares
    /// with its other code).
    public static func postgres(
        client: PostgresClient, connectionTimeout: Duration = .seconds(5), logger: Logger = Logger(label: "jsonapi.sql")
    ) -> SQLResourceDatabase {
        SQLResourceDatabase(
            sessions: PostgresSessions(client: client, runsClient: false), flavor: .postgres,
            connectionTimeout: connectionTimeout, retryAfterSeconds: 5, logger: logger)
    }

    /// Any SQLKit database (a Fluent application's `SQLDatabase`, a Hummingbird application's
    /// pool), SQLite or PostgreSQL: transactions take one connection through its `withSession`.
    public static func shared(
        _ database: any SQLDatabase, connectionTimeout: Duration = .seconds(5),
        logger: Logger = Logger(label: "jsonapi.sql")
    ) throws -> SQLResourceDatabase {
        let flavor: SQLFlavor
        switch database.dialect.name {
        case "sqlite": flavor = .sqlite
        case "postgresql": flavor = .postgres
        default:
            throw JSONAPIError(
                .invalidOption, "JSONAPISQL works with SQLite and PostgreSQL, not \(database.dialect.name)")
        }
        return SQLResourceDatabase(
            sessions: SharedSessions(database: database), flavor: flavor, connectionTimeout: connectionTimeout,
            retryAfterSeconds: 5, logger: logger)
    }
}

/// Connections from a `PostgresClient`.
final class PostgresSessions: SQLSessions {
    let client: PostgresClient
    private let runner: Task<Void, Never>?

    init(client: PostgresClient, runsClient: Bool) {
        self.client = client
        runner = runsClient ? Task { await client.run() } : nil
    }

    func withSession<Result: Sendable>(
        timeout: Duration, writing: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await withConnectionTimeout(timeout) { connected in
            try await self.client.withConnection { connection in
                guard connected() else { throw CancellationError() }
                return try await body(PostgresSessionDatabase(connection))
            }
        }
    }

    func shutdown() async {
        runner?.cancel()
        await runner?.value
    }

    /// Dropped without ``shutdown()``, it stops the client it started.
    deinit { runner?.cancel() }
}

/// Connections from an application's own SQLKit database.
struct SharedSessions: SQLSessions {
    let database: any SQLDatabase

    func withSession<Result: Sendable>(
        timeout: Duration, writing: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await database.withSession(body)
    }

    func shutdown() async {}
}
