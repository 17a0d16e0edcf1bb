import Testing

@testable @_spi(Backend) import JSONAPI

@Suite("Arena layout")
struct ArenaLayoutTests {
    /// The worked example at the top of ResourceArena.swift, record for record.
    @Test("the documented worked example is what the builder produces")
    func workedExample() throws {
        let text =
            #"{"data":{"type":"articles","id":"1","relationships":{"author":{"data":{"type":"people","id":"9"}}}},"#
            + #""included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}]}"#
        #expect(text.utf8.count == 168)
        let document = try parseEverywhere(text).get()
        let arena = document.storage.arena
        #expect(arena.types.names.map { String(decoding: $0, as: UTF8.self) } == ["articles", "people"])
        #expect(arena.resources.count == 2)
        let article = arena.resources[0]
        #expect(article.type == 0 && article.id == ByteRange(33, 34) && article.object == ByteRange(8, 99))
        #expect(article.attributes.isAbsent && article.links.isAbsent && arena.meta(ofResource: 0).isAbsent)
        #expect(article.firstRelationship == 0 && article.relationshipCount == 1)
        let person = arena.resources[1]
        #expect(person.type == 1 && person.id == ByteRange(135, 136) && person.object == ByteRange(112, 166))
        #expect(person.attributes == ByteRange(151, 165) && person.relationshipCount == 0)
        let author = arena.relationships[0]
        #expect(author.name == ByteRange(54, 60) && author.object == ByteRange(62, 97) && author.data == .one)
        #expect(author.firstLinkage == 0 && author.linkageCount == 1)
        let link = arena.linkages[0]
        #expect(link.type == 1 && link.id == ByteRange(93, 94) && link.object == ByteRange(70, 96) && link.target == 1)
        let top = arena.topLevel
        #expect(top.data == .one && top.primaryStart == 0 && top.primaryCount == 1)
        #expect(top.includedStart == 1 && top.includedCount == 1 && top.object == ByteRange(0, 168))
    }

    @Test("records are the documented sizes; rare members live out of line")
    func recordSizes() {
        #expect(MemoryLayout<ResourceRecord>.stride == 48)
        #expect(MemoryLayout<RelationshipRecord>.stride == 28)
        #expect(MemoryLayout<LinkageRecord>.stride == 28)
    }

    @Test("resource lid and meta, relationship links and meta, identifier lid and meta: read back from their tables")
    func outOfLineMembers() throws {
        // Two resources, the second with a `lid`; relationships with and without links and meta;
        // identifiers with and without lid and meta, in both the whole-object and event paths.
        let text = #"""
            {"data":[{"type":"a","id":"1","relationships":{
              "plain":{"data":{"type":"b","id":"2"}},
              "full":{"links":{"self":"/x"},"meta":{"n":1},"data":[
                {"type":"b","id":"2"},{"type":"b","lid":"l1","meta":{"m":2}},{"type":"b","id":"3","meta":{"m":3}}]},
              "metaOnly":{"meta":{"n":2}}}},
             {"type":"b","id":"4","lid":"l1","meta":{"r":4},"relationships":{"back":{"links":{"related":"/y"},"data":null}}}],
             "included":[{"type":"b","id":"2"},{"type":"b","id":"3"}]}
            """#
        let document = try parseEverywhere(text).get()
        let arena = document.storage.arena
        func slice(_ range: ByteRange) -> String {
            range.isAbsent ? "-" : String(decoding: Array(text.utf8)[Int(range.start)..<Int(range.end)], as: UTF8.self)
        }
        #expect((0..<arena.resources.count).map { slice(arena.meta(ofResource: $0)) } == ["-", #"{"r":4}"#, "-", "-"])
        #expect((0..<arena.resources.count).map { slice(arena.lid(ofResource: $0)) } == ["-", "l1", "-", "-"])
        #expect(
            (0..<arena.relationships.count).map { slice(arena.links(ofRelationship: $0)) }
                == ["-", #"{"self":"/x"}"#, "-", #"{"related":"/y"}"#])
        #expect(
            (0..<arena.relationships.count).map { slice(arena.meta(ofRelationship: $0)) }
                == ["-", #"{"n":1}"#, #"{"n":2}"#, "-"])
        #expect((0..<arena.linkages.count).map { slice(arena.lid(ofLinkage: $0)) } == ["-", "-", #"l1"#, "-"])
        #expect(
            (0..<arena.linkages.count).map { slice(arena.meta(ofLinkage: $0)) }
                == ["-", "-", #"{"m":2}"#, #"{"m":3}"#])
        #expect(
            arena.resourceLids.count == 1 && arena.resourceMeta.count == 1 && arena.linkageLids.count == 1
                && arena.linkageMeta.count == 2)

        // The views read them, and the identifier with only a `lid` resolved to its resource.
        let full = try #require(document.primaryResources[0].relationship("full"))
        #expect(full.links?["self"]?.href == "/x" && full.meta?["n"]?.int64Value == 1)
        #expect(full.identifiers.map(\.lid) == [nil, "l1", nil])
        #expect(full.identifiers.map { $0.meta?["m"]?.int64Value } == [nil, 2, 3])
        #expect(full.identifiers[1].resource?.id == "4")
        #expect(document.primaryResources[1].lid == "l1")
        #expect(document.primaryResources[1].meta?["r"]?.int64Value == 4 && document.primaryResources[0].meta == nil)
        #expect(document.primaryResources[1].relationship("back")?.links?["related"]?.href == "/y")
    }

    @Test("out-of-line tables: a repeated member replaces, an earlier record is inserted in order")
    func sparseRangesOrder() {
        var table = SparseRanges(flag: .hasMeta)
        var flags = [RecordFlags](repeating: [], count: 11)
        table.set(ByteRange(10, 12), for: 5, flags: &flags[5])
        table.set(ByteRange(20, 22), for: 9, flags: &flags[9])
        table.set(ByteRange(30, 32), for: 9, flags: &flags[9])
        table.set(ByteRange(40, 42), for: 2, flags: &flags[2])
        table.set(ByteRange(50, 52), for: 7, flags: &flags[7])
        #expect(table.entries.map(\.record) == [2, 5, 7, 9])
        #expect(flags.indices.filter { flags[$0].contains(.hasMeta) } == [2, 5, 7, 9])
        #expect(
            [2, 5, 7, 9].map { table.range(of: $0, flags: flags[$0]) } == [
                ByteRange(40, 42), ByteRange(10, 12), ByteRange(50, 52), ByteRange(30, 32),
            ])
        #expect([0, 3, 6, 8, 10].allSatisfy { table.range(of: $0, flags: flags[$0]).isAbsent })
        #expect(SparseRanges(flag: .hasMeta).range(of: 0, flags: .hasMeta).isAbsent)
    }

    @Test("a built document stays small: records, not tokens")
    func footprint() throws {
        var text = #"{"data":["#
        for i in 0..<1000 {
            if i > 0 { text += "," }
            text +=
                #"{"type":"t","id":"\#(i)","attributes":{"a":"\#(String(repeating: "x", count: 200))","b":[1,2,3],"c":{"d":null}}}"#
        }
        text += "]}"
        let document = try Document(parsing: text)
        // A 48-byte record per resource plus the index; the attribute tokens cost nothing.
        #expect(document.arenaByteCount < text.utf8.count / 2)
    }
}

@Suite("Identifier index")
struct ResourceIndexTests {
    @Test("short and long keys, many types: every lookup exact, duplicates found on both paths")
    func shortAndLongKeys() throws {
        var resources: [String] = []
        let ids = ["1", "12", "123456", "1234567", "", "é", "abcdefghijklmnop"]
        for type in 0..<300 {
            for id in ids where !(id.isEmpty) {
                resources.append(#"{"type":"t\#(type)","id":"\#(id)"}"#)
            }
        }
        let text = #"{"data":["# + resources.joined(separator: ",") + "]}"
        let document = try Document(parsing: text)
        for type in [0, 1, 254, 255, 256, 299] {
            for id in ids where !id.isEmpty {
                #expect(document.resource(type: "t\(type)", id: id)?.id == id, "t\(type)/\(id)")
            }
            #expect(document.resource(type: "t\(type)", id: "9") == nil)
            #expect(document.resource(type: "t\(type)", id: "1234568") == nil)
            #expect(document.resource(type: "t\(type)", id: "12345") == nil)
        }
        // Escaped ids are confirmed through their records, plain long ones through the input:
        // the same id spelled both ways is one key, found either way, and a duplicate either way.
        let escaped = #"{"data":[{"type":"t","id":"abc\u0064efgh"},{"type":"u","id":"abcdefgh"}]}"#
        let both = try Document(parsing: escaped)
        #expect(both.resource(type: "t", id: "abcdefgh")?.type == "t")
        #expect(both.resource(type: "u", id: "abcdefgh")?.type == "u")
        #expect(both.resource(type: "t", id: "abcdefgi") == nil)
        for pair in [
            #"[{"type":"t","id":"abc\u0064efgh"},{"type":"t","id":"abcdefgh"}]"#,
            #"[{"type":"t","id":"abcdefgh"},{"type":"t","id":"abc\u0064efgh"}]"#,
        ] {
            #expect(throws: JSONAPIError.self, "\(pair)") { try Document(parsing: #"{"data":"# + pair + "}") }
        }
        for (type, id) in [(3, "123456"), (3, "1234567"), (280, "1"), (280, "abcdefghijklmnop")] {
            let duplicated = #"{"data":[{"type":"t\#(type)","id":"\#(id)"},{"type":"t\#(type)","id":"\#(id)"}]}"#
            #expect(throws: JSONAPIError.self, "t\(type)/\(id)") { try Document(parsing: duplicated) }
        }
    }

    /// Builds `document`'s index again with `probeLimit` and checks every lookup against it.
    private func rebuiltIndex(_ document: Document, probeLimit: Int) -> (ResourceIndex, [(Int, Int)]) {
        let arena = document.storage.arena
        var index = ResourceIndex()
        var duplicates: [(Int, Int)] = []
        document.storage.withBytes { input in
            index.build(resources: arena.resources, input: input, probeLimit: probeLimit) {
                duplicates.append(($0, $1))
            }
        }
        return (index, duplicates)
    }

    @Test("the fast hash is used for ordinary documents, and lookups agree with SipHash")
    func fastHashForOrdinaryDocuments() throws {
        let ids = (0..<2000).map { $0 % 3 == 0 ? "\($0)" : "00000000-0000-4000-8000-\(String($0, radix: 16))" }
        let text =
            #"{"data":["# + ids.map { #"{"type":"t\#($0.count % 5)","id":"\#($0)"}"# }.joined(separator: ",") + "]}"
        let document = try Document(parsing: text)
        #expect(!document.storage.arena.index.usesSipHash)
        let (sip, duplicates) = rebuiltIndex(document, probeLimit: 0)
        #expect(sip.usesSipHash, "with no probing allowed, the first collision switches to SipHash")
        #expect(duplicates.isEmpty)
        let arena = document.storage.arena
        document.storage.withBytes { input in
            for position in arena.resources.indices {
                let record = arena.resources[position]
                let id = input.slice(record.id)
                #expect(
                    sip.find(type: record.type, id: id, resources: arena.resources, input: input) == UInt32(position))
                #expect(
                    arena.index.find(type: record.type, id: id, resources: arena.resources, input: input)
                        == UInt32(position))
            }
        }
    }

    @Test("a document whose keys probe too far is indexed with SipHash, duplicates still found once")
    func sipHashFallbackFindsDuplicates() throws {
        var resources = (0..<300).map { #"{"type":"t","id":"x\#($0)"}"# }
        resources.append(#"{"type":"t","id":"x17"}"#)
        resources.append(#"{"type":"t","id":"a-much-longer-identifier-than-six-bytes"}"#)
        resources.append(#"{"type":"t","id":"a-much-longer-identifier-than-six-bytes"}"#)
        let document = try Document(parsing: #"{"data":["# + resources.joined(separator: ",") + "]}", options: lenient)
        let (index, duplicates) = rebuiltIndex(document, probeLimit: 0)
        #expect(index.usesSipHash)
        #expect(duplicates.map(\.0) == [17, 301] && duplicates.map(\.1) == [300, 302])
    }

    private var lenient: ParsingOptions {
        var options = ParsingOptions()
        options.isLenient = true
        return options
    }
}
