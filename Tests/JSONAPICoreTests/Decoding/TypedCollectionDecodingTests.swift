import Foundation
import JSONAPI
import Synchronization
import Testing

@testable import JSONAPITestSupport

/// Counts decodes of ``CountedItem`` per test (each test uses its own `tag`).
let decodeCounts = Mutex<[String: Int]>([:])

struct CountedItem: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "items"
    var id: Int
    var tag: String
    var position: Int

    private enum CodingKeys: String, CodingKey { case id, tag, position }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        tag = try container.decode(String.self, forKey: .tag)
        position = try container.decode(Int.self, forKey: .position)
        let tag = tag
        decodeCounts.withLock { $0[tag, default: 0] += 1 }
    }
}

@Suite("Decoding typed collections")
struct TypedCollectionDecodingTests {
    /// `count` items in primary data, all tagged `tag`, plus a few included people.
    static func items(_ count: Int, tag: String) -> [UInt8] {
        var text = #"{"data":["#
        text.reserveCapacity(count * 70)
        for index in 0..<count {
            if index > 0 { text += "," }
            text += #"{"type":"items","id":"\#(index + 1)","attributes":{"tag":"\#(tag)","position":\#(index)}}"#
        }
        text +=
            #"],"included":[{"type":"people","id":"1","attributes":{"name":"A"}},{"type":"items","id":"0","attributes":{"tag":"\#(tag)-inc","position":-1}},{"type":"people","id":"2","attributes":{"name":"B"}}]}"#
        return Array(text.utf8)
    }

    static func count(_ tag: String) -> Int { decodeCounts.withLock { $0[tag] ?? 0 } }

    @Test func elementsDecodeOnlyWhenRead() throws {
        let tag = "lazy-100k"
        let document = try Document(parsing: Self.items(100_000, tag: tag))
        let items = document.primary(as: CountedItem.self)
        #expect(items.count == 100_000)
        #expect(Self.count(tag) == 0)
        let item = try items.element(at: 73_912)
        #expect(item.id == 73_913)
        #expect(item.position == 73_912)
        #expect(Self.count(tag) == 1)
        if case .success(let last) = items[99_999] {
            #expect(last.id == 100_000)
        } else {
            Issue.record("expected success")
        }
        #expect(Self.count(tag) == 2)
        _ = items.indices.last
        _ = items.isEmpty
        #expect(Self.count(tag) == 2)
    }

    @Test func oneResourceFromAHugeDocument() throws {
        let tag = "one-of-100k"
        let document = try Document(parsing: Self.items(100_000, tag: tag))
        let item = try document.resource(CountedItem.self, id: "50000")
        #expect(item?.position == 49_999)
        #expect(try document.resource(CountedItem.self, id: "nope") == nil)
        #expect(Self.count(tag) == 1)
    }

    @Test func includedOfType() throws {
        struct Person: Decodable, JSONAPIResource {
            static let resourceType = "people"
            var id: String
            var name: String
        }
        let tag = "included"
        let document = try Document(parsing: Self.items(10, tag: tag))
        let people = document.included(of: Person.self)
        #expect(people.count == 2)
        #expect(try people.decodeAll().map(\.name) == ["A", "B"])
        let items = document.included(of: CountedItem.self)
        #expect(items.count == 1)
        #expect(try items.element(at: 0).position == -1)
        #expect(document.resources(of: CountedItem.self).count == 11)
        #expect(document.included(of: UnknownThing.self).isEmpty)
        #expect(people.resource(at: 1)?.id == "2")
    }

    struct UnknownThing: Decodable, JSONAPIResource {
        static let resourceType = "unknown"
        var id: String
    }

    @Test func throwingIteration() throws {
        let tag = "iterate"
        let document = try Document(parsing: Self.items(1_000, tag: tag))
        let items = document.primary(as: CountedItem.self)
        var sum = 0
        try items.forEachDecoded { sum += $0.position }
        #expect(sum == (0..<1_000).reduce(0, +))
        var iterator = items.makeDecodingIterator()
        var seen = 0
        while let item = try iterator.next() {
            #expect(item.position == seen)
            seen += 1
        }
        #expect(seen == 1_000)
        #expect(try items.decodeAll().count == 1_000)
        var successes = 0
        for case .success in items { successes += 1 }
        #expect(successes == 1_000)
        #expect(Self.count(tag) == 4_000)
    }

    @Test func elementErrorsAreResults() throws {
        let text =
            #"{"data":[{"type":"items","id":"1","attributes":{"tag":"x","position":1}},{"type":"items","id":"2","attributes":{"tag":"x","position":"two"}}]}"#
        let items = try parse(text).primary(as: CountedItem.self)
        #expect((try? items[0].get())?.position == 1)
        guard case .failure(let error as DecodingError) = items[1] else {
            Issue.record("expected a DecodingError")
            return
        }
        #expect(error.jsonapiError?.pointer == "/data/1/attributes/position")
        #expect(throws: DecodingError.self) { try items.element(at: 1) }
        #expect(throws: DecodingError.self) { try items.decodeAll() }
    }

    @Test func primaryShapes() throws {
        #expect(try parse(#"{"data":null}"#).primary(as: CountedItem.self).isEmpty)
        #expect(try parse(#"{"meta":{"a":1}}"#).primary(as: CountedItem.self).isEmpty)
        let one = try parse(#"{"data":{"type":"items","id":"5","attributes":{"tag":"one","position":5}}}"#)
        #expect(try one.primary(as: CountedItem.self).decodeAll().map(\.id) == [5])
        let identifiers = try parse(
            #"{"data":[{"type":"items","id":"5"}]}"#, options: ParsingOptions(kind: .relationshipUpdate))
        #expect(try identifiers.primary(as: Identifier<CountedItem>.self).decodeAll() == ["5"])
    }

    @Test func concurrentDecodesOfOneDocument() async throws {
        let tag = "concurrent"
        let document = try Document(parsing: Self.items(2_000, tag: tag))
        let decoder = JSONAPIDecoder()
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    if task % 2 == 0 {
                        return try decoder.decode([CountedItem].self, from: document).reduce(0) { $0 + $1.position }
                    }
                    var sum = 0
                    try document.primary(as: CountedItem.self).forEachDecoded { sum += $0.position }
                    return sum
                }
            }
            var all: [Int] = []
            for try await sum in group { all.append(sum) }
            return all
        }
        #expect(sums.count == 16)
        #expect(Set(sums) == [(0..<2_000).reduce(0, +)])
        #expect(Self.count(tag) == 16 * 2_000)
    }

    /// A resource reached through many relationships is decoded once per decode and type.
    @Test func relatedResourcesDecodeOncePerDecode() throws {
        struct Holder: Decodable, JSONAPIResource {
            static let resourceType = "holders"
            var id: String
            var first: CountedItem
            var all: [CountedItem]
            var maybe: CountedItem?
        }
        let tag = "memo"
        let text = #"""
            {"data":[{"type":"holders","id":"1","relationships":{
                "first":{"data":{"type":"items","id":"7"}},
                "all":{"data":[{"type":"items","id":"7"},{"type":"items","id":"8"},{"type":"items","id":"7"}]},
                "maybe":{"data":{"type":"items","id":"8"}}}},
              {"type":"holders","id":"2","relationships":{
                "first":{"data":{"type":"items","id":"8"}},"all":{"data":[]},"maybe":{"data":null}}}],
             "included":[{"type":"items","id":"7","attributes":{"tag":"\#(tag)","position":7}},
                         {"type":"items","id":"8","attributes":{"tag":"\#(tag)","position":8}}]}
            """#
        let holders = try decode([Holder].self, text)
        #expect(holders[0].all.map(\.position) == [7, 8, 7])
        #expect(holders[0].maybe?.position == 8)
        #expect(holders[1].first.id == 8)
        #expect(Self.count(tag) == 2)
        _ = try decode([Holder].self, text)
        #expect(Self.count(tag) == 4)
    }

    @Test func unionCollectionsSkipUnhandledTypes() throws {
        let document = try Document(parsing: Self.items(3, tag: "union"))
        var options = DecodingOptions()
        options.ignoresUnhandledResourceTypes = true
        // `included` holds two people and one item; the union knows people only.
        let report = try JSONAPIDecoder(options: options).decodeReporting(PeopleOnlyDocument.self, from: document)
        #expect(report.value.included.map(\.id) == ["1", "2"])
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.identifier == ResourceIdentifier(type: "items", id: "0"))
        #expect(report.skipped.first?.pointer == "/included/1")
        #expect(report.skipped.first?.codingPath == "included[1]")
        let primary = try document.primary(as: PeopleOnly.self, options: options).decodeAllReporting()
        #expect(primary.value.isEmpty)
        #expect(primary.skipped.map(\.identifier.id) == ["1", "2", "3"])
        #expect(throws: DecodingError.self) { try document.primary(as: PeopleOnly.self).decodeAll() }
    }

    /// People and items mixed in primary data: a union of people only leaves the items out.
    static let mixed = Array(
        #"""
        {"data":[
          {"type":"people","id":"1","attributes":{"name":"A"}},
          {"type":"items","id":"5","attributes":{"tag":"t","position":0}},
          {"type":"people","id":"2","attributes":{"name":"B"}},
          {"type":"items","id":"6","attributes":{"tag":"t","position":1}}
        ]}
        """#.utf8)

    @Test func everyWayThroughACollectionLeavesOutTheSameResources() throws {
        let document = try Document(parsing: Self.mixed)
        var options = DecodingOptions()
        options.ignoresUnhandledResourceTypes = true
        let people = document.primary(as: PeopleOnly.self, options: options)
        let all = try people.decodeAllReporting()
        #expect(all.value.map(\.id) == ["1", "2"])
        #expect(all.skipped.map(\.identifier.id) == ["5", "6"])
        #expect(all.skipped.map(\.pointer) == ["/data/1", "/data/3"])
        #expect(all.skipped.map(\.line) == [3, 5])

        var walked: [String] = []
        try people.forEachDecoded { walked.append($0.id) }
        #expect(walked == ["1", "2"])

        walked = []
        let report = try people.forEachDecodedReporting { walked.append($0.id) }
        #expect(walked == ["1", "2"])
        #expect(report.value == 2)
        #expect(report.skipped == all.skipped)

        var iterator = people.makeDecodingIterator()
        walked = []
        while let person = try iterator.next() { walked.append(person.id) }
        #expect(walked == ["1", "2"])
        #expect(iterator.skippedResources() == all.skipped)
    }

    @Test func withoutTheOptionEveryWayThroughACollectionFailsOnTheSameResource() throws {
        let document = try Document(parsing: Self.mixed)
        let people = document.primary(as: PeopleOnly.self)
        var walked: [String] = []
        #expect(throws: DecodingError.self) { try people.forEachDecoded { walked.append($0.id) } }
        #expect(walked == ["1"])
        #expect(throws: DecodingError.self) { _ = try people.forEachDecodedReporting { _ in } }
        do {
            try people.forEachDecoded { _ in }
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(let type, let context) {
            // The error names the union that was expected, and where the stranger is.
            #expect(ObjectIdentifier(type) == ObjectIdentifier(PeopleOnly.self))
            #expect(context.codingPath.map(\.intValue) == [1])
            #expect(context.debugDescription.contains("/data/1 (line 3, column 3)"))
        }
        // The iterator passes over an element that fails, so the walk can go on.
        var iterator = people.makeDecodingIterator()
        #expect(try iterator.next()?.id == "1")
        #expect(throws: DecodingError.self) { _ = try iterator.next() }
        #expect(try iterator.next()?.id == "2")
        #expect(throws: DecodingError.self) { _ = try iterator.next() }
        #expect(try iterator.next() == nil)
        #expect(iterator.skippedResources().isEmpty)
    }

    @Test func streamingWalksReportMissingResourcesAsDecodeAllDoes() throws {
        let text = #"""
            {"data":[
              {"type":"groups","id":"g1","relationships":{"members":{"data":[
                {"type":"people","id":"1"},{"type":"people","id":"9"}]}}},
              {"type":"groups","id":"g2","relationships":{"members":{"data":[{"type":"people","id":"8"}]}}}
            ],
            "included":[{"type":"people","id":"1","attributes":{"name":"A"}}]}
            """#
        let document = try Document(parsing: Array(text.utf8))
        var options = DecodingOptions()
        options.ignoresMissingResources = true
        let groups = document.primary(as: Group.self, options: options)
        let all = try groups.decodeAllReporting()
        #expect(all.value.map { $0.members.map(\.id) } == [["1"], []])
        #expect(all.skipped.map(\.identifier.id) == ["9", "8"])
        #expect(
            all.skipped.map(\.pointer) == [
                "/data/0/relationships/members/data/1", "/data/1/relationships/members/data/0",
            ])

        var members: [[String]] = []
        let report = try groups.forEachDecodedReporting { members.append($0.members.map(\.id)) }
        #expect(members == [["1"], []])
        #expect(report.value == 2)
        #expect(report.skipped == all.skipped)

        var iterator = groups.makeDecodingIterator()
        #expect(try iterator.next()?.members.map(\.id) == ["1"])
        #expect(iterator.skippedResources() == Array(all.skipped.prefix(1)))
        #expect(try iterator.next()?.members.isEmpty == true)
        #expect(try iterator.next() == nil)
        #expect(iterator.skippedResources() == all.skipped)
    }
}

struct OnlyPerson: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "people"
    var id: String
    var name: String
}

enum PeopleOnly: ResourceUnion, Sendable {
    case person(OnlyPerson)
    static let members: [ResourceUnionMember<PeopleOnly>] = [.member(OnlyPerson.self, PeopleOnly.person)]

    var id: String {
        switch self {
        case .person(let person): person.id
        }
    }
}

struct Group: Decodable, Sendable, JSONAPIResource {
    static let resourceType = "groups"
    var id: String
    var members: [OnlyPerson]
}

struct PeopleOnlyDocument: Decodable {
    var included: [PeopleOnly]
}
