import JSONAPIGenerator
import Testing

@testable @_spi(Backend) import JSONAPI

@Suite("Generated documents through the parser")
struct GeneratedDocumentTests {
    @Test("strictly valid, fully linked, identical however they are fed", arguments: [0, 1, 2, 10, 500, 3000])
    func generated(_ resources: Int) throws {
        let generator = CompoundDocumentGenerator(resources: resources, seed: UInt64(resources) &+ 7)
        let bytes = generator.generate()
        let document = try parseEverywhere(bytes, everySplit: bytes.count <= 4096).get()
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics.prefix(3))")
        let statistics = document.statistics
        #expect(statistics.resourceCount == resources)
        #expect(statistics.primaryCount == generator.primaryCount)
        #expect(statistics.includedCount == generator.includedCount)
        #expect(statistics.resolvedLinkageCount == statistics.linkageCount)
        // The smallest documents are a lone article whose author is not included.
        for article in document.primaryResources.prefix(50) where generator.personCount > 0 {
            let author = try #require(article.relationship("author")?.resolvedResource)
            #expect(author.type == "people")
            #expect(document.resource(type: "people", id: author.id ?? "") != nil)
            #expect(article.attributes["title"]?.stringValue?.isEmpty == false)
        }
    }
}
