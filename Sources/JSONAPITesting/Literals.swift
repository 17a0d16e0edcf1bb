import JSONAPI

// Literals for tests: `let author: Identifier<Person> = 9` and
// `let any: ResourceIdentifier = "people/9"`. Declared here, not in the core, so that only code
// that imports JSONAPITesting has them (no `@retroactive`: the types are of this package).

extension Identifier: ExpressibleByIntegerLiteral {
    /// An identifier whose id is the integer's decimal text.
    ///
    /// ```swift
    /// let author: Identifier<Person> = 9     // people/9
    /// #expect(article.author == 9)
    /// ```
    public init(integerLiteral value: Int) {
        self.init(id: String(value))
    }
}

extension ResourceIdentifier: ExpressibleByStringLiteral {
    /// An identifier written `type/id`, or `type/lid:local` for a 1.1 local id.
    ///
    /// ```swift
    /// let person: ResourceIdentifier = "people/9"
    /// let draft: ResourceIdentifier = "articles/lid:new-1"
    /// ```
    ///
    /// The type is everything before the first `/`; a literal without `/` is a type with
    /// neither id nor lid.
    public init(stringLiteral value: String) {
        guard let slash = value.firstIndex(of: "/") else {
            self.init(type: value)
            return
        }
        let type = String(value[..<slash])
        let rest = String(value[value.index(after: slash)...])
        if rest.hasPrefix("lid:") {
            self.init(type: type, lid: String(rest.dropFirst(4)))
        } else {
            self.init(type: type, id: rest)
        }
    }
}
