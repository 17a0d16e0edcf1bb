import Foundation
import JSONAPIMacros
import Testing

@testable import JSONAPITestSupport

// A union written by `@ResourceReadable` (macros attach at file scope or in types).

@ResourceReadable
struct MacroPerson: Codable, Equatable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String
}

@ResourceReadable
struct MacroOrganization: Codable, Equatable, JSONAPIResource {
    static let resourceType = "organizations"
    var id: String
    var name: String
}

@ResourceReadable
enum MacroContributor: Equatable {
    case person(MacroPerson)
    case organization(MacroOrganization)
}

struct MacroArticle: Decodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var contributors: [MacroContributor]
    var reviewer: MacroContributor?
}

// Read through its `ResourceReader`, as the identifiers are.
@ResourceReadable
struct MacroArticleLinkage: Decodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var contributors: [MacroContributor.ID]
    var reviewer: MacroContributor.ID?
    var lead: MacroContributor.ID
}

struct MacroArticlePatch: Encodable, JSONAPIResource {
    static let resourceType = "articles"
    var id: String
    var contributors: Field<[MacroContributor.ID]> = .absent
}

@Suite("A union made by @ResourceReadable")
struct MacroUnionDecodingTests {
    static let document = """
        {"data":{"type":"articles","id":"1","relationships":{
          "contributors":{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"},{"type":"teams","id":"5"}]},
          "reviewer":{"data":{"type":"organizations","id":"24"}},
          "lead":{"data":{"type":"people","id":"12"}}}},
         "included":[{"type":"people","id":"12","attributes":{"name":"Ann"}},
          {"type":"organizations","id":"24","attributes":{"name":"ACME"}},{"type":"teams","id":"5"}]}
        """

    @Test func membersTableFollowsTheCases() {
        #expect(MacroContributor.memberResourceTypes == ["people", "organizations"])
    }

    @Test func decodesAPolymorphicRelationship() throws {
        let decoder = JSONAPIDecoder()
        decoder.ignoresUnhandledResourceTypes = true
        let report = try decoder.decodeReporting(MacroArticle.self, from: Array(Self.document.utf8))
        let article = report.value
        #expect(
            article.contributors == [
                .person(MacroPerson(id: "12", name: "Ann")), .organization(MacroOrganization(id: "24", name: "ACME")),
            ])
        #expect(article.reviewer == .organization(MacroOrganization(id: "24", name: "ACME")))
        #expect(report.skipped.map(\.codingPath) == ["contributors[2]"])

        let linkage = try decoder.decodeReporting(MacroArticleLinkage.self, from: Array(Self.document.utf8))
        #expect(linkage.value.contributors == [.person("12"), .organization("24")])
        #expect(linkage.value.reviewer == .organization("24"))
        #expect(linkage.value.lead == .person("12"))
        #expect(linkage.skipped.map(\.codingPath) == ["contributors[2]"])
    }

    @Test func unhandledTypeFailsNamingTheMembers() {
        let error = decodingError { try JSONAPIDecoder().decode(MacroArticle.self, from: Array(Self.document.utf8)) }
        #expect(
            error?.debugDescription.contains(
                "resource type `teams` (teams/5) is not a member of MacroContributor (people, organizations)") == true,
            "\(String(describing: error))")
        #expect(error?.jsonapiError?.pointer == "/data/relationships/contributors/data/2")
    }

    @Test func identifierEnumWritesUpdateBodies() throws {
        let patch = MacroArticlePatch(id: "1", contributors: .value([.person("12"), .organization("24")]))
        #expect(
            text(try JSONAPIEncoder().encodeUpdate(patch))
                == #"{"data":{"type":"articles","id":"1","relationships":{"contributors":{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]}}}}"#
        )
        let body = RelationshipUpdate.toMany([MacroContributor.ID.person("12"), .organization("24")])
        #expect(
            text(try JSONAPIEncoder().encode(body))
                == #"{"data":[{"type":"people","id":"12"},{"type":"organizations","id":"24"}]}"#)
    }
}
