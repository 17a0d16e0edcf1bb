import ArgumentParser
import JSONAPI

// FoundationEssentials only, as everywhere in the tool: full Foundation would load ICU into every
// `jsonapi` process (about 6 MB more resident, and a slower start). Its untyped reader,
// `JSONSerialization`, lives only there, so Foundation's entry here is `JSONDecoder` reading the
// document into `AnyJSON`, the "any JSON value" type a Swift user writes for an unknown document.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `jsonapi bench`: the speed of every untyped path on the user's own document, beside the
/// tokenizer's (the syntax check alone, the floor every path stands on).
///
/// Each path gets the same in-memory bytes; its result is freed untimed between runs.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure how fast each untyped path reads a document, beside the tokenizer alone.",
        discussion: """
            Reads FILE into memory and runs each path on it --runs times: the tokenizer alone (RFC \
            8259 syntax check, no document built), the whole-buffer build (Document(parsing:)), \
            the chunked build fed 64 KiB chunks without and with the size given up front, the \
            build with the yajl backend, the resource stream fed 64 KiB chunks, and Foundation's \
            JSONDecoder reading the document into an any-JSON enum. Prints the median MB/s (10^6 bytes per second) of each, and its \
            share of the tokenizer's speed. A path the document fails is reported with its error.
            """
    )

    @OptionGroup var documentOptions: DocumentOptions

    @Option(help: "How many times each path runs; the median is reported.")
    var runs = 5

    @Argument(help: ArgumentHelp("The JSON:API document (- for standard input).", valueName: "file"))
    var file: String

    func validate() throws {
        if runs < 1 { throw ValidationError("--runs must be 1 or more") }
    }

    /// One path: its name and the work of one run, which throws what the path throws.
    private struct Path {
        var name: String
        var run: () throws -> Void
    }

    func run() throws {
        let source = InputSource(argument: file)
        let bytes: [UInt8]
        do {
            bytes = try source.readAll()
        } catch {
            Console.standardError.line("jsonapi: error: \(error)")
            throw ExitStatus.usageOrIOError
        }
        let options = documentOptions.parsingOptions
        let chunk = FileDescriptor.chunkSize
        var yajl = options
        yajl.backend = .yajl
        var scanner = options
        scanner.backend = .scanner
        let data = Data(bytes)
        let decoder = JSONDecoder()

        let paths: [Path] = [
            Path(name: "tokenizer (syntax only)") { try JSONSyntaxValidator.validate(bytes) },
            Path(name: "Document (whole buffer)") { _ = try Document(parsing: bytes, options: scanner) },
            Path(name: "DocumentParser, 64 KiB") { _ = try Self.chunked(bytes, chunk, scanner, sized: false) },
            Path(name: "DocumentParser, 64 KiB, sized") { _ = try Self.chunked(bytes, chunk, scanner, sized: true) },
            Path(name: "Document, yajl backend") { _ = try Document(parsing: bytes, options: yajl) },
            Path(name: "ResourceStream, 64 KiB") { try Self.stream(bytes, chunk, scanner) },
            Path(name: "JSONDecoder, any JSON") { _ = try decoder.decode(AnyJSON.self, from: data) },
        ]

        Console.standardOutput.line(
            "\(source.displayName): \(bytes.count.grouped) bytes, median of \(runs) runs each (MB/s = 10^6 bytes/s)")
        var tokenizerRate: Double?
        var failed = false
        for path in paths {
            let label = "  " + path.name.padding(to: 32)
            do {
                let timings = try Timings.measure(exactRuns: runs, path.run)
                let rate = megabytesPerSecond(bytes: bytes.count, in: timings.median)
                if tokenizerRate == nil { tokenizerRate = rate }
                let share = tokenizerRate.map { $0 > 0 ? rate / $0 : 0 } ?? 1
                Console.standardOutput.line(
                    label + "\(rate.fixed(1)) MB/s".padding(to: 14) + "\(share.fixed(2))x the tokenizer")
            } catch {
                failed = true
                Console.standardOutput.line(label + "failed: \(error)")
            }
        }
        if failed { throw ExitStatus.invalid }
    }

    /// Builds the document through ``DocumentParser``, fed `chunk` bytes at a time.
    private static func chunked(_ bytes: [UInt8], _ chunk: Int, _ options: ParsingOptions, sized: Bool) throws
        -> Document
    {
        var parser = DocumentParser(options: options, expectedByteCount: sized ? bytes.count : 0)
        try bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + chunk)
                try parser.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
            }
        }
        return try parser.finish()
    }

    /// Reads the document through ``ResourceStream``, fed `chunk` bytes at a time, taking every part.
    private static func stream(_ bytes: [UInt8], _ chunk: Int, _ options: ParsingOptions) throws {
        var stream = try ResourceStream(options: ResourceStream.Options(parsing: options))
        try bytes.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + chunk)
                try stream.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset = end
                while try stream.next() != nil {}
            }
        }
        try stream.finish()
        while try stream.next() != nil {}
    }
}

/// Any JSON value, as a Swift user decodes a document whose shape is unknown: Foundation's
/// `JSONDecoder` builds the whole tree (`bench`'s Foundation entry).
enum AnyJSON: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [AnyJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self)) }
            self = .array(elements)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: AnyJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(AnyJSON.self, forKey: key) }
            self = .object(members)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
