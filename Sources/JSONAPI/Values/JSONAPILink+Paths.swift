extension JSONAPILink {
    /// `text` as one segment of a URI path: every byte that RFC 3986 does not allow in a segment
    /// (a `pchar`: letters, digits, `-._~!$&'()*+,;=:@`) percent-encoded as `%XX`, `/` included,
    /// so an id can never reach into another segment or the query.
    ///
    /// ```swift
    /// JSONAPILink.pathSegment("a|b]c d/e")   // "a%7Cb%5Dc%20d%2Fe"
    /// ```
    public static func pathSegment(_ text: String) -> String {
        QueryPercentEncoding.pathSegment(text)
    }

    /// The path of a resource, its `self` link: `/TYPE/ID`, each a ``pathSegment(_:)``.
    ///
    /// ```swift
    /// JSONAPILink.resourcePath(type: "tags", id: "a|b]c d/e")   // "/tags/a%7Cb%5Dc%20d%2Fe"
    /// ```
    public static func resourcePath(type: String, id: String) -> String {
        "/" + pathSegment(type) + "/" + pathSegment(id)
    }

    /// The paths of a relationship of a resource: its `self` link
    /// (`/TYPE/ID/relationships/NAME`) and its `related` link (`/TYPE/ID/NAME`), each part a
    /// ``pathSegment(_:)``.
    ///
    /// ```swift
    /// JSONAPILink.relationshipPaths(type: "articles", id: "1", relationship: "author")
    /// // (self: "/articles/1/relationships/author", related: "/articles/1/author")
    /// ```
    public static func relationshipPaths(type: String, id: String, relationship: String)
        -> (self: String, related: String)
    {
        let resource = resourcePath(type: type, id: id)
        let name = pathSegment(relationship)
        return (resource + "/relationships/" + name, resource + "/" + name)
    }
}
