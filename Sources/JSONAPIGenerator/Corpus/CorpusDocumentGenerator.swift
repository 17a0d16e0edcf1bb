/// Generates JSON:API compound documents of the ``CorpusShape``s: a second generator, written
/// apart from ``CompoundDocumentGenerator`` so that benchmarks and tests do not see only what
/// one author thought of.
///
/// Where the articles generator writes compact JSON with members in the order the spec lists
/// them, this one writes `included` before `data`, resources with `id` first and `type` last
/// (or `attributes` first), identifiers as `{"id":…,"type":…}` half the time, and each resource
/// compact, indented with spaces, or indented with tabs and CRLF line ends. Every document is
/// a valid compound document with full linkage: every included resource is the target of a
/// to-one relationship of some primary resource, every identifier names a resource of the
/// document, and no (type, id) appears twice.
///
/// The output depends only on the shape, the resource count and the seed.
///
/// ```swift
/// let generator = CorpusDocumentGenerator(shape: .unicode, approximateBytes: 2_000_000, seed: 7)
/// let bytes = generator.generate()  // about 2 MB of posts and writers
/// let posts = try JSONAPIDecoder().decode([CorpusModels.Post].self, from: bytes)
/// ```
public struct CorpusDocumentGenerator: Sendable, Hashable {
    /// What the document holds.
    public let shape: CorpusShape
    /// The number of primary resources.
    public let primaryCount: Int
    /// The seed that fixes every random choice.
    public let seed: UInt64

    /// The number of included resources: one per ``CorpusShape/primariesPerIncluded`` primary
    /// resources, rounded up.
    public var includedCount: Int {
        (primaryCount + shape.primariesPerIncluded - 1) / shape.primariesPerIncluded
    }

    /// A generator of `primaryCount` primary resources (and their included ones).
    public init(shape: CorpusShape, primaryCount: Int, seed: UInt64 = 1) {
        self.shape = shape
        self.primaryCount = max(0, primaryCount)
        self.seed = seed
    }

    /// A generator whose document is about `approximateBytes` long: the size of a small
    /// document of the same shape and seed, scaled.
    public init(shape: CorpusShape, approximateBytes: Int, seed: UInt64 = 1) {
        let sample = 64
        let sampleBytes = CorpusDocumentGenerator(shape: shape, primaryCount: sample, seed: seed).generate().count
        let count = Int((Double(max(0, approximateBytes)) * Double(sample) / Double(max(1, sampleBytes))).rounded())
        self.init(shape: shape, primaryCount: max(1, count), seed: seed)
    }

    /// The whole document.
    public func generate() -> [UInt8] {
        var run = Run(generator: self)
        return run.document()
    }
}

extension CorpusDocumentGenerator {
    /// The state of one generation: the writer, the random streams and the included ids.
    private struct Run {
        let shape: CorpusShape
        let primaryCount: Int
        let includedCount: Int
        let seed: UInt64
        var writer: CorpusWriter
        /// Chooses each resource's layout and member order.
        var form: SplitMix64
        /// Chooses the values.
        var random: SplitMix64
        var primaryIDs: [[UInt8]] = []
        var includedIDs: [[UInt8]] = []

        init(generator: CorpusDocumentGenerator) {
            shape = generator.shape
            primaryCount = generator.primaryCount
            includedCount = generator.includedCount
            seed = generator.seed
            writer = CorpusWriter(capacity: 1 << 16)
            form = SplitMix64(seed: SplitMix64.mix(seed ^ 0xF0_4A11))
            random = SplitMix64(seed: SplitMix64.mix(seed ^ UInt64(shape.hashSeed)))
            var ids = SplitMix64(seed: SplitMix64.mix(seed ^ 0x1D5))
            primaryIDs = (0..<primaryCount).map { Self.id(shape, $0, included: false, seed: seed, random: &ids) }
            includedIDs = (0..<includedCount).map { Self.id(shape, $0, included: true, seed: seed, random: &ids) }
        }

        static func id(
            _ shape: CorpusShape, _ index: Int, included: Bool, seed: UInt64, random: inout SplitMix64
        ) -> [UInt8] {
            switch shape {
            case .ids:
                let key = SplitMix64.mix(seed ^ (included ? 0x2EF5 : 0xE171))
                return CorpusValues.id(index, key: key, random: &random).spelled
            case .tiny:
                return Array(String(index, radix: 36).utf8)
            default:
                return Array(String(index + (included ? 1 : 1_000)).utf8)
            }
        }

        mutating func document() -> [UInt8] {
            writer.beginObject()
            writer.key("meta")
            writer.beginObject()
            writer.key("shape")
            writer.string(shape.rawValue)
            writer.key("seed")
            writer.raw(String(seed))
            writer.key("primary")
            writer.raw(String(primaryCount))
            writer.endObject()
            writer.key("included")
            writer.beginArray()
            for index in 0..<includedCount {
                writer.element()
                resource(index, included: true)
            }
            writer.endArray()
            writer.key("data")
            writer.beginArray()
            for index in 0..<primaryCount {
                writer.element()
                resource(index, included: false)
            }
            writer.endArray()
            writer.key("jsonapi")
            writer.beginObject()
            writer.key("version")
            writer.string("1.1")
            writer.endObject()
            writer.endObject()
            writer.layout = .compact
            return writer.bytes
        }

        /// One resource object, its members in one of three orders.
        mutating func resource(_ index: Int, included: Bool) {
            let draw = form.next(below: 100)
            writer.layout = draw < 60 ? .compact : draw < 85 ? .spaces : .tabsCRLF
            let order = form.next(below: 3)
            let type = included ? shape.includedType : shape.primaryType
            let id = included ? includedIDs[index] : primaryIDs[index]
            writer.beginObject()
            switch order {
            case 0:
                writer.key("id")
                writer.string(spelled: id)
                attributes(index, included: included)
                if !included { relationships(index) }
                writer.key("type")
                writer.string(type)
            case 1:
                attributes(index, included: included)
                writer.key("type")
                writer.string(type)
                if !included { relationships(index) }
                writer.key("id")
                writer.string(spelled: id)
            default:
                writer.key("type")
                writer.string(type)
                writer.key("id")
                writer.string(spelled: id)
                if !included { relationships(index) }
                attributes(index, included: included)
            }
            writer.endObject()
        }

        mutating func identifier(_ target: Int) {
            let type = shape.includedType
            writer.beginObject()
            if form.chance(50) {
                writer.key("id")
                writer.string(spelled: includedIDs[target])
                writer.key("type")
                writer.string(type)
            } else {
                writer.key("type")
                writer.string(type)
                writer.key("id")
                writer.string(spelled: includedIDs[target])
            }
            writer.endObject()
        }

        /// The to-one relationship names its own included resource (so every included one is
        /// linked); the to-many one up to four others, without repeats.
        mutating func relationships(_ index: Int) {
            let names = shape.relationshipNames
            let owner = index / shape.primariesPerIncluded
            if shape == .tiny && index % shape.primariesPerIncluded != 0 { return }
            writer.key("relationships")
            writer.beginObject()
            writer.key(names.toOne)
            writer.beginObject()
            writer.key("data")
            identifier(owner)
            writer.endObject()
            if let toMany = names.toMany {
                writer.key(toMany)
                writer.beginObject()
                if random.chance(30) {
                    writer.key("meta")
                    writer.beginObject()
                    writer.key("note")
                    writer.string("linkage")
                    writer.endObject()
                }
                writer.key("data")
                writer.beginArray()
                var seen: [Int] = []
                for _ in 0..<random.next(below: 5) {
                    let target = random.next(below: includedCount)
                    if seen.contains(target) { continue }
                    seen.append(target)
                    writer.element()
                    identifier(target)
                }
                writer.endArray()
                writer.endObject()
            }
            writer.endObject()
        }

        mutating func attributes(_ index: Int, included: Bool) {
            writer.key("attributes")
            writer.beginObject()
            switch (shape, included) {
            case (.unicode, false):
                text("headline", bytes: 40, escapes: 35)
                text("body", bytes: random.next(in: 200...900), escapes: 25)
                writer.key("locale")
                writer.string(["el-GR", "ja-JP", "ar-EG", "hi-IN", "ru-RU", "zh-CN"][random.next(below: 6)])
                writer.key("reactions")
                writer.beginArray()
                for _ in 0..<random.next(below: 4) {
                    writer.element()
                    writer.string(spelled: CorpusValues.text(bytes: 4, escapePercent: 50, random: &random))
                }
                writer.endArray()
            case (.unicode, true):
                text("name", bytes: 16, escapes: 40)
                text("bio", bytes: random.next(in: 60...300), escapes: 30)
                writer.key("homepage")
                if random.chance(30) {
                    writer.raw("null")
                } else {
                    writer.string("https:\\/\\/example.org\\/w\\/\(index)")
                }
            case (.numbers, false):
                number("value", CorpusValues.double(&random))
                number("delta", CorpusValues.double(&random))
                number("count", CorpusValues.integer(&random))
                number("scale", random.chance(40) ? "null" : CorpusValues.double(&random))
                writer.key("bounds")
                writer.beginObject()
                number("lo", CorpusValues.double(&random))
                number("hi", CorpusValues.double(&random))
                number("exponent", random.chance(30) ? "null" : CorpusValues.integer(&random))
                writer.key("calibration")
                if random.chance(20) {
                    writer.raw("null")
                } else {
                    writer.beginObject()
                    number("offset", CorpusValues.double(&random))
                    number("gain", random.chance(30) ? "null" : CorpusValues.double(&random))
                    writer.endObject()
                }
                writer.endObject()
                writer.key("samples")
                writer.beginArray()
                for _ in 0..<random.next(in: 0...12) {
                    writer.element()
                    writer.raw(CorpusValues.double(&random))
                }
                writer.endArray()
                number("flags", random.chance(50) ? "null" : CorpusValues.integer(&random))
            case (.numbers, true):
                number("latitude", CorpusValues.double(&random))
                number("longitude", CorpusValues.double(&random))
                number("elevation", random.chance(25) ? "null" : CorpusValues.integer(&random))
            case (.tiny, false):
                number("v", CorpusValues.integer(&random))
            case (.tiny, true):
                number("n", String(index))
            case (.longStrings, false):
                text("title", bytes: 60, escapes: 5)
                text("content", bytes: random.next(in: 3_000...8_000), escapes: 3)
                text("summary", bytes: random.next(in: 500...1_500), escapes: 3)
            case (.longStrings, true):
                text("name", bytes: 20, escapes: 5)
                text("notes", bytes: random.next(in: 1_000...4_000), escapes: 3)
            case (.ids, false):
                text("label", bytes: 12, escapes: 10)
                number("rank", CorpusValues.integer(&random))
            case (.ids, true):
                text("label", bytes: 12, escapes: 10)
            }
            writer.endObject()
        }

        mutating func text(_ key: String, bytes: Int, escapes: Int) {
            writer.key(key)
            writer.string(spelled: CorpusValues.text(bytes: bytes, escapePercent: escapes, random: &random))
        }

        mutating func number(_ key: String, _ text: String) {
            writer.key(key)
            writer.raw(text)
        }
    }
}

extension CorpusShape {
    /// The names of the primary type's relationships: a to-one, and a to-many one (not `tiny`).
    var relationshipNames: (toOne: String, toMany: String?) {
        switch self {
        case .unicode: ("author", "coauthors")
        case .numbers: ("station", "neighbors")
        case .tiny: ("origin", nil)
        case .longStrings: ("editor", "reviewers")
        case .ids: ("owner", "members")
        }
    }

    /// Mixed into the seed of the values, so shapes with the same seed differ.
    var hashSeed: Int {
        switch self {
        case .unicode: 0x0A
        case .numbers: 0x0B
        case .tiny: 0x0C
        case .longStrings: 0x0D
        case .ids: 0x0E
        }
    }
}
