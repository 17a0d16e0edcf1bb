// Owned links as `Encodable` values, so that the links a server builds (pagination links from a
// query, a resource's links) go straight into `JSONAPIEncoder`'s `links:` or a model's
// `links` property, and through any other encoder.

extension JSONAPILink: Encodable {
    /// Encodes the URL string, or a link object when any member besides ``href`` is set, as
    /// ``write(to:sortingKeys:)`` writes it: `hreflang` with one language is a string.
    ///
    /// ```swift
    /// let links: JSONAPILinks = ["self": "/articles?page[number]=2", "next": "/articles?page[number]=3"]
    /// let bytes = try JSONAPIEncoder().encode(articles, links: links)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        guard rel != nil || describedby != nil || title != nil || type != nil || !hreflang.isEmpty || meta != nil
        else {
            var container = encoder.singleValueContainer()
            try container.encode(href)
            return
        }
        var container = encoder.container(keyedBy: LinkKey.self)
        try container.encode(href, forKey: .href)
        try container.encodeIfPresent(rel, forKey: .rel)
        try container.encodeIfPresent(describedby, forKey: .describedby)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(type, forKey: .type)
        if hreflang.count == 1 {
            try container.encode(hreflang[0], forKey: .hreflang)
        } else if !hreflang.isEmpty {
            try container.encode(hreflang, forKey: .hreflang)
        }
        if let meta { try container.encode(JSON.object(meta), forKey: .meta) }
    }

    private enum LinkKey: String, CodingKey {
        case href, rel, describedby, title, type, hreflang, meta
    }
}

extension OrderedMembers: Encodable where Value: Encodable {
    /// Encodes the members as an object, in order. ``JSONAPIEncoder`` writes the names as they
    /// are (no key strategy), as it does a `[String: Value]`; other encoders may apply theirs.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for member in members {
            try container.encode(member.value, forKey: AnyKey(member.key))
        }
    }
}
