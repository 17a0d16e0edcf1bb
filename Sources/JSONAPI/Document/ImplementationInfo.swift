/// The top-level `jsonapi` object: version, applied extensions and profiles.
public struct ImplementationInfo: Sendable {
    let value: JSONValue

    /// The highest specification version the server supports (`"1.0"` when absent).
    public var version: String? { value["version"]?.stringValue }

    /// The `jsonapi` object as a plain value.
    public var jsonValue: JSONValue { value }

    /// URIs of applied extensions (1.1).
    public var extensions: [String] { value["ext"]?.elements.compactMap(\.stringValue) ?? [] }
    /// URIs of applied profiles (1.1).
    public var profiles: [String] { value["profile"]?.elements.compactMap(\.stringValue) ?? [] }
    /// The object's `meta`.
    public var meta: JSONObject? {
        guard let meta = value["meta"], meta.kind == .object else { return nil }
        return JSONObject(storage: meta.storage, range: meta.range)
    }
}
