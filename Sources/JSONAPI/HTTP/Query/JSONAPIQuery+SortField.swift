extension JSONAPIQuery {
    /// One sort field of the `sort` parameter: a field name (dotted for a field of a related
    /// resource, `author.name`) and its direction, descending when written with a leading `-`.
    ///
    /// ```swift
    /// let fields: [JSONAPIQuery.SortField] = ["-created", "title"]
    /// fields[0].name          // "created"
    /// fields[0].isDescending  // true
    /// fields[0].description   // "-created"
    /// ```
    public struct SortField: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The field name, without the `-` prefix.
        public var name: String
        /// True for descending order (`-name`), false for ascending.
        public var isDescending: Bool

        /// Creates a sort field.
        public init(_ name: String, descending: Bool = false) {
            self.name = name
            self.isDescending = descending
        }

        /// Reads the form used in the `sort` parameter: `-created` is `created` descending.
        public init(stringLiteral value: String) {
            if value.utf8.first == UInt8(ascii: "-") {
                self.init(String(decoding: value.utf8.dropFirst(), as: UTF8.self), descending: true)
            } else {
                self.init(value)
            }
        }

        /// The form used in the `sort` parameter: the name, prefixed with `-` when descending.
        public var description: String { isDescending ? "-" + name : name }
    }
}
