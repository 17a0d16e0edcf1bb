import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

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
