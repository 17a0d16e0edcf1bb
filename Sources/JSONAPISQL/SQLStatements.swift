import JSONAPI
import JSONAPIServer
import SQLKit

/// The statements a table's reads and writes run, built from its declaration. Names come only
/// from declarations (quoted by SQLKit); every value is a bound parameter.
struct SQLStatements: Sendable {
    let table: SQLTableInfo
    let flavor: SQLFlavor
    /// The other declared tables, by resource type.
    let tables: @Sendable (String) -> SQLTableInfo?

    /// The alias of the table in a `SELECT`, which correlated subqueries name: `t`, and for a
    /// table joined by a filter through a relationship, the alias of the one it is joined to
    /// followed by `_`.
    var alias = "t"

    // MARK: Reading

    /// The select list: the id, each attribute's column, each to-one foreign key, and each
    /// to-many relationship's ids as a JSON array, all of the table aliased ``alias``.
    ///
    /// With `fields`, only the columns of those members (a sparse fieldset): a to-many
    /// relationship left out costs no subquery.
    func selectList(fields: Set<String>? = nil) throws -> SQLQueryString {
        var parts: [SQLQueryString] = ["\(ident: alias).\(ident: table.idColumn)"]
        for attribute in table.attributes where fields?.contains(attribute.member) != false {
            parts.append("\(ident: alias).\(ident: attribute.column)")
        }
        for (index, relationship) in table.relationships.enumerated()
        where fields?.contains(relationship.member) != false {
            switch relationship.storage {
            case .foreignKey(let column, _):
                parts.append("\(ident: alias).\(ident: column)")
            case .inverse(let inverse):
                let other = try target(of: relationship)
                guard let column = other.foreignKey(inverse) else {
                    throw SQLDeclarationError(
                        "`\(relationship.member)` of `\(table.type)` is the inverse of `\(inverse)` of `\(other.type)`, which is not a to-one relationship of it"
                    )
                }
                parts.append(
                    idArray(from: other.name, value: other.idColumn, where: column)
                        + " AS \(ident: Self.linkageAlias(index))")
            case .joinTable(let name, let own, let otherColumn):
                parts.append(
                    idArray(from: name, value: otherColumn, where: own) + " AS \(ident: Self.linkageAlias(index))")
            }
        }
        return parts.joined(separator: ", ")
    }

    /// The column alias of the `index`th relationship's ids.
    static func linkageAlias(_ index: Int) -> String { "jsonapi_linkage_\(index)" }

    /// The ids in `value` of the rows of `source` whose `match` is this row's id, as a JSON array
    /// in ascending order (`[]` for none).
    func idArray(from source: String, value: String, where match: String) -> SQLQueryString {
        switch flavor {
        case .sqlite:
            "(SELECT json_group_array(\(ident: "v")) FROM (SELECT \(ident: value) AS \(ident: "v") FROM \(ident: source) WHERE \(ident: match) = \(ident: alias).\(ident: table.idColumn) ORDER BY \(ident: value)))"
        case .postgres:
            "(SELECT COALESCE(json_agg(\(ident: value) ORDER BY \(ident: value)), '[]')::text FROM \(ident: source) WHERE \(ident: match) = \(ident: alias).\(ident: table.idColumn))"
        }
    }

    /// The declared table of a relationship's target.
    func target(of relationship: SQLTableInfo.Relationship) throws -> SQLTableInfo {
        guard let other = tables(relationship.target) else {
            throw SQLDeclarationError(
                "`\(relationship.member)` of `\(table.type)` links to `\(relationship.target)`, which has no declared table"
            )
        }
        return other
    }

    /// `SELECT ... FROM table AS t WHERE filter ORDER BY sort, id LIMIT/OFFSET`: a page with one
    /// row beyond it when `probesNext` (so that the caller knows whether another page follows).
    func select(_ query: ResourceListQuery, probesNext: Bool = false, after: SQLQueryString? = nil) throws
        -> SQLQueryString
    {
        var sql: SQLQueryString =
            "SELECT " + (try selectList(fields: query.fields)) + " FROM \(ident: table.name) AS \(ident: alias)"
        sql += " WHERE " + (try predicate(query.filter))
        if let after { sql += " AND " + after }
        // A keyset page: the rows after `page[after]` and before `page[before]`; a page before a
        // position alone is read backwards (the rows nearest it first) and turned round after.
        if case .cursor? = query.page {
            if let position = query.after { sql += " AND " + (try self.after(position, sort: query.sort)) }
            if let position = query.before {
                sql += " AND " + (try self.after(position, sort: query.sort, backwards: true))
            }
        }
        sql += " ORDER BY " + (try orderBy(query.sort, backwards: Self.readsBackwards(query)))
        if let (offset, limit) = Self.window(query.page) {
            sql += " LIMIT \(bind: Int64(limit + (probesNext ? 1 : 0))) OFFSET \(bind: Int64(offset))"
        }
        return sql
    }

    /// `SELECT COUNT(*)` of the rows `filter` matches.
    func count(_ filter: ResourceFilter) throws -> SQLQueryString {
        "SELECT COUNT(*) AS \(ident: "n") FROM \(ident: table.name) AS \(ident: alias) WHERE "
            + (try predicate(filter))
    }

    /// Whether a keyset page is read backwards: before a position, with no position after.
    static func readsBackwards(_ query: ResourceListQuery) -> Bool {
        guard case .cursor? = query.page else { return false }
        return query.before != nil && query.after == nil
    }

    /// The rows and limit of a page.
    static func window(_ page: JSONAPIQuery.Page?) -> (offset: Int, limit: Int)? {
        switch page {
        case .number(let number, let size)?:
            let size = max(size, 0)
            let (offset, overflow) = max(number - 1, 0).multipliedReportingOverflow(by: size)
            return (overflow ? Int(Int32.max) : offset, size)
        case .offset(let offset, let limit)?: return (max(offset, 0), max(limit, 0))
        case .cursor(_, _, let size)?: return (0, size)
        case nil: return nil
        }
    }

    /// `SELECT ... WHERE id IN (ids)`.
    func select(ids: [String]) throws -> SQLQueryString? {
        guard let inList = try idIn(ids, column: "\(ident: alias).\(ident: table.idColumn)", kind: table.idKind)
        else { return nil }
        return "SELECT " + (try selectList()) + " FROM \(ident: table.name) AS \(ident: alias) WHERE " + inList
    }

    /// `column IN (ids)` as one parameter whatever the number of ids: an array in PostgreSQL, a
    /// JSON array in SQLite. Nil when no id can name a row (an integer table and ids that are not
    /// integers).
    func idIn(_ ids: [String], column: SQLQueryString, kind: SQLIDKind) throws -> SQLQueryString? {
        switch kind {
        case .integer:
            let numbers = ids.compactMap(Int64.init)
            guard !numbers.isEmpty else { return nil }
            switch flavor {
            case .postgres: return column + " = ANY(\(bind: numbers))"
            case .sqlite: return column + " IN (SELECT value FROM json_each(\(bind: Self.jsonArray(numbers))))"
            }
        case .text:
            let ids = ids.filter { !$0.utf8.contains(0) }
            guard !ids.isEmpty else { return nil }
            switch flavor {
            case .postgres: return column + " = ANY(\(bind: ids))"
            case .sqlite: return column + " IN (SELECT value FROM json_each(\(bind: Self.jsonArray(ids))))"
            }
        }
    }

    static func jsonArray(_ numbers: [Int64]) -> String {
        "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }

    static func jsonArray(_ strings: [String]) -> String {
        var writer = JSONWriter()
        writer.beginArray()
        for string in strings { writer.string(string) }
        writer.endArray()
        return (try? String(decoding: writer.finish(), as: UTF8.self)) ?? "[]"
    }

    // MARK: Filters

    /// The condition of `filter`, two-valued: every comparison with NULL is false (`IS TRUE`),
    /// so `NOT` negates it as the in-memory source does.
    func predicate(_ filter: ResourceFilter) throws -> SQLQueryString {
        switch filter {
        case .compare(let name, let comparison, let value):
            let (column, storage) = try attributeColumn(name)
            if name == "id", value != .null, Self.storedID(value, storage) == .null {
                // No row has this id: every row differs from it.
                return comparison == .notEqual ? "TRUE" : "FALSE"
            }
            let value = name == "id" ? Self.storedID(value, storage) : value
            guard value != .null, let bind = Self.bind(value, storage) else { return "FALSE" }
            let op: String
            switch comparison {
            case .equal: op = "="
            case .notEqual: op = "<>"
            case .lessThan: op = "<"
            case .lessOrEqual: op = "<="
            case .greaterThan: op = ">"
            case .greaterOrEqual: op = ">="
            }
            return "(" + ordered(column, storage) + " \(unsafeRaw: op) \(bind: bind)) IS TRUE"
        case .text(let name, let match, let text):
            let (column, storage) = try attributeColumn(name)
            guard storage == .text, !text.utf8.contains(0) else { return "FALSE" }
            if text.isEmpty { return "(" + column + " IS NOT NULL)" }
            switch (flavor, match) {
            case (.sqlite, .contains): return "(instr(" + column + ", \(bind: text)) > 0) IS TRUE"
            case (.postgres, .contains): return "(strpos(" + column + ", \(bind: text)) > 0) IS TRUE"
            case (.sqlite, .startsWith):
                return "(substr(" + column + ", 1, \(bind: Int64(text.count))) = \(bind: text)) IS TRUE"
            case (.postgres, .startsWith):
                return "(starts_with(" + column + ", \(bind: text))) IS TRUE"
            case (.sqlite, .endsWith):
                return "(length(" + column + ") >= \(bind: Int64(text.count)) AND substr(" + column
                    + ", -\(bind: Int64(text.count))) = \(bind: text)) IS TRUE"
            case (.postgres, .endsWith):
                // `right` counts characters in an `integer`, as `text.count` does.
                return "(right(" + column + ", \(bind: Int32(clamping: text.count))) = \(bind: text)) IS TRUE"
            }
        case .oneOf(let name, let values):
            let (column, storage) = try attributeColumn(name)
            let values = name == "id" ? values.map { Self.storedID($0, storage) } : values
            let binds = values.compactMap { $0 == .null ? nil : Self.bind($0, storage) }
            guard !binds.isEmpty else { return "FALSE" }
            return "(" + ordered(column, storage) + " IN (\(binds: binds))) IS TRUE"
        case .isNull(let name):
            if let attribute = table.attribute(name) {
                return "(\(ident: alias).\(ident: attribute.column) IS NULL)"
            }
            guard let relationship = table.relationship(name) else { throw unknown(name) }
            switch relationship.storage {
            case .foreignKey(let column, _): return "(\(ident: alias).\(ident: column) IS NULL)"
            case .inverse, .joinTable: return "NOT " + (try linked(relationship, to: nil))
            }
        case .related(let name, let ids):
            guard let relationship = table.relationship(name) else { throw unknown(name) }
            return try linked(relationship, to: ids.sorted())
        case .through(let name, let condition):
            guard let relationship = table.relationship(name) else { throw unknown(name) }
            return try joined(relationship, where: condition)
        case .all(let conditions):
            guard !conditions.isEmpty else { return "TRUE" }
            return "(" + (try conditions.map(predicate).joined(separator: " AND ")) + ")"
        case .any(let conditions):
            guard !conditions.isEmpty else { return "FALSE" }
            return "(" + (try conditions.map(predicate).joined(separator: " OR ")) + ")"
        case .not(let condition):
            return "(NOT " + (try predicate(condition)) + ")"
        }
    }

    /// Whether the relationship links this row to a resource of the related table for which
    /// `condition` holds: a correlated `EXISTS` over that table (through the join table of a
    /// many-to-many), the condition compiled by the related table's own statements under an
    /// alias of its own.
    func joined(_ relationship: SQLTableInfo.Relationship, where condition: ResourceFilter) throws -> SQLQueryString {
        let other = try target(of: relationship)
        var related = SQLStatements(table: other, flavor: flavor, tables: tables)
        related.alias = alias + "_"
        let r = related.alias
        let predicate = try related.predicate(condition)
        let own: SQLQueryString = "\(ident: alias).\(ident: table.idColumn)"
        switch relationship.storage {
        case .foreignKey(let column, _):
            return
                "EXISTS (SELECT 1 FROM \(ident: other.name) AS \(ident: r) WHERE \(ident: r).\(ident: other.idColumn) = \(ident: alias).\(ident: column) AND "
                + predicate + ")"
        case .inverse(let inverse):
            guard let column = other.foreignKey(inverse) else { throw unknown(relationship.member) }
            return "EXISTS (SELECT 1 FROM \(ident: other.name) AS \(ident: r) WHERE \(ident: r).\(ident: column) = "
                + own
                + " AND " + predicate + ")"
        case .joinTable(let name, let ownColumn, let otherColumn):
            let j = alias + "j"
            return
                "EXISTS (SELECT 1 FROM \(ident: name) AS \(ident: j) JOIN \(ident: other.name) AS \(ident: r) ON \(ident: r).\(ident: other.idColumn) = \(ident: j).\(ident: otherColumn) WHERE \(ident: j).\(ident: ownColumn) = "
                + own + " AND " + predicate + ")"
        }
    }

    /// Whether the relationship links this row to any resource (`ids` nil) or to one of `ids`.
    func linked(_ relationship: SQLTableInfo.Relationship, to ids: [String]?) throws -> SQLQueryString {
        let other = try target(of: relationship)
        let own: SQLQueryString = "\(ident: alias).\(ident: table.idColumn)"
        switch relationship.storage {
        case .foreignKey(let column, _):
            guard let ids else { return "(\(ident: alias).\(ident: column) IS NOT NULL)" }
            return try idIn(ids, column: "\(ident: alias).\(ident: column)", kind: other.idKind) ?? "FALSE"
        case .inverse(let inverse):
            guard let column = other.foreignKey(inverse) else { throw unknown(relationship.member) }
            let o = alias + "o"
            var sql: SQLQueryString =
                "EXISTS (SELECT 1 FROM \(ident: other.name) AS \(ident: o) WHERE \(ident: o).\(ident: column) = "
                + own
            if let ids {
                guard let inList = try idIn(ids, column: "\(ident: o).\(ident: other.idColumn)", kind: other.idKind)
                else { return "FALSE" }
                sql += " AND " + inList
            }
            return sql + ")"
        case .joinTable(let name, let ownColumn, let otherColumn):
            let j = alias + "j"
            var sql: SQLQueryString =
                "EXISTS (SELECT 1 FROM \(ident: name) AS \(ident: j) WHERE \(ident: j).\(ident: ownColumn) = " + own
            if let ids {
                guard let inList = try idIn(ids, column: "\(ident: j).\(ident: otherColumn)", kind: other.idKind)
                else { return "FALSE" }
                sql += " AND " + inList
            }
            return sql + ")"
        }
    }

    func attributeColumn(_ name: String) throws -> (SQLQueryString, SQLTableInfo.Storage) {
        if name == "id" {
            return ("\(ident: alias).\(ident: table.idColumn)", table.idKind == .integer ? .integer : .text)
        }
        guard let attribute = table.attribute(name) else { throw unknown(name) }
        return ("\(ident: alias).\(ident: attribute.column)", attribute.storage)
    }

    /// A column as it compares and sorts: text by its bytes (PostgreSQL's `C` collation;
    /// SQLite's default `BINARY` already is).
    func ordered(_ column: SQLQueryString, _ storage: SQLTableInfo.Storage) -> SQLQueryString {
        storage == .text && flavor == .postgres ? column + " COLLATE \(ident: "C")" : column
    }

    func unknown(_ name: String) -> SQLDeclarationError {
        SQLDeclarationError("`\(table.type)` has no stored member `\(name)`")
    }

    /// An id compared in a filter (a string) as the id column holds it: an integer column holds
    /// the ids written as integers in their shortest form (`7`, not `07`), and no other string
    /// equals any of its rows (null, which matches nothing).
    static func storedID(_ value: JSON, _ storage: SQLTableInfo.Storage) -> JSON {
        guard storage == .integer, case .string(let text) = value else { return value }
        guard let number = Int64(text), String(number) == text else { return .null }
        return .int(number)
    }

    /// A filter's value as the column holds it, or nil when it cannot equal any (a string for an
    /// integer column).
    static func bind(_ value: JSON, _ storage: SQLTableInfo.Storage) -> (any Encodable & Sendable)? {
        switch (value, storage) {
        // No stored text holds U+0000 (PostgreSQL refuses it, SQLite would cut the text there):
        // such a value equals none.
        case (.string(let text), .text): return text.utf8.contains(0) ? nil : text
        case (.int(let number), .integer): return number
        case (.int(let number), .real): return Double(number)
        case (.double(let number), .real): return number
        case (.double(let number), .integer): return number
        case (.decimal(let text), .integer), (.decimal(let text), .real): return Double(text)
        case (.bool(let flag), .boolean): return flag
        default: return nil
        }
    }

    // MARK: Positions (keyset pages and streams)

    /// The rows after the one at `position` in the order of `sort` (then the id): what a stream
    /// reads its next batch with, and a `page[after]` cursor names. Each sort key is compared
    /// as ``orderBy(_:)`` orders it, nulls first ascending and last descending.
    ///
    /// `backwards`, the rows before it: the same comparison in the reversed order.
    func after(_ position: ResourcePosition, sort: [JSONAPIQuery.SortField], backwards: Bool = false) throws
        -> SQLQueryString
    {
        guard position.values.count == sort.count, let idBind = Self.idBind(position.id, table.idKind) else {
            throw SQLCursorError()
        }
        var condition: SQLQueryString =
            "(\(ident: alias).\(ident: table.idColumn) \(unsafeRaw: backwards ? "<" : ">") \(bind: idBind))"
        let sort = backwards ? sort.map { JSONAPIQuery.SortField($0.name, descending: !$0.isDescending) } : sort
        for (field, value) in zip(sort, position.values).reversed() {
            let (column, storage) = try attributeColumn(field.name)
            let key = ordered(column, storage)
            let later: SQLQueryString
            let equal: SQLQueryString
            if value == .null {
                equal = "(" + column + " IS NULL)"
                later = field.isDescending ? "FALSE" : "(" + column + " IS NOT NULL)"
            } else {
                guard let bind = Self.bind(value, storage) else { throw SQLCursorError() }
                equal = "(" + key + " = \(bind: bind)) IS TRUE"
                later =
                    field.isDescending
                    ? "((" + key + " < \(bind: bind)) IS TRUE OR " + column + " IS NULL)"
                    : "(" + key + " > \(bind: bind)) IS TRUE"
            }
            condition = "(" + later + " OR (" + equal + " AND " + condition + "))"
        }
        return condition
    }

    /// The position of `record` in the order of `sort`.
    func position(of record: JSONAPIResourceObject, sort: [JSONAPIQuery.SortField]) -> ResourcePosition {
        ResourcePosition(of: record, sort: sort)
    }

    // MARK: Sorting

    /// The sort fields, nulls first ascending (as the in-memory source orders them), then the id,
    /// so that equal rows keep one order and pages do not overlap.
    ///
    /// `backwards`, the reversed order (a keyset page read from its end).
    func orderBy(_ sort: [JSONAPIQuery.SortField], backwards: Bool = false) throws -> SQLQueryString {
        var parts: [SQLQueryString] = []
        for field in sort {
            let (column, storage) = try attributeColumn(field.name)
            parts.append(
                ordered(column, storage)
                    + (field.isDescending != backwards ? " DESC NULLS LAST" : " ASC NULLS FIRST"))
        }
        parts.append("\(ident: alias).\(ident: table.idColumn) \(unsafeRaw: backwards ? "DESC" : "ASC")")
        return parts.joined(separator: ", ")
    }
}

/// A position that does not fit the order it is used in (a `page[after]` cursor made for
/// another sort, or not made by this service).
struct SQLCursorError: Error {}

/// A declaration the database cannot serve: a relationship without a declared table, a to-many
/// relationship without a place. Found when the table is first used, logged, and answered 500
/// without the detail (which names tables).
struct SQLDeclarationError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
