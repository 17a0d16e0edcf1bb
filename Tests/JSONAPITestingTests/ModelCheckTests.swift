import Foundation
import JSONAPI
import JSONAPITesting
import Testing

@Suite("Model checks")
struct ModelCheckTests {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Clean: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var tags: [String]
        var publishedAt: Date?
        var author: Person
        var comments: [Identifier<Person>]
        var meta: JSONObject?
    }

    @Test("a clean model has no findings")
    func clean() throws {
        let check = ModelCheck(Clean.self)
        #expect(check.isClean)
        #expect(check.description == "Clean (articles): no findings")
        try check.requireClean()
    }

    struct OptionalArray: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var tags: [String]?
    }

    struct TypeProperty: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var type: String
    }

    struct ReservedAttribute: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var relationships: Int

        enum CodingKeys: String, CodingKey { case id, relationships = "attributes.relationships" }
    }

    struct ReservedLinks: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var links: String
    }

    struct InvalidName: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var name: String

        enum CodingKeys: String, CodingKey { case id, name = "name!" }
    }

    struct OptionalToMany: Decodable, JSONAPIResource {
        static let resourceType = "things"
        var id: String
        var people: [Person]?
    }

    struct EmptyType: Decodable, JSONAPIResource {
        static let resourceType = ""
        var id: String
    }

    struct InvalidType: Decodable, JSONAPIResource {
        static let resourceType = "-things"
        var id: String
    }

    @Test(
        "each finding fires",
        arguments: [
            (ModelCheck(OptionalArray.self), ShapeFinding.Kind.optionalArrayAttribute, ["tags"]),
            (ModelCheck(TypeProperty.self), .notAttributeOrRelationship, ["type"]),
            (ModelCheck(ReservedAttribute.self), .reservedMemberName, ["relationships"]),
            (ModelCheck(ReservedLinks.self), .reservedMemberName, ["links"]),
            (ModelCheck(InvalidName.self), .invalidMemberName, ["name!"]),
            (ModelCheck(OptionalToMany.self), .optionalToManyRelationship, ["people"]),
            (ModelCheck(EmptyType.self), .invalidResourceType, []),
            (ModelCheck(InvalidType.self), .invalidResourceType, []),
        ])
    func finding(check: ModelCheck, kind: ShapeFinding.Kind, path: [String]) {
        #expect(check.findings.map(\.kind) == [kind], "\(check)")
        #expect(check.findings.first?.path == path)
        #expect(!check.isClean)
        #expect(throws: ModelCheckFailure.self) { try check.requireClean() }
    }

    @Test("the description lists each finding with its kind and path")
    func description() {
        let check = ModelCheck(OptionalArray.self)
        #expect(
            check.description == """
                OptionalArray (things): 1 finding
                  - [optionalArrayAttribute] tags: an optional array attribute (Array<String>?); JSON:API prefers an empty array to null or an absent member
                """)
    }

    @Test("kinds a model has on purpose can be ignored")
    func ignoring() {
        #expect(ModelCheck(OptionalToMany.self, ignoring: [.optionalToManyRelationship]).isClean)
        #expect(!ModelCheck(OptionalToMany.self, ignoring: [.optionalArrayAttribute]).isClean)
    }
}
