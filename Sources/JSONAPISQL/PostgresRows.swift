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
struct PostgresSessionDatabase: ForwardingSQLDatabase {
    let connection: PostgresConnection
    let base: any SQLDatabase

    init(_ connection: PostgresConnection) {
        self.connection = connection
        base = connection.sql(queryLogLevel: .debug)
    }

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

/// A PostgreSQL row read cell by cell, by the cell's position (the result's columns were checked
/// against the plan's once, before its first row).
struct PostgresRecordRow: SQLRecordRow {
    let row: PostgresRandomAccessRow

    private func decode<T: PostgresDecodable>(
        _ type: T.Type, _ column: Int, _ accepts: (PostgresDataType) -> Bool
    ) throws -> T? {
        guard column < row.count else { throw PostgresRowDeclined() }
        let cell = row[column]
        guard cell.bytes != nil else { return nil }
        guard accepts(cell.dataType) else { throw PostgresRowDeclined() }
        do {
            return try cell.decode(T.self, context: .default)
        } catch {
            throw PostgresRowDeclined()
        }
    }

    // The column types each decoder reads, compared rather than hashed: once per cell.
    func text(_ column: Int) throws -> String? {
        try decode(String.self, column) { $0 == .text || $0 == .varchar || $0 == .name || $0 == .bpchar }
    }
    func integer(_ column: Int) throws -> Int64? {
        try decode(Int64.self, column) { $0 == .int8 || $0 == .int4 || $0 == .int2 }
    }
    func real(_ column: Int) throws -> Double? { try decode(Double.self, column) { $0 == .float8 || $0 == .float4 } }
    func boolean(_ column: Int) throws -> Bool? { try decode(Bool.self, column) { $0 == .bool } }

    /// Whether the row's first columns are the plan's, by name and in order.
    static func matches(_ row: PostgresRandomAccessRow, _ plan: SQLRecordPlan) -> Bool {
        guard row.count >= plan.columns.count else { return false }
        return plan.columns.indices.allSatisfy { row[$0].columnName == plan.columns[$0] }
    }
}

extension SQLStatements {
    /// Whether rows of a `PostgresClient`'s connections are read by PostgresNIO (the default);
    /// false reads them through SQLKit, as any other database's, to compare the two.
    @TaskLocal static var readsPostgresRows = true

    /// The resource objects of the rows `select` selects (``recordPlan(fields:)``'s record of each). On a
    /// connection of a `PostgresClient` the rows are read by PostgresNIO (see the top of this
    /// file); anywhere else, or when a value to bind is not one PostgresNIO encodes, through SQLKit.
    func records(_ select: SQLQueryString, on database: any SQLDatabase, fields: Set<String>? = nil)
        async throws -> [JSONAPIResourceObject]
    {
        let plan = try recordPlan(fields: fields)
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
                var matches: Bool?
                for try await row in rows {
                    let cells = row.makeRandomAccess()
                    if matches == nil { matches = PostgresRecordRow.matches(cells, plan) }
                    do {
                        guard matches == true else { throw PostgresRowDeclined() }
                        records.append(try plan.record(PostgresRecordRow(row: cells)))
                    } catch is PostgresRowDeclined {
                        records.append(try plan.record(SQLKitRecordRow(row: row.sql(), columns: plan.columns)))
                    }
                }
                return records
            }
        }
        return try await database.raw(select).all().map {
            try plan.record(SQLKitRecordRow(row: $0, columns: plan.columns))
        }
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
