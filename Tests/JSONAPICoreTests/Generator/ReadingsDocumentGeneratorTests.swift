import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

@Suite("ReadingsDocumentGenerator")
struct ReadingsDocumentGeneratorTests {
    @Test("the same seed gives the same bytes; another seed other bytes")
    func deterministic() {
        let generator = ReadingsDocumentGenerator(resources: 500, seed: 3)
        #expect(generator.generate() == generator.generate())
        #expect(generator.generate() != ReadingsDocumentGenerator(resources: 500, seed: 4).generate())
    }

    @Test(
        "strict builds: no diagnostics (full linkage), every linkage resolved",
        arguments: [0, 1, 3, 40, 2_000])
    func builds(resources: Int) throws {
        let generator = ReadingsDocumentGenerator(resources: resources, seed: 7)
        let document = try Document(parsing: generator.generate())
        #expect(document.allResources.count == resources)
        #expect(document.primaryResources.count == generator.readingCount)
        if resources >= 3 {
            #expect(document.diagnostics.isEmpty)
            let statistics = document.statistics
            #expect(statistics.resolvedLinkageCount == statistics.linkageCount)
        }
    }

    @Test("JSONDecoder decodes it into ReadingsCodableModel, and it holds the promised values")
    func codableModel() throws {
        let generator = ReadingsDocumentGenerator(resources: 1_000, seed: 1)
        let bytes = generator.generate()
        let model = try JSONDecoder().decode(ReadingsCodableModel.Document.self, from: Data(bytes))
        #expect(model.data.count == generator.readingCount)
        #expect(model.included?.count == generator.stationCount + generator.deviceCount)
        #expect(model.data.allSatisfy { $0.id.utf8.count == 6 })
        #expect(model.data.allSatisfy { $0.attributes.total > Decimal(UInt64.max) })
        #expect(model.data.contains { $0.attributes.flag == nil })
        #expect(model.data.contains { $0.attributes.window.stats.mean == nil })
        #expect(model.data.contains { $0.relationships.device.data == nil })
        #expect(model.data.allSatisfy { $0.attributes.delta <= 0 })
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.range(of: #"[0-9]e-[0-9]"#, options: .regularExpression) != nil)
        #expect(text.range(of: #"[0-9]E\+[0-9]"#, options: .regularExpression) != nil)
        #expect(text.contains(#""deepest":["#))
        let averageBytes = Double(bytes.count) / Double(generator.resources)
        #expect((400...580).contains(averageBytes), "\(averageBytes) bytes per resource")
    }

    @Test("resourceCount(approximateBytes:) lands within 10% of the request", arguments: [1_000_000, 10_000_000])
    func approximateSize(bytes: Int) {
        let size = ReadingsDocumentGenerator(
            resources: ReadingsDocumentGenerator.resourceCount(approximateBytes: bytes), seed: 1
        ).generate().count
        #expect(abs(Double(size) / Double(bytes) - 1) < 0.1, "\(size) bytes")
    }
}
