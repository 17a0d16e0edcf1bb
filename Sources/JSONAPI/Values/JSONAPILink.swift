/// An owned link, for documents built in code: a URL, optionally with the 1.1 link-object members.
///
/// A link with only an ``href`` is written as a plain URL string, otherwise as a link object.
///
/// ```swift
/// var links: JSONAPILinks = ["self": "https://example.com/articles?page=2"]
/// links["next"] = JSONAPILink(href: "https://example.com/articles?page=3", meta: ["page": 3])
/// print(try links.jsonString())
/// // {"self":"https://example.com/articles?page=2",
/// //  "next":{"href":"https://example.com/articles?page=3","meta":{"page":3}}}   (one line)
/// ```
public struct JSONAPILink: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The link's target URL.
    public var href: String
    /// The link relation type (1.1).
    public var rel: String?
    /// The URL of a description document for the target (1.1).
    public var describedby: String?
    /// A human-readable title (1.1).
    public var title: String?
    /// The target's media type (1.1).
    public var type: String?
    /// The target's languages (1.1): one is written as a string, several as an array.
    public var hreflang: [String]
    /// Non-standard meta-information about the link.
    public var meta: JSON.Object?

    /// Creates a link.
    public init(
        href: String, rel: String? = nil, describedby: String? = nil, title: String? = nil, type: String? = nil,
        hreflang: [String] = [], meta: JSON.Object? = nil
    ) {
        self.href = href
        self.rel = rel
        self.describedby = describedby
        self.title = title
        self.type = type
        self.hreflang = hreflang
        self.meta = meta
    }

    /// A link with only a URL.
    public init(stringLiteral href: String) { self.init(href: href) }

    /// Copies a link read from a parsed document.
    public init(_ link: Link) {
        self.init(
            href: link.href, rel: link.rel, describedby: link.describedby, title: link.title, type: link.type,
            hreflang: link.hreflang, meta: link.meta.flatMap { JSON($0).objectValue })
    }
}

/// Links by name, in order (`self`, `related`, `next`, `about`, ...).
public typealias JSONAPILinks = OrderedMembers<JSONAPILink>

extension JSONAPILink: JSONWritable {
    /// Writes the URL string, or a link object when any member besides ``href`` is set.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        guard rel != nil || describedby != nil || title != nil || type != nil || !hreflang.isEmpty || meta != nil
        else {
            writer.string(href)
            return
        }
        var members: [(String, (inout JSONWriter) -> Void)] = [("href", { $0.string(href) })]
        if let rel { members.append(("rel", { $0.string(rel) })) }
        if let describedby { members.append(("describedby", { $0.string(describedby) })) }
        if let title { members.append(("title", { $0.string(title) })) }
        if let type { members.append(("type", { $0.string(type) })) }
        if !hreflang.isEmpty {
            let languages = hreflang
            members.append(("hreflang", { writer in writer.strings(languages, singleAsString: true) }))
        }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}

extension OrderedMembers: JSONWritable where Value: JSONWritable {
    /// Writes the members as a JSON object, in order or sorted by key.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        writer.beginObject()
        if sortingKeys {
            for index in sortedOrder() {
                writer.key(members[index].key)
                members[index].value.write(to: &writer, sortingKeys: true)
            }
        } else {
            for member in members {
                writer.key(member.key)
                member.value.write(to: &writer, sortingKeys: false)
            }
        }
        writer.endObject()
    }
}
