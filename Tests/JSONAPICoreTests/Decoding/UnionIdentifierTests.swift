import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

@Suite("Decoding union identifiers")
struct UnionIdentifierTests {
    struct Person: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "people"
        var id: String
        var name: String
    }

    struct Organization: Codable, Equatable, Sendable, JSONAPIResource {
        static let resourceType = "organizations"
        var id: String
        var name: String
    }

    enum Contributor: ResourceUnion, Equatable, Sendable {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Contributor>] = [
            .member(Contributor.person),
            .member(Organization.self, Contributor.organization),
        ]
    }

    /// A union's own identifier type, written as `@ResourceReadable` writes it.
    enum Credit: ResourceUnion, Equatable, Sendable {
        case person(Person)
        case organization(Organization)

        static let members: [ResourceUnionMember<Credit>] = [.member(Credit.person), .member(Credit.organization)]

        enum ID: UnionIdentifierConvertible {
            case person(Identifier<Person>)
            case organization(Identifier<Organization>)

            init?(_ identifier: UnionIdentifier<Credit>) {
                if let id = identifier.identifier(as: Person.self) {
                    self = .person(id)
                } else if let id = identifier.identifier(as: Organization.self) {
                    self = .organization(id)
                } else {
                    return nil
                }
            }

            var unionIdentifier: UnionIdentifier<Credit> {
                switch self {
                case .person(let id): UnionIdentifier(id, as: Credit.person)
                case .organization(let id): UnionIdentifier(id, as: Credit.organization)
                }
            }
        }
    }

    /// An identifier type of the union with no case for organizations.
    enum PersonCredit: UnionIdentifierConvertible {
        case person(Identifier<Person>)

        init?(_ identifier: UnionIdentifier<Credit>) {
            guard let id = identifier.identifier(as: Person.self) else { return nil }
            self = .person(id)
        }

        var unionIdentifier: UnionIdentifier<Credit> {
            switch self {
            case .person(let id): UnionIdentifier(id, as: Credit.person)
            }
        }
    }

    struct PersonCredited: Decodable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var reviewer: PersonCredit
    }

    struct Article: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var contributors: [UnionIdentifier<Contributor>]
        var reviewer: UnionIdentifier<Contributor>?
        var lead: Contributor.ID
    }

    struct CreditedArticle: Decodable, Sendable, JSONAPIResource {
        static let resourceType = "articles"
        var id: String
        var contributors: [Credit.ID]
        var reviewer: Credit.ID?
    }

    static let document = """
        {"data":{"type":"articles","id":"1",
          "relationships":{
            "contributors":{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"},
              {"type":"people","id":"66","meta":{"role":"editor"}}]},
            "reviewer":{"data":{"type":"organizations","id":"24"}},
            "lead":{"data":{"type":"people","id":"12"}}}},
         "included":[{"type":"people","id":"12","attributes":{"name":"Ann"}}]}
        """

    static func replacing(_ old: String, with new: String) -> String {
        let text = document.replacingOccurrences(of: old, with: new)
        #expect(text != document, "fixture edit did not apply")
        return text
    }

    @Test func decodesLinkageOfEveryMember() throws {
        let article = try decode(Article.self, Self.document)
        #expect(
            article.contributors == [
                UnionIdentifier(Contributor.person, id: "12"), UnionIdentifier(Contributor.organization, id: "24"),
                UnionIdentifier(Contributor.person, id: "66"),
            ])
        #expect(article.contributors.map(\.type) == ["people", "organizations", "people"])
        #expect(article.contributors[2].meta?["role"]?.stringValue == "editor")
        #expect(article.reviewer == UnionIdentifier(Contributor.organization, id: "24"))
        #expect(article.lead.identifier(as: Person.self) == Identifier<Person>("12"))
        #expect(article.lead.identifier(as: Organization.self) == nil)
        #expect(article.lead.description == "people/12")
        // Identifiers need no included resource: organizations/24 is not in the document.
        #expect(article.reviewer?.resourceIdentifier == ResourceIdentifier(type: "organizations", id: "24"))
    }

    @Test func decodesIntoAUnionsOwnIdentifierEnum() throws {
        let article = try decode(CreditedArticle.self, Self.document)
        #expect(article.contributors == [.person("12"), .organization("24"), .person("66")])
        #expect(article.reviewer == .organization("24"))
        guard case .person(let third) = article.contributors[2] else {
            Issue.record("expected a person, got \(article.contributors[2])")
            return
        }
        #expect(third.meta?["role"]?.stringValue == "editor")
    }

    @Test func typeOutsideTheUnionFailsAtTheLinkage() throws {
        let text = Self.replacing(#"{"type":"organizations","id":"24"},"#, with: #"{"type":"robots","id":"r1"},"#)
        let error = decodingError { try decode(Article.self, text) }
        #expect(
            error?.debugDescription.contains(
                "resource type `robots` (robots/r1) is not a member of Contributor (people, organizations)") == true,
            "\(String(describing: error))")
        #expect(error?.jsonapiError?.code == .typeMismatch)
        #expect(error?.jsonapiError?.pointer == "/data/relationships/contributors/data/1")
        #expect(error?.jsonapiError?.line == 3)
        #expect(error?.jsonapiError?.column == 57)
        #expect(error?.path == "contributors.[1]")

        let toOne = Self.replacing(
            #""reviewer":{"data":{"type":"organizations","id":"24"}}"#,
            with: #""reviewer":{"data":{"type":"robots","id":"r1"}}"#)
        let toOneError = decodingError { try decode(CreditedArticle.self, toOne) }
        #expect(toOneError?.debugDescription.contains("is not a member of Credit (people, organizations)") == true)
        #expect(toOneError?.jsonapiError?.pointer == "/data/relationships/reviewer/data")
        #expect(toOneError?.path == "reviewer")
    }

    @Test func identifierTypeWithoutACaseForTheResourceFails() throws {
        let error = decodingError { try decode(PersonCredited.self, Self.document) }
        #expect(
            error?.debugDescription.contains("PersonCredit has no value for the resource organizations/24") == true,
            "\(String(describing: error))")
        #expect(error?.jsonapiError?.code == .typeMismatch)
        #expect(error?.jsonapiError?.pointer == "/data/relationships/reviewer/data")
        #expect(error?.path == "reviewer")
    }

    @Test func unhandledTypesAreSkippedWhenAllowed() throws {
        let text = Self.replacing(#"{"type":"organizations","id":"24"},"#, with: #"{"type":"robots","id":"r1"},"#)
            .replacingOccurrences(
                of: #""reviewer":{"data":{"type":"organizations","id":"24"}}"#,
                with: #""reviewer":{"data":{"type":"robots","id":"r2"}}"#)
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        for report in [
            try decoder.decodeReporting(Article.self, from: Array(text.utf8)).map {
                ($0.contributors.map(\.description), $0.reviewer == nil)
            },
            try decoder.decodeReporting(CreditedArticle.self, from: Array(text.utf8)).map {
                ($0.contributors.map(\.description), $0.reviewer == nil)
            },
        ] {
            #expect(report.value.0 == ["people/12", "people/66"])
            #expect(report.value.1)
            #expect(report.skipped.count == 2)
            let element = report.skipped.first { $0.codingPath == "contributors[1]" }
            #expect(element?.identifier == ResourceIdentifier(type: "robots", id: "r1"))
            #expect(element?.pointer == "/data/relationships/contributors/data/1")
            #expect(
                report.skipped.contains {
                    $0.codingPath == "reviewer" && $0.pointer == "/data/relationships/reviewer/data"
                })
        }
        // Not skipped, whatever the option: a non-optional to-one has no value to give.
        let lead = Self.replacing(
            #""lead":{"data":{"type":"people","id":"12"}}"#, with: #""lead":{"data":{"type":"robots","id":"r3"}}"#)
        let error = decodingError { try decoder.decode(Article.self, from: Array(lead.utf8)) }
        #expect(error?.jsonapiError?.pointer == "/data/relationships/lead/data")
    }

    @Test func optionalAndArrayShapes() throws {
        let absent = Self.replacing(#""reviewer":{"data":{"type":"organizations","id":"24"}},"#, with: "")
        #expect(try decode(Article.self, absent).reviewer == nil)
        let null = Self.replacing(
            #""reviewer":{"data":{"type":"organizations","id":"24"}}"#, with: #""reviewer":{"data":null}"#)
        #expect(try decode(Article.self, null).reviewer == nil)
        let empty = Self.replacing(
            #"[{"type":"people","id":"12"},{"type":"organizations","id":"24"},"#
                + "\n" + #"      {"type":"people","id":"66","meta":{"role":"editor"}}]"#,
            with: "[]")
        #expect(try decode(Article.self, empty).contributors.isEmpty)
        // A new resource in a create request: only a local id.
        let local = Self.replacing(#"{"type":"people","id":"12"},"#, with: #"{"type":"people","lid":"p1"},"#)
        let first = try decode(Article.self, local).contributors[0]
        #expect(first.id == "" && first.lid == "p1")
        #expect(first.description == "people/lid:p1")
        #expect(first.resourceIdentifier == ResourceIdentifier(type: "people", lid: "p1"))
    }

    @Test func decodesAsPrimaryDataOfARelationshipDocument() throws {
        let text = #"{"data":[{"type":"organizations","id":"24"},{"type":"people","id":"12"}]}"#
        #expect(try decode([Credit.ID].self, text) == [.organization("24"), .person("12")])
        #expect(
            try decode([UnionIdentifier<Contributor>].self, text).map(\.description) == [
                "organizations/24", "people/12",
            ])
    }

    @Test func streamedResourcesDecodeUnionIdentifiers() async throws {
        let bytes = Array(Self.document.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            continuation.yield(bytes)
            continuation.finish()
        }
        var articles: [CreditedArticle] = []
        for try await article in AsyncResourceStream(chunks).resources(of: CreditedArticle.self) {
            articles.append(article)
        }
        #expect(articles.map(\.contributors) == [[.person("12"), .organization("24"), .person("66")]])
        #expect(articles.map(\.reviewer) == [.organization("24")])
    }

    @Test func decodesFromPlainJSON() throws {
        let json = Data(#"[{"type":"people","id":"12"},{"type":"organizations","id":"24","meta":{"n":1}}]"#.utf8)
        let identifiers = try JSONDecoder().decode([UnionIdentifier<Contributor>].self, from: json)
        #expect(identifiers.map(\.description) == ["people/12", "organizations/24"])
        #expect(identifiers[1].meta?["n"]?.doubleValue == 1)
        #expect(try JSONDecoder().decode([Credit.ID].self, from: json) == [.person("12"), .organization("24")])
        let wrong = Data(#"{"type":"robots","id":"1"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UnionIdentifier<Contributor>.self, from: wrong) }
    }

    @Test func buildingIdentifiers() {
        let person = UnionIdentifier(Contributor.person, id: "12")
        #expect(person.type == "people" && person.id == "12" && person.lid == nil)
        #expect(
            UnionIdentifier<Contributor>(ResourceIdentifier(type: "organizations", id: "24"))?.type == "organizations")
        #expect(UnionIdentifier<Contributor>(ResourceIdentifier(type: "robots", id: "1")) == nil)
        var tagged = Identifier<Person>("12")
        tagged.lid = "x"
        let converted = UnionIdentifier(tagged, as: Contributor.person)
        #expect(converted.lid == "x" && converted != person)
        #expect(Set([person, UnionIdentifier(Contributor.person, id: "12")]).count == 1)
        #expect(Credit.ID.person("12").unionIdentifier == UnionIdentifier(Credit.person, id: "12"))
        #expect(Credit.ID(UnionIdentifier(Credit.organization, id: "24")) == .organization("24"))
        #expect(Credit.ID.organization("24").description == "organizations/24")
    }
}

extension DecodingReport {
    fileprivate func map<U>(_ transform: (Value) -> U) -> (value: U, skipped: [SkippedResource]) {
        (transform(value), skipped)
    }
}
