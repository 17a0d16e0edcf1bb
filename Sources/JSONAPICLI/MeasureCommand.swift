import ArgumentParser
import JSONAPI
import JSONAPIGenerator

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `jsonapi measure` (hidden): one path of `scripts/native-bench` on one file, timed in this
/// process, so that callgrind can count one run (`--runs 1`) and the wall-clock median comes
/// from the same code.
///
/// Prints one line, `PATH BYTES WRITTEN RUNS MEDIAN_SECONDS MBPS`: BYTES is the input's size,
/// WRITTEN the bytes an encoder wrote (0 for the readers), MB/s is of the input for the readers
/// and of the bytes written for the encoders.
struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Time one path on one file (for scripts/native-bench).",
        shouldDisplay: false
    )

    enum PathName: String, ExpressibleByArgument, CaseIterable {
        /// `Document(parsing:)`.
        case build
        /// `JSONSyntaxValidator.validate`: the tokenizer alone, building nothing.
        case tokenize
        /// `JSONAPIDecoder` into the shape's ``CorpusModels`` (parse included).
        case typed
        /// `JSONAPIEncoder` from the shape's models, decoded once before the runs.
        case encode
        /// The least any `Codable`-driven encoder spends on those models (``EncodingFloor``):
        /// WRITTEN is what `JSONAPIEncoder` writes for them, so the floor compares per byte
        /// written. Count it alone with callgrind's `--toggle-collect='*EncodingFloor*walk*'`.
        case encodeFloor = "encode-floor"
        /// The least any `Codable`-driven decoder spends building those models
        /// (``DecodingFloor``): per byte of the document, as `typed` is. Count it alone with
        /// callgrind's `--toggle-collect='*DecodingFloor*build*'`.
        case decodeFloor = "decode-floor"
        /// Foundation's `JSONDecoder` into the shape's ``CorpusFoundationModels``.
        case jsondecoder
        /// Foundation's `JSONEncoder` from those models, decoded once before the runs.
        case jsonencoder
    }

    @Option(help: "build, tokenize, typed, encode, encode-floor, decode-floor, jsondecoder or jsonencoder.")
    var path: PathName

    @Option(help: ArgumentHelp("The corpus shape of the document (typed and encode).", valueName: "shape"))
    var shape: String?

    @Flag(help: "Keep documents that break a rule but stay readable.")
    var lenient = false

    @Option(help: "How many timed runs.")
    var runs = 5

    @Argument(help: ArgumentHelp("The document.", valueName: "file"))
    var file: String

    func validate() throws {
        if runs < 1 { throw ValidationError("--runs must be 1 or more") }
        if path != .build && path != .tokenize && shape.flatMap(CorpusShape.init(argument:)) == nil {
            throw ValidationError("--path \(path.rawValue) needs --shape (one of the corpus shapes)")
        }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try InputSource(argument: file).readAll()
        } catch {
            Console.standardError.line("jsonapi: error: \(error)")
            throw ExitStatus.usageOrIOError
        }
        let decoder = JSONAPIDecoder()
        var written = 0
        let timings: Timings
        do {
            switch path {
            case .build:
                let options = ParsingOptions(kind: .response, lenient: lenient)
                timings = try Timings.measure(exactRuns: runs) { _ = try Document(parsing: bytes, options: options) }
            case .tokenize:
                timings = try Timings.measure(exactRuns: runs) { try JSONSyntaxValidator.validate(bytes) }
            case .typed:
                let shape = try requiredShape()
                timings = try Timings.measure(exactRuns: runs) { _ = try shape.decodeModels(bytes, with: decoder) }
            case .encode:
                let encode = try requiredShape().modelEncoder(bytes, decoder: decoder)
                let encoder = CorpusShape.compoundEncoder()
                timings = try Timings.measure(exactRuns: runs) { written = try encode(encoder).count }
            case .encodeFloor:
                let shape = try requiredShape()
                written = try shape.modelEncoder(bytes, decoder: decoder)(CorpusShape.compoundEncoder()).count
                let resources = try EncodingFloor.resources(of: shape.primaryModels(bytes, decoder: decoder))
                var visited = 0
                timings = try Timings.measure(exactRuns: runs) { visited = try EncodingFloor.walk(resources) }
                guard visited > 0 else { throw ExitStatus.invalid }
            case .decodeFloor:
                let shape = try requiredShape()
                let models = try EncodingFloor.resources(of: shape.primaryModels(bytes, decoder: decoder))
                let resources = try DecodingFloor.record(models)
                try DecodingFloor.check(resources, against: models)
                var built = 0
                timings = try Timings.measure(exactRuns: runs) { built = try DecodingFloor.build(resources) }
                guard built > 0 else { throw ExitStatus.invalid }
            case .jsondecoder:
                let shape = try requiredShape()
                let data = Data(bytes)
                let decoder = JSONDecoder()
                timings = try Timings.measure(exactRuns: runs) {
                    _ = try shape.decodeWithFoundation(data, decoder: decoder)
                }
            case .jsonencoder:
                let encode = try requiredShape().foundationEncoder(Data(bytes), decoder: JSONDecoder())
                let encoder = JSONEncoder()
                timings = try Timings.measure(exactRuns: runs) { written = try encode(encoder).count }
            }
        } catch {
            Console.standardError.line("jsonapi: measure: \(path.rawValue) failed: \(error)")
            throw ExitStatus.invalid
        }
        let rate = megabytesPerSecond(bytes: written > 0 ? written : bytes.count, in: timings.median)
        Console.standardOutput.line(
            "\(path.rawValue) \(bytes.count) \(written) \(timings.runs.count) \(timings.median.value) \(rate.fixed(2))")
    }

    private func requiredShape() throws -> CorpusShape {
        guard let shape = shape.flatMap(CorpusShape.init(argument:)) else { throw ExitStatus.usageOrIOError }
        return shape
    }
}
