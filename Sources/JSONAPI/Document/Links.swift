/// A `links` object: link names to links, each a URL string or a link object.
///
/// ```swift
/// document.links?["next"]?.href        // "http://example.com/articles?page[offset]=2"
/// article.relationship("author")?.links?["related"]?.href
/// ```
public struct Links: Sendable, Sequence {
    let storage: DocumentStorage
    let range: ByteRange

    init?(storage: DocumentStorage, range: ByteRange) {
        guard range.isPresent else { return nil }
        self.storage = storage
        self.range = range
    }

    /// The links object at `range`, which the caller knows is present.
    init(storage: DocumentStorage, present range: ByteRange) {
        self.storage = storage
        self.range = range
    }

    /// The link named `name`; nil when absent or `null`.
    public subscript(name: String) -> Link? {
        guard let value = JSONValue(storage: storage, range: range)[name] else { return nil }
        return Link(value)
    }

    /// Whether a member named `name` is present (even when its value is `null`).
    public func contains(_ name: String) -> Bool { JSONValue(storage: storage, range: range)[name] != nil }

    /// Link names in document order.
    public var names: [String] { JSONValue(storage: storage, range: range).keys }

    /// The links object as a plain value.
    public var jsonValue: JSONValue { JSONValue(storage: storage, range: range) }

    public func makeIterator() -> IndexingIterator<[(name: String, link: Link)]> {
        JSONValue(storage: storage, range: range).members.compactMap { member in
            Link(member.value).map { (name: member.key, link: $0) }
        }.makeIterator()
    }
}

/// One link: a URL, optionally with the 1.1 link-object members.
public struct Link: Sendable {
    /// The link's target URL.
    public var href: String
    /// The link relation type (1.1).
    public var rel: String?
    /// A link to a description document (1.1), as its URL.
    public var describedby: String?
    /// A human-readable title (1.1).
    public var title: String?
    /// The target's media type (1.1).
    public var type: String?
    /// The target's languages (1.1), from a string or an array of strings.
    public var hreflang: [String]
    /// The link object's `meta`.
    public var meta: JSONValue?

    /// Creates a link.
    public init(
        href: String, rel: String? = nil, describedby: String? = nil, title: String? = nil, type: String? = nil,
        hreflang: [String] = [], meta: JSONValue? = nil
    ) {
        self.href = href
        self.rel = rel
        self.describedby = describedby
        self.title = title
        self.type = type
        self.hreflang = hreflang
        self.meta = meta
    }

    /// Reads a link from a string or link-object value; nil for `null` or other shapes.
    init?(_ value: JSONValue) {
        switch value.kind {
        case .string:
            guard let href = value.stringValue else { return nil }
            self.init(href: href)
        case .object:
            let describedby = value["describedby"].flatMap { $0.kind == .object ? $0["href"] : $0 }?.stringValue
            var languages: [String] = []
            if let lang = value["hreflang"] {
                languages =
                    lang.kind == .array
                    ? lang.elements.compactMap(\.stringValue) : (lang.stringValue.map { [$0] } ?? [])
            }
            self.init(
                href: value["href"]?.stringValue ?? "", rel: value["rel"]?.stringValue, describedby: describedby,
                title: value["title"]?.stringValue, type: value["type"]?.stringValue, hreflang: languages,
                meta: value["meta"])
        default:
            return nil
        }
    }
}
