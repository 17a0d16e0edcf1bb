/// Generates deterministic JSON:API documents shaped unlike ``CompoundDocumentGenerator``'s
/// articles: many small resources made mostly of numbers.
///
/// Primary data is an array of sensor `readings` (about 500 bytes each), with their `stations`
/// and `devices` in `included`. Attributes are integers (negative ones too), doubles with and
/// without exponents, integers too big for 64 bits, `null`s and booleans, and an object nested
/// six levels deep holding arrays of arrays. Readings and devices have 6-digit numeric ids
/// (100000 and up), stations short ones (1 to a few hundred). Each reading links its station
/// (to-one), its device (to-one, sometimes `null`) and the reading before it (to-one, `null` for
/// the first). Every included resource is linked, so the document has full linkage.
///
/// ```swift
/// let generator = ReadingsDocumentGenerator(
///     resources: ReadingsDocumentGenerator.resourceCount(approximateBytes: 1_000_000), seed: 1)
/// let bytes = generator.generate()   // about 1 MB
/// let model = try JSONDecoder().decode(ReadingsCodableModel.Document.self, from: Data(bytes))
/// ```
public struct ReadingsDocumentGenerator: Sendable, Hashable {
    /// The total number of resource objects, primary and included.
    public let resources: Int
    /// The seed that fixes every random choice.
    public let seed: UInt64
    /// The number of `readings` in `data`.
    public let readingCount: Int
    /// The number of included `stations`.
    public let stationCount: Int
    /// The number of included `devices`.
    public let deviceCount: Int

    /// Creates a generator for exactly `resources` resource objects: about 90% readings, the rest
    /// split between devices and stations.
    ///
    /// - Parameters:
    ///   - resources: The total number of resource objects, at least 0.
    ///   - seed: Fixes every random choice; the same seed always gives the same bytes.
    public init(resources: Int, seed: UInt64 = 1) {
        precondition(resources >= 0, "a document cannot hold a negative number of resources")
        self.resources = resources
        self.seed = seed
        let stations = resources >= 3 ? Swift.max(1, resources / 40) : 0
        let devices = resources >= 3 ? Swift.max(1, resources / 16) : 0
        stationCount = stations
        deviceCount = devices
        readingCount = resources - stations - devices
    }

    /// The average size of a resource, measured over large documents.
    static let averageResourceBytes = 487

    /// How many resources make a document of about `approximateBytes` bytes (within a few percent
    /// from 100 KB up).
    public static func resourceCount(approximateBytes: Int) -> Int {
        Swift.max(1, approximateBytes / averageResourceBytes)
    }

    /// Generates the whole document.
    ///
    /// - Returns: The document's UTF-8 bytes, the same for the same resource count and seed.
    public func generate() -> [UInt8] {
        var writer = ReadingsWriter(generator: self)
        writer.document()
        return writer.output
    }
}

/// Writes a ``ReadingsDocumentGenerator`` document: one pass, random choices from one stream.
private struct ReadingsWriter {
    let generator: ReadingsDocumentGenerator
    var random: SplitMix64
    var output: [UInt8] = []

    init(generator: ReadingsDocumentGenerator) {
        self.generator = generator
        random = SplitMix64(seed: generator.seed ^ 0x5E45_0B5E)
        output.reserveCapacity(generator.resources * (ReadingsDocumentGenerator.averageResourceBytes + 64) + 256)
    }

    mutating func text(_ string: StaticString) {
        string.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    mutating func integer(_ value: Int) {
        output.append(contentsOf: String(value).utf8)
    }

    /// A double in one of the forms servers write: `12.5`, `-0.003`, `1.25e-7`, `6.02E+23`, `3e2`.
    mutating func double() {
        let mantissa = random.next(in: 1...99_999)
        if random.chance(25) { text("-") }
        switch random.next(below: 5) {
        case 0:
            integer(mantissa / 100)
            text(".")
            integer(mantissa % 100)
        case 1:
            text("0.00")
            integer(mantissa)
        case 2:
            integer(mantissa % 9 + 1)
            text(".")
            integer(mantissa)
            text("e-")
            integer(random.next(in: 1...12))
        case 3:
            integer(mantissa % 9 + 1)
            text(".")
            integer(mantissa % 1000)
            text("E+")
            integer(random.next(in: 1...30))
        default:
            integer(mantissa % 9 + 1)
            text("e")
            integer(random.next(in: 0...8))
        }
    }

    mutating func readingID(_ index: Int) { integer(100_000 + index) }
    mutating func deviceID(_ index: Int) { integer(100_000 + index) }
    mutating func stationID(_ index: Int) { integer(index + 1) }

    mutating func document() {
        text(#"{"meta":{"source":"ReadingsDocumentGenerator","count":"#)
        integer(generator.readingCount)
        text(#","cursor":null},"data":["#)
        for index in 0..<generator.readingCount {
            if index > 0 { text(",") }
            reading(index)
        }
        text("]")
        if generator.stationCount + generator.deviceCount > 0 {
            text(#","included":["#)
            for index in 0..<generator.stationCount {
                if index > 0 { text(",") }
                station(index)
            }
            for index in 0..<generator.deviceCount {
                if index > 0 || generator.stationCount > 0 { text(",") }
                device(index)
            }
            text("]")
        }
        text("}")
    }

    mutating func reading(_ index: Int) {
        text(#"{"type":"readings","id":""#)
        readingID(index)
        text(#"","attributes":{"value":"#)
        double()
        text(#","count":"#)
        integer(random.next(below: 1_000))
        text(#","delta":"#)
        integer(-random.next(in: 0...50_000))
        text(#","total":"#)
        // Past UInt64.max (1.8e19): 20 to 24 digits, the first at least 2.
        integer(random.next(in: 2...9))
        for _ in 0..<random.next(in: 19...23) { integer(random.next(below: 10)) }
        text(#","ratio":"#)
        double()
        text(random.chance(30) ? #","flag":null"# : random.chance(50) ? #","flag":true"# : #","flag":false"#)
        text(#","ok":true,"window":{"start":"#)
        let start = 1_700_000_000 + index * 60
        integer(start)
        text(#","end":"#)
        integer(start + 60)
        text(#","stats":{"min":"#)
        double()
        text(#","max":"#)
        double()
        text(#","mean":"#)
        if random.chance(20) { text("null") } else { double() }
        text(#","buckets":[["#)
        integer(random.next(below: 100))
        text(",")
        integer(-random.next(below: 100))
        text("],[")
        integer(random.next(below: 1_000))
        text(#"]],"extra":{"depth":{"level":{"deepest":["#)
        integer(random.next(below: 10))
        text(",")
        if random.chance(30) { text("null") } else { double() }
        text(",")
        double()
        text(#"]}}}}}},"relationships":{"station":{"data":{"type":"stations","id":""#)
        // Reading i < stations links station i, so every station is linked.
        stationID(index < generator.stationCount ? index : random.next(below: Swift.max(1, generator.stationCount)))
        text(#""}},"device":{"data":"#)
        if index < generator.deviceCount || random.chance(85) {
            text(#"{"type":"devices","id":""#)
            deviceID(index < generator.deviceCount ? index : random.next(below: Swift.max(1, generator.deviceCount)))
            text(#""}"#)
        } else {
            text("null")
        }
        text(#"},"previous":{"data":"#)
        if index == 0 {
            text("null")
        } else {
            text(#"{"type":"readings","id":""#)
            readingID(index - 1)
            text(#""}"#)
        }
        text("}}}")
    }

    mutating func station(_ index: Int) {
        text(#"{"type":"stations","id":""#)
        stationID(index)
        text(#"","attributes":{"name":"st-"#)
        integer(index + 1)
        text(#"","lat":"#)
        double()
        text(#","lon":"#)
        double()
        text(#","elevation":"#)
        if random.chance(30) { text("null") } else { integer(random.next(in: -400...4_800)) }
        text(#","calibration":{"offset":"#)
        double()
        text(#","scale":1.0e0,"history":["#)
        for entry in 0..<random.next(in: 1...3) {
            if entry > 0 { text(",") }
            text(#"{"at":"#)
            integer(1_690_000_000 + random.next(below: 1_000_000))
            text(#","delta":"#)
            double()
            text("}")
        }
        text("]}}}")
    }

    mutating func device(_ index: Int) {
        text(#"{"type":"devices","id":""#)
        deviceID(index)
        text(#"","attributes":{"serial":"D-"#)
        deviceID(index)
        text(#"","firmware":["#)
        integer(random.next(in: 1...4))
        text(",")
        integer(random.next(below: 20))
        text(",")
        integer(random.next(below: 100))
        text(#"],"battery":"#)
        if random.chance(25) { text("null") } else { double() }
        text(#","serialHash":"#)
        // A 64-bit value that fits in UInt64 but not in Int64 half of the time.
        output.append(contentsOf: String(random.next()).utf8)
        text("}}")
    }
}
