import JSONAPI
import JSONAPIServer
import SQLKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The resources of one table: a `ResourceDataSource` that answers every query
/// parameter in SQL (filters, including through relationships; sort with the id last; pages;
/// counts when the table asks) and reads rows straight into resource objects.
///
/// Made by ``SQLResourceDatabase/source(_:)``. Each read is one statement, with the ids of every
/// to-many relationship selected beside the row; an `include` costs one statement per path and
/// level (the service asks for the related ids together). Each write runs in one transaction
/// with the service's checks and hooks (``transaction(_:)``), and a to-many relationship that is
/// the inverse of a to-one is written as that to-one: one fact, read the same from both sides.
public final class SQLDataSource<Model: JSONAPIResource & Codable & Sendable>: ResourceRecordSource, Sendable {
    let database: SQLResourceDatabase
    let table: SQLTableInfo

    init(database: SQLResourceDatabase, table: SQLTableInfo) {
        self.database = database
        self.table = table
    }

    /// The statements of this table, with the database's other tables as they are declared now.
    private func statements() throws -> SQLStatements {
        if let problem = table.problems.first { throw SQLDeclarationError(problem) }
        let database = database
        return SQLStatements(table: table, flavor: database.flavor) { database.table($0) }
    }

    // MARK: Reading

    public func listRecords(_ query: ResourceListQuery) async throws -> ResourceList<JSONAPIResourceObject> {
        let statements = try statements()
        let countsTotal = table.countsTotal
        let isKeyset: Bool
        if case .cursor? = query.page { isKeyset = true } else { isKeyset = false }
        // One row past the page tells whether another follows (or, read backwards, precedes).
        let probesNext = (!countsTotal || isKeyset) && query.page != nil
        let select: SQLQueryString
        do {
            select = try statements.select(query, probesNext: probesNext)
        } catch is SQLCursorError {
            throw JSONAPIHTTPError.invalidCursor(query.after != nil ? "page[after]" : "page[before]")
        }
        let count = countsTotal ? try statements.count(query.filter) : nil
        let backwards = SQLStatements.readsBackwards(query)
        return try await database.session { database in
            let fields = query.fields
            var records = try await statements.records(select, on: database, fields: fields)
            var list = ResourceList(models: records, total: nil)
            if let count {
                let row = try await database.raw(count).first()
                list.total = try row.map { Int(try $0.decode(column: "n", as: Int64.self)) }
            }
            if probesNext, let (_, limit) = SQLStatements.window(query.page) {
                let more = records.count > limit
                if more { records.removeLast(records.count - limit) }
                if backwards {
                    list.models = records.reversed()
                    list.hasPreviousPage = more
                } else {
                    list.models = records
                    list.hasNextPage = more
                    if isKeyset && query.after == nil { list.hasPreviousPage = false }
                }
            }
            return list
        }
    }

    /// The row of `id`, locked until the transaction ends in PostgreSQL (`FOR UPDATE`); SQLite's
    /// write transaction holds the whole database already.
    public func recordForUpdate(id: String) async throws -> JSONAPIResourceObject? {
        let statements = try statements()
        guard var select = try statements.select(ids: [id]) else { return nil }
        if database.flavor == .postgres { select += " FOR UPDATE OF \(ident: statements.alias)" }
        let locking = select
        return try await database.session { database in
            try await statements.records(locking, on: database).first
        }
    }

    public func records(ids: [String]) async throws -> [JSONAPIResourceObject] {
        let statements = try statements()
        guard let select = try statements.select(ids: ids) else { return [] }
        return try await database.session { database in
            try await statements.records(select, on: database)
        }
    }

    /// Every record `query` matches, read in batches as the consumer asks for them, each batch
    /// one statement that starts after the last row of the one before (in the query's order,
    /// then the id). The first batch is 500 rows, so that the first bytes leave soon; each next
    /// one doubles, up to 4,000, so that a long stream costs few statements and connection
    /// leases. No connection or transaction is held between batches, so a slow reader holds
    /// only a batch; a row changed while the stream runs is read where it was or where it is
    /// when its batch is read.
    public func streamRecords(_ query: ResourceListQuery) -> AsyncThrowingStream<JSONAPIResourceObject, any Error> {
        batches(query) { $0 }
    }

    /// The rows of `query` as `transform` makes them, a batch at a time (``streamBatchSizes``).
    private func batches<Element: Sendable>(
        _ query: ResourceListQuery, _ transform: @escaping @Sendable (JSONAPIResourceObject) throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        let sort = query.sort
        return unfoldingStream(SQLStreamCursor<Element>()) { [self, query] cursor in
            while cursor.index == cursor.batch.count {
                if cursor.ended { return nil }
                let statements = try self.statements()
                let after = try cursor.position.map { try statements.after($0, sort: sort) }
                let sizes = Self.streamBatchSizes
                let size = cursor.size == 0 ? sizes.first : min(cursor.size * 2, sizes.last)
                var batch = query
                batch.page = .offset(0, limit: size)
                let sql = try statements.select(batch, after: after)
                let records = try await self.database.session { database in
                    try await statements.records(sql, on: database)
                }
                cursor.size = size
                cursor.batch = try records.map(transform)
                cursor.index = 0
                cursor.ended = records.count < size
                if let last = records.last { cursor.position = statements.position(of: last, sort: sort) }
            }
            cursor.index += 1
            return cursor.batch[cursor.index - 1]
        }
    }

    /// How many rows a stream reads per statement: the first batch, and the most any batch
    /// reads (each batch doubles the one before).
    static var streamBatchSizes: (first: Int, last: Int) { (500, 4_000) }

    public func list(_ query: ResourceListQuery) async throws -> ResourceList<Model> {
        // A model needs every member, whatever the query's fields.
        var query = query
        query.fields = nil
        let page = try await listRecords(query)
        return ResourceList(
            models: try page.models.map(Self.model), total: page.total, hasNextPage: page.hasNextPage,
            hasPreviousPage: page.hasPreviousPage)
    }

    public func fetch(id: String) async throws -> Model? {
        try await records(ids: [id]).first.map(Self.model)
    }

    public func fetch(ids: [String]) async throws -> [Model] {
        try await records(ids: ids).map(Self.model)
    }

    public func stream(_ query: ResourceListQuery) -> AsyncThrowingStream<Model, any Error> {
        batches(query, Self.model)
    }

    static func model(_ record: JSONAPIResourceObject) throws -> Model {
        try ResourceRecords.model(Model.self, from: record)
    }

    /// True when `target` is a source of the same database and the relationship's table is
    /// declared there: the condition becomes a correlated `EXISTS` over the related table, one
    /// statement whatever the number of related rows.
    public func evaluatesFilter(through relationship: String, to target: any ResourceDataSource) -> Bool {
        guard let target = target as? any SQLBackedSource, target.sqlDatabase === database,
            let shape = table.relationship(relationship)
        else { return false }
        return database.table(shape.target) != nil
    }

    /// True: a text column refuses U+0000 (PostgreSQL's text cannot hold it; SQLite's is held to
    /// the same rule, so that a service answers the same on either), a 422 at the attribute.
    public var refusesNullCharacterInText: Bool { true }

    // MARK: Versions and transactions

    /// The sum of the change counters of every table this one's resources read (its own, its
    /// to-many relationships' tables), or nil when the database has no change counters
    /// (``SQLResourceDatabase/installChangeTracking()``).
    public func currentVersion() async throws -> UInt64? {
        try await database.version(of: try tablesRead())
    }

    /// The tables a resource object of this table is read from.
    func tablesRead() throws -> [String] {
        var names = [table.name]
        for relationship in table.relationships {
            switch relationship.storage {
            case .foreignKey: break
            case .inverse: if let other = database.table(relationship.target) { names.append(other.name) }
            case .joinTable(let name, _, _): names.append(name)
            }
        }
        return names
    }

    /// Runs `body` in one transaction of the database (``SQLResourceDatabase/transaction(_:)``).
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        try await database.transaction(body)
    }

    // MARK: Writing

    public func makeID() async throws -> String {
        switch table.idKind {
        case .text: return UUID().uuidString.lowercased()
        case .integer:
            let table = table
            let flavor = database.flavor
            return try await database.session { database in
                // One past the largest id, with the ids of the table taken by this transaction
                // until it ends: SQLite's write lock (`BEGIN IMMEDIATE`) already does it; in
                // PostgreSQL a lock of the table's name serializes the creates, and nothing else.
                // A create that fails leaves no gap: its id was never written.
                if flavor == .postgres {
                    try await database.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: table.name)))").run()
                }
                let next: SQLQueryString =
                    "SELECT COALESCE(MAX(\(ident: table.idColumn)), 0) + 1 AS \(ident: "n") FROM \(ident: table.name)"
                let row = try await database.raw(next).first()
                return String(try row?.decode(column: "n", as: Int64.self) ?? 1)
            }
        }
    }

    /// Stores `models` as they are, many rows per statement, in one transaction: seeding a table,
    /// or loading it from elsewhere. No hook or check of the service runs; a to-many relationship
    /// held in a join table gets its rows, one held as the inverse of another table's foreign key
    /// is that table's to write. Faster than a create per model by the statements it saves.
    ///
    /// - Throws: What a create would for a model (a taken id is a 409, an id an integer table
    ///   cannot hold a 422), and nothing is stored then.
    public func insert(_ models: [Model]) async throws {
        guard !models.isEmpty else { return }
        let statements = try statements()
        let records = try ResourceRecords.records(of: models)
        let table = table
        try await database.transaction {
            try await self.database.session { database in
                var columns: [String] = [table.idColumn] + table.attributes.map(\.column)
                for relationship in table.relationships {
                    if case .foreignKey(let column, _) = relationship.storage { columns.append(column) }
                }
                // Rows per statement: 2,000 parameters at most, well within SQLite's and
                // PostgreSQL's limits.
                let rowsPerStatement = max(1, 2_000 / columns.count)
                var start = 0
                while start < records.count {
                    let batch = records[start..<min(start + rowsPerStatement, records.count)]
                    var rows: [SQLQueryString] = []
                    for record in batch {
                        guard let id = record.id, let idBind = SQLStatements.idBind(id, table.idKind) else {
                            throw self.invalidID(record.id ?? "")
                        }
                        var values: [any Encodable & Sendable] = [idBind]
                        for attribute in table.attributes {
                            values.append(try statements.bind(attribute: attribute, of: record))
                        }
                        for relationship in table.relationships {
                            guard case .foreignKey = relationship.storage else { continue }
                            values.append(try self.foreignKeyBind(relationship, of: record))
                        }
                        rows.append("(\(binds: values))")
                    }
                    try await database.raw(
                        "INSERT INTO \(ident: table.name) (\(idents: columns, joinedBy: ", ")) VALUES "
                            + rows.joined(separator: ", ")
                    ).run()
                    start += rowsPerStatement
                }
                try await self.insertJoinRows(records, database)
            }
        }
    }

    /// The join-table rows of `records`' to-many relationships, many per statement.
    private func insertJoinRows(_ records: [JSONAPIResourceObject], _ database: any SQLDatabase) async throws {
        for relationship in table.relationships {
            guard case .joinTable(let name, let ownColumn, let otherColumn) = relationship.storage,
                let other = self.database.table(relationship.target)
            else { continue }
            var rows: [SQLQueryString] = []
            func flush() async throws {
                guard !rows.isEmpty else { return }
                try await database.raw(
                    "INSERT INTO \(ident: name) (\(ident: ownColumn), \(ident: otherColumn)) VALUES "
                        + rows.joined(separator: ", ")
                ).run()
                rows.removeAll(keepingCapacity: true)
            }
            for record in records {
                guard let id = record.id, let own = SQLStatements.idBind(id, table.idKind),
                    case .many(let identifiers)? = record.relationships[relationship.member]?.data
                else { continue }
                var seen = Set<String>()
                for identifier in identifiers {
                    guard let otherID = identifier.id, seen.insert(otherID).inserted else { continue }
                    guard let bind = SQLStatements.idBind(otherID, other.idKind) else {
                        throw Self.relatedNotFound(relationship, otherID)
                    }
                    rows.append("(\(bind: own), \(bind: bind))")
                    if rows.count == 1000 { try await flush() }
                }
            }
            try await flush()
        }
    }

    public func create(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let statements = try statements()
        guard let id = record.id, let idBind = SQLStatements.idBind(id, table.idKind) else {
            throw self.invalidID(record.id ?? "")
        }
        return try await database.transaction {
            try await self.database.session { database in
                var columns: [String] = [self.table.idColumn]
                var values: [any Encodable & Sendable] = [idBind]
                for attribute in self.table.attributes {
                    columns.append(attribute.column)
                    values.append(try statements.bind(attribute: attribute, of: record))
                }
                for relationship in self.table.relationships {
                    guard case .foreignKey(let column, _) = relationship.storage else { continue }
                    columns.append(column)
                    values.append(try self.foreignKeyBind(relationship, of: record))
                }
                try await database.raw(
                    "INSERT INTO \(ident: self.table.name) (\(idents: columns, joinedBy: ", ")) VALUES (\(binds: values))"
                ).run()
                try await self.writeToMany(record, database)
            }
            return try await self.stored(id)
        }
    }

    public func update(_ model: Model) async throws -> Model {
        let record = try ResourceRecords.record(of: model)
        let statements = try statements()
        guard let id = record.id, let idBind = SQLStatements.idBind(id, table.idKind) else {
            throw ResourceDataSourceError.notFound(record.id ?? "")
        }
        return try await database.transaction {
            try await self.database.session { database in
                var assignments: [SQLQueryString] = []
                for attribute in self.table.attributes {
                    assignments.append(
                        "\(ident: attribute.column) = \(bind: try statements.bind(attribute: attribute, of: record))")
                }
                for relationship in self.table.relationships {
                    guard case .foreignKey(let column, _) = relationship.storage else { continue }
                    assignments.append("\(ident: column) = \(bind: try self.foreignKeyBind(relationship, of: record))")
                }
                let assignmentList: SQLQueryString =
                    assignments.isEmpty
                    ? "\(ident: self.table.idColumn) = \(ident: self.table.idColumn)"
                    : assignments.joined(separator: ", ")
                let rows = try await database.raw(
                    "UPDATE \(ident: self.table.name) SET " + assignmentList
                        + " WHERE \(ident: self.table.idColumn) = \(bind: idBind) RETURNING \(ident: self.table.idColumn)"
                ).all()
                guard !rows.isEmpty else { throw ResourceDataSourceError.notFound(id) }
                try await self.writeToMany(record, database)
            }
            return try await self.stored(id)
        }
    }

    public func delete(id: String) async throws -> Bool {
        guard let idBind = SQLStatements.idBind(id, table.idKind) else { return false }
        return try await database.transaction {
            try await self.database.session { database in
                let exists = try await database.raw(
                    "SELECT 1 AS \(ident: "e") FROM \(ident: self.table.name) WHERE \(ident: self.table.idColumn) = \(bind: idBind)"
                ).first()
                guard exists != nil else { return false }
                try await self.database.delete(type: self.table.type, ids: [id], on: database)
                return true
            }
        }
    }

    /// The model of `id` as the table now holds it.
    private func stored(_ id: String) async throws -> Model {
        guard let record = try await records(ids: [id]).first else { throw ResourceDataSourceError.notFound(id) }
        return try Self.model(record)
    }

    /// A to-one relationship's foreign key: the related id, or NULL.
    private func foreignKeyBind(_ relationship: SQLTableInfo.Relationship, of record: JSONAPIResourceObject) throws
        -> any Encodable & Sendable
    {
        let kind = database.table(relationship.target)?.idKind ?? .text
        guard case .one(let identifier)? = record.relationships[relationship.member]?.data, let id = identifier.id
        else {
            return kind == .integer ? Int64?.none as any Encodable & Sendable : String?.none as any Encodable & Sendable
        }
        guard let bind = SQLStatements.idBind(id, kind) else { throw Self.relatedNotFound(relationship, id) }
        return bind
    }

    /// Writes the to-many relationships of `record` that it holds: an inverse one as the other
    /// table's foreign key (rows that leave get NULL, rows that join get this id), a join table's
    /// rows replaced.
    private func writeToMany(_ record: JSONAPIResourceObject, _ database: any SQLDatabase) async throws {
        guard let id = record.id, let own = SQLStatements.idBind(id, table.idKind) else { return }
        for relationship in table.relationships where relationship.isToMany {
            guard case .many(let identifiers)? = record.relationships[relationship.member]?.data else { continue }
            guard let other = self.database.table(relationship.target) else { continue }
            let ids = identifiers.compactMap(\.id)
            let binds = ids.compactMap { SQLStatements.idBind($0, other.idKind) }
            guard binds.count == ids.count else {
                throw Self.relatedNotFound(
                    relationship, ids.first { SQLStatements.idBind($0, other.idKind) == nil } ?? "")
            }
            switch relationship.storage {
            case .foreignKey: break
            case .inverse(let inverse):
                guard let column = other.foreignKey(inverse),
                    let inverseShape = other.relationship(inverse)
                else { continue }
                let leaving: SQLQueryString =
                    binds.isEmpty
                    ? "SELECT \(ident: other.idColumn) AS \(ident: "i") FROM \(ident: other.name) WHERE \(ident: column) = \(bind: own)"
                    : "SELECT \(ident: other.idColumn) AS \(ident: "i") FROM \(ident: other.name) WHERE \(ident: column) = \(bind: own) AND NOT (\(ident: other.idColumn) IN (\(binds: binds)))"
                let left = try await database.raw(leaving).all()
                if !left.isEmpty {
                    guard inverseShape.isOptional else {
                        throw JSONAPIHTTPError.requiredInverse(of: relationship.member, keptBy: other.type, as: inverse)
                    }
                    try await database.raw(
                        "UPDATE \(ident: other.name) SET \(ident: column) = NULL WHERE \(ident: column) = \(bind: own)"
                    ).run()
                }
                if !binds.isEmpty {
                    try await database.raw(
                        "UPDATE \(ident: other.name) SET \(ident: column) = \(bind: own) WHERE \(ident: other.idColumn) IN (\(binds: binds))"
                    ).run()
                }
            case .joinTable(let name, let ownColumn, let otherColumn):
                try await database.raw("DELETE FROM \(ident: name) WHERE \(ident: ownColumn) = \(bind: own)").run()
                var seen = Set<String>()
                let rows: [SQLQueryString] = zip(ids, binds).compactMap { id, bind in
                    seen.insert(id).inserted ? "(\(bind: own), \(bind: bind))" : nil
                }
                if !rows.isEmpty {
                    try await database.raw(
                        "INSERT INTO \(ident: name) (\(ident: ownColumn), \(ident: otherColumn)) VALUES "
                            + rows.joined(separator: ", ")
                    ).run()
                }
            }
        }
    }

    /// An id the table cannot hold: not an integer for an integer table; holding U+0000 for a
    /// text one.
    func invalidID(_ id: String) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 422, code: "invalid-id", title: "Invalid resource",
            detail: table.idKind == .integer
                ? "`\(Model.resourceType)` ids are integers, not `\(id)`"
                : "`\(Model.resourceType)` ids cannot hold the character U+0000",
            source: .pointer("/data/id"))
    }

    static func relatedNotFound(_ relationship: SQLTableInfo.Relationship, _ id: String) -> JSONAPIHTTPError {
        JSONAPIHTTPError(
            status: 404, code: "related-not-found", title: "Not Found",
            detail: "no `\(relationship.target)` resource with id `\(id)`",
            source: .pointer("/data/relationships/\(relationship.member)"))
    }
}

/// Where a stream of ``SQLDataSource`` is: the batch being handed out, and the position after
/// which the next batch starts.
struct SQLStreamCursor<Element: Sendable>: Sendable {
    /// The rows the last batch asked for (0 before the first).
    var size = 0
    var batch: [Element] = []
    var index = 0
    var position: ResourcePosition?
    var ended = false
}

/// A source whose resources live in a SQL database's table.
protocol SQLBackedSource {
    /// The database.
    var sqlDatabase: SQLResourceDatabase { get }
}

extension SQLDataSource: SQLBackedSource {
    var sqlDatabase: SQLResourceDatabase { database }
}
