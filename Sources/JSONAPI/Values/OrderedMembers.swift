// MARK: - Ordered members

/// Named values in a fixed order: the members of a JSON object, links by name, relationships.
///
/// Lookup by key is a linear scan, which beats hashing for the handful of members such objects
/// hold. Keys are unique when members are set through the subscript or a dictionary literal;
/// ``append(key:value:)`` adds without checking.
///
/// ```swift
/// var meta: JSON.Object = ["total": 2]
/// meta["page"] = 1
/// print(meta.keys)  // ["total", "page"]
/// ```
public struct OrderedMembers<Value> {
    /// One member.
    public struct Member {
        /// The member name.
        public var key: String
        /// The member value.
        public var value: Value

        /// Creates a member.
        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in order.
    public var members: [Member]

    /// Creates an empty set of members.
    public init() { members = [] }

    /// Creates members from pairs in order; a repeated key keeps its first position and its last value.
    public init(_ pairs: some Sequence<(String, Value)>) {
        members = []
        for (key, value) in pairs { self[key] = value }
    }

    /// The value of the member named `key`. Setting replaces the member in place or appends a new
    /// one; setting nil removes it.
    public subscript(key: String) -> Value? {
        get { members.first { $0.key == key }?.value }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append(Member(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Appends a member without looking for an existing one with the same key.
    public mutating func append(key: String, value: Value) {
        members.append(Member(key: key, value: value))
    }

    /// The member names, in order.
    public var keys: [String] { members.map(\.key) }

    /// Positions of the members ordered by key (UTF-8 bytes), equal keys in their order.
    func sortedOrder() -> [Int] {
        members.indices.sorted { lhs, rhs in
            let a = members[lhs].key.utf8
            let b = members[rhs].key.utf8
            if a.elementsEqual(b) { return lhs < rhs }
            return a.lexicographicallyPrecedes(b)
        }
    }
}

extension OrderedMembers: RandomAccessCollection {
    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Member { members[position] }
}

extension OrderedMembers: ExpressibleByDictionaryLiteral {
    /// Members in the order written; a repeated key keeps its first position and its last value.
    public init(dictionaryLiteral elements: (String, Value)...) { self.init(elements) }
}

extension OrderedMembers.Member: Sendable where Value: Sendable {}
extension OrderedMembers.Member: Equatable where Value: Equatable {}
extension OrderedMembers.Member: Hashable where Value: Hashable {}
extension OrderedMembers: Sendable where Value: Sendable {}
extension OrderedMembers: Equatable where Value: Equatable {}
extension OrderedMembers: Hashable where Value: Hashable {}
