import JSONAPI

/// A condition on the resources of one type, as a data source receives it: attribute
/// comparisons, text matches, membership, null checks and linkage, combined with `and`, `or` and
/// `not`. Names are member names of the type itself; a condition through a relationship
/// (`author.name`) reaches the source as ``through(_:_:)`` when the source evaluates it
/// (``ResourceDataSource/evaluatesFilter(through:to:)``: a database joins the related table),
/// and otherwise as ``related(_:_:)``, the ids the service found through the related type's
/// own source.
///
/// The name `id` stands for the resource id (no attribute may be named so): the service
/// compares it for equality only (`compare` with `equal` or `notEqual`, and `oneOf`), with
/// string values.
///
/// A data source translates it into its own query language; `matches` evaluates it against a
/// resource object, as ``InMemoryDataSource`` does. A comparison with an attribute that is `null`
/// or absent is false (only `isNull` holds), as in SQL.
///
/// ```swift
/// let filter = ResourceFilter.all([.equals("title", "Dune"), .compare("year", .greaterThan, 1960)])
/// filter.matches(JSONAPIResourceObject(type: "books", id: "1", attributes: ["title": "Dune", "year": 1965]))   // true
/// ResourceFilter().matches(JSONAPIResourceObject(type: "books", id: "2"))   // true: the empty filter
/// ```
public indirect enum ResourceFilter: Sendable, Hashable {
    /// The attribute compares so with the value (numbers by value, strings by their UTF-8 bytes).
    case compare(String, FilterComparison, JSON)
    /// The attribute is a string that contains, starts or ends with the text (exact bytes).
    case text(String, FilterTextMatch, String)
    /// The attribute equals one of the values.
    case oneOf(String, [JSON])
    /// The attribute is `null` or absent, or the relationship links to nothing.
    case isNull(String)
    /// The relationship links to at least one resource with one of these ids.
    case related(String, Set<String>)
    /// The relationship links to at least one resource for which the filter holds (its names
    /// are the related type's). Only a source that evaluates it receives it
    /// (``ResourceDataSource/evaluatesFilter(through:to:)``); ``matches(_:)`` cannot see the
    /// related resources and answers false.
    case through(String, ResourceFilter)
    /// Every condition holds; `.all([])` matches every resource.
    case all([ResourceFilter])
    /// At least one condition holds; `.any([])` matches nothing.
    case any([ResourceFilter])
    /// The condition does not hold.
    case not(ResourceFilter)

    /// The filter that matches every resource.
    public init() { self = .all([]) }

    /// `.compare(name, .equal, value)`.
    public static func equals(_ name: String, _ value: JSON) -> ResourceFilter { .compare(name, .equal, value) }

    /// Whether the filter holds for `resource`. Filters parsed from a request nest at most
    /// ``ResourceService/maximumFilterNesting`` deep.
    public func matches(_ resource: JSONAPIResourceObject) -> Bool {
        switch self {
        case .compare(let name, let comparison, let value):
            guard let actual = Self.value(of: name, in: resource), actual != .null, value != .null else { return false }
            let order = JSONOrdering.compare(actual, value)
            if JSONOrdering.rank(actual) != JSONOrdering.rank(value) { return comparison == .notEqual }
            switch comparison {
            case .equal: return order == .equal
            case .notEqual: return order != .equal
            case .lessThan: return order == .less
            case .lessOrEqual: return order != .greater
            case .greaterThan: return order == .greater
            case .greaterOrEqual: return order != .less
            }
        case .text(let name, let match, let text):
            guard case .string(let actual)? = Self.value(of: name, in: resource) else { return false }
            let haystack = Array(actual.utf8)
            let needle = Array(text.utf8)
            switch match {
            case .startsWith: return haystack.starts(with: needle)
            case .endsWith: return haystack.reversed().starts(with: needle.reversed())
            case .contains:
                guard needle.count <= haystack.count else { return false }
                if needle.isEmpty { return true }
                for start in 0...(haystack.count - needle.count)
                where haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle) {
                    return true
                }
                return false
            }
        case .oneOf(let name, let values):
            guard let actual = Self.value(of: name, in: resource), actual != .null else { return false }
            return values.contains { JSONOrdering.compare(actual, $0) == .equal }
        case .isNull(let name):
            if let relationship = resource.relationships[name] {
                switch relationship.data {
                case .one?: return false
                case .many(let identifiers)?: return identifiers.isEmpty
                case .null?, nil: return true
                }
            }
            return Self.value(of: name, in: resource).map { $0 == .null } ?? true
        case .related(let name, let ids):
            switch resource.relationships[name]?.data {
            case .one(let identifier)?: return identifier.id.map(ids.contains) ?? false
            case .many(let identifiers)?: return identifiers.contains { $0.id.map(ids.contains) ?? false }
            case .null?, nil: return false
            }
        case .through: return false
        case .all(let conditions): return conditions.allSatisfy { $0.matches(resource) }
        case .any(let conditions): return conditions.contains { $0.matches(resource) }
        case .not(let condition): return !condition.matches(resource)
        }
    }

    /// The attribute `name` of `resource`, or its id for `id`.
    private static func value(of name: String, in resource: JSONAPIResourceObject) -> JSON? {
        name == "id" ? resource.id.map(JSON.string) : resource.attributes[name]
    }
}

/// How a filter compares an attribute with a value.
public enum FilterComparison: String, Sendable, Hashable, CaseIterable {
    /// `equals(name, value)`.
    case equal = "equals"
    /// `notEquals(name, value)`.
    case notEqual = "notEquals"
    /// `lessThan(name, value)`.
    case lessThan
    /// `lessOrEqual(name, value)`.
    case lessOrEqual
    /// `greaterThan(name, value)`.
    case greaterThan
    /// `greaterOrEqual(name, value)`.
    case greaterOrEqual
}

/// How a filter matches text.
public enum FilterTextMatch: String, Sendable, Hashable, CaseIterable {
    /// `contains(name, 'text')`.
    case contains
    /// `startsWith(name, 'text')`.
    case startsWith
    /// `endsWith(name, 'text')`.
    case endsWith
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
            if x.utf8.elementsEqual(y.utf8) { return .equal }
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
