import JSONAPI

/// Models of ``CorpusDocumentGenerator``'s documents, written the way an app writes them: plain
/// `Codable` structs conforming to ``JSONAPIResource``, with an `id`, the attributes as stored
/// properties and the relationships as model-typed properties (`var author: Writer?`,
/// `var coauthors: [Writer]`), no macro and no hand-written `init(from:)`.
///
/// ```swift
/// let bytes = CorpusDocumentGenerator(shape: .numbers, primaryCount: 100).generate()
/// let measurements = try JSONAPIDecoder().decode([CorpusModels.Measurement].self, from: bytes)
/// var options = EncodingOptions()
/// options.includesRelatedByDefault = true  // stations in `included`, as in the generated document
/// let written = try JSONAPIEncoder(options: options).encode(measurements)
/// ```
public enum CorpusModels {
    // MARK: - unicode

    /// A primary resource of ``CorpusShape/unicode``.
    public struct Post: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "posts"
        public var id: String
        public var headline: String
        public var body: String
        public var locale: String
        public var reactions: [String]
        public var author: Writer?
        public var coauthors: [Writer]
    }

    /// An included resource of ``CorpusShape/unicode``.
    public struct Writer: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "writers"
        public var id: String
        public var name: String
        public var bio: String
        public var homepage: String?
    }

    // MARK: - numbers

    /// A primary resource of ``CorpusShape/numbers``.
    public struct Measurement: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "measurements"
        public var id: String
        public var value: Double
        public var delta: Double
        public var count: Int
        public var scale: Double?
        public var bounds: Bounds
        public var samples: [Double]
        public var flags: Int?
        public var station: Station?
        public var neighbors: [Station]
    }

    /// A nested attribute object of ``Measurement``.
    public struct Bounds: Codable, Sendable {
        public var lo: Double
        public var hi: Double
        public var exponent: Int?
        public var calibration: Calibration?
    }

    /// An attribute object nested in ``Bounds``.
    public struct Calibration: Codable, Sendable {
        public var offset: Double
        public var gain: Double?
    }

    /// An included resource of ``CorpusShape/numbers``.
    public struct Station: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "stations"
        public var id: String
        public var latitude: Double
        public var longitude: Double
        public var elevation: Int?
    }

    // MARK: - tiny

    /// A primary resource of ``CorpusShape/tiny``.
    public struct Ping: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "pings"
        public var id: String
        public var v: Int
        public var origin: Host?
    }

    /// An included resource of ``CorpusShape/tiny``.
    public struct Host: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "hosts"
        public var id: String
        public var n: Int
    }

    // MARK: - long-strings

    /// A primary resource of ``CorpusShape/longStrings``.
    public struct Manuscript: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "manuscripts"
        public var id: String
        public var title: String
        public var content: String
        public var summary: String
        public var editor: Editor?
        public var reviewers: [Editor]
    }

    /// An included resource of ``CorpusShape/longStrings``.
    public struct Editor: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "editors"
        public var id: String
        public var name: String
        public var notes: String
    }

    // MARK: - ids

    /// A primary resource of ``CorpusShape/ids``.
    public struct Entity: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "entities"
        public var id: String
        public var label: String
        public var rank: Int
        public var owner: Ref?
        public var members: [Ref]
    }

    /// An included resource of ``CorpusShape/ids``.
    public struct Ref: Codable, Sendable, JSONAPIResource {
        public static let resourceType = "refs"
        public var id: String
        public var label: String
    }
}

extension CorpusShape {
    /// Decodes a document of this shape into its ``CorpusModels`` with `decoder`; returns the
    /// number of primary resources.
    public func decodeModels(_ bytes: [UInt8], with decoder: JSONAPIDecoder) throws -> Int {
        switch self {
        case .unicode: try decoder.decode([CorpusModels.Post].self, from: bytes).count
        case .numbers: try decoder.decode([CorpusModels.Measurement].self, from: bytes).count
        case .tiny: try decoder.decode([CorpusModels.Ping].self, from: bytes).count
        case .longStrings: try decoder.decode([CorpusModels.Manuscript].self, from: bytes).count
        case .ids: try decoder.decode([CorpusModels.Entity].self, from: bytes).count
        }
    }

    /// An encoder that writes every related model into `included` (the response to a request
    /// without `include`, from an endpoint that includes related resources by default).
    public static func compoundEncoder() -> JSONAPIEncoder {
        var options = EncodingOptions()
        options.includesRelatedByDefault = true
        return JSONAPIEncoder(options: options)
    }

    /// Decodes a document of this shape into its ``CorpusModels`` once, and returns a function
    /// that encodes those models with `encoder`. With
    /// `EncodingOptions.includesRelatedByDefault` set, as ``compoundEncoder()`` has it, every
    /// relationship's resource goes into `included`, as in the generated document.
    /// Decodes a document of this shape into its primary ``CorpusModels``, each as an
    /// `Encodable` (for walks over the models other than `JSONAPIEncoder`'s).
    public func primaryModels(_ bytes: [UInt8], decoder: JSONAPIDecoder) throws -> [any Encodable & JSONAPIResource] {
        switch self {
        case .unicode: try decoder.decode([CorpusModels.Post].self, from: bytes)
        case .numbers: try decoder.decode([CorpusModels.Measurement].self, from: bytes)
        case .tiny: try decoder.decode([CorpusModels.Ping].self, from: bytes)
        case .longStrings: try decoder.decode([CorpusModels.Manuscript].self, from: bytes)
        case .ids: try decoder.decode([CorpusModels.Entity].self, from: bytes)
        }
    }

    public func modelEncoder(_ bytes: [UInt8], decoder: JSONAPIDecoder) throws -> (JSONAPIEncoder) throws -> [UInt8] {
        switch self {
        case .unicode:
            let models = try decoder.decode([CorpusModels.Post].self, from: bytes)
            return { try $0.encode(models) }
        case .numbers:
            let models = try decoder.decode([CorpusModels.Measurement].self, from: bytes)
            return { try $0.encode(models) }
        case .tiny:
            let models = try decoder.decode([CorpusModels.Ping].self, from: bytes)
            return { try $0.encode(models) }
        case .longStrings:
            let models = try decoder.decode([CorpusModels.Manuscript].self, from: bytes)
            return { try $0.encode(models) }
        case .ids:
            let models = try decoder.decode([CorpusModels.Entity].self, from: bytes)
            return { try $0.encode(models) }
        }
    }
}
