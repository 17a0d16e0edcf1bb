import JSONAPI
import JSONAPIServer

/// How one model maps onto a table: the table and column names, each relationship's place (a
/// foreign-key column, the inverse of another table's foreign key, or a join table), the id's
/// type, and what reads and writes of it do.
///
/// Everything has a default worked out from the model's shape (`ResourceShape`): the
/// table is named as the resource type, each attribute's column as the attribute, a to-one
/// relationship's foreign key `NAME_id`, ids are integers the database numbers. Declare what
/// differs, and every to-many relationship (which the shape cannot place):
///
/// ```swift
/// var books = SQLTable(Book.self)                          // table "books"
/// books.column("publishedAt", "published_at")
/// books.toOne("author", column: "author_id", onDelete: .cascade)
/// books.toMany("reviews", inverseOf: "book")               // Review.book seen from the book
/// books.toMany("tags", joinTable: "book_tags", ownColumn: "book_id", otherColumn: "tag_id")
/// ```
///
/// A to-many relationship that is the inverse of a to-one is one fact stored once (the other
/// table's foreign key): writing either side changes what both read.
public struct SQLTable<Model: JSONAPIResource & Codable & Sendable>: Sendable {
    /// The table. Default: the resource type.
    public var name: String
    /// The primary-key column. Default `id`.
    public var idColumn = "id"
    /// The id's type. Default ``SQLIDKind/integer``.
    public var idKind = SQLIDKind.integer
    /// Whether a collection read counts every matching row for `meta.total` and the `last`
    /// pagination link. Default false: a `COUNT(*)` over a large table is not free; the `next`
    /// link is given from one row read beyond the page.
    public var countsTotal = false

    /// The model's shape, as the service sees it.
    public let shape: ResourceShape

    /// The column of each attribute, by member name.
    public private(set) var columns: [String: String]
    /// Where each relationship lives, by member name.
    public private(set) var relationships: [String: SQLRelationship]

    /// The mapping of `model`, with every default.
    public init(_ model: Model.Type = Model.self, table: String? = nil) {
        name = table ?? Model.resourceType
        shape = ResourceShape(of: Model.self)
        var columns: [String: String] = [:]
        for attribute in shape.attributes { columns[attribute.name] = attribute.name }
        self.columns = columns
        var relationships: [String: SQLRelationship] = [:]
        for relationship in shape.relationships where relationship.cardinality == .toOne {
            relationships[relationship.name] = .foreignKey(column: relationship.name + "_id", onDelete: .refuse)
        }
        self.relationships = relationships
    }

    /// Stores the attribute `member` in `column`.
    public mutating func column(_ member: String, _ column: String) {
        columns[member] = column
    }

    /// Stores the to-one relationship `member` in the foreign-key `column`, and says what deleting
    /// the related resource does to this one (default `.refuse`: a 409 names the
    /// relationship).
    public mutating func toOne(_ member: String, column: String, onDelete: ResourceDeleteRule = .refuse) {
        relationships[member] = .foreignKey(column: column, onDelete: onDelete)
    }

    /// The to-many relationship `member` is the inverse of the to-one relationship `inverse` of
    /// the related type: the related rows whose foreign key names this one.
    public mutating func toMany(_ member: String, inverseOf inverse: String) {
        relationships[member] = .inverse(of: inverse)
    }

    /// The to-many relationship `member` is stored in `joinTable`, one row per link: `ownColumn`
    /// holds this row's id, `otherColumn` the related row's.
    public mutating func toMany(_ member: String, joinTable: String, ownColumn: String, otherColumn: String) {
        relationships[member] = .joinTable(joinTable, ownColumn: ownColumn, otherColumn: otherColumn)
    }
}

/// How a table's ids are stored and made.
public enum SQLIDKind: Sendable, Hashable {
    /// A 64-bit integer column; the database numbers new rows (a client's id must be an integer).
    case integer
    /// A text column; a new row gets a random UUID unless the client chose an id.
    case text
}

/// Where a relationship is stored.
public enum SQLRelationship: Sendable, Hashable {
    /// A to-one relationship: a column of this table holding the related row's id (NULL for none).
    case foreignKey(column: String, onDelete: ResourceDeleteRule)
    /// A to-many relationship: the rows of the related table whose to-one relationship `of`
    /// names this row.
    case inverse(of: String)
    /// A to-many relationship: the rows of a join table.
    case joinTable(String, ownColumn: String, otherColumn: String)
}
