import Foundation
import JSONAPI
import Testing

@Suite("Resource shapes: relationships")
struct RelationshipShapeTests {
    struct Person: Decodable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
        var articles: [Article]
        var favorite: Lazy<Article>?
    }

    struct Organization: Decodable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
    }

    enum Contributor: ResourceUnion {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Person.self, Contributor.person),
            .member(Organization.self, Contributor.organization),
        ]
    }

    struct CountMeta: Decodable {
        var count: Int
    }

    struct Article: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var title: String
        var author: Person
        var editor: Person?
        var comments: [Identifier<Person>]
        var reviewer: Identifier<Person>?
        var anything: ResourceIdentifier
        var lead: Contributor
        var contributors: [Contributor]
        var lazyAuthor: Lazy<Person>
        var lazyContributor: Lazy<Contributor>
        var related: Related<[Identifier<Person>], CountMeta, Links>
        var plain: Related<Person?, NoMeta, NoLinks>
    }

    @Test("every kind of relationship, through cycles (article → author → articles)")
    func kinds() throws {
        let shape = ResourceShape(of: Article.self)
        #expect(shape.findings.isEmpty, "\(shape.findings)")
        #expect(shape.attributes.map(\.name) == ["title"])
        let people = ["people"]
        let contributors = ["people", "organizations"]
        #expect(
            shape.relationships == [
                RelationshipShape(
                    name: "author", cardinality: .toOne, representation: .resource, targetTypeName: "Person",
                    targetResourceTypes: people),
                RelationshipShape(
                    name: "editor", cardinality: .toOne, representation: .resource, targetTypeName: "Person",
                    targetResourceTypes: people, isOptional: true),
                RelationshipShape(
                    name: "comments", cardinality: .toMany, representation: .identifier, targetTypeName: "Person",
                    targetResourceTypes: people),
                RelationshipShape(
                    name: "reviewer", cardinality: .toOne, representation: .identifier, targetTypeName: "Person",
                    targetResourceTypes: people, isOptional: true),
                RelationshipShape(
                    name: "anything", cardinality: .toOne, representation: .identifier,
                    targetTypeName: "ResourceIdentifier", targetResourceTypes: []),
                RelationshipShape(
                    name: "lead", cardinality: .toOne, representation: .resource, targetTypeName: "Contributor",
                    targetResourceTypes: contributors, isUnion: true),
                RelationshipShape(
                    name: "contributors", cardinality: .toMany, representation: .resource,
                    targetTypeName: "Contributor", targetResourceTypes: contributors, isUnion: true),
                RelationshipShape(
                    name: "lazyAuthor", cardinality: .toOne, representation: .lazy, targetTypeName: "Person",
                    targetResourceTypes: people),
                RelationshipShape(
                    name: "lazyContributor", cardinality: .toOne, representation: .lazy,
                    targetTypeName: "Contributor", targetResourceTypes: contributors, isUnion: true),
                RelationshipShape(
                    name: "related", cardinality: .toMany, representation: .identifier, targetTypeName: "Person",
                    targetResourceTypes: people,
                    meta: ValueShape(
                        .object(members: [MemberShape(name: "count", value: ValueShape(.integer, typeName: "Int"))]),
                        isOptional: true, typeName: "CountMeta"),
                    links: ValueShape(
                        .dictionary(of: ValueShape(.link, typeName: "Link")), isOptional: true, typeName: "Links")),
                RelationshipShape(
                    name: "plain", cardinality: .toOne, representation: .resource, targetTypeName: "Person",
                    targetResourceTypes: people, isOptional: true),
            ])
    }

    @Test("the other side of the cycle: a to-many of models and an optional lazy reference")
    func otherSide() {
        let shape = ResourceShape(of: Person.self)
        #expect(shape.findings.isEmpty)
        #expect(shape.relationship("articles")?.cardinality == .toMany)
        #expect(shape.relationship("articles")?.targetResourceTypes == ["articles"])
        #expect(shape.relationship("favorite")?.representation == .lazy)
        #expect(shape.relationship("favorite")?.isOptional == true)
    }

    final class Node: Decodable, JSONAPIResource {
        static let resourceType = "nodes"
        let id: String
        let name: String
        let parent: Node
        let label: String
    }

    @Test("a model that needs itself through a required to-one relationship ends with a finding, not a loop")
    func requiredCycle() {
        let shape = ResourceShape(of: Node.self)
        #expect(shape.relationship("parent")?.targetResourceTypes == ["nodes"])
        #expect(shape.attributes.map(\.name) == ["name"])
        #expect(shape.findings.map(\.kind) == [.initializerStopped])
    }

    struct Odd: Decodable, JSONAPIResource {
        static let resourceType = "odds"
        var id: String
        var optionalMany: [Identifier<Organization>]?
        var nestedModels: [[Organization]]
        var commentsCount: Int

        enum CodingKeys: String, CodingKey {
            case id
            case optionalMany
            case nestedModels
            case commentsCount = "optionalMany.meta"
        }
    }

    @Test(
        "an optional to-many relationship and a model inside an attribute are findings; name.meta is the relationship's"
    )
    func relationshipFindings() {
        let shape = ResourceShape(of: Odd.self)
        #expect(shape.findings.map(\.kind) == [.relationshipInAttribute, .optionalToManyRelationship])
        #expect(shape.relationship("optionalMany")?.meta == ValueShape(.integer, typeName: "Int"))
        #expect(
            shape.attribute("nestedModels")?.value.kind
                == .array(of: ValueShape(.opaque, typeName: "Array<Organization>")))
    }
}
