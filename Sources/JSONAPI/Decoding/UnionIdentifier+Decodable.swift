#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Decoding a union identifier. The decoder knows these types by their traits (`TypeTraits`):
// they read straight from a node (`DirectDecodable`), need no target resource, and carry their
// union's members, so arrays and optionals skip unhandled types exactly as for the union itself.

extension UnionIdentifier: Decodable, LinkageDecodable, DirectDecodable {
    /// Reads the identifier: from linkage or a resource when decoded by ``JSONAPIDecoder``,
    /// else from an object with `type` (which must be a member's type), `id` and `lid`.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = unsafe try Self.decodeDirect(from: decoder, decoder.node, key: nil)
            return
        }
        self = try Self.decodePortable(from: decoder)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> UnionIdentifier {
        try decodeLocated(from: decoder, node, key: key).identifier
    }

    /// The identifier and the byte offset of the object it was read from (for errors about it).
    static func decodeLocated(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws
        -> (identifier: UnionIdentifier, offset: Int)
    {
        guard let identity = try decoder.identity(of: node, key: key) else {
            let identifier = try decoder.descend(into: node, key: key) { try decodePortable(from: decoder) }
            return (identifier, decoder.offset(of: node))
        }
        let info = decoder.typeInfo(UnionIdentifier.self)
        guard let union = decoder.union(info), let position = union.members.firstIndex(of: identity.type),
            position < union.memberNames.count
        else {
            throw decoder.adding(
                key,
                to: decoder.unhandledType(
                    String(describing: Union.self), type: UnionIdentifier.self, typeIndex: identity.type,
                    at: identity.offset, identity: decoder.describe(identity),
                    members: decoder.union(info)?.memberNames ?? Union.memberResourceTypes))
        }
        var identifier = UnionIdentifier(
            type: union.memberNames[position],
            id: identity.id.isPresent ? decoder.string(identity.id, escaped: identity.idEscaped) : "",
            lid: identity.lid.isPresent ? decoder.string(identity.lid, escaped: identity.lidEscaped) : nil,
            meta: nil)
        if identity.meta.isPresent {
            identifier.meta = unsafe JSONObject(storage: decoder.storage, range: identity.meta)
        }
        return (identifier, identity.offset)
    }

    private static func decodePortable(from decoder: any Decoder) throws -> UnionIdentifier {
        let container = try decoder.container(keyedBy: IdentifierKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard Union.members.contains(where: { $0.resourceType == type }) else {
            throw DecodingError.typeMismatch(
                UnionIdentifier.self,
                DecodingError.Context(
                    codingPath: container.codingPath + [IdentifierKeys.type],
                    debugDescription:
                        "resource type `\(type)` is not a member of \(Union.self) (\(Union.memberResourceTypes.joined(separator: ", ")))"
                ))
        }
        var identifier = UnionIdentifier(
            type: type, id: try container.decodeIfPresent(String.self, forKey: .id) ?? "",
            lid: try container.decodeIfPresent(String.self, forKey: .lid), meta: nil)
        if let meta = try container.decodeIfPresent(JSON.self, forKey: .meta)?.objectValue {
            identifier.meta = JSONObject(meta)
        }
        return identifier
    }
}

/// Reads a ``UnionIdentifierConvertible`` type that is not ``UnionIdentifier`` itself (an enum
/// with a case per member): the library cannot give such a type its own internal protocols,
/// so the decoder's traits hold this reader in its place.
struct ConvertedUnionIdentifier<Converted: UnionIdentifierConvertible>: DirectDecodable {
    var value: Converted

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws
        -> ConvertedUnionIdentifier
    {
        let (identifier, offset) = try UnionIdentifier<Converted.Union>.decodeLocated(from: decoder, node, key: key)
        guard let value = Converted(identifier) else {
            throw decoder.failure(
                .typeMismatch(Converted.self), at: offset, code: .typeMismatch, path: decoder.path(key),
                "\(Converted.self) has no value for the resource \(identifier)")
        }
        return ConvertedUnionIdentifier(value: value)
    }

    /// The converted value itself: `R` is `Converted`, the type the decoder found these traits on.
    static func decodeDirect<R>(from decoder: ResourceDecoder, _ node: Node, key: KeyRef, as type: R.Type)
        throws -> R
    {
        sameType(try decodeDirect(from: decoder, node, key: key).value, as: R.self)
    }
}
