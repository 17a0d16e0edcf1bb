// The document views decode as themselves: a property typed `JSONValue`, `JSONObject`,
// `Links`, `Link`, `ErrorObject` or `ImplementationInfo` keeps a view into the parsed document (no
// copy, nothing converted until read). Useful for `meta` and `links`, whose shape varies.

extension ResourceDecoder {
    /// The JSON text range a node stands for.
    func valueRange(of node: Node) -> ByteRange? {
        switch node {
        case .value(let range): return range
        case .resource(let record): return unsafe resources[Int(record)].object
        case .relationship(let index): return relationshipObject(index)
        case .linkage(let index): return unsafe linkages[Int(index)].object
        case .primary: return unsafe topLevel.dataRange.isPresent ? topLevel.dataRange : nil
        case .document: return unsafe topLevel.object.isPresent ? topLevel.object : nil
        case .text(let range, _): return ByteRange(start: range.start &- 1, end: range.end &+ 1)
        case .included, .typeName: return nil
        }
    }

    func viewRange<T>(for type: T.Type, object: Bool, node: Node? = nil, key: KeyRef = .none) throws
        -> ByteRange
    {
        let node = unsafe node ?? self.node
        guard let range = valueRange(of: node), !object || firstByte(range) == UInt8(ascii: "{") else {
            throw typeMismatch(
                T.self, at: offset(of: node), expected: object ? "an object" : "a JSON value", found: describe(node),
                path: path(key))
        }
        return range
    }
}

private func onlyJSONAPIDecoder<T>(_ type: T.Type, _ decoder: any Decoder) -> DecodingError {
    DecodingError.dataCorrupted(
        DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "\(T.self) is a view into a parsed Document; only JSONAPIDecoder can decode it"))
}

extension JSONValue: Decodable, DirectDecodable, RelationshipObjectDecodable, LinkageDecodable {
    /// Keeps a view of the value (any JSON type) in the parsed document.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else { throw onlyJSONAPIDecoder(JSONValue.self, decoder) }
        unsafe self.init(storage: decoder.storage, range: try decoder.viewRange(for: JSONValue.self, object: false))
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> JSONValue {
        unsafe JSONValue(
            storage: decoder.storage,
            range: try decoder.viewRange(for: JSONValue.self, object: false, node: node, key: key))
    }
}

extension JSONObject: Decodable, DirectDecodable, RelationshipObjectDecodable, LinkageDecodable {
    /// Keeps a view of the object in the parsed document.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else { throw onlyJSONAPIDecoder(JSONObject.self, decoder) }
        unsafe self.init(storage: decoder.storage, range: try decoder.viewRange(for: JSONObject.self, object: true))
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> JSONObject {
        unsafe JSONObject(
            storage: decoder.storage,
            range: try decoder.viewRange(for: JSONObject.self, object: true, node: node, key: key))
    }
}

extension Links: Decodable, DirectDecodable {
    /// Keeps a view of the links object in the parsed document.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else { throw onlyJSONAPIDecoder(Links.self, decoder) }
        self = unsafe try Self.decodeDirect(from: decoder, decoder.node, key: nil)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> Links {
        let range = try decoder.viewRange(for: Links.self, object: true, node: node, key: key)
        guard let links = unsafe Links(storage: decoder.storage, range: range) else {
            throw decoder.typeMismatch(Links.self, expected: "a links object", found: range, path: decoder.path(key))
        }
        return links
    }
}

private enum LinkKeys: String, CodingKey {
    case href, rel, describedby, title, type, hreflang
}

extension Link: Decodable {
    /// Reads a link given as a URL string or as a 1.1 link object. With `JSONAPIDecoder` the
    /// link object's `meta` is kept; other decoders leave it nil.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            let range = try decoder.viewRange(for: Link.self, object: false)
            guard let link = unsafe Link(JSONValue(storage: decoder.storage, range: range)) else {
                throw decoder.typeMismatch(
                    Link.self, expected: "a link (a string or a link object)", found: range, path: decoder.path)
            }
            self = link
            return
        }
        if let single = try? decoder.singleValueContainer(), let href = try? single.decode(String.self) {
            self.init(href: href)
            return
        }
        let container = try decoder.container(keyedBy: LinkKeys.self)
        var languages: [String] = []
        if let one = try? container.decode(String.self, forKey: .hreflang) {
            languages = [one]
        } else if let many = try container.decodeIfPresent([String].self, forKey: .hreflang) {
            languages = many
        }
        self.init(
            href: try container.decode(String.self, forKey: .href),
            rel: try container.decodeIfPresent(String.self, forKey: .rel),
            describedby: try container.decodeIfPresent(String.self, forKey: .describedby),
            title: try container.decodeIfPresent(String.self, forKey: .title),
            type: try container.decodeIfPresent(String.self, forKey: .type), hreflang: languages)
    }
}

extension ErrorObject: Decodable {
    /// Keeps a view of the error object in the parsed document.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else { throw onlyJSONAPIDecoder(ErrorObject.self, decoder) }
        unsafe self.init(
            JSONValue(storage: decoder.storage, range: try decoder.viewRange(for: ErrorObject.self, object: true)))
    }
}

extension ImplementationInfo: Decodable {
    /// Keeps a view of the `jsonapi` object in the parsed document.
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else {
            throw onlyJSONAPIDecoder(ImplementationInfo.self, decoder)
        }
        unsafe self.init(
            value: JSONValue(
                storage: decoder.storage, range: try decoder.viewRange(for: ImplementationInfo.self, object: true)))
    }
}
