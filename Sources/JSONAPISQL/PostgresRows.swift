import JSONAPI
import Logging
import PostgresKit
import SQLKit

// Rows of a `PostgresClient`'s connections read by PostgresNIO directly. Through SQLKit, each
// column of each row is a generic `decode(column:as:)`: two look-ups of the name, a coding path
// built, a dynamic cast to find the type's decoder. Here a cell is found once and decoded by
// the decoder of the type its column holds; a row whose columns hold a type this reader does not
// know is read again through SQLKit, which decides what it means.

/// A connection of a `PostgresClient` lent to one request, as SQLKit sees it, and the connection
/// itself, for the row reader.
struct PostgresSessionDatabase: SQLDatabase {
    let connection: PostgresConnection
    let base: any SQLDatabase

    init(_ connection: PostgresConnection) {
        self.connection = connection
        base = connection.sql(queryLogLevel: .debug)
    }

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void)
        -> EventLoopFuture<Void>
    {
        base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// A value this reader leaves to SQLKit: a column type it does not know, or a cell its type's
/// decoder refused.
struct PostgresRowDeclined: Error {}

/// A PostgreSQL row read cell by cell.
struct PostgresRecordRow: SQLRecordRow {
    let row: PostgresRandomAccessRow

    private func cell(_ column: String) throws -> PostgresCell {
        guard row.contains(column) else { throw PostgresRowDeclined() }
        return row[column]
    }

    private func decode<T: PostgresDecodable>(
        _ type: T.Type, _ column: String, from types: Set<PostgresDataType>
    ) throws -> T? {
        let cell = try cell(column)
        guard cell.bytes != nil else { return nil }
        guard types.contains(cell.dataType) else { throw PostgresRowDeclined() }
        do {
            return try cell.decode(T.self, context: .default)
        } catch {
            throw PostgresRowDeclined()
        }
    }

    static let textTypes: Set<PostgresDataType> = [.text, .varchar, .name, .bpchar]
    static let integerTypes: Set<PostgresDataType> = [.int2, .int4, .int8]
    static let realTypes: Set<PostgresDataType> = [.float4, .float8]
    static let booleanTypes: Set<PostgresDataType> = [.bool]

    func text(_ column: String) throws -> String? { try decode(String.self, column, from: Self.textTypes) }
    func integer(_ column: String) throws -> Int64? { try decode(Int64.self, column, from: Self.integerTypes) }
    func real(_ column: String) throws -> Double? { try decode(Double.self, column, from: Self.realTypes) }
    func boolean(_ column: String) throws -> Bool? { try decode(Bool.self, column, from: Self.booleanTypes) }
}

extension SQLStatements {
    /// Whether rows of a `PostgresClient`'s connections are read by PostgresNIO (the default);
    /// false reads them through SQLKit, as any other database's, to compare the two.
    @TaskLocal static var readsPostgresRows = true

    /// The resource objects of the rows `select` selects (``record(_:fields:)`` of each). On a
    /// connection of a `PostgresClient` the rows are read by PostgresNIO (see the top of this
    /// file); anywhere else, or when a value to bind is not one PostgresNIO encodes, through SQLKit.
    func records(_ select: SQLQueryString, on database: any SQLDatabase, fields: Set<String>? = nil)
        async throws -> [JSONAPIResourceObject]
    {
        if Self.readsPostgresRows, let counting = database as? CountingDatabase,
            let session = counting.base as? PostgresSessionDatabase
        {
            let (sql, binds) = session.base.serialize(select)
            var bindings = PostgresBindings(capacity: binds.count)
            if Self.append(binds, to: &bindings) {
                counting.counter.countStatement()
                let rows = try await session.connection.query(
                    PostgresQuery(unsafeSQL: sql, binds: bindings), logger: session.logger)
                var records: [JSONAPIResourceObject] = []
                for try await row in rows {
                    do {
                        records.append(try record(PostgresRecordRow(row: row.makeRandomAccess()), fields: fields))
                    } catch is PostgresRowDeclined {
                        records.append(try record(SQLKitRecordRow(row: row.sql()), fields: fields))
                    }
                }
                return records
            }
        }
        return try await database.raw(select).all().map { try record(SQLKitRecordRow(row: $0), fields: fields) }
    }

    /// Appends each value PostgresNIO encodes itself, as PostgresKit would; false when one is not.
    private static func append(_ binds: [any Encodable & Sendable], to bindings: inout PostgresBindings) -> Bool {
        for bind in binds {
            guard let value = bind as? any PostgresEncodable else { return false }
            do {
                try bindings.append(value, context: .default)
            } catch {
                return false
            }
        }
        return true
    }
}
