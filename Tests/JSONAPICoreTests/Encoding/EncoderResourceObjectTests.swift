import Foundation
import JSONAPI
import JSONAPIGenerator
import Testing

@testable import JSONAPITestSupport

/// `JSONAPIEncoder.resourceObjects(of:)`, the models-to-resource-objects door, against what it
/// replaces: the encoder's bytes parsed back and copied (`JSONAPIResourceObject(view)`), equal
/// value for value (a number's `double` or `decimal` form included), on every generated shape,
/// the encoder's own fixtures and models full of awkward values.
@Suite("Encoder: resource objects without JSON in between")
struct EncoderResourceObjectTests {
    /// The door's objects equal the parsed encoding's, or the door declines.
    static func check<Model: JSONAPIResource & Encodable>(
        _ models: [Model], options: EncodingOptions = EncodingOptions(), declines: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var options = options
        options.includePaths = []
        let encoder = JSONAPIEncoder(options: options)
        let parsed = try Document(parsing: try encoder.encode(models)).primaryResources.map(JSONAPIResourceObject.init)
        let door = try encoder.resourceObjects(of: models)
        if declines {
            #expect(door == nil, sourceLocation: sourceLocation)
            return
        }
        let objects = try #require(door, sourceLocation: sourceLocation)
        #expect(objects.count == parsed.count, sourceLocation: sourceLocation)
        for (object, expected) in zip(objects, parsed) where object != expected {
            Issue.record(
                "\(try object.jsonString()) differs from \(try expected.jsonString())", sourceLocation: sourceLocation)
            return
        }
    }

    @Test(arguments: CorpusShape.allCases)
    func generatedShapes(_ shape: CorpusShape) throws {
        for seed: UInt64 in 1...3 {
            let bytes = CorpusDocumentGenerator(shape: shape, approximateBytes: 60_000, seed: seed).generate()
            let decoder = JSONAPIDecoder()
            switch shape {
            case .unicode: try Self.check(try decoder.decode([CorpusModels.Post].self, from: bytes))
            case .numbers: try Self.check(try decoder.decode([CorpusModels.Measurement].self, from: bytes))
            case .tiny: try Self.check(try decoder.decode([CorpusModels.Ping].self, from: bytes))
            case .longStrings: try Self.check(try decoder.decode([CorpusModels.Manuscript].self, from: bytes))
            case .ids: try Self.check(try decoder.decode([CorpusModels.Entity].self, from: bytes))
            }
        }
    }

    @Test func fixturesWithMetaAndSnakeCase() throws {
        var plain = EncoderFixtures.article()
        plain.authorLinks = nil
        var second = EncoderFixtures.article("2")
        second.authorLinks = nil
        try Self.check([plain, second])
        var snake = EncodingOptions()
        snake.keyEncodingStrategy = .convertToSnakeCase
        try Self.check([plain], options: snake)
        // Links of the model's own, sorted keys and sparse fieldsets are the written form's.
        try Self.check([EncoderFixtures.article()], declines: true)
        var sorted = EncodingOptions()
        sorted.sortsKeys = true
        try Self.check([plain], options: sorted, declines: true)
        var fields = EncodingOptions()
        fields.fields = ["articles": ["title"]]
        try Self.check([plain], options: fields, declines: true)
    }

    struct Awkward: Codable, JSONAPIResource {
        static let resourceType = "awkward"
        var id: String
        var float: Float
        var double: Double
        var decimal: Decimal
        var unsigned: UInt64
        var small: Int8
        var nested: [String: [Double?]]
        var json: JSON
        var date: Date
        var data: Data
        var strings: [String]
        var nothing: String?
        var author: Identifier<EncoderFixtures.Person>?
        var tags: [Identifier<EncoderFixtures.Tag>]
    }

    /// Values whose written text is the only place their JSON form is decided: floats printed
    /// short, doubles past 15 digits, decimals, integers past `Int64`, numbers inside `JSON`.
    @Test func awkwardValuesReadAsTheirTextReads() throws {
        var random = JSONAPITestSupport.SplitMix64(seed: 99)
        func double() -> Double {
            switch random.next() % 6 {
            case 0: 0.1
            case 1: 1e300
            case 2: 5e-324
            case 3: Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            case 4: Double(Int64(bitPattern: random.next()) >> 10)
            default: -0.0
            }
        }
        var models: [Awkward] = []
        for index in 0..<300 {
            models.append(
                Awkward(
                    id: String(index),
                    float: Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF),
                    double: double(), decimal: Decimal(string: "\(random.next()).\(random.next())") ?? 0,
                    unsigned: random.next(), small: Int8(truncatingIfNeeded: random.next()),
                    nested: ["a": [double(), nil, double()]],
                    json: ["x": .double(double()), "y": .decimal("123456789012345678901234567890"), "z": [.int(1)]],
                    date: Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000)),
                    data: Data((0..<Int(random.next() % 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
                    strings: ["é", "\u{0}", "\"\\"], nothing: index % 2 == 0 ? nil : "x",
                    author: index % 3 == 0 ? nil : Identifier("\(index)"),
                    tags: (0..<Int(random.next() % 3)).map { Identifier("\($0)") }))
        }
        try Self.check(models)
    }

    /// The door encodes as `encode` does: the same failures.
    @Test func failuresAreTheEncoders() throws {
        struct NoID: Codable, JSONAPIResource {
            static let resourceType = "things"
            var id: String?
            var value: Double
        }
        let encoder = JSONAPIEncoder()
        #expect(throws: (any Error).self) { try encoder.resourceObjects(of: [NoID(id: nil, value: 1)]) }
        #expect(throws: (any Error).self) { try encoder.resourceObjects(of: [NoID(id: "1", value: .nan)]) }
        #expect(try encoder.resourceObjects(of: [NoID]()) == [])
    }
}
