/// An error object from a document's `errors` array.
public struct ErrorObject: Sendable, CustomStringConvertible {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    /// Where in the request the problem is.
    public struct Source: Sendable, Hashable {
        /// A JSON Pointer into the request document.
        public var pointer: String?
        /// The query parameter that caused the error.
        public var parameter: String?
        /// The request header that caused the error (1.1).
        public var header: String?
    }

    /// A unique identifier for this occurrence of the problem.
    public var id: String? { value["id"]?.stringValue }
    /// The HTTP status code, as a string.
    public var status: String? { value["status"]?.stringValue }
    /// An application-specific error code.
    public var code: String? { value["code"]?.stringValue }
    /// A short summary of the problem.
    public var title: String? { value["title"]?.stringValue }
    /// An explanation of this occurrence.
    public var detail: String? { value["detail"]?.stringValue }
    /// Where the problem is, if given.
    public var source: Source? {
        guard let source = value["source"], source.kind == .object else { return nil }
        return Source(
            pointer: source["pointer"]?.stringValue, parameter: source["parameter"]?.stringValue,
            header: source["header"]?.stringValue)
    }
    /// The error's links (`about`, `type`).
    public var links: Links? {
        guard let links = value["links"], links.kind == .object else { return nil }
        return Links(storage: links.storage, range: links.range)
    }
    /// The error's `meta`.
    public var meta: JSONObject? {
        guard let meta = value["meta"], meta.kind == .object else { return nil }
        return JSONObject(storage: meta.storage, range: meta.range)
    }
    /// The error object as a plain value.
    public var jsonValue: JSONValue { value }

    public var description: String {
        [status, code, title, detail].compactMap { $0 }.joined(separator: " ")
    }
}
