import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

@Suite("CorpusDocumentGenerator")
struct CorpusDocumentGeneratorTests {
    static let shapes = CorpusShape.allCases

    // MARK: - Validity

    @Test(
        "every shape builds strictly with full linkage, at every size tried",
        arguments: CorpusShape.allCases, [0, 1, 2, 9, 64, 500])
    func validCompoundDocument(shape: CorpusShape, primaryCount: Int) throws {
        let generator = CorpusDocumentGenerator(shape: shape, primaryCount: primaryCount, seed: UInt64(primaryCount))
        let document = try Document(parsing: generator.generate())
        #expect(document.diagnostics.isEmpty)
        let resources = document.allResources
        #expect(resources.count == generator.primaryCount + generator.includedCount)
        var seen = Set<String>()
        var linked = Set<String>()
        for resource in resources {
            let key = "\(resource.type)\u{0}\(resource.id ?? "")"
            #expect(seen.insert(key).inserted, "\(key) appears twice")
            for relationship in resource.relationships {
                for identifier in relationship.identifiers {
                    let target = try #require(identifier.resource, "\(identifier.identifier) is unresolved")
                    #expect(target.type == identifier.type && target.id == identifier.id)
                    linked.insert("\(target.type)\u{0}\(target.id ?? "")")
                }
            }
        }
        let included = resources.filter { $0.type == shape.includedType }
        #expect(included.count == generator.includedCount)
        for resource in included {
            #expect(linked.contains("\(resource.type)\u{0}\(resource.id ?? "")"), "\(resource.identifier) is unlinked")
        }
    }

    @Test("Foundation's JSONSerialization reads every document too", arguments: CorpusShape.allCases)
    func foundationReadsIt(shape: CorpusShape) throws {
        let bytes = CorpusDocumentGenerator(shape: shape, primaryCount: 300, seed: 3).generate()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((object["data"] as? [Any])?.count == 300)
    }

    // MARK: - Determinism and size

    @Test(
        "the same shape, count and seed give the same bytes; another seed other bytes", arguments: CorpusShape.allCases)
    func deterministic(shape: CorpusShape) {
        let first = CorpusDocumentGenerator(shape: shape, primaryCount: 200, seed: 42).generate()
        #expect(first == CorpusDocumentGenerator(shape: shape, primaryCount: 200, seed: 42).generate())
        #expect(first != CorpusDocumentGenerator(shape: shape, primaryCount: 200, seed: 43).generate())
    }

    @Test("approximateBytes gives a document within 15% of the size asked for", arguments: CorpusShape.allCases)
    func approximateSize(shape: CorpusShape) {
        let bytes = CorpusDocumentGenerator(shape: shape, approximateBytes: 400_000, seed: 7).generate()
        #expect(abs(bytes.count - 400_000) < 60_000, "\(bytes.count) bytes")
    }

    // MARK: - What each shape holds

    @Test("the documents mix layouts: compact, indented, tabs with CRLF; included comes before data")
    func layouts() {
        let text = String(decoding: CorpusDocumentGenerator(shape: .tiny, primaryCount: 300).generate(), as: UTF8.self)
        #expect(text.contains("\r\n\t"))
        #expect(text.contains("\n  "))
        #expect(text.contains(#"{"type":"#) || text.contains(#"{"id":"#) || text.contains(#"{"attributes":"#))
        let included = text.range(of: #""included""#)?.lowerBound
        let data = text.range(of: #""data":"#)?.lowerBound
        #expect(included != nil && data != nil && included! < data!)
    }

    @Test("unicode: surrogate-pair and BMP escapes and raw UTF-8, decoded as JSONSerialization decodes them")
    func unicodeText() throws {
        let bytes = CorpusDocumentGenerator(shape: .unicode, primaryCount: 200, seed: 11).generate()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.range(of: #"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F]"#, options: .regularExpression) != nil)
        #expect(text.contains("Москва") || text.contains("北京") || text.contains("🦀"))
        let posts = try JSONAPIDecoder().decode([CorpusModels.Post].self, from: bytes)
        let reference = try Self.foundationAttributes(bytes, section: "data")
        #expect(posts.count == 200)
        for post in posts {
            let attributes = try #require(reference[post.id])
            #expect(post.headline == attributes["headline"] as? String)
            #expect(post.body == attributes["body"] as? String)
            #expect(post.reactions == attributes["reactions"] as? [String])
        }
        let writers = try Self.foundationAttributes(bytes, section: "included")
        for post in posts {
            let author = try #require(post.author)
            #expect(author.bio == writers[author.id]?["bio"] as? String)
        }
    }

    @Test("numbers: floats, integers, nulls and nested objects decode as JSONDecoder reads them")
    func numbers() throws {
        let bytes = CorpusDocumentGenerator(shape: .numbers, primaryCount: 300, seed: 5).generate()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("E+") || text.contains("e+"))
        #expect(text.contains("e-") || text.contains("E-"))
        #expect(text.contains("null"))
        let measurements = try JSONAPIDecoder().decode([CorpusModels.Measurement].self, from: bytes)
        // The reference is JSONDecoder, whose doubles are correctly rounded: JSONSerialization
        // (swift-corelibs-foundation) rounds some 17-to-19-digit literals to a neighbouring double.
        typealias Models = CorpusFoundationModels
        let reference = try JSONDecoder().decode(
            Models.Document<Models.MeasurementAttributes, Models.StationAttributes>.self, from: Data(bytes)
        ).data
        #expect(reference.count == measurements.count)
        var nulls = 0
        for (measurement, expected) in zip(measurements, reference) {
            let attributes = expected.attributes
            #expect(measurement.id == expected.id)
            #expect(measurement.value == attributes.value && measurement.delta == attributes.delta)
            #expect(measurement.count == attributes.count && measurement.flags == attributes.flags)
            #expect(measurement.scale == attributes.scale)
            #expect(measurement.samples == attributes.samples)
            #expect(measurement.bounds.lo == attributes.bounds.lo && measurement.bounds.hi == attributes.bounds.hi)
            #expect(measurement.bounds.calibration?.gain == attributes.bounds.calibration?.gain)
            if measurement.scale == nil { nulls += 1 }
            #expect(measurement.station != nil)
        }
        #expect(nulls > 0)
    }

    @Test("ids: every width from 1 to 64 characters, unique, escapes decoded as JSONSerialization decodes them")
    func ids() throws {
        let bytes = CorpusDocumentGenerator(shape: .ids, primaryCount: 2_000, seed: 9).generate()
        let entities = try JSONAPIDecoder().decode([CorpusModels.Entity].self, from: bytes)
        let reference = try Self.foundationAttributes(bytes, section: "data")
        #expect(Set(entities.map(\.id)).count == entities.count)
        #expect(Set(reference.keys) == Set(entities.map(\.id)))
        let widths = Set(entities.map(\.id.count))
        #expect(widths.contains(1) && widths.contains(64))
        #expect(entities.contains { $0.id.contains("\"") || $0.id.contains("\\") || $0.id.contains("\u{1}") })
        #expect(entities.contains { $0.id.count == 36 && $0.id.filter { $0 == "-" }.count == 4 })
        for entity in entities where entity.owner == nil {
            Issue.record("\(entity.id) has no owner")
        }
    }

    @Test("long-strings: attributes of several kilobytes decode whole")
    func longStrings() throws {
        let bytes = CorpusDocumentGenerator(shape: .longStrings, primaryCount: 40, seed: 2).generate()
        let manuscripts = try JSONAPIDecoder().decode([CorpusModels.Manuscript].self, from: bytes)
        let reference = try Self.foundationAttributes(bytes, section: "data")
        #expect(manuscripts.allSatisfy { $0.content.utf8.count > 2_500 })
        for manuscript in manuscripts {
            #expect(manuscript.content == reference[manuscript.id]?["content"] as? String)
        }
    }

    @Test("every shape decodes into its models and encodes back into a document that decodes the same")
    func typedRoundTrip() throws {
        for shape in Self.shapes {
            let bytes = CorpusDocumentGenerator(shape: shape, primaryCount: 120, seed: 4).generate()
            let decoder = JSONAPIDecoder()
            #expect(try shape.decodeModels(bytes, with: decoder) == 120)
            let written = try shape.modelEncoder(bytes, decoder: decoder)(CorpusShape.compoundEncoder())
            #expect(try Document(parsing: written).diagnostics.isEmpty)
            #expect(try shape.decodeModels(written, with: decoder) == 120)
        }
        let tiny = CorpusDocumentGenerator(shape: .tiny, primaryCount: 64, seed: 1).generate()
        let pings = try JSONAPIDecoder().decode([CorpusModels.Ping].self, from: tiny)
        #expect(pings.filter { $0.origin != nil }.count == 8)
    }

    /// The attributes of the resources of `section` (`data` or `included`) by id, as Foundation reads them.
    static func foundationAttributes(_ bytes: [UInt8], section: String) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let resources = try #require(object[section] as? [[String: Any]])
        var result: [String: [String: Any]] = [:]
        for resource in resources {
            result[try #require(resource["id"] as? String)] = resource["attributes"] as? [String: Any] ?? [:]
        }
        return result
    }
}
