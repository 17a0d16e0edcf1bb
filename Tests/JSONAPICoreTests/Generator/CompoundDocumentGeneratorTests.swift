import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

@Suite("CompoundDocumentGenerator")
struct CompoundDocumentGeneratorTests {
    // MARK: - Determinism and streaming

    @Test("the same seed gives the same bytes", arguments: [0, 1, 17, 1_000])
    func sameSeedSameBytes(resources: Int) {
        let first = CompoundDocumentGenerator(resources: resources, seed: 42).generate()
        let second = CompoundDocumentGenerator(resources: resources, seed: 42).generate()
        #expect(first == second)
    }

    @Test("different seeds give different bytes")
    func differentSeedsDifferentBytes() {
        let one = CompoundDocumentGenerator(resources: 300, seed: 1).generate()
        let two = CompoundDocumentGenerator(resources: 300, seed: 2).generate()
        #expect(one != two)
    }

    @Test("generate() equals the concatenated chunks of write", arguments: [1, 7, 4_096, 65_536, 1 << 20])
    func generateEqualsWrite(chunkSize: Int) {
        let generator = CompoundDocumentGenerator(resources: chunkSize == 1 ? 60 : 2_000, seed: 5)
        let whole = generator.generate()
        var streamed: [UInt8] = []
        var sizes: [Int] = []
        generator.write(chunkSize: chunkSize) { chunk in
            streamed.append(contentsOf: chunk)
            sizes.append(chunk.count)
        }
        #expect(streamed == whole)
        #expect(sizes.dropLast().allSatisfy { $0 == chunkSize })
        #expect((1...chunkSize).contains(sizes.last ?? 0))
    }

    @Test("an error thrown by the sink stops the generation")
    func sinkErrorPropagates() {
        struct Stop: Error {}
        var calls = 0
        #expect(throws: Stop.self) {
            try CompoundDocumentGenerator(resources: 5_000).write(chunkSize: 1_000) { _ in
                calls += 1
                if calls == 3 { throw Stop() }
            }
        }
        #expect(calls == 3)
    }

    // MARK: - Counts and sizes

    @Test(
        "the document holds exactly the requested number of resources",
        arguments: [0, 1, 2, 3, 5, 8, 13, 39, 40, 41, 100, 999, 4_321, 10_000])
    func exactResourceCount(resources: Int) throws {
        let generator = CompoundDocumentGenerator(resources: resources, seed: UInt64(resources))
        let document = try ParsedDocument(generator.generate())
        #expect(document.primary.count == generator.primaryCount)
        #expect(document.included.count == generator.includedCount)
        #expect(document.primary.count + document.included.count == resources)
        #expect(document.included.filter { $0.type == "comments" }.count == generator.commentCount)
        #expect(document.included.filter { $0.type == "people" }.count == generator.personCount)
        #expect(document.included.filter { $0.type == "tags" }.count == generator.tagCount)
    }

    @Test("resource types follow the documented ratios")
    func ratios() {
        let generator = CompoundDocumentGenerator(resources: 100_000)
        #expect(generator.tagCount == 200)
        let perArticle = Double(generator.commentCount) / Double(generator.primaryCount)
        #expect(abs(perArticle - 4) < 0.1)
        let peoplePerArticle = Double(generator.personCount) / Double(generator.primaryCount)
        #expect(abs(peoplePerArticle - 0.5) < 0.01)
    }

    @Test("each article has 2 to 6 comments and 0 to 4 tags")
    func linkageSizes() throws {
        let document = try ParsedDocument(CompoundDocumentGenerator(resources: 2_000, seed: 11).generate())
        for article in document.primary {
            let comments = try #require(article.toMany("comments"))
            #expect((2...6).contains(comments.count))
            let tags = try #require(article.toMany("tags"))
            #expect((0...4).contains(tags.count))
            #expect(Set(tags.map(\.id)).count == tags.count)
        }
    }

    @Test(
        "resourceCount(approximateBytes:) lands within 5% of the request",
        arguments: [100_000, 1_000_000, 10_000_000])
    func approximateSize(bytes: Int) {
        let count = CompoundDocumentGenerator.resourceCount(approximateBytes: bytes)
        let size = CompoundDocumentGenerator(resources: count, seed: 3).generate().count
        #expect(abs(Double(size) / Double(bytes) - 1) < 0.05, "\(count) resources gave \(size) bytes")
    }

    @Test("mostly non-ASCII text: the same structure, far more non-ASCII bytes, still deterministic")
    func mostlyNonASCIIText() throws {
        let plain = CompoundDocumentGenerator(resources: 500, seed: 4)
        var foreign = plain
        foreign.mostlyNonASCIIText = true
        let plainBytes = plain.generate()
        let foreignBytes = foreign.generate()
        #expect(foreign.generate() == foreignBytes)
        #expect(foreign != plain)
        func nonASCIIShare(_ bytes: [UInt8]) -> Double {
            Double(bytes.count { $0 >= 0x80 }) / Double(bytes.count)
        }
        #expect(nonASCIIShare(plainBytes) < 0.05)
        #expect(nonASCIIShare(foreignBytes) > 0.2)
        // The same resources and relationships, every identifier resolved (the random draws
        // after a text differ, so the number of comments and tags per article may too).
        let plainDocument = try Document(parsing: plainBytes).statistics
        let foreignDocument = try Document(parsing: foreignBytes).statistics
        #expect(foreignDocument.resourceCount == plainDocument.resourceCount)
        #expect(foreignDocument.primaryCount == plainDocument.primaryCount)
        #expect(foreignDocument.relationshipCount == plainDocument.relationshipCount)
        #expect(foreignDocument.resolvedLinkageCount == foreignDocument.linkageCount)
        #expect(try JSONSerialization.jsonObject(with: Data(foreignBytes)) is [String: Any])
    }

    // MARK: - JSON and JSON:API validity

    @Test("the output is valid JSON", arguments: [0, 1, 10, 1_000, 10_000])
    func validJSON(resources: Int) throws {
        let bytes = CompoundDocumentGenerator(resources: resources, seed: 9).generate()
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        #expect(object is [String: Any])
    }

    @Test("the top level has data, included, links, meta and jsonapi")
    func topLevel() throws {
        let bytes = CompoundDocumentGenerator(resources: 100).generate()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(Set(root.keys) == ["data", "included", "links", "meta", "jsonapi"])
        let jsonapi = try #require(root["jsonapi"] as? [String: Any])
        #expect(jsonapi["version"] as? String == "1.1")
        let links = try #require(root["links"] as? [String: Any])
        #expect(links["self"] is String)
        let next = try #require(links["next"] as? [String: Any])
        #expect(next["href"] is String)
        #expect(next["meta"] is [String: Any])
        let meta = try #require(root["meta"] as? [String: Any])
        #expect(meta["total"] is NSNumber)
        #expect(meta["generatedBy"] is String)
    }

    @Test(
        "(type, id) pairs are unique, every linkage resolves and every included resource is reachable",
        arguments: [1, 7, 50, 1_000, 12_345])
    func fullLinkage(resources: Int) throws {
        let document = try ParsedDocument(CompoundDocumentGenerator(resources: resources, seed: 77).generate())
        let all = document.primary + document.included
        let keys = all.map(\.key)
        #expect(Set(keys).count == keys.count, "duplicate (type, id) pairs")

        let known = Set(keys)
        for resource in all {
            for target in resource.linkage {
                #expect(known.contains(target), "\(resource.key) links to missing \(target)")
            }
        }

        // Full linkage: everything included is reachable from primary data through relationships.
        let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
        var reached = Set(document.primary.map(\.key))
        var pending = document.primary
        while let resource = pending.popLast() {
            for target in resource.linkage where reached.insert(target).inserted {
                if let next = byKey[target] { pending.append(next) }
            }
        }
        let unreachable = document.included.map(\.key).filter { !reached.contains($0) }
        #expect(unreachable.isEmpty, "unreachable: \(unreachable.prefix(5))")
    }

    @Test("people link back to their articles, closing cycles")
    func backReferences() throws {
        let document = try ParsedDocument(CompoundDocumentGenerator(resources: 1_000).generate())
        let people = document.included.filter { $0.type == "people" }
        let withArticles = people.filter { $0.relationships["articles"] != nil }
        #expect(!withArticles.isEmpty && withArticles.count < people.count)
        var authors: [ResourceKey: ResourceKey] = [:]
        for article in document.primary {
            let author = try #require(article.toOne("author"))
            authors[article.key] = author
        }
        for person in withArticles {
            for article in try #require(person.toMany("articles")) {
                #expect(authors[article] == person.key)
            }
        }
    }

    // MARK: - Content

    @Test("every JSON type appears, including exponents, nulls and both booleans")
    func everyJSONType() throws {
        let bytes = CompoundDocumentGenerator(resources: 1_000).generate()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("null"))
        #expect(text.contains(":true"))
        #expect(text.contains(":false"))
        #expect(text.range(of: #"[0-9]\.[0-9]+[eE][-+]?[0-9]+"#, options: .regularExpression) != nil)

        let document = try ParsedDocument(bytes)
        let attributes = document.primary.map(\.attributes)
        #expect(attributes.contains { $0["subtitle"] is NSNull })
        #expect(attributes.contains { $0["subtitle"] is String })
        #expect(attributes.allSatisfy { $0["title"] is String && $0["body"] is String && $0["slug"] is String })
        #expect(attributes.allSatisfy { $0["keywords"] is [Any] && $0["metrics"] is [String: Any] })
        #expect(attributes.allSatisfy { $0["wordCount"] is Int })
        #expect(attributes.allSatisfy { $0["rating"] is NSNumber && $0["createdAt"] is String })
        #expect(attributes.allSatisfy { $0["published"] is Bool })
        #expect(attributes.contains { ($0["rating"] as? Double).map { $0 != $0.rounded() } ?? false })

        let people = document.included.filter { $0.type == "people" }.map(\.attributes)
        #expect(people.contains { $0["twitter"] is NSNull })
        #expect(people.contains { $0["twitter"] is String })
        #expect(people.allSatisfy { $0["age"] is NSNumber && $0["email"] is String })
        #expect(document.primary.contains { $0.meta != nil })
        #expect(document.primary.contains { $0.meta == nil })
    }

    @Test("text has raw multi-byte UTF-8, escapes and surrogate-pair escapes")
    func unicodeAndEscapes() throws {
        for resources in [1, 1_000] {
            let bytes = CompoundDocumentGenerator(resources: resources, seed: 123).generate()
            #expect(bytes.contains { $0 >= 0x80 }, "no raw multi-byte UTF-8")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains(#"\ud83d\ude00"#))
            #expect(text.contains(#"\""#))
            #expect(text.contains(#"\n"#))
            #expect(text.contains(#"\u00e9"#))

            let document = try ParsedDocument(bytes)
            let bodies = document.primary.compactMap { $0.attributes["body"] as? String }
            #expect(bodies.contains { $0.contains("😀") })
            #expect(bodies.contains { $0.contains("\n") && $0.contains("\"") && $0.contains("é") })
            let titles = document.primary.compactMap { $0.attributes["title"] as? String }
            #expect(titles.contains { $0.utf8.count > $0.unicodeScalars.count })
        }
    }
}

// MARK: - A small JSONSerialization-based reader for the checks above

private struct ResourceKey: Hashable, CustomStringConvertible {
    var type: String
    var id: String
    var description: String { "\(type)/\(id)" }
}

private struct ParsedResource {
    var type: String
    var id: String
    var attributes: [String: Any]
    var relationships: [String: [String: Any]]
    var meta: [String: Any]?

    var key: ResourceKey { ResourceKey(type: type, id: id) }

    /// Every resource identifier in every relationship's `data`.
    var linkage: [ResourceKey] {
        relationships.values.flatMap { relationship -> [ResourceKey] in
            switch relationship["data"] {
            case let one as [String: Any]: [Self.identifier(one)].compactMap { $0 }
            case let many as [[String: Any]]: many.compactMap(Self.identifier)
            default: []
            }
        }
    }

    func toOne(_ name: String) -> ResourceKey? {
        (relationships[name]?["data"] as? [String: Any]).flatMap(Self.identifier)
    }

    func toMany(_ name: String) -> [ResourceKey]? {
        (relationships[name]?["data"] as? [[String: Any]])?.compactMap(Self.identifier)
    }

    static func identifier(_ object: [String: Any]) -> ResourceKey? {
        guard let type = object["type"] as? String, let id = object["id"] as? String else { return nil }
        return ResourceKey(type: type, id: id)
    }
}

private struct ParsedDocument {
    var primary: [ParsedResource]
    var included: [ParsedResource]

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    init(_ bytes: [UInt8]) throws {
        guard let root = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let data = root["data"] as? [[String: Any]]
        else { throw Malformed(description: "no top-level object with a `data` array") }
        primary = try data.map(Self.resource)
        included = try ((root["included"] as? [[String: Any]]) ?? []).map(Self.resource)
    }

    private static func resource(_ object: [String: Any]) throws -> ParsedResource {
        guard let type = object["type"] as? String, let id = object["id"] as? String else {
            throw Malformed(description: "resource without a string type and id")
        }
        return ParsedResource(
            type: type,
            id: id,
            attributes: object["attributes"] as? [String: Any] ?? [:],
            relationships: object["relationships"] as? [String: [String: Any]] ?? [:],
            meta: object["meta"] as? [String: Any])
    }
}
