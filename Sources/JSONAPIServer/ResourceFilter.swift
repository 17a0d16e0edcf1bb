import JSONAPI

/// A condition on the attributes of a resource, as a collection request's `filter` parameters
/// ask it, with values typed by the attribute's declared shape.
///
/// `filter[title]=Dune&filter[year]=1965` on a model whose `year` is an `Int` is
/// `.all([.equals("title", "Dune"), .equals("year", 1965)])`. A data source translates it into
/// its own query language; ``matches(_:)`` evaluates it against an attributes object, as
/// ``InMemoryDataSource`` does.
///
/// ```swift
/// let filter = ResourceFilter.all([.equals("title", "Dune"), .equals("year", 1965)])
/// filter.matches(["title": "Dune", "year": 1965])   // true
/// ResourceFilter().matches(["title": "Emma"])        // true: the empty filter matches everything
/// ```
public indirect enum ResourceFilter: Sendable, Hashable {
    /// The attribute named by the member name equals the value (numbers compare by value).
    case equals(String, JSON)
    /// Every condition holds; `.all([])` matches every resource.
    case all([ResourceFilter])
    /// At least one condition holds; `.any([])` matches nothing.
    case any([ResourceFilter])

    /// The filter that matches every resource.
    public init() { self = .all([]) }

    /// Whether the filter holds for a resource with these attributes. Conditions are evaluated
    /// with an explicit stack, so a deep filter cannot exhaust the call stack.
    public func matches(_ attributes: JSON.Object) -> Bool {
        // Each frame: the conditions of one `all` or `any`, the next to look at, and whether it is `all`.
        enum Outcome { case pending, decided(Bool) }
        func leaf(_ name: String, _ value: JSON) -> Bool {
            guard let actual = attributes[name] else { return value == .null }
            return JSONOrdering.compare(actual, value) == .equal
        }
        switch self {
        case .equals(let name, let value): return leaf(name, value)
        case .all(let items), .any(let items):
            var stack: [(items: [ResourceFilter], next: Int, isAll: Bool)] = []
            if case .all = self { stack.append((items, 0, true)) } else { stack.append((items, 0, false)) }
            var last: Bool? = nil
            while var frame = stack.popLast() {
                if let result = last {
                    last = nil
                    // The result of frame.items[frame.next - 1].
                    if frame.isAll != result {
                        last = result
                        continue
                    }
                }
                if frame.next == frame.items.count {
                    last = frame.isAll
                    continue
                }
                let item = frame.items[frame.next]
                frame.next += 1
                stack.append(frame)
                switch item {
                case .equals(let name, let value): last = leaf(name, value)
                case .all(let inner): stack.append((inner, 0, true))
                case .any(let inner): stack.append((inner, 0, false))
                }
            }
            return last ?? true
        }
    }
}

/// The order in which collections sort attribute values: `null` (or absent), then `false`,
/// `true`, then numbers by value, then strings by their UTF-8 bytes, then arrays and objects
/// (by their JSON text).
enum JSONOrdering {
    enum Result { case less, equal, greater }

    static func rank(_ value: JSON?) -> Int {
        switch value {
        case nil, .null?: 0
        case .bool?: 1
        case .int?, .double?, .decimal?: 2
        case .string?: 3
        case .array?, .object?: 4
        }
    }

    static func compare(_ a: JSON?, _ b: JSON?) -> Result {
        let ra = rank(a)
        let rb = rank(b)
        if ra != rb { return ra < rb ? .less : .greater }
        switch (a, b) {
        case (.bool(let x)?, .bool(let y)?): return x == y ? .equal : (!x ? .less : .greater)
        case (.int(let x)?, .int(let y)?): return x == y ? .equal : (x < y ? .less : .greater)
        case (.string(let x)?, .string(let y)?):
            if x == y { return .equal }
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? .less : .greater
        case (let x?, let y?) where ra == 2:
            let dx = x.doubleValue ?? 0
            let dy = y.doubleValue ?? 0
            return dx == dy ? .equal : (dx < dy ? .less : .greater)
        case (let x?, let y?) where ra == 4:
            let tx = (try? x.jsonString()) ?? ""
            let ty = (try? y.jsonString()) ?? ""
            return tx == ty ? .equal : (tx.utf8.lexicographicallyPrecedes(ty.utf8) ? .less : .greater)
        default: return .equal
        }
    }
}
