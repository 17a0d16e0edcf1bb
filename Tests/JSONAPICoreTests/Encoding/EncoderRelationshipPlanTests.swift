import Foundation
import JSONAPI
import Testing

@testable import JSONAPITestSupport

/// Relationship values are classified once per type (identifiers, a model, an optional or an
/// array of a model, anything else) and collected with their static types. Each kind must
/// write the same linkage and `included` as the tree encoder, which asks every value anew, and
/// as the JSON written out by hand here.
@Suite("Encoder: relationship plans")
struct EncoderRelationshipPlanTests {
    struct Host: Codable, Equatable, JSONAPIResource {
        static let resourceType = "hosts"
        var id: String
        var n: Int
    }

    /// A related model whose identity is its `lid` (no `id` yet) and comes after an attribute.
    struct Draft: Codable, Equatable, JSONAPIResource {
        static let resourceType = "drafts"
        var note: String
        var lid: String
    }

    struct Ping: Codable, Equatable, JSONAPIResource {
        static let resourceType = "pings"
        var id: String
        var samples: [Double]
        var counts: [Int]
        var origin: Host?
        var primary: Host
        var mirrors: [Host]
        var drafts: [Draft]
        var peer: Ping.Ref?
        var nothing: Host?

        /// A to-one relationship to another primary resource, by model.
        struct Ref: Codable, Equatable, JSONAPIResource {
            static let resourceType = "pings"
            var id: String
            var samples: [Double] = []
            var counts: [Int] = []
        }
    }

    static let hostA = Host(id: "a", n: 1)
    static let hostB = Host(id: "b", n: 2)

    static func pings() -> [Ping] {
        [
            Ping(
                id: "1", samples: [0.5, -2, 1e-7], counts: [Int.min, 0], origin: hostA, primary: hostB,
                mirrors: [hostA, hostB, hostA], drafts: [Draft(note: "n", lid: "l1")],
                peer: Ping.Ref(id: "2"), nothing: nil),
            Ping(
                id: "2", samples: [], counts: [7], origin: nil, primary: hostA, mirrors: [], drafts: [],
                peer: nil, nothing: nil),
        ]
    }

    func encode<T: Encodable>(_ value: T, pretty: Bool) throws -> [UInt8] {
        var options = EncodingOptions()
        options.includesRelatedByDefault = true
        options.prettyPrinted = pretty
        return try JSONAPIEncoder(options: options).encode(value)
    }

    func object(_ bytes: [UInt8]) throws -> NSDictionary? {
        try JSONSerialization.jsonObject(with: Data(bytes)) as? NSDictionary
    }

    @Test func everyKindWritesTheLinkageAndIncludedOfTheTreeEncoder() throws {
        let streamed = try encode(Self.pings(), pretty: false)
        let tree = try encode(Self.pings(), pretty: true)
        #expect(try object(streamed) == object(tree), "\(text(streamed))\n\(text(tree))")

        let expected = """
            {"data":[\
            {"type":"pings","id":"1","attributes":{"samples":[0.5,-2.0,1e-07],"counts":[-9223372036854775808,0]},\
            "relationships":{"origin":{"data":{"type":"hosts","id":"a"}},"primary":{"data":{"type":"hosts","id":"b"}},\
            "mirrors":{"data":[{"type":"hosts","id":"a"},{"type":"hosts","id":"b"},{"type":"hosts","id":"a"}]},\
            "drafts":{"data":[{"type":"drafts","lid":"l1"}]},"peer":{"data":{"type":"pings","id":"2"}},\
            "nothing":{"data":null}}},\
            {"type":"pings","id":"2","attributes":{"samples":[],"counts":[7]},\
            "relationships":{"origin":{"data":null},"primary":{"data":{"type":"hosts","id":"a"}},\
            "mirrors":{"data":[]},"drafts":{"data":[]},"peer":{"data":null},"nothing":{"data":null}}}],\
            "included":[\
            {"type":"hosts","id":"a","attributes":{"n":1}},{"type":"hosts","id":"b","attributes":{"n":2}},\
            {"type":"drafts","lid":"l1","attributes":{"note":"n"}}]}
            """
        #expect(try object(streamed) == object(Array(expected.utf8)), "\(text(streamed))")
    }

    /// A primary resource that a relationship queued for `included` before it was written as
    /// primary data is left out of `included`; one queued after it was written is never queued.
    @Test func primaryResourcesNeverRepeatInIncluded() throws {
        struct Node: Codable, JSONAPIResource {
            static let resourceType = "nodes"
            var id: String
            var next: Leaf?
        }
        struct Leaf: Codable, JSONAPIResource {
            static let resourceType = "nodes"
            var id: String
        }
        let nodes = [Node(id: "1", next: Leaf(id: "2")), Node(id: "2", next: Leaf(id: "1")), Node(id: "3", next: nil)]
        for pretty in [false, true] {
            let document = try object(encode(nodes, pretty: pretty))
            #expect(document?["included"] == nil, "\(String(describing: document))")
            #expect((document?["data"] as? NSArray)?.count == 3)
        }
    }

    /// The identity encoder is reused from model to model: a model without an `id` after one
    /// with it, and the other way round, keeps only its own identity.
    @Test func reusedIdentityEncoderForgetsThePreviousModel() throws {
        struct Mixed: Codable, JSONAPIResource {
            static let resourceType = "items"
            var id: String
            var parts: [Part]
        }
        struct Part: Codable, JSONAPIResource {
            static let resourceType = "parts"
            var id: String?
            var lid: String?
        }
        let item = Mixed(id: "1", parts: [Part(id: "x", lid: nil), Part(id: nil, lid: "y"), Part(id: "z", lid: nil)])
        let streamed = try encode(item, pretty: false)
        let linkage =
            (((try object(streamed)?["data"] as? NSDictionary)?["relationships"] as? NSDictionary)?["parts"]
            as? NSDictionary)?["data"] as? NSArray
        #expect(
            linkage
                == [
                    ["type": "parts", "id": "x"], ["type": "parts", "lid": "y"], ["type": "parts", "id": "z"],
                ] as NSArray, "\(text(streamed))")
        #expect(try object(streamed) == object(encode(item, pretty: true)))
    }

    @Test func nonFiniteNumberInAnArrayAttributeThrows() throws {
        struct Bad: Encodable, JSONAPIResource {
            static let resourceType = "bad"
            var id = "1"
            var values = [1, Double.infinity]
        }
        #expect(throws: (any Error).self) { try JSONAPIEncoder().encode(Bad()) }
        var pretty = EncodingOptions()
        pretty.prettyPrinted = true
        #expect(throws: (any Error).self) { try JSONAPIEncoder(options: pretty).encode(Bad()) }
    }

    // MARK: Random models

    struct Leaf: Codable, JSONAPIResource {
        static let resourceType = "leaves"
        var id: String
        var label: String
        var weight: Double?
    }

    struct Node: Codable, JSONAPIResource {
        static let resourceType = "nodes"
        var id: String
        var name: String
        var scores: [Double]
        var counts: [Int]
        var main: Leaf?
        var extra: Leaf?
        var all: [Leaf]
        var pinned: Identifier<Leaf>?
        var tagged: [Identifier<Leaf>]
    }

    /// Random nodes over a small pool of leaves (so leaves repeat), with strings that need
    /// escapes and numbers of every size.
    static func randomNodes(seed: UInt64) -> [Node] {
        var random = SplitMix64(seed: seed)
        let pieces = ["a", "é", "\"", "\\", "/", "\n", "\u{1}", "😀", " ", "x y"]
        func string() -> String {
            (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
        func number() -> Double {
            let magnitude = Double(random.next() % 1_000_000) / 1_000 * pow(10, Double(Int(random.next() % 41) - 20))
            return random.next() % 2 == 0 ? magnitude : -magnitude
        }
        let leaves = (0..<Int(1 + random.next() % 8)).map {
            Leaf(id: "l\($0)\(string())", label: string(), weight: random.next() % 3 == 0 ? nil : number())
        }
        func leaf() -> Leaf? { random.next() % 3 == 0 ? nil : leaves[Int(random.next() % UInt64(leaves.count))] }
        return (0..<Int(random.next() % 12)).map { index in
            Node(
                id: "n\(index)\(string())", name: string(),
                scores: (0..<Int(random.next() % 4)).map { _ in number() },
                counts: (0..<Int(random.next() % 4)).map { _ in Int(bitPattern: UInt(random.next())) },
                main: leaf(), extra: leaf(), all: (0..<Int(random.next() % 4)).compactMap { _ in leaf() },
                pinned: leaf().map { Identifier($0.id) },
                tagged: (0..<Int(random.next() % 3)).compactMap { _ in
                    leaf().map { Identifier($0.id) }
                })
        }
    }

    /// Random models written through the stream and through the tree agree, and `included`
    /// holds exactly the distinct leaves the nodes hold as models (identifiers bring none).
    @Test(arguments: 0..<40) func randomModelsAgreeWithTheTreeAndIncludeEachLeafOnce(seed: UInt64) throws {
        let nodes = Self.randomNodes(seed: seed)
        let streamed = try encode(nodes, pretty: false)
        let tree = try encode(nodes, pretty: true)
        #expect(try object(streamed) == object(tree), "\(text(streamed))\n\(text(tree))")
        let included = (try object(streamed)?["included"] as? [NSDictionary]) ?? []
        let written = included.compactMap { $0["id"] as? String }
        var expected: [String] = []
        for node in nodes {
            for leaf in [node.main, node.extra].compactMap({ $0 }) + node.all where !expected.contains(leaf.id) {
                expected.append(leaf.id)
            }
        }
        #expect(Set(written) == Set(expected) && written.count == expected.count, "\(text(streamed))")
        // What the stream writes reads back as the same models.
        let decoded = try JSONAPIDecoder().decode([Node].self, from: streamed)
        #expect(decoded.map(\.id) == nodes.map(\.id))
        #expect(decoded.map(\.scores) == nodes.map(\.scores))
        #expect(decoded.map(\.counts) == nodes.map(\.counts))
        #expect(decoded.map { $0.main?.label } == nodes.map { $0.main?.label })
        #expect(decoded.map { $0.all.map(\.id) } == nodes.map { $0.all.map(\.id) })
    }
}
