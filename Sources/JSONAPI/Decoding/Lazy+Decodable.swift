#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Decoding a lazy relationship: the decoder keeps the node and decodes the related value only when
// it is first read (`DirectDecodable`).

extension Lazy: Decodable, DirectDecodable {
    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ResourceDecoder else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "Lazy<\(Model.self)> can only be decoded by JSONAPIDecoder or a Document's typed views"
                ))
        }
        self = unsafe try Self.decodeDirect(from: decoder, decoder.node, key: nil)
    }

    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> Lazy {
        let record: UInt32
        do {
            record = try decoder.singleResource(of: node, for: Lazy.self)
        } catch {
            throw decoder.adding(key, to: error)
        }
        let info = decoder.typeInfo(Model.self)
        let type = unsafe decoder.resources[Int(record)].type
        var linkage = UInt32.max
        switch node {
        case .linkage(let index): linkage = index
        case .relationship(let index): linkage = unsafe decoder.relationships[Int(index)].firstLinkage
        case .primary where unsafe decoder.topLevel.primaryIsLinkage: linkage = unsafe decoder.topLevel.primaryStart
        default: break
        }
        // A wrong type is the linkage's fault: located there, not at the resource it names.
        if info.resourceType != .max && type != info.resourceType {
            throw decoder.wrongLinkageType(node, record: record, info: info, key: key)
        }
        if let union = decoder.union(info), !union.handles(type) {
            let offset =
                unsafe linkage != .max ? Int(decoder.linkages[Int(linkage)].object.start) : decoder.offset(of: node)
            throw decoder.adding(
                key,
                to: decoder.unhandledType(
                    union.name, type: Model.self, typeIndex: type, at: offset,
                    identity: decoder.identity(record: record), members: union.memberNames))
        }
        return unsafe Lazy(session: decoder.session, record: record, linkage: linkage)
    }
}
