#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``CorpusDocumentGenerator``'s documents as an app decodes them with Foundation's
/// `JSONDecoder`: resource objects with `type`, `id`, an `attributes` struct and `relationships`
/// as linkage (which the app would resolve itself; these leave it unresolved). The baseline
/// ``CorpusModels`` are compared with.
///
/// ```swift
/// let bytes = CorpusDocumentGenerator(shape: .tiny, primaryCount: 100).generate()
/// let primaries = try CorpusShape.tiny.decodeWithFoundation(bytes, decoder: JSONDecoder())
/// ```
public enum CorpusFoundationModels {
    /// A page of primary resources with their included ones.
    public struct Document<Primary: Codable & Sendable, Included: Codable & Sendable>: Codable, Sendable {
        public var data: [Resource<Primary>]
        public var included: [Resource<Included>]?
    }

    /// One resource object.
    public struct Resource<Attributes: Codable & Sendable>: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes
        public var relationships: [String: Relationship]?
    }

    /// A relationship object's linkage.
    public struct Relationship: Codable, Sendable {
        public var data: Linkage?
    }

    /// To-one or to-many linkage.
    public enum Linkage: Codable, Sendable {
        case one(Identifier)
        case many([Identifier])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let many = try? container.decode([Identifier].self) {
                self = .many(many)
            } else {
                self = .one(try container.decode(Identifier.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .one(let identifier): try container.encode(identifier)
            case .many(let identifiers): try container.encode(identifiers)
            }
        }
    }

    /// A resource identifier object.
    public struct Identifier: Codable, Hashable, Sendable {
        public var type: String
        public var id: String
    }

    /// The `attributes` of `posts`.
    public struct PostAttributes: Codable, Sendable {
        public var headline: String
        public var body: String
        public var locale: String
        public var reactions: [String]
    }

    /// The `attributes` of `writers`.
    public struct WriterAttributes: Codable, Sendable {
        public var name: String
        public var bio: String
        public var homepage: String?
    }

    /// The `attributes` of `measurements`.
    public struct MeasurementAttributes: Codable, Sendable {
        public var value: Double
        public var delta: Double
        public var count: Int
        public var scale: Double?
        public var bounds: CorpusModels.Bounds
        public var samples: [Double]
        public var flags: Int?
    }

    /// The `attributes` of `stations`.
    public struct StationAttributes: Codable, Sendable {
        public var latitude: Double
        public var longitude: Double
        public var elevation: Int?
    }

    /// The `attributes` of `pings`.
    public struct PingAttributes: Codable, Sendable {
        public var v: Int
    }

    /// The `attributes` of `hosts`.
    public struct HostAttributes: Codable, Sendable {
        public var n: Int
    }

    /// The `attributes` of `manuscripts`.
    public struct ManuscriptAttributes: Codable, Sendable {
        public var title: String
        public var content: String
        public var summary: String
    }

    /// The `attributes` of `editors`.
    public struct EditorAttributes: Codable, Sendable {
        public var name: String
        public var notes: String
    }

    /// The `attributes` of `entities`.
    public struct EntityAttributes: Codable, Sendable {
        public var label: String
        public var rank: Int
    }

    /// The `attributes` of `refs`.
    public struct RefAttributes: Codable, Sendable {
        public var label: String
    }
}

extension CorpusShape {
    /// Decodes a document of this shape into its ``CorpusFoundationModels`` with `decoder`;
    /// returns the number of primary resources.
    public func decodeWithFoundation(_ data: Data, decoder: JSONDecoder) throws -> Int {
        typealias Models = CorpusFoundationModels
        return switch self {
        case .unicode:
            try decoder.decode(Models.Document<Models.PostAttributes, Models.WriterAttributes>.self, from: data)
                .data.count
        case .numbers:
            try decoder.decode(
                Models.Document<Models.MeasurementAttributes, Models.StationAttributes>.self, from: data
            ).data.count
        case .tiny:
            try decoder.decode(Models.Document<Models.PingAttributes, Models.HostAttributes>.self, from: data)
                .data.count
        case .longStrings:
            try decoder.decode(Models.Document<Models.ManuscriptAttributes, Models.EditorAttributes>.self, from: data)
                .data.count
        case .ids:
            try decoder.decode(Models.Document<Models.EntityAttributes, Models.RefAttributes>.self, from: data)
                .data.count
        }
    }

    /// Decodes a document of this shape into its ``CorpusFoundationModels`` once, and returns a
    /// function that encodes them with `encoder`.
    public func foundationEncoder(_ data: Data, decoder: JSONDecoder) throws -> (JSONEncoder) throws -> Data {
        typealias Models = CorpusFoundationModels
        func encoder<Primary, Included>(_: Models.Document<Primary, Included>.Type) throws -> (JSONEncoder) throws
            -> Data
        {
            let document = try decoder.decode(Models.Document<Primary, Included>.self, from: data)
            return { try $0.encode(document) }
        }
        return switch self {
        case .unicode: try encoder(Models.Document<Models.PostAttributes, Models.WriterAttributes>.self)
        case .numbers: try encoder(Models.Document<Models.MeasurementAttributes, Models.StationAttributes>.self)
        case .tiny: try encoder(Models.Document<Models.PingAttributes, Models.HostAttributes>.self)
        case .longStrings: try encoder(Models.Document<Models.ManuscriptAttributes, Models.EditorAttributes>.self)
        case .ids: try encoder(Models.Document<Models.EntityAttributes, Models.RefAttributes>.self)
        }
    }
}
