/// Where a JSON:API request goes: the path of each kind of endpoint, relative to the client's
/// base URL.
///
/// ``JSONAPIDefaultRouter`` follows the JSON:API recommendations (`/articles`, `/articles/1`,
/// `/articles/1/author`, `/articles/1/relationships/author`, `/operations`);
/// ``JSONAPIPathTemplateRouter`` takes templates, per type where a server differs. Implement
/// the protocol for anything else:
///
/// ```swift
/// struct VersionedRouter: JSONAPIRouter {
///     func path(for endpoint: JSONAPIEndpoint) -> String {
///         "/v2" + JSONAPIDefaultRouter().path(for: endpoint)
///     }
/// }
/// ```
public protocol JSONAPIRouter: Sendable {
    /// The path (starting with `/`, segments percent-encoded) of `endpoint`.
    func path(for endpoint: JSONAPIEndpoint) -> String
}

/// An endpoint of a JSON:API server.
public enum JSONAPIEndpoint: Sendable, Hashable {
    /// The collection of a type: `/articles`.
    case collection(type: String)
    /// One resource: `/articles/1`.
    case resource(type: String, id: String)
    /// A relationship's related resources: `/articles/1/author`.
    case related(type: String, id: String, relationship: String)
    /// A relationship's linkage: `/articles/1/relationships/author`.
    case relationship(type: String, id: String, relationship: String)
    /// The Atomic Operations endpoint: `/operations`.
    case operations

    /// The resource type the endpoint belongs to (nil for ``operations``).
    public var type: String? {
        switch self {
        case .collection(let type), .resource(let type, _), .related(let type, _, _), .relationship(let type, _, _):
            type
        case .operations: nil
        }
    }
}

/// The paths JSON:API recommends: `/{type}`, `/{type}/{id}`, `/{type}/{id}/{relationship}`,
/// `/{type}/{id}/relationships/{relationship}` and `/operations`.
public struct JSONAPIDefaultRouter: JSONAPIRouter {
    /// Creates the router.
    public init() {}

    /// The recommended path of `endpoint`, each segment percent-encoded.
    public func path(for endpoint: JSONAPIEndpoint) -> String {
        switch endpoint {
        case .collection(let type): "/" + Self.segment(type)
        case .resource(let type, let id): "/" + Self.segment(type) + "/" + Self.segment(id)
        case .related(let type, let id, let relationship):
            "/" + Self.segment(type) + "/" + Self.segment(id) + "/" + Self.segment(relationship)
        case .relationship(let type, let id, let relationship):
            "/" + Self.segment(type) + "/" + Self.segment(id) + "/relationships/" + Self.segment(relationship)
        case .operations: "/operations"
        }
    }

    /// `text` percent-encoded as one path segment: everything but RFC 3986's unreserved characters
    /// and the sub-delimiters that are safe in a segment.
    public static func segment(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                output.append(byte)
            default:
                output.append(UInt8(ascii: "%"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Paths from templates, for servers that name their endpoints differently (aveine/JsonAPI's
/// path strategies): `{type}`, `{id}` and `{relationship}` are replaced by the endpoint's
/// values, percent-encoded; a type may have templates of its own.
///
/// ```swift
/// var router = JSONAPIPathTemplateRouter()
/// router.collection = "/api/{type}"
/// router.resource = "/api/{type}/{id}"
/// router.overrides["people"] = .init(collection: "/api/users", resource: "/api/users/{id}")
/// router.path(for: .resource(type: "people", id: "9"))   // "/api/users/9"
/// ```
public struct JSONAPIPathTemplateRouter: JSONAPIRouter {
    /// The templates of one type (or of all types).
    public struct Templates: Sendable, Hashable {
        /// The collection's template; nil uses the router's.
        public var collection: String?
        /// One resource's template; nil uses the router's.
        public var resource: String?
        /// Related resources' template; nil uses the router's.
        public var related: String?
        /// A relationship's template; nil uses the router's.
        public var relationship: String?

        /// Creates templates; those left nil fall back to the router's.
        public init(
            collection: String? = nil, resource: String? = nil, related: String? = nil, relationship: String? = nil
        ) {
            self.collection = collection
            self.resource = resource
            self.related = related
            self.relationship = relationship
        }
    }

    /// The collection's template. Default `/{type}`.
    public var collection = "/{type}"
    /// One resource's template. Default `/{type}/{id}`.
    public var resource = "/{type}/{id}"
    /// Related resources' template. Default `/{type}/{id}/{relationship}`.
    public var related = "/{type}/{id}/{relationship}"
    /// A relationship's template. Default `/{type}/{id}/relationships/{relationship}`.
    public var relationship = "/{type}/{id}/relationships/{relationship}"
    /// The Atomic Operations endpoint. Default `/operations`.
    public var operations = "/operations"
    /// Templates for particular types, by type.
    public var overrides: [String: Templates] = [:]

    /// Creates a router with the default templates.
    public init() {}

    /// The path of `endpoint` from its template.
    public func path(for endpoint: JSONAPIEndpoint) -> String {
        let own = endpoint.type.flatMap { overrides[$0] }
        let template: String
        var values: [String: String] = [:]
        switch endpoint {
        case .collection(let type):
            template = own?.collection ?? collection
            values = ["type": type]
        case .resource(let type, let id):
            template = own?.resource ?? resource
            values = ["type": type, "id": id]
        case .related(let type, let id, let name):
            template = own?.related ?? related
            values = ["type": type, "id": id, "relationship": name]
        case .relationship(let type, let id, let name):
            template = own?.relationship ?? relationship
            values = ["type": type, "id": id, "relationship": name]
        case .operations:
            template = operations
        }
        return Self.fill(template, values)
    }

    /// `template` with each `{name}` of `values` replaced by its percent-encoded value; an unknown
    /// placeholder is left as it is.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var output = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            output += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            if let value = values[name] {
                output += JSONAPIDefaultRouter.segment(value)
            } else {
                output += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }
}
