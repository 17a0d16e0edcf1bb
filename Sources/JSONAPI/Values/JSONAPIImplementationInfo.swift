/// The owned top-level `jsonapi` object: the specification version, applied extensions and
/// profiles.
///
/// ```swift
/// let info = JSONAPIImplementationInfo(extensions: ["https://jsonapi.org/ext/atomic"])
/// print(try info.jsonString())  // {"version":"1.1","ext":["https://jsonapi.org/ext/atomic"]}
/// ```
public struct JSONAPIImplementationInfo: Sendable, Hashable {
    /// The highest specification version supported; nil to leave the member out.
    public var version: String?
    /// URIs of every applied extension (`ext`, 1.1).
    public var extensions: [String]
    /// URIs of every applied profile (`profile`, 1.1).
    public var profiles: [String]
    /// Non-standard meta-information.
    public var meta: JSON.Object?

    /// Creates a `jsonapi` object; the version defaults to `"1.1"`.
    public init(version: String? = "1.1", extensions: [String] = [], profiles: [String] = [], meta: JSON.Object? = nil)
    {
        self.version = version
        self.extensions = extensions
        self.profiles = profiles
        self.meta = meta
    }

    /// Copies the `jsonapi` object of a parsed document.
    public init(_ view: ImplementationInfo) {
        self.init(
            version: view.version, extensions: view.extensions, profiles: view.profiles,
            meta: view.meta.map { JSON($0).objectValue ?? [:] })
    }
}

extension JSONAPIImplementationInfo: JSONWritable {
    /// Writes `version`, `ext`, `profile` and `meta`, leaving out what is nil or empty.
    public func write(to writer: inout JSONWriter, sortingKeys: Bool) {
        var members: [(String, (inout JSONWriter) -> Void)] = []
        if let version { members.append(("version", { $0.string(version) })) }
        if !extensions.isEmpty { members.append(("ext", { [extensions] in $0.strings(extensions) })) }
        if !profiles.isEmpty { members.append(("profile", { [profiles] in $0.strings(profiles) })) }
        if let meta { members.append(("meta", { JSON.object(meta).write(to: &$0, sortingKeys: sortingKeys) })) }
        writer.writeObject(members, sortingKeys: sortingKeys)
    }
}
