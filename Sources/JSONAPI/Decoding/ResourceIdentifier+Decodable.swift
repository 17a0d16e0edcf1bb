#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ResourceIdentifier: Decodable, LinkageDecodable, DirectDecodable {
    /// Reads a resource identifier: from linkage or a resource when decoded by
    /// ``JSONAPIDecoder``, else from an object with `type`, `id` and `lid`.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder {
            self = unsafe try Self.decodeDirect(from: decoder, decoder.node, key: nil)
            return
        }
        self = try Self.decodePortable(from: decoder)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws
        -> ResourceIdentifier
    {
        guard let identity = try decoder.identity(of: node, key: key) else {
            return try decoder.descend(into: node, key: key) { try decodePortable(from: decoder) }
        }
        return decoder.resourceIdentifier(identity)
    }

    private static func decodePortable(from decoder: any Decoder) throws -> ResourceIdentifier {
        let container = try decoder.container(keyedBy: IdentifierKeys.self)
        return ResourceIdentifier(
            type: try container.decode(String.self, forKey: .type),
            id: try container.decodeIfPresent(String.self, forKey: .id),
            lid: try container.decodeIfPresent(String.self, forKey: .lid))
    }
}
