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
                    let statements = SQLStatements(table: other, flavor: flavor) { _ in nil }
                    let naming = try await database.raw(
                        "SELECT \(ident: other.idColumn) AS \(ident: "i") FROM \(ident: other.name) WHERE \(ident: column) IN (\(binds: binds))"
                    ).all().compactMap { try statements.idText($0, column: "i", kind: other.idKind) }
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

    /// The sum of the change counters of `tables`, or nil when the database keeps none.
    func version(of tables: [String]) async throws -> UInt64? {
        if tracksChanges == false { return nil }
        do {
            let sum = try await session { database in
                try await database.raw(
                    "SELECT COALESCE(SUM(\(ident: "counter")), 0) AS \(ident: "v") FROM \(ident: Self.changesTable) WHERE \(ident: "name") IN (\(binds: tables))"
                ).first()?.decode(column: "v", as: Int64.self)
            }
            tracksChanges = true
            return sum.map { UInt64(bitPattern: $0) }
        } catch let error as JSONAPIHTTPError where error.httpStatus == 500 {
            // No counters table: no version, and responses are not reused.
            tracksChanges = false
            return nil
        }
    }
}
