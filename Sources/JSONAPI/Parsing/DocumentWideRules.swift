// The rules that hold over a whole document rather than inside one object: each `(type, id)`
// pair names one resource, and in a compound document every included resource is reachable from
// primary data (full linkage). Whole documents and the resource stream learn the facts in
// different ways (a document resolves its identifiers to record positions through
// `ResourceIndex` after its last byte; a stream keys them in `IdentityIndex` as resources arrive),
// but both word the rules, and decide reachability, here.
//
// Reachability is one closure, `FullLinkage.reached(in:from:)`, over a graph whose nodes are
// resources and whose edges are the identifiers of their relationships. A whole document runs it
// over all its records from primary data. A stream cannot keep every edge, so it marks as
// resources arrive in document order, and keeps only what it cannot decide yet:
//
//     data:     [A -> B]          A arrives: primary, reached; B is marked reached
//     included: [C -> D, B -> C,  C arrives: not reached yet, deferred with its edge (D)
//                D]               B arrives: reached (by A), so C is marked reached
//                                 D arrives: not reached, deferred
//     end:      the closure over the deferred resources (C -> D), from those whose key was
//               marked (C): C and D are reached. Nothing is reported.
//
// In the usual layout (`data` first, each included resource linked from something before it)
// nothing is deferred. The closure is a worklist, so a chain listed backwards costs linear time.

/// The wording of the document-wide rules.
enum DocumentWideRules {
    /// The message for a resource whose `(type, id)` pair an earlier resource already has.
    static func duplicateResourceMessage(type: String, id: String) -> String {
        "resource with type `\(type)` and id `\(id)` appears more than once; (type, id) pairs must be unique"
    }

    /// The message for an included resource that primary data does not reach.
    static func unreachableResourceMessage(type: String, id: String) -> String {
        "included resource with type `\(type)` and id `\(id)` is not reachable from primary data through relationships (full linkage)"
    }
}

/// Resources as full linkage sees them: nodes `0 ..< nodeCount`, each naming other nodes.
protocol LinkageGraph {
    var nodeCount: Int { get }
    /// Calls `body` with each node an identifier of `node` names (a name may repeat).
    func forEachNamed(by node: Int, _ body: (Int) -> Void)
}

/// Full linkage: which resources primary data reaches through relationships.
enum FullLinkage {
    /// Whether each node is reachable from `roots` (breadth first; each edge followed once).
    static func reached<Graph: LinkageGraph>(in graph: Graph, from roots: some Sequence<Int>) -> [Bool] {
        var reached = [Bool](repeating: false, count: graph.nodeCount)
        var queue: [Int] = []
        queue.reserveCapacity(graph.nodeCount)
        for root in roots where !reached[root] {
            reached[root] = true
            queue.append(root)
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head &+= 1
            graph.forEachNamed(by: node) { next in
                if !reached[next] {
                    reached[next] = true
                    queue.append(next)
                }
            }
        }
        return reached
    }

    /// Whether a resource arriving in document order is reached already: primary data is, and so
    /// is one whose key something before it named.
    static func isReachedOnArrival(isPrimary: Bool, keyWasNamedByReached: Bool) -> Bool {
        isPrimary || keyWasNamedByReached
    }
}

/// The resources a reader in document order could not decide on arrival (see the top of this
/// file): each with the (up to two) keys that name it and the keys its identifiers name. A key is
/// whatever names a resource to the reader (an identity-index handle); 0 names nothing.
struct DeferredLinkage: LinkageGraph {
    struct Entry {
        var keys: (UInt64, UInt64)
        var edges: Range<Int>
    }

    private(set) var entries: [Entry] = []
    private var edges: [UInt64] = []
    /// The start of the edges of the resource about to be deferred.
    private var edgeStart = 0
    /// The deferred resource each key names (the first with it), built by `unreached`.
    private var owners: [UInt64: Int] = [:]

    /// Records a key an identifier of the resource about to be deferred names.
    mutating func addEdge(_ key: UInt64) {
        if key != 0 { edges.append(key) }
    }

    /// Defers the resource whose edges were just added; its position is `entries.count` before.
    mutating func deferResource(keys: (UInt64, UInt64)) {
        entries.append(Entry(keys: keys, edges: edgeStart..<edges.count))
        edgeStart = edges.count
    }

    /// Bytes the deferred resources use.
    var footprint: Int { entries.count * MemoryLayout<Entry>.stride + edges.count * 8 }

    var nodeCount: Int { entries.count }

    func forEachNamed(by node: Int, _ body: (Int) -> Void) {
        for e in entries[node].edges {
            if let owner = owners[edges[e]] { body(owner) }
        }
    }

    /// The positions of the deferred resources primary data does not reach, once every resource
    /// has arrived: the closure from those with a key `isReached` (marked after they arrived).
    mutating func unreached(isReached: (UInt64) -> Bool) -> [Int] {
        guard !entries.isEmpty else { return [] }
        owners.removeAll()
        owners.reserveCapacity(entries.count)
        var roots: [Int] = []
        for (i, entry) in entries.enumerated() {
            if entry.keys.0 != 0 && owners[entry.keys.0] == nil { owners[entry.keys.0] = i }
            if entry.keys.1 != 0 && owners[entry.keys.1] == nil { owners[entry.keys.1] = i }
            if (entry.keys.0 != 0 && isReached(entry.keys.0)) || (entry.keys.1 != 0 && isReached(entry.keys.1)) {
                roots.append(i)
            }
        }
        let reached = FullLinkage.reached(in: self, from: roots)
        owners = [:]
        return entries.indices.filter { !reached[$0] }
    }
}
