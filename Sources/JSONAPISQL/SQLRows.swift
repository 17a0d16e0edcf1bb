import JSONAPI
import JSONAPIServer
import SQLKit

/// A row's values by their position in the select list (``SQLRecordPlan/columns``), as
/// ``SQLRecordPlan/record(_:)`` reads them: nil for NULL.
protocol SQLRecordRow {
    func text(_ column: Int) throws -> String?
    func integer(_ column: Int) throws -> Int64?
    func real(_ column: Int) throws -> Double?
    func boolean(_ column: Int) throws -> Bool?
}

/// A row of any SQLKit database, read through its `decode(column:as:)` by the column's name.
struct SQLKitRecordRow: SQLRecordRow {
    let row: any SQLRow
    let columns: [String]

    // An optional decodes NULL as nil, in the one look-up.
    func text(_ column: Int) throws -> String? { try row.decode(column: columns[column], as: String?.self) }
    func integer(_ column: Int) throws -> Int64? { try row.decode(column: columns[column], as: Int64?.self) }
    func real(_ column: Int) throws -> Double? { try row.decode(column: columns[column], as: Double?.self) }
    func boolean(_ column: Int) throws -> Bool? { try row.decode(column: columns[column], as: Bool?.self) }
}

/// How the rows of one select become resource objects, worked out once per statement from the
/// declarations: which column holds each member and how its value reads. A row then costs no
/// look-up of a name or a declaration, only its cells.
struct SQLRecordPlan: Sendable {
    enum Member: Sendable {
        case attribute(SQLTableInfo.Storage)
        case toOne(type: String, kind: SQLIDKind)
        case toMany(type: String)
    }

    let type: String
    let idKind: SQLIDKind
    let flavor: SQLFlavor
    /// The names of the result's columns, in the order ``SQLStatements/selectList(fields:)``
    /// selects them: the id, then one per member of ``members``.
    let columns: [String]
    /// Each member's name and reading, attributes first; the `n`th reads column `n + 1`.
    let members: [(name: String, member: Member)]
    let attributeCount: Int

    /// The resource object of a row selected with the plan's select list.
    func record(_ row: some SQLRecordRow) throws -> JSONAPIResourceObject {
        guard let id = try Self.idText(row, 0, idKind) else {
            throw SQLDeclarationError("a row of `\(type)` has no id")
        }
        // Members are unique per table: appended without looking for an earlier one.
        var attributes = JSON.Object()
        attributes.members.reserveCapacity(attributeCount)
        var relationships = OrderedMembers<JSONAPIRelationship>()
        relationships.members.reserveCapacity(members.count - attributeCount)
        for (index, (name, member)) in members.enumerated() {
            let column = index + 1
            switch member {
            case .attribute(let storage):
                attributes.append(key: name, value: try value(row, column, storage))
            case .toOne(let type, let kind):
                let related = try Self.idText(row, column, kind)
                relationships.append(
                    key: name,
                    value: JSONAPIRelationship(
                        data: related.map { .one(ResourceIdentifier(type: type, id: $0)) } ?? .null))
            case .toMany(let type):
                let ids = try SQLJSONText.ids(try row.text(column) ?? "[]")
                relationships.append(
                    key: name,
                    value: JSONAPIRelationship(data: .many(ids.map { ResourceIdentifier(type: type, id: $0) })))
            }
        }
        return JSONAPIResourceObject(type: type, id: id, attributes: attributes, relationships: relationships)
    }

    /// An id column's value as JSON:API writes ids, or nil for NULL.
    static func idText(_ row: some SQLRecordRow, _ column: Int, _ kind: SQLIDKind) throws -> String? {
        switch kind {
        case .integer: return try row.integer(column).map { String($0) }
        case .text: return try row.text(column)
        }
    }

    /// An attribute column's value as JSON.
    func value(_ row: some SQLRecordRow, _ column: Int, _ storage: SQLTableInfo.Storage) throws -> JSON {
        switch storage {
        case .text: return try row.text(column).map { .string($0) } ?? .null
        case .integer: return try row.integer(column).map { .int($0) } ?? .null
        case .real: return try row.real(column).map { .double($0) } ?? .null
        case .boolean:
            switch flavor {
            case .postgres: return try row.boolean(column).map { .bool($0) } ?? .null
            case .sqlite: return try row.integer(column).map { .bool($0 != 0) } ?? .null
            }
        case .json:
            guard let text = try row.text(column) else { return .null }
            return try SQLJSONText.value(text)
        }
    }
}

/// Rows as resource objects, and resource objects as the values of a row: no model in between.
extension SQLStatements {
    /// The plan of the rows a select with ``selectList(fields:)`` returns: with `fields`, only
    /// those members, as the select list selected them.
    func recordPlan(fields: Set<String>? = nil) throws -> SQLRecordPlan {
        var columns = [table.idColumn]
        var members: [(name: String, member: SQLRecordPlan.Member)] = []
        for attribute in table.attributes where fields?.contains(attribute.member) != false {
            columns.append(attribute.column)
            members.append((attribute.member, .attribute(attribute.storage)))
        }
        let attributeCount = members.count
        for (index, relationship) in table.relationships.enumerated()
        where fields?.contains(relationship.member) != false {
            let other = try target(of: relationship)
            switch relationship.storage {
            case .foreignKey(let column, _):
                columns.append(column)
                members.append((relationship.member, .toOne(type: other.type, kind: other.idKind)))
            case .inverse, .joinTable:
                columns.append(Self.linkageAlias(index))
                members.append((relationship.member, .toMany(type: other.type)))
            }
        }
        return SQLRecordPlan(
            type: table.type, idKind: table.idKind, flavor: flavor, columns: columns, members: members,
            attributeCount: attributeCount)
    }

    /// An id column of a SQLKit row as JSON:API writes ids, or nil for NULL.
    static func idText(_ row: any SQLRow, column: String, kind: SQLIDKind) throws -> String? {
        try SQLRecordPlan.idText(SQLKitRecordRow(row: row, columns: [column]), 0, kind)
    }

    /// The value of `member` of `record` as its column stores it: NULL for `null` or absent.
    func bind(attribute: SQLTableInfo.Attribute, of record: JSONAPIResourceObject) throws
        -> any Encodable & Sendable
    {
        let value = record.attributes[attribute.member] ?? .null
        switch (attribute.storage, value) {
        case (.text, .null): return String?.none
        case (.integer, .null): return Int64?.none
        case (.real, .null): return Double?.none
        case (.boolean, .null): return Bool?.none
        case (.json, .null): return String?.none
        case (.json, _): return try SQLJSONText.text(value)
        case (.text, .string(let text)) where text.utf8.contains(0):
            throw JSONAPIHTTPError(
                status: 422, code: "unstorable-text", title: "Invalid resource",
                detail: "`\(attribute.member)` holds the character U+0000, which text in the database cannot",
                source: .pointer("/data/attributes/\(attribute.member)"))
        default:
            if let bind = Self.bind(value, attribute.storage) { return bind }
            throw SQLDeclarationError("`\(attribute.member)` of `\(table.type)` holds a value its column cannot")
        }
    }

    /// An id as the column of `kind` stores it, or nil when it cannot be one (an integer table's id
    /// that is not an integer).
    static func idBind(_ id: String, _ kind: SQLIDKind) -> (any Encodable & Sendable)? {
        switch kind {
        case .integer: Int64(id)
        case .text: id.utf8.contains(0) ? nil : id
        }
    }
}

/// JSON text as the database stores it: the ids of a to-many relationship (a JSON array the
/// database builds), and attributes that are not scalars.
enum SQLJSONText {
    /// The ids of a JSON array of numbers or strings, as strings.
    static func ids(_ text: String) throws -> [String] {
        try plainIDs(text) ?? parsedIDs(text)
    }

    /// ``ids(_:)`` read by the document parser: the reference ``plainIDs(_:)`` is held to.
    static func parsedIDs(_ text: String) throws -> [String] {
        let value = try self.value(text)
        guard case .array(let elements) = value else { return [] }
        return elements.compactMap { element in
            switch element {
            case .string(let id): id
            case .int(let number): String(number)
            case .double(let number): number.rounded() == number ? String(Int64(number)) : String(number)
            default: nil
            }
        }
    }

    /// The ids of an array the database wrote of integers or of strings without escapes (what
    /// `json_agg` and `json_group_array` write for ids), read without a parser; nil for anything
    /// else, which ``ids(_:)`` then parses.
    static func plainIDs(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var ids: [String] = []
            var index = 0
            func skipSpace() {
                while index < bytes.count,
                    bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09
                        || bytes[index] == 0x0D
                {
                    index += 1
                }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                skipSpace()
                return index == bytes.count ? [] : nil
            }
            while index < bytes.count {
                let start: Int
                let end: Int
                if bytes[index] == UInt8(ascii: "\"") {
                    start = index + 1
                    var cursor = start
                    while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\"") {
                        // An escape or a control character: the parser's business.
                        guard bytes[cursor] != UInt8(ascii: "\\"), bytes[cursor] >= 0x20 else { return nil }
                        cursor += 1
                    }
                    guard cursor < bytes.count else { return nil }
                    end = cursor
                    index = cursor + 1
                } else {
                    start = index
                    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
                    let digits = index
                    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                        index += 1
                    }
                    // Integers only, as JSON writes those of a 64-bit column: no leading zero, no
                    // `-0`, at most 18 digits (so that the text is the one the parser gives).
                    guard index > digits, index - digits <= 18,
                        bytes[digits] != UInt8(ascii: "0") || (index - digits == 1 && digits == start)
                    else { return nil }
                    end = index
                }
                ids.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    skipSpace()
                    return index == bytes.count ? ids : nil
                }
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
                skipSpace()
            }
            return nil
        }
    }

    /// A JSON text's value.
    static func value(_ text: String) throws -> JSON {
        // The document grammar takes objects only: the value is read as the meta of one.
        let wrapped = "{\"meta\":{\"v\":" + text + "}}"
        let document = try Document(parsing: wrapped)
        guard let meta = document.meta, let value = meta["v"] else { return .null }
        return JSON(value)
    }

    /// The JSON text of a value.
    static func text(_ value: JSON) throws -> String {
        var writer = JSONWriter()
        value.write(to: &writer, sortingKeys: false)
        return String(decoding: try writer.finish(), as: UTF8.self)
    }
}
