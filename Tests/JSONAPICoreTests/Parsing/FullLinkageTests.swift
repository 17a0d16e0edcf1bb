import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// Full linkage decided as a stream decides it (in arrival order, deferring) against the closure
/// over the whole graph, as a document decides it, on seeded random graphs whose resources arrive
/// in random order (so many are deferred), and on the layouts that defer most.
@Suite("Full linkage")
struct FullLinkageTests {
    /// A resource of a random graph: its key, whether it is primary, and the keys it names.
    struct Node {
        var key: UInt64
        var isPrimary: Bool
        var edges: [UInt64]
    }

    /// Decides as a stream does: marks in arrival order, defers what it cannot decide, and
    /// closes over the deferred at the end.
    static func unreached(_ nodes: [Node]) -> Set<Int> {
        var marked: Set<UInt64> = []
        var deferred = DeferredLinkage()
        var positions: [Int] = []
        for (i, node) in nodes.enumerated() {
            let reached = FullLinkage.isReachedOnArrival(
                isPrimary: node.isPrimary, keyWasNamedByReached: node.key != 0 && marked.contains(node.key))
            if reached {
                for edge in node.edges { marked.insert(edge) }
            } else {
                for edge in node.edges { deferred.addEdge(edge) }
                deferred.deferResource(keys: (node.key, 0))
                positions.append(i)
            }
        }
        return Set(deferred.unreached { marked.contains($0) }.map { positions[$0] })
    }

    /// The nodes as a whole document sees them: each names the node that has the key.
    struct Graph: LinkageGraph {
        var nodes: [Node]
        var owner: [UInt64: Int]
        var nodeCount: Int { nodes.count }
        func forEachNamed(by node: Int, _ body: (Int) -> Void) {
            for edge in nodes[node].edges {
                if let next = owner[edge] { body(next) }
            }
        }
    }

    /// The closure over the whole graph from the primary nodes; a key names the first node that
    /// has it.
    static func reference(_ nodes: [Node]) -> Set<Int> {
        var owner: [UInt64: Int] = [:]
        for (i, node) in nodes.enumerated() where node.key != 0 && owner[node.key] == nil { owner[node.key] = i }
        let reached = FullLinkage.reached(
            in: Graph(nodes: nodes, owner: owner), from: nodes.indices.filter { nodes[$0].isPrimary })
        return Set(nodes.indices.filter { !reached[$0] })
    }

    struct Adjacency: LinkageGraph {
        var edges: [[Int]]
        var nodeCount: Int { edges.count }
        func forEachNamed(by node: Int, _ body: (Int) -> Void) { edges[node].forEach(body) }
    }

    @Test("the closure reaches exactly what a recursive search from the roots reaches")
    func closureAgainstSearch() {
        var random = SplitMix64(seed: 36)
        for _ in 0..<50 {
            let count = Int.random(in: 1...40, using: &random)
            let edges = (0..<count).map { _ in
                (0..<Int.random(in: 0...3, using: &random)).map { _ in Int.random(in: 0..<count, using: &random) }
            }
            let roots = (0..<count).filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
            var seen = Set<Int>()
            func visit(_ node: Int) {
                guard seen.insert(node).inserted else { return }
                edges[node].forEach(visit)
            }
            roots.forEach(visit)
            let reached = FullLinkage.reached(in: Adjacency(edges: edges), from: roots)
            #expect(Set((0..<count).filter { reached[$0] }) == seen)
        }
    }

    @Test("deciding in arrival order agrees with the closure over the whole graph", arguments: 0..<40)
    func randomGraphs(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 1...60, using: &random)
        // Keys are distinct, as both callers make them (a repeated `(type, id)` gets key 0: no
        // identifier can name it); some edges name keys no resource has.
        let keys = (1...UInt64(count)).shuffled(using: &random)
        var nodes: [Node] = []
        for i in 0..<count {
            let key = Int.random(in: 0..<10, using: &random) == 0 ? 0 : keys[i]
            let edges = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                UInt64.random(in: 1...UInt64(count + 3), using: &random)
            }
            nodes.append(Node(key: key, isPrimary: Int.random(in: 0..<6, using: &random) == 0, edges: edges))
        }
        #expect(Self.unreached(nodes) == Self.reference(nodes))
    }

    @Test("a chain listed backwards defers every link and still reaches them all")
    func backwardsChain() {
        // included[k] is named only by included[k + 1]; the primary resource names the last.
        let n = 5_000
        var nodes = [Node(key: 1, isPrimary: true, edges: [UInt64(n + 1)])]
        for k in 0..<n {
            nodes.append(Node(key: UInt64(k + 2), isPrimary: false, edges: k == 0 ? [] : [UInt64(k + 1)]))
        }
        #expect(Self.unreached(nodes).isEmpty)
        nodes[n].edges = []  // the link into the rest of the chain is cut
        #expect(Self.unreached(nodes) == Set(1..<n))
    }

    @Test("the two documented messages name the type and id")
    func messages() {
        #expect(
            DocumentWideRules.duplicateResourceMessage(type: "people", id: "9")
                == "resource with type `people` and id `9` appears more than once; (type, id) pairs must be unique")
        #expect(
            DocumentWideRules.unreachableResourceMessage(type: "people", id: "9")
                == "included resource with type `people` and id `9` is not reachable from primary data through relationships (full linkage)"
        )
    }

    @Test("a whole document and a stream report the same unreachable resources, listed backwards")
    func documentAndStreamAgree() throws {
        // included: p3 -> p2 -> p1, listed p1, p2, p3, and p9 that nothing names.
        var included: [String] = []
        for k in 1...3 {
            let next = k == 1 ? "" : #","relationships":{"next":{"data":{"type":"people","id":"\#(k - 1)"}}}"#
            included.append(#"{"type":"people","id":"\#(k)"\#(next)}"#)
        }
        included.append(#"{"type":"people","id":"9"}"#)
        let text =
            #"{"data":{"type":"articles","id":"1","relationships":{"author":{"data":{"type":"people","id":"3"}}}},"#
            + #""included":[\#(included.joined(separator: ","))]}"#
        let document = try Document(parsing: text)
        let fromDocument = document.diagnostics.filter { $0.code == .unreachableResource }.map(\.message)
        #expect(fromDocument == [DocumentWideRules.unreachableResourceMessage(type: "people", id: "9")])
        var stream = try ResourceStream()
        try stream.feed(Array(text.utf8))
        try stream.finish()
        while try stream.next() != nil {}
        let fromStream = stream.diagnostics.filter { $0.code == .unreachableResource }
        #expect(fromStream.map(\.message) == fromDocument)
        #expect(fromStream.map(\.pointer) == ["/included/3"])
    }
}
