#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``ReadingsDocumentGenerator``'s documents as plain `Codable` types, the way an app decodes them
/// with Foundation's `JSONDecoder`: every member modelled, integers past 64 bits as `Decimal`,
/// `null`s as optionals, `included` decoded by its `type`.
///
/// ```swift
/// let document = try JSONDecoder().decode(ReadingsCodableModel.Document.self, from: data)
/// print(document.data.count, document.included?.count ?? 0)
/// ```
public enum ReadingsCodableModel {
    /// The top level.
    public struct Document: Codable, Sendable {
        public var meta: Meta
        public var data: [Reading]
        public var included: [IncludedResource]?
    }

    /// Top-level `meta`.
    public struct Meta: Codable, Sendable {
        public var source: String
        public var count: Int
        public var cursor: String?
    }

    /// A resource identifier object.
    public struct Identifier: Codable, Hashable, Sendable {
        public var type: String
        public var id: String
    }

    /// A to-one relationship whose `data` may be `null`.
    public struct ToOne: Codable, Sendable {
        public var data: Identifier?
    }

    /// A `readings` resource.
    public struct Reading: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes
        public var relationships: Relationships

        public struct Attributes: Codable, Sendable {
            public var value: Double
            public var count: Int
            public var delta: Int
            /// 20 to 24 digits: past any 64-bit integer.
            public var total: Decimal
            public var ratio: Double
            public var flag: Bool?
            public var ok: Bool
            public var window: Window
        }

        public struct Window: Codable, Sendable {
            public var start: Int
            public var end: Int
            public var stats: Stats
        }

        public struct Stats: Codable, Sendable {
            public var min: Double
            public var max: Double
            public var mean: Double?
            public var buckets: [[Int]]
            public var extra: Extra
        }

        public struct Extra: Codable, Sendable {
            public var depth: Depth
        }

        public struct Depth: Codable, Sendable {
            public var level: Level
        }

        public struct Level: Codable, Sendable {
            public var deepest: [Double?]
        }

        public struct Relationships: Codable, Sendable {
            public var station: ToOne
            public var device: ToOne
            public var previous: ToOne
        }
    }

    /// A `stations` resource.
    public struct Station: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes

        public struct Attributes: Codable, Sendable {
            public var name: String
            public var lat: Double
            public var lon: Double
            public var elevation: Int?
            public var calibration: Calibration
        }

        public struct Calibration: Codable, Sendable {
            public var offset: Double
            public var scale: Double
            public var history: [Entry]
        }

        public struct Entry: Codable, Sendable {
            public var at: Int
            public var delta: Double
        }
    }

    /// A `devices` resource.
    public struct Device: Codable, Sendable {
        public var type: String
        public var id: String
        public var attributes: Attributes

        public struct Attributes: Codable, Sendable {
            public var serial: String
            public var firmware: [Int]
            public var battery: Double?
            public var serialHash: UInt64
        }
    }

    /// An element of `included`, decoded by its `type`.
    public enum IncludedResource: Codable, Sendable {
        case station(Station)
        case device(Device)

        private enum CodingKeys: String, CodingKey {
            case type
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decode(String.self, forKey: .type)
            switch type {
            case "stations": self = .station(try Station(from: decoder))
            case "devices": self = .device(try Device(from: decoder))
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container, debugDescription: "unknown resource type \(type)")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .station(let station): try station.encode(to: encoder)
            case .device(let device): try device.encode(to: encoder)
            }
        }
    }
}
