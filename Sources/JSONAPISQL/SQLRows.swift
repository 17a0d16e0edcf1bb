import JSONAPI
import JSONAPIServer
import SQLKit

/// Rows as resource objects, and resource objects as the values of a row: no model in between.
extension SQLStatements {
    /// The resource object of a row selected with ``selectList()``.
    func record(_ row: any SQLRow) throws -> JSONAPIResourceObject {
        guard let id = try idText(row, column: table.idColumn, kind: table.idKind) else {
            throw SQLDeclarationError("a row of `\(table.type)` has no id")
        }
        var attributes = JSON.Object()
        for attribute in table.attributes {
            attributes[attribute.member] = try value(row, attribute.column, attribute.storage)
        }
        var relationships = OrderedMembers<JSONAPIRelationship>()
        for (index, relationship) in table.relationships.enumerated() {
            let other = try target(of: relationship)
            switch relationship.storage {
            case .foreignKey(let column, _):
                let related = try idText(row, column: column, kind: other.idKind)
                relationships[relationship.member] = JSONAPIRelationship(
                    data: related.map { .one(ResourceIdentifier(type: other.type, id: $0)) } ?? .null)
            case .inverse, .joinTable:
                let text = try row.decode(column: Self.linkageAlias(index), as: String?.self) ?? "[]"
                let ids = try SQLJSONText.ids(text)
                relationships[relationship.member] = JSONAPIRelationship(
                    data: .many(ids.map { ResourceIdentifier(type: other.type, id: $0) }))
            }
        }
        return JSONAPIResourceObject(type: table.type, id: id, attributes: attributes, relationships: relationships)
    }

    /// An id column's value as JSON:API writes ids, or nil for NULL.
    func idText(_ row: any SQLRow, column: String, kind: SQLIDKind) throws -> String? {
        guard !(try row.decodeNil(column: column)) else { return nil }
        switch kind {
        case .integer: return String(try row.decode(column: column, as: Int64.self))
        case .text: return try row.decode(column: column, as: String.self)
        }
    }

    /// An attribute column's value as JSON.
    func value(_ row: any SQLRow, _ column: String, _ storage: SQLTableInfo.Storage) throws -> JSON {
        guard !(try row.decodeNil(column: column)) else { return .null }
        switch storage {
        case .text: return .string(try row.decode(column: column, as: String.self))
        case .integer: return .int(try row.decode(column: column, as: Int64.self))
        case .real: return .double(try row.decode(column: column, as: Double.self))
        case .boolean:
            switch flavor {
            case .postgres: return .bool(try row.decode(column: column, as: Bool.self))
            case .sqlite: return .bool(try row.decode(column: column, as: Int64.self) != 0)
            }
        case .json: return try SQLJSONText.value(try row.decode(column: column, as: String.self))
        }
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
