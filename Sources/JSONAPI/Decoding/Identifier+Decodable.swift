#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Decoding a typed identifier. The decoder knows `Identifier` by its traits (`TypeTraits`): it
// reads straight from a node (`DirectDecodable`), from linkage without the related resource, and
// arrays of it fill from a relationship's identifiers in one pass (`LinkageArrayDecodable`).

extension Identifier: Decodable, LinkageDecodable, DirectDecodable {
    /// Reads the identifier: from linkage or a resource when decoded by ``JSONAPIDecoder``,
    /// else from an object with `type` (which must be `Model.resourceType`), `id` and `lid`.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = unsafe try Self.decodeDirect(from: decoder, decoder.node, key: nil)
            return
        }
        self = try Self.decodePortable(from: decoder)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> Identifier {
        if let identifier = plain(decoder, node) { return identifier }
        guard let identity = try decoder.identity(of: node, key: key) else {
            return try decoder.descend(into: node, key: key) { try decodePortable(from: decoder) }
        }
        try decoder.checkType(identity, against: Model.self, identifier: true, key: key)
        var identifier = Identifier(
            id: identity.id.isPresent ? decoder.string(identity.id, escaped: identity.idEscaped) : "",
            lid: identity.lid.isPresent ? decoder.string(identity.lid, escaped: identity.lidEscaped) : nil)
        if identity.meta.isPresent {
            identifier.meta = unsafe JSONObject(storage: decoder.storage, range: identity.meta)
        }
        return identifier
    }

    /// The common case, an identifier with an id of the right type and nothing else, straight
    /// from the linkage record of `node` (a linkage, or a to-one relationship); nil for
    /// anything else, which takes the general path (with every error).
    @inline(__always)
    static func plain(_ decoder: ResourceDecoder, _ node: Node) -> Identifier? {
        let linkage: UInt32
        switch node {
        case .linkage(let index):
            linkage = index
        case .relationship(let index):
            let relationship = unsafe decoder.relationships[Int(index)]
            guard relationship.data == .one && relationship.linkageCount > 0 else { return nil }
            linkage = relationship.firstLinkage
        default:
            return nil
        }
        return plain(decoder, linkage, type: decoder.typeInfo(Model.self).resourceType)
    }

    /// The identifier of linkage `index` when it has an id, no lid or meta, and `type`.
    @inline(__always)
    static func plain(_ decoder: ResourceDecoder, _ index: UInt32, type: UInt32) -> Identifier? {
        let link = unsafe decoder.linkages[Int(index)]
        guard link.id.isPresent && link.flags.isDisjoint(with: [.hasLid, .hasMeta]) && link.type == type else {
            return nil
        }
        return Identifier(id: decoder.linkedID(link), lid: nil, meta: nil)
    }

    private static func decodePortable(from decoder: any Decoder) throws -> Identifier {
        let container = try decoder.container(keyedBy: IdentifierKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == Model.resourceType else {
            throw DecodingError.typeMismatch(
                Identifier.self,
                DecodingError.Context(
                    codingPath: container.codingPath + [IdentifierKeys.type],
                    debugDescription: "expected an identifier of type `\(Model.resourceType)`, found `\(type)`"))
        }
        return Identifier(
            id: try container.decodeIfPresent(String.self, forKey: .id) ?? "",
            lid: try container.decodeIfPresent(String.self, forKey: .lid))
    }
}

extension Identifier: LinkageArrayDecodable {
    static func appendLinkages<R, Result>(
        from decoder: ResourceDecoder, first: UInt32, count: Int, into result: inout Result,
        append: (inout Result, R) -> Void
    ) throws {
        let expected = decoder.typeInfo(Model.self).resourceType
        for position in 0..<count {
            let index = first &+ UInt32(position)
            if let identifier = plain(decoder, index, type: expected) {
                append(&result, sameType(identifier, as: R.self))
            } else {
                append(
                    &result,
                    sameType(try decodeDirect(from: decoder, .linkage(index), key: .index(position)), as: R.self))
            }
        }
    }
}
