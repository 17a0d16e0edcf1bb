import Foundation
import JSONAPI
import Testing

@Suite("Resource shapes: attributes")
struct ResourceShapeAttributeTests {
    enum Status: String, Decodable, CaseIterable {
        case draft, published
    }

    enum Priority: Int, Decodable, CaseIterable {
        case low = 1
        case high = 5
    }

    struct Address: Decodable {
        var street: String
        var number: Int?
    }

    struct Everything: Decodable, JSONAPIResource {
        static let resourceType = "everythings"
        var id: String
        var title: String
        var count: Int
        var ratio: Double
        var small: Float
        var flag: Bool
        var created: Date
        var homepage: URL
        var token: UUID
        var blob: Data
        var amount: Decimal
        var status: Status
        var priority: Priority
        var address: Address
        var tags: [String]
        var scores: [String: Int]
        var extra: JSON
        var subtitle: String?
        var matrix: [[Int?]]
    }

    @Test("every kind of attribute value is described, in the order read")
    func kinds() throws {
        let shape = ResourceShape(of: Everything.self)
        #expect(shape.typeName == "Everything")
        #expect(shape.resourceType == "everythings")
        #expect(shape.id == ValueShape(.string(format: nil), typeName: "String"))
        #expect(shape.relationships.isEmpty)
        #expect(shape.findings.isEmpty)
        #expect(
            shape.attributes.map(\.name) == [
                "title", "count", "ratio", "small", "flag", "created", "homepage", "token", "blob", "amount", "status",
                "priority", "address", "tags", "scores", "extra", "subtitle", "matrix",
            ])
        func kind(_ name: String) -> ValueShape.Kind? { shape.attribute(name)?.value.kind }
        #expect(kind("title") == .string(format: nil))
        #expect(kind("count") == .integer)
        #expect(kind("ratio") == .number)
        #expect(kind("small") == .number)
        #expect(kind("flag") == .boolean)
        #expect(kind("created") == .string(format: .dateTime))
        #expect(kind("homepage") == .string(format: .uri))
        #expect(kind("token") == .string(format: .uuid))
        #expect(kind("blob") == .string(format: .byte))
        #expect(kind("amount") == .number)
        #expect(kind("status") == .enumeration(values: ["draft", "published"]))
        #expect(kind("priority") == .enumeration(values: [1, 5]))
        #expect(
            kind("address")
                == .object(members: [
                    MemberShape(name: "street", value: ValueShape(.string(format: nil), typeName: "String")),
                    MemberShape(name: "number", value: ValueShape(.integer, isOptional: true, typeName: "Int")),
                ]))
        #expect(kind("tags") == .array(of: ValueShape(.string(format: nil), typeName: "String")))
        #expect(kind("scores") == .dictionary(of: ValueShape(.integer, typeName: "Int")))
        #expect(kind("extra") == .any)
        #expect(
            shape.attribute("subtitle")?.value == ValueShape(.string(format: nil), isOptional: true, typeName: "String")
        )
        #expect(shape.attribute("title")?.value.isOptional == false)
        #expect(
            kind("matrix")
                == .array(
                    of: ValueShape(
                        .array(of: ValueShape(.integer, isOptional: true, typeName: "Int")),
                        typeName: "Array<Optional<Int>>"
                    )))
    }

    struct Kebab: Decodable, JSONAPIResource {
        static let resourceType = "kebabs"
        var id: Int
        var firstName: String
        var lastName: String?

        enum CodingKeys: String, CodingKey {
            case id
            case firstName = "first-name"
            case lastName = "last_name"
        }
    }

    @Test("names are the CodingKey string values, whatever key strategy a decoder applies later")
    func codingKeyNames() {
        let shape = ResourceShape(of: Kebab.self)
        #expect(shape.attributes.map(\.name) == ["first-name", "last_name"])
        #expect(shape.id?.kind == .integer)
        #expect(shape.attribute("last_name")?.value.isOptional == true)
        #expect(shape.findings.isEmpty)
    }

    struct Email: Decodable {
        var address: String
        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard text.contains("@") else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no @"))
            }
            address = text
        }
    }

    struct Validated: Decodable, JSONAPIResource {
        static let resourceType = "validated"
        var id: String
        var email: Email
        var homepage: String
        var after: Int

        enum CodingKeys: String, CodingKey { case id, email, homepage, after }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            email = try container.decode(Email.self, forKey: .email)
            homepage = try container.decode(String.self, forKey: .homepage)
            guard homepage.hasPrefix("https://") else {
                throw DecodingError.dataCorruptedError(forKey: .homepage, in: container, debugDescription: "not https")
            }
            after = try container.decode(Int.self, forKey: .after)
        }
    }

    @Test("a validating initializer gets samples it accepts: the single value and the model's own check")
    func validatingInitializers() {
        let shape = ResourceShape(of: Validated.self)
        #expect(shape.findings.isEmpty, "\(shape.findings)")
        #expect(shape.attributes.map(\.name) == ["email", "homepage", "after"])
        #expect(shape.attribute("email")?.value == ValueShape(.string(format: nil), typeName: "String"))
    }

    enum Plain: String, Decodable {
        case on, off
    }

    struct Rejecting: Decodable, JSONAPIResource {
        static let resourceType = "rejecting"
        var id: String
        var mode: Plain?
        var name: String
    }

    @Test("a type that rejects every sample is opaque with a finding, and an optional one does not stop the model")
    func rejectedSamples() {
        let shape = ResourceShape(of: Rejecting.self)
        #expect(shape.attribute("mode")?.value == ValueShape(.opaque, isOptional: true, typeName: "Plain"))
        #expect(shape.attribute("name") != nil)
        #expect(shape.findings.map(\.kind) == [.sampleRejected])
        #expect(shape.findings.first?.path == ["mode"])
    }

    struct Stopped: Decodable, JSONAPIResource {
        static let resourceType = "stopped"
        var id: String
        var mode: Plain
        var name: String
    }

    @Test("a required type that rejects every sample stops the model's initializer: a finding says so")
    func stoppedInitializer() {
        let shape = ResourceShape(of: Stopped.self)
        #expect(shape.attributes.map(\.name) == ["mode"])
        #expect(shape.findings.map(\.kind) == [.sampleRejected, .initializerStopped])
    }

    struct Tree: Decodable {
        var label: String
        var children: [Tree]
    }

    struct Forest: Decodable, JSONAPIResource {
        static let resourceType = "forests"
        var id: String
        var tree: Tree
    }

    @Test("a value type that contains itself is described down to the nesting bound")
    func nestingBound() {
        let shape = ResourceShape(of: Forest.self)
        #expect(shape.findings.map(\.kind) == [.nestingTooDeep])
        var depth = 0
        var value = shape.attribute("tree")?.value
        while case .object(let members)? = value?.kind, case .array(let element)? = members.last?.value.kind {
            depth += 1
            value = element
        }
        #expect(depth > 10 && depth <= ResourceShape.maximumNesting)
    }

    struct Twice: Decodable, JSONAPIResource {
        static let resourceType = "twices"
        var id: String
        var name: String
        var kind: String

        enum CodingKeys: String, CodingKey { case id, name, type }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            name = try container.decode(String.self, forKey: .name)
            kind = try container.decode(String.self, forKey: .type)
        }
    }

    @Test("a key read twice, and `type` read as a property, are findings")
    func keyReadTwiceAndType() {
        let shape = ResourceShape(of: Twice.self)
        #expect(shape.findings.map(\.kind) == [.keyReadTwice, .notAttributeOrRelationship])
        #expect(shape.findings.map(\.path) == [["name"], ["type"]])
        #expect(shape.attributes.map(\.name) == ["name"])
    }

    struct Rules: Decodable, JSONAPIResource {
        static let resourceType = "rules"
        var id: String
        var tags: [String]?
        var extra: [String: Int]
        var nested: Nested

        struct Nested: Decodable {
            var ok: Int

            enum CodingKeys: String, CodingKey {
                case ok = "_bad"
            }
        }

        enum CodingKeys: String, CodingKey {
            case id, tags
            case extra = "first!name"
            case nested
        }
    }

    @Test("rule findings: optional array attribute, invalid member names (nested too)")
    func ruleFindings() {
        let shape = ResourceShape(of: Rules.self)
        #expect(
            shape.findings.map(\.kind) == [.optionalArrayAttribute, .invalidMemberName, .invalidMemberName])
        #expect(shape.findings.map(\.path) == [["tags"], ["first!name"], ["nested", "_bad"]])
    }

    struct BadType: Decodable, JSONAPIResource {
        static let resourceType = "bad type!"
        var id: String
        var links: [String]
        var meta: JSONObject?
    }

    @Test("an invalid resource type, and `links` read as an array, are findings; meta is recorded")
    func invalidTypeAndReservedLinks() {
        let shape = ResourceShape(of: BadType.self)
        #expect(shape.findings.map(\.kind) == [.invalidResourceType, .reservedMemberName])
        #expect(shape.links?.kind == .array(of: ValueShape(.string(format: nil), typeName: "String")))
        #expect(shape.meta?.kind == .dictionary(of: ValueShape(.any, typeName: "JSONValue")))
        #expect(shape.meta?.isOptional == true)
        #expect(shape.attributes.isEmpty)
    }

    struct Patch: Decodable, JSONAPIResource {
        static let resourceType = "patches"
        var id: String
        var title: Field<String>
        var lid: String?
        var links: Links?
    }

    @Test("a Field is optional; lid and links are recorded")
    func fieldsAndLocalIDs() {
        let shape = ResourceShape(of: Patch.self)
        #expect(
            shape.attribute("title")?.value == ValueShape(.string(format: nil), isOptional: true, typeName: "String"))
        #expect(shape.readsLocalID)
        #expect(shape.links?.kind == .dictionary(of: ValueShape(.link, typeName: "Link")))
        #expect(shape.findings.isEmpty)
    }
}
