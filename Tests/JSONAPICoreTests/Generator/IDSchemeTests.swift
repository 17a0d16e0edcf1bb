import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

@testable import JSONAPITestSupport

/// Generated documents in every id scheme build in strict mode, whole and chunked, and every
/// resource and every linkage resolves to the record a reference parse by Foundation's
/// `JSONSerialization` says it must.
@Suite("CompoundDocumentGenerator id schemes")
struct IDSchemeTests {
    static let schemes: [IDScheme] = [
        .standard, .sequential(start: 0), .sequential(start: 99_990), .sequential(start: 100_000),
        .sequential(start: 999_900), .uuid, .slug, .opaque, .escaped,
    ]

    /// A (type, id) pair compared by bytes (`String`'s `==` would merge canonically equivalent ids).
    struct Key: Hashable, CustomStringConvertible {
        var type: [UInt8]
        var id: [UInt8]
        init(_ type: String, _ id: String) {
            self.type = Array(type.utf8)
            self.id = Array(id.utf8)
        }
        var description: String {
            "\(String(decoding: type, as: UTF8.self))/\(String(decoding: id, as: UTF8.self).debugDescription)"
        }
    }

    /// The document as `JSONSerialization` reads it: every resource's key in document order, and
    /// for each resource its relationships' identifiers, by relationship name.
    struct Reference {
        var keys: [Key] = []
        var linkage: [[String: [Key]]] = []

        init(_ bytes: [UInt8]) throws {
            let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let data = try #require(root["data"] as? [[String: Any]])
            let included = root["included"] as? [[String: Any]] ?? []
            for object in data + included {
                keys.append(try Self.key(object))
                var byName: [String: [Key]] = [:]
                for (name, value) in object["relationships"] as? [String: [String: Any]] ?? [:] {
                    switch value["data"] {
                    case let one as [String: Any]: byName[name] = [try Self.key(one)]
                    case let many as [[String: Any]]: byName[name] = try many.map(Self.key)
                    default: byName[name] = []
                    }
                }
                linkage.append(byName)
            }
        }

        static func key(_ object: [String: Any]) throws -> Key {
            Key(try #require(object["type"] as? String), try #require(object["id"] as? String))
        }
    }

    /// Builds `bytes` strict, whole and in chunks, and checks every record, lookup and linkage
    /// against `reference`.
    static func checkEveryWay(_ bytes: [UInt8], reference: Reference, name: String) throws {
        var positions: [Key: Int] = [:]
        for (position, key) in reference.keys.enumerated() {
            #expect(positions.updateValue(position, forKey: key) == nil, "\(name): \(key) appears twice")
        }
        for chunk in [nil, 1_000, 65_536] as [Int?] {
            let way = "\(name), \(chunk.map { "\($0)-byte chunks" } ?? "whole")"
            let document = try parseDocument(bytes, options: ParsingOptions(), chunkSize: chunk)
            #expect(document.diagnostics.isEmpty, "\(way): \(document.diagnostics.prefix(3))")
            let all = document.allResources
            try #require(all.count == reference.keys.count, "\(way)")
            var failures = 0
            for (position, key) in reference.keys.enumerated() where failures < 5 {
                let resource = all[position]
                let type = String(decoding: key.type, as: UTF8.self)
                let id = String(decoding: key.id, as: UTF8.self)
                let found = document.resource(type: type, id: id)
                if Key(resource.type, resource.id ?? "") != key || found?.recordIndex != position {
                    Issue.record(
                        "\(way): record \(position) \(resource.identifier), lookup of \(key) gave \(found?.recordIndex as Any)"
                    )
                    failures += 1
                }
                for relationship in resource.relationships {
                    let expected = reference.linkage[position][relationship.name] ?? []
                    let got = relationship.identifiers.map { $0.resource?.recordIndex }
                    if got != expected.map({ positions[$0] }) {
                        Issue.record("\(way): \(key) \(relationship.name) resolved to \(got), expected \(expected)")
                        failures += 1
                    }
                }
            }
        }
    }

    @Test(
        "every scheme: strict builds, whole and chunked, every lookup and linkage right",
        arguments: schemes)
    func everyScheme(scheme: IDScheme) throws {
        var generator = CompoundDocumentGenerator(resources: 400, seed: 21)
        generator.idScheme = scheme
        let bytes = generator.generate()
        let reference = try Reference(bytes)
        #expect(reference.keys.count == generator.resources)
        for position in 0..<generator.resources {
            let (type, id) = generator.identifier(ofResourceAt: position)
            #expect(Key(type, id) == reference.keys[position], "\(scheme): identifier(ofResourceAt: \(position))")
        }
        try Self.checkEveryWay(bytes, reference: reference, name: "\(scheme)")
    }

    @Test("each scheme's ids have the promised shape")
    func shapes() {
        func ids(_ scheme: IDScheme, resources: Int = 300) -> [String] {
            var generator = CompoundDocumentGenerator(resources: resources, seed: 8)
            generator.idScheme = scheme
            return (0..<resources).map { generator.identifier(ofResourceAt: $0).id }
        }
        #expect(ids(.sequential(start: 100_000)).allSatisfy { $0.utf8.count == 6 && Int($0) != nil })
        #expect(Set(ids(.sequential(start: 99_900)).map(\.utf8.count)) == [5, 6])
        #expect(ids(.sequential(start: 7), resources: 1) == ["7"])
        #expect(ids(.uuid).allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
        #expect(
            ids(.slug).allSatisfy {
                $0.split(separator: "-").count >= 3 && Int($0.split(separator: "-").last ?? "") != nil
            })
        #expect(ids(.opaque).allSatisfy { (40...100).contains($0.utf8.count) })
        #expect(Set(ids(.opaque).map(\.utf8.count)).count > 20)
        let escaped = ids(.escaped)
        #expect(escaped.allSatisfy { $0.unicodeScalars.contains { "\"\\\n\t\u{0}".unicodeScalars.contains($0) } })
        #expect(escaped.contains { $0.unicodeScalars.contains { $0.value > 0xFFFF } })
    }

    @Test("escaped ids are spelled differently in resource objects and in linkage")
    func escapedSpellings() throws {
        var generator = CompoundDocumentGenerator(resources: 300, seed: 2)
        generator.idScheme = .escaped
        let text = String(decoding: generator.generate(), as: UTF8.self)
        for escape in [#"\u0000"#, #"\""#, #"\\"#, #"\ud83d\ude00"#, #"\uD83D\uDE00"#, #"\/"#, "😀", "é", #"\u00e9"#] {
            #expect(text.contains(escape), "no \(escape)")
        }
        // Some id is written in more than one way (in its resource object and in linkage).
        var spellings: [[UInt8]: Set<String>] = [:]
        let pattern = try NSRegularExpression(pattern: #""id":"((?:[^"\\]|\\.)*)""#)
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range(at: 1), in: text) else { continue }
            let spelled = String(text[range])
            let decoded = try #require(
                try JSONSerialization.jsonObject(with: Data("[\"\(spelled)\"]".utf8)) as? [String])
            spellings[Array(decoded[0].utf8), default: []].insert(spelled)
        }
        #expect(spellings.count >= generator.resources / 2)
        #expect(spellings.values.contains { $0.count > 1 })
    }

    @Test("the standard scheme writes the recorded bytes")
    func standardIsUnchanged() {
        // FNV-1a of two standard documents: the benchmarks, their recorded results and the
        // allocation thresholds all measure these bytes, so they must not drift.
        func fnv(_ bytes: [UInt8]) -> UInt64 {
            bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        }
        #expect(fnv(CompoundDocumentGenerator(resources: 1_000, seed: 1).generate()) == Self.standardDigests.0)
        #expect(fnv(CompoundDocumentGenerator(resources: 37, seed: 1_000).generate()) == Self.standardDigests.1)
    }

    static let standardDigests: (UInt64, UInt64) = (0xB857_0C9F_54A3_6BA4, 0xFEDF_ECB9_92B6_DD15)

    @Test("the same seed and scheme give the same bytes; schemes differ", arguments: schemes)
    func deterministic(scheme: IDScheme) {
        var generator = CompoundDocumentGenerator(resources: 200, seed: 5)
        generator.idScheme = scheme
        #expect(generator.generate() == generator.generate())
        if scheme != .standard {
            #expect(generator.generate() != CompoundDocumentGenerator(resources: 200, seed: 5).generate())
        }
    }

    @Test("IDScheme reads back its own spelling", arguments: schemes)
    func spelling(scheme: IDScheme) {
        #expect(IDScheme(argument: scheme.description) == scheme)
        #expect(IDScheme(argument: "sequential") == .sequential(start: 1))
        #expect(IDScheme(argument: "sequential:-1") == nil)
        #expect(IDScheme(argument: "guid") == nil)
    }

    /// The index's short keys at scale: every id a 6-digit integer from 100000, so every id fills
    /// a short key. 10 MB by default (a few seconds in a debug build);
    /// `JSONAPI_LARGE_ID_CHECK_BYTES` asks for another size (the 100 MB run: `jsonapi generate
    /// --approximate-bytes 100000000 --id-scheme sequential:100000 --verify`).
    @Test("a 10 MB document with ids from 100000: every lookup and linkage finds the right resource")
    func largeSequentialDocument() throws {
        let size = ProcessInfo.processInfo.environment["JSONAPI_LARGE_ID_CHECK_BYTES"].flatMap { Int($0) } ?? 10_000_000
        var generator = CompoundDocumentGenerator(
            resources: CompoundDocumentGenerator.resourceCount(approximateBytes: size), seed: 100)
        generator.idScheme = .sequential(start: 100_000)
        let document = try Document(parsing: generator.generate())
        #expect(document.diagnostics.isEmpty)
        let all = document.allResources
        try #require(all.count == generator.resources)
        var failures = 0
        for position in 0..<generator.resources where failures < 10 {
            let (type, id) = generator.identifier(ofResourceAt: position)
            let resource = all[position]
            if resource.type != type || resource.id != id
                || document.resource(type: type, id: id)?.recordIndex != position
            {
                Issue.record("resource \(position): \(resource.identifier), expected \(type)/\(id)")
                failures += 1
            }
            for relationship in resource.relationships {
                for identifier in relationship.identifiers {
                    let target = identifier.resource
                    if target?.type != identifier.type || target?.id != identifier.id {
                        Issue.record(
                            "\(resource.identifier) \(relationship.name): \(identifier.identifier) resolved to \(target?.identifier as Any)"
                        )
                        failures += 1
                    }
                }
            }
        }
        let statistics = document.statistics
        #expect(statistics.resolvedLinkageCount == statistics.linkageCount)
    }
}
