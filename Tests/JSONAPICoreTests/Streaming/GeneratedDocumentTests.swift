import JSONAPIGenerator
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

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

    @Test("a document past the size at which the chunked buffer becomes a mapping of its own")
    func largeChunkedDocument() throws {
        // About 40 MB: the buffer of an unsized parser starts in `malloc` memory, is copied into
        // a mapping at 16 MB and then moves its pages into a larger one; a sized parser maps it
        // at once. Either way the document must be the whole-buffer parse's, record for record
        // and byte for byte (writing it back out reads every byte of the buffer).
        let bytes = CompoundDocumentGenerator(resources: 40_000, seed: 12).generate()
        #expect(bytes.count > 32_000_000)
        let whole = try Document(parsing: bytes)
        let expected = ParseOutcome { () throws(JSONAPIError) in whole }
        for (chunk, sized) in [(65_536, false), (65_536, true), (1_048_583, false), (9_000_017, true)] {
            var parser = DocumentParser(expectedByteCount: sized ? bytes.count : 0)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                try bytes[offset..<end].withUnsafeBytes { try parser.feed($0) }
                offset = end
            }
            let document = try parser.finish()
            #expect(ParseOutcome { () throws(JSONAPIError) in document } == expected, "\(chunk), sized: \(sized)")
            #expect(document.jsonBytes() == whole.jsonBytes(), "\(chunk), sized: \(sized)")
        }
    }
}
