import JSONAPI
import JSONAPIServer
import SQLKit

extension SQLResourceDatabase {
    /// Deletes the rows of `type` with `ids`, after applying every declared delete rule of the
    /// relationships that name them: a refusal is a 409 naming the relationship; a cascade
    /// deletes the rows that name them (by their own rules); a set-null clears the foreign key.
    /// Join-table rows that name a deleted row go too. Rows that name others are deleted first,
    /// so that a foreign-key constraint of the schema never sees a row named by one gone.
    func delete(type: String, ids: [String], on database: any SQLDatabase) async throws {
        var levels: [(table: SQLTableInfo, binds: [any Encodable & Sendable])] = []
        var work: [(type: String, ids: [String])] = [(type, ids)]
        var seen: Set<String> = []
        while !work.isEmpty {
            let (type, ids) = work.removeFirst()
            guard let table = table(type) else { continue }
            let fresh = ids.filter { seen.insert(type + "\u{0}" + $0).inserted }
            let binds = fresh.compactMap { SQLStatements.idBind($0, table.idKind) }
            guard !binds.isEmpty else { continue }
            levels.append((table, binds))
            for other in tables {
                for relationship in other.relationships where relationship.target == type {
                    guard case .foreignKey(let column, let rule) = relationship.storage else { continue }
                    let naming = try await database.raw(
                        "SELECT \(ident: other.idColumn) AS \(ident: "i") FROM \(ident: other.name) WHERE \(ident: column) IN (\(binds: binds))"
                    ).all().compactMap {
                        try SQLStatements.idText($0, column: "i", kind: other.idKind)
                    }
                    guard !naming.isEmpty else { continue }
                    switch rule {
                    case .refuse:
                        throw JSONAPIHTTPError.conflict(
                            "`\(other.type)` \(naming[0]) names this resource in its `\(relationship.member)` relationship; "
                                + "delete or change it first")
                    case .setNull:
                        try await database.raw(
                            "UPDATE \(ident: other.name) SET \(ident: column) = NULL WHERE \(ident: column) IN (\(binds: binds))"
                        ).run()
                    case .cascade:
                        work.append((other.type, naming))
                    }
                }
            }
        }
        for (table, binds) in levels.reversed() {
            for other in tables {
                for relationship in other.relationships where relationship.target == table.type {
                    if case .joinTable(let name, _, let otherColumn) = relationship.storage {
                        try await database.raw(
                            "DELETE FROM \(ident: name) WHERE \(ident: otherColumn) IN (\(binds: binds))"
                        )
                        .run()
                    }
                }
            }
            for relationship in table.relationships {
                if case .joinTable(let name, let ownColumn, _) = relationship.storage {
                    try await database.raw("DELETE FROM \(ident: name) WHERE \(ident: ownColumn) IN (\(binds: binds))")
                        .run()
                }
            }
            try await database.raw(
                "DELETE FROM \(ident: table.name) WHERE \(ident: table.idColumn) IN (\(binds: binds))"
            ).run()
        }
    }

    // MARK: Change counters

    /// The name of the table of change counters.
    static let changesTable = "jsonapi_changes"

    /// The sum of the change counters of `tables`, or nil when the database keeps none (asked
    /// of the database once: ``installChangeTracking()`` may have run in another process).
    func version(of tables: [String]) async throws -> UInt64? {
        let flavor = flavor
        let tracks: Bool
        if let known = tracksChanges {
            tracks = known
        } else {
            tracks = try await session { database in
                let probe: SQLQueryString =
                    flavor == .postgres
                    ? "SELECT to_regclass(\(bind: Self.changesTable)) IS NOT NULL AS \(ident: "t")"
                    : "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = \(bind: Self.changesTable)) AS \(ident: "t")"
                return try await database.raw(probe).first()?.decode(column: "t", as: Bool.self) ?? false
            }
            tracksChanges = tracks
        }
        guard tracks else { return nil }
        // Within one reading of versions (the service's, before it answers from its cache), the
        // counters are read once for every source of the database.
        let counters: [String: Int64]
        if let reading = ResourceVersionReading.current {
            counters = try await reading.value(for: ObjectIdentifier(self)) { try await self.counters(nil) }
        } else {
            counters = try await self.counters(tables)
        }
        var sum: UInt64 = 0
        for table in tables { sum &+= UInt64(bitPattern: counters[table] ?? 0) }
        return sum
    }

    /// The change counters of `tables`, or of every table when nil.
    private func counters(_ tables: [String]?) async throws -> [String: Int64] {
        try await session { database in
            let filter: SQLQueryString = tables.map { " WHERE \(ident: "name") IN (\(binds: $0))" } ?? ""
            var counters: [String: Int64] = [:]
            for row in try await database.raw(
                "SELECT \(ident: "name"), \(ident: "counter") FROM \(ident: Self.changesTable)" + filter
            ).all() {
                counters[try row.decode(column: "name", as: String.self)] = try row.decode(
                    column: "counter", as: Int64.self)
            }
            return counters
        }
    }
}
