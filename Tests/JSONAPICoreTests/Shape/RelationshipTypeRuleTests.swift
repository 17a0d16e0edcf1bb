import Foundation
import JSONAPI
import Testing

/// Whether a member type is a relationship is one rule: the encoder writes a member where the
/// shape (and so OpenAPI and the server's declarations) says it is, for every kind of type.
@Suite("Relationship types: the encoder and the shape agree")
struct RelationshipTypeRuleTests {
    struct Person: Codable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Organization: Codable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
    }

    enum Contributor: ResourceUnion, Encodable {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Person.self, Contributor.person),
            .member(Organization.self, Contributor.organization),
        ]

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .person(let person): try person.encode(to: encoder)
            case .organization(let organization): try organization.encode(to: encoder)
            }
        }
    }

    struct Holder<Value: Codable>: Codable, JSONAPIResource {
        static var resourceType: String { "holders" }
        var id: String
        var value: Value
    }

    /// Where a member lands.
    enum Placement: Equatable, CustomStringConvertible {
        case attribute, toOne, toMany

        var description: String {
            switch self {
            case .attribute: "attribute"
            case .toOne: "to-one relationship"
            case .toMany: "to-many relationship"
            }
        }
    }

    /// Where the encoder writes `value`, and where the shape of its model puts it.
    func placements<Value: Codable>(of value: Value) throws -> (encoded: Placement?, shape: Placement?) {
        let bytes = try JSONAPIEncoder().encode(Holder(id: "1", value: value))
        let document = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        let resource = document?["data"] as? [String: Any]
        var encoded: Placement?
        if let relationship = (resource?["relationships"] as? [String: Any])?["value"] as? [String: Any] {
            encoded = relationship["data"] is [Any] ? .toMany : .toOne
        } else if (resource?["attributes"] as? [String: Any])?["value"] != nil {
            encoded = .attribute
        }
        let shape = ResourceShape(of: Holder<Value>.self)
        var shaped: Placement?
        if let relationship = shape.relationships.first(where: { $0.name == "value" }) {
            shaped = relationship.cardinality == .toMany ? .toMany : .toOne
        } else if shape.attributes.contains(where: { $0.name == "value" }) {
            shaped = .attribute
        }
        return (encoded, shaped)
    }

    func check<Value: Codable>(
        _ value: Value, is expected: Placement, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (encoded, shape) = try placements(of: value)
        #expect(
            encoded == expected,
            "\(Value.self): the encoder wrote a \(encoded.map(String.init(describing:)) ?? "nothing")",
            sourceLocation: sourceLocation)
        #expect(
            shape == expected, "\(Value.self): the shape has a \(shape.map(String.init(describing:)) ?? "nothing")",
            sourceLocation: sourceLocation)
    }

    @Test("models, unions, identifiers and references, optional or not, one or many")
    func relationships() throws {
        let person = Person(id: "9", name: "Ann")
        let identifier = Identifier<Person>(id: "9")
        try check(person, is: .toOne)
        try check(Person?.some(person), is: .toOne)
        try check([person], is: .toMany)
        try check([Person]?.some([person]), is: .toMany)
        try check(Contributor.person(person), is: .toOne)
        try check([Contributor.organization(Organization(id: "2"))], is: .toMany)
        try check(identifier, is: .toOne)
        try check([identifier], is: .toMany)
        try check(Identifier<Person>?.some(identifier), is: .toOne)
        try check(ResourceIdentifier(type: "people", id: "9"), is: .toOne)
        try check([ResourceIdentifier(type: "people", id: "9")], is: .toMany)
        try check(UnionIdentifier(identifier, as: Contributor.person), is: .toOne)
        try check([UnionIdentifier(identifier, as: Contributor.person)], is: .toMany)
        let reference = try decoded(Lazy<Person>.self, linkage: #"{"type":"people","id":"9"}"#)
        try check(reference, is: .toOne)
        try check(try decoded([Lazy<Person>].self, linkage: #"[{"type":"people","id":"9"}]"#), is: .toMany)
    }

    /// A relationship value read from a document (``Lazy`` has no public initializer).
    func decoded<Value: Codable>(_ type: Value.Type, linkage: String) throws -> Value {
        let document = """
            {"data":{"type":"holders","id":"1","relationships":{"value":{"data":\(linkage)}}},
             "included":[{"type":"people","id":"9","attributes":{"name":"Ann"}}]}
            """
        return try JSONAPIDecoder().decode(Holder<Value>.self, from: document).value
    }

    @Test("relationship objects and fields")
    func wrappers() throws {
        let identifier = Identifier<Person>(id: "9")
        try check(Related<Identifier<Person>, NoMeta, NoLinks>(value: identifier), is: .toOne)
        try check(Related<[Identifier<Person>], NoMeta, NoLinks>(value: [identifier]), is: .toMany)
        try check(Related<[Identifier<Person>]?, NoMeta, NoLinks>(value: [identifier]), is: .toMany)
        try check(Related<JSON, NoMeta, NoLinks>(value: nil), is: .toOne)
        try check(Field<Identifier<Person>>.value(identifier), is: .toOne)
        try check(Field<[Identifier<Person>]>.value([identifier]), is: .toMany)
    }

    struct Reference: Codable {
        var type: String
        var id: String
    }

    /// The relationship object the encoder writes for `value`.
    func writtenRelationship<Value: Codable>(_ value: Value) throws -> String {
        let bytes = try JSONAPIEncoder().encode(Holder(id: "1", value: Related<Value, NoMeta, NoLinks>(value: value)))
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.range(of: #""value":"#) else { return text }
        return String(text[start.upperBound...].dropLast(3))
    }

    @Test("a Related of any other value writes that value as its data, when it is linkage")
    func untypedRelated() throws {
        #expect(
            try writtenRelationship(["type": "people", "id": "9", "meta": ["primary": true]] as JSON)
                == #"{"data":{"type":"people","id":"9","meta":{"primary":true}}}"#)
        #expect(
            try writtenRelationship([["type": "people", "lid": "a"]] as JSON)
                == #"{"data":[{"type":"people","lid":"a"}]}"#)
        #expect(try writtenRelationship([] as JSON) == #"{"data":[]}"#)
        #expect(try writtenRelationship(JSON.null) == #"{"data":null}"#)
        #expect(try writtenRelationship(Reference(type: "people", id: "9")) == #"{"data":{"type":"people","id":"9"}}"#)
        for value: JSON in [
            "people", 9, ["type": "people"], ["id": "9"], ["type": "people", "id": 9],
            ["type": "people", "id": "9", "attributes": [:]], [["type": "people", "id": "9"], nil],
        ] {
            #expect(throws: EncodingError.self, "\(value)") { try writtenRelationship(value) }
        }
    }

    @Test("values that cannot be written as linkage are attributes")
    func attributes() throws {
        let person = Person(id: "9", name: "Ann")
        try check("text", is: .attribute)
        try check(["a", "b"], is: .attribute)
        try check(["key": 1], is: .attribute)
        try check([[person]], is: .attribute)
        try check([Person?.some(person)], is: .attribute)
        try check([[Identifier<Person>(id: "9")]], is: .attribute)
    }
}
