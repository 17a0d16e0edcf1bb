import JSONAPI
import JSONAPIServer

/// A declared table as the database uses it, whatever its model: its columns in the model's
/// order, with what each holds.
struct SQLTableInfo: Sendable {
    struct Attribute: Sendable {
        var member: String
        var column: String
        var storage: Storage
        var isOptional: Bool
    }

    /// How an attribute's value is stored.
    enum Storage: Sendable, Equatable {
        case text
        case integer
        case real
        case boolean
        /// Any other JSON (arrays, objects, links, values of any shape): its JSON text.
        case json
    }

    struct Relationship: Sendable {
        var member: String
        var storage: SQLRelationship
        var isToMany: Bool
        var isOptional: Bool
        /// The related resource type (a relationship the database stores names one type).
        var target: String
    }

    var type: String
    var name: String
    var idColumn: String
    var idKind: SQLIDKind
    var countsTotal: Bool
    var attributes: [Attribute]
    var relationships: [Relationship]
    /// What the declaration cannot store, found when it was declared (thrown on first use).
    var problems: [String]

    init<Model>(_ table: SQLTable<Model>) {
        type = Model.resourceType
        name = table.name
        idColumn = table.idColumn
        idKind = table.idKind
        countsTotal = table.countsTotal
        var problems: [String] = []
        attributes = table.shape.attributes.map { member in
            Attribute(
                member: member.name, column: table.columns[member.name] ?? member.name,
                storage: Self.storage(of: member.value.kind), isOptional: member.value.isOptional)
        }
        var relationships: [Relationship] = []
        for shape in table.shape.relationships {
            guard shape.targetResourceTypes.count == 1, let target = shape.targetResourceTypes.first else {
                problems.append("`\(shape.name)` of `\(Model.resourceType)` links to several types: a table stores one")
                continue
            }
            guard let storage = table.relationships[shape.name] else {
                problems.append(
                    "`\(shape.name)` of `\(Model.resourceType)` is a to-many relationship: declare it with "
                        + "toMany(_:inverseOf:) or toMany(_:joinTable:ownColumn:otherColumn:)")
                continue
            }
            switch (shape.cardinality, storage) {
            case (.toOne, .foreignKey), (.toMany, .inverse), (.toMany, .joinTable): break
            default:
                problems.append("`\(shape.name)` of `\(Model.resourceType)` is declared as the other cardinality")
                continue
            }
            relationships.append(
                Relationship(
                    member: shape.name, storage: storage, isToMany: shape.cardinality == .toMany,
                    isOptional: shape.isOptional, target: target))
        }
        self.relationships = relationships
        self.problems = problems
    }

    static func storage(of kind: ValueShape.Kind) -> Storage {
        switch kind {
        case .string: .text
        case .integer: .integer
        case .number: .real
        case .boolean: .boolean
        case .enumeration(let values):
            values.allSatisfy { if case .int = $0 { true } else { false } } && !values.isEmpty ? .integer : .text
        default: .json
        }
    }

    func attribute(_ member: String) -> Attribute? { attributes.first { $0.member == member } }

    func relationship(_ member: String) -> Relationship? { relationships.first { $0.member == member } }

    /// The foreign-key column of a to-one relationship.
    func foreignKey(_ member: String) -> String? {
        if case .foreignKey(let column, _)? = relationship(member)?.storage { return column }
        return nil
    }
}
