import Foundation
import JSONAPIMacros
import Testing

@testable import JSONAPITestSupport

// The porting guide's (Porting.md) `@ResourceReadable` examples, copied as they are written
// there with a prefix on each type name (macros attach at file scope or in types), and run
// against real documents.

// MARK: "Faster decoding"

struct PortingPerson: Codable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String
}

@ResourceReadable
struct PortingArticle: JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var title: String
    var metrics: PortingMetrics
    var author: Identifier<PortingPerson>
}

@ResourceReadable
struct PortingMetrics: Decodable {
    var views: Int
    var ratio: Double
}

// MARK: "Union identifiers (`Contributor.ID`)"

struct PortingOrganization: Codable, JSONAPIResource {
    static let resourceType = "organizations"
    var id: String
    var name: String
}

@ResourceReadable
enum PortingContributor {
    case person(PortingPerson)
    case organization(PortingOrganization)
}

struct PortingArticlePatch: Encodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var contributors: Field<[PortingContributor.ID]> = .absent
}

struct PortingArticleCredits: Codable, JSONAPIResource {
    static let resourceType = "articles"
    var id = ""
    var contributors: [PortingContributor.ID]
    var reviewer: PortingContributor.ID?
}

@Suite("Porting guide: @ResourceReadable")
struct PortingGuideMacroTests {
    @Test("Faster decoding")
    func fasterDecoding() throws {
        let text = #"""
            {"data": [{"type": "articles", "id": "1",
                       "attributes": {"title": "T", "metrics": {"views": 3, "ratio": 0.5}},
                       "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}]}
            """#
        let document = try Document(parsing: text)
        let article = try document.primary(as: PortingArticle.self).element(at: 0)
        #expect(article.title == "T" && article.metrics.views == 3 && article.metrics.ratio == 0.5)
        #expect(article.author.id == "9")

        // `DecodingOptions.usesResourceReaders = false` decodes through `init(from:)` again.
        var options = DecodingOptions()
        options.usesResourceReaders = false
        let again = try document.primary(as: PortingArticle.self, options: options).element(at: 0)
        #expect(again.title == article.title && again.author == article.author)
    }

    @Test("Union identifiers (Contributor.ID)")
    func unionIdentifiers() throws {
        #expect(PortingContributor.members.map(\.resourceType) == ["people", "organizations"])

        let id: PortingContributor.ID = .person("12")
        switch id {
        case .person(let personID):
            #expect(personID.id == "12" && personID.lid == nil && personID.meta == nil)
        case .organization:
            Issue.record("a person's identifier matched .organization")
        }

        // An update body with `contributors: [.person("12"), .organization("24")]`.
        let patch = try JSONAPIEncoder().encodeUpdate(
            PortingArticlePatch(id: "1", contributors: .value([.person("12"), .organization("24")])))
        let updated = try Document(parsing: patch, options: ParsingOptions(kind: .updateRequest))
        #expect(
            updated.primaryResources[0].relationship("contributors")?.identifiers.map(\.type) == [
                "people", "organizations",
            ])

        // A create body.
        let create = try JSONAPIEncoder().encodeCreate(
            PortingArticleCredits(contributors: [.organization("24")], reviewer: .person("12")))
        let created = try Document(parsing: create, options: ParsingOptions(kind: .createRequest))
        #expect(created.primaryResources[0].id == nil)
        #expect(created.primaryResources[0].relationship("reviewer")?.identifiers.map(\.id) == ["12"])

        // Bodies for /articles/1/relationships/contributors.
        let body = try JSONAPIEncoder().encode(
            RelationshipUpdate.toMany([PortingContributor.ID.person("12"), .organization("24")]))
        let relationship = try Document(parsing: body, options: ParsingOptions(kind: .relationshipUpdate))
        #expect(relationship.primaryIdentifiers.map(\.id) == ["12", "24"])

        // A linkage-only polymorphic relationship needs no `included`.
        let text = #"""
            {"data": {"type": "articles", "id": "1",
                      "relationships": {"contributors": {"data": [{"type": "people", "id": "12"}]},
                                        "reviewer": {"data": {"type": "organizations", "id": "24"}}}}}
            """#
        let credits = try JSONAPIDecoder().decode(PortingArticleCredits.self, from: text)
        #expect(credits.contributors == [.person("12")] && credits.reviewer == .organization("24"))
    }
}
