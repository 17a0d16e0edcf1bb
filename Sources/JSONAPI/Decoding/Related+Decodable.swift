#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Decoding a relationship object whole: from the arena when `JSONAPIDecoder` decodes it (its
// linkage, `meta` and `links` by the relationship's record), from `data`, `meta` and `links`
// members otherwise.

extension Related: Decodable, LinkageDecodable, RelationshipObjectDecodable {
    private enum CodingKeys: String, CodingKey {
        case data, meta, links
    }

    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? ResourceDecoder, case .relationship(let index) = unsafe decoder.node {
            let relationshipMeta = unsafe decoder.storage.arena.meta(ofRelationship: Int(index))
            let relationshipLinks = unsafe decoder.storage.arena.links(ofRelationship: Int(index))
            value = try decoder.unbox(Value.self, .relationship(index), key: nil)
            meta =
                relationshipMeta.isPresent
                ? try decoder.withKeyRef(CodingKeys.meta) { key in
                    try decoder.unbox(Meta.self, .value(relationshipMeta), key: key)
                } : nil
            links =
                relationshipLinks.isPresent
                ? try decoder.withKeyRef(CodingKeys.links) { key in
                    try decoder.unbox(Links.self, .value(relationshipLinks), key: key)
                } : nil
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(Value.self, forKey: .data)
        meta = try container.decodeIfPresent(Meta.self, forKey: .meta)
        links = try container.decodeIfPresent(Links.self, forKey: .links)
    }
}
