import Foundation
import JSONAPI
import JSONAPIGenerator
import JSONAPIGeneratorModels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The resource stream against the in-memory parser and JSONDecoder on one generated document,
// one way per process (so that each reports its own peak memory); scripts/stream-bench runs it.
//
//   jsonapi-stream-benchmark generate MEGABYTES SEED PATH   writes the document, never held whole
//   jsonapi-stream-benchmark run VARIANT PATH               one timed pass; prints one line
//
// Variants (the input is read into memory first, untimed, except where it says "file"):
//   document        Document(parsing:)
//   stream          ResourceStream fed 1 MiB chunks of the bytes in memory, every part handed out
//   stream-file     ResourceStream.forEachPart(inFileAt:): read(2) in windows, nothing held
//   typed-document  Document(parsing:), then every resource decoded into GeneratedModels
//   typed-stream    ResourceStream, every resource decoded into GeneratedModels as it arrives
//   jsondecoder     JSONDecoder into PlainCodableModel.Document (Codable DTOs)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("jsonapi-stream-benchmark: " + message + "\n").utf8))
    exit(1)
}

func peakResidentMiB() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
        return Double(usage.ru_maxrss) / 1024
    #else
        return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let (seconds, attoseconds) = (clock.now - start).components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

/// Counts what a pass saw, so that every variant can be checked against the others.
struct Tally {
    var resources = 0
    var articles = 0
    var idBytes = 0

    mutating func add(type: String, id: String?) {
        resources += 1
        if type == "articles" { articles += 1 }
        idBytes += id?.utf8.count ?? 0
    }
}

func decodeModel(_ resource: StreamedResource, into tally: inout Tally) throws {
    switch resource.object.type {
    case "articles":
        let article = try resource.decode(as: GeneratedModels.Article.self)
        tally.add(type: "articles", id: article.id)
    case "people": tally.add(type: "people", id: try resource.decode(as: GeneratedModels.Person.self).id)
    case "comments": tally.add(type: "comments", id: try resource.decode(as: GeneratedModels.Comment.self).id)
    case "tags": tally.add(type: "tags", id: try resource.decode(as: GeneratedModels.Tag.self).id)
    default: throw JSONAPIError(.decodingFailed, "unexpected type \(resource.object.type)")
    }
}

/// Streams `bytes` in 1 MiB chunks, calling `body` with every resource; fails on a diagnostic.
func streamResources(
    _ bytes: [UInt8], options: ResourceStream.Options, _ body: (StreamedResource) throws -> Void
) throws -> ResourceStream.Statistics {
    var stream = try ResourceStream(options: options)
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + (1 << 20))
        try stream.feed(bytes[offset..<end])
        offset = end
        while let part = try stream.next() { if case .resource(let r) = part { try body(r) } }
    }
    try stream.finish()
    while let part = try stream.next() { if case .resource(let r) = part { try body(r) } }
    guard stream.diagnostics.isEmpty else { fail("diagnostics: \(stream.diagnostics.prefix(3))") }
    return stream.statistics
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "generate":
    guard arguments.count == 4, let megabytes = Int(arguments[1]), megabytes > 0, let seed = UInt64(arguments[2])
    else { fail("usage: generate MEGABYTES SEED PATH") }
    let generator = CompoundDocumentGenerator(
        resources: CompoundDocumentGenerator.resourceCount(approximateBytes: megabytes * 1_000_000), seed: seed)
    guard FileManager.default.createFile(atPath: arguments[3], contents: nil),
        let file = FileHandle(forWritingAtPath: arguments[3])
    else { fail("cannot create \(arguments[3])") }
    var written = 0
    try generator.write(chunkSize: 1 << 22) { chunk in
        try file.write(contentsOf: Data(chunk))
        written += chunk.count
    }
    try file.close()
    print("bytes=\(written) resources=\(generator.resources) articles=\(generator.primaryCount)")

case "run":
    guard arguments.count == 3 else { fail("usage: run VARIANT PATH") }
    let variant = arguments[1]
    let path = arguments[2]
    var tally = Tally()
    var extra = ""
    let needsBytes = variant != "stream-file"
    let bytes: [UInt8] = needsBytes ? [UInt8](FileManager.default.contents(atPath: path) ?? Data()) : []
    let inputBytes: Int
    if needsBytes {
        inputBytes = bytes.count
        guard inputBytes > 0 else { fail("cannot read \(path)") }
    } else {
        inputBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
    var options = ResourceStream.Options()
    options.windowBytes = 1 << 20
    let elapsed: Double
    switch variant {
    case "document":
        elapsed = try milliseconds {
            let document = try Document(parsing: bytes)
            for resource in document.primaryResources { tally.add(type: resource.type, id: resource.id) }
            for resource in document.included { tally.add(type: resource.type, id: resource.id) }
        }
    case "stream":
        var statistics = ResourceStream.Statistics()
        elapsed = try milliseconds {
            statistics = try streamResources(bytes, options: options) { r in
                tally.add(type: r.object.type, id: r.object.id)
            }
        }
        extra =
            " slides=\(statistics.slides) window=\(statistics.windowCapacity) index_bytes=\(statistics.identityIndexBytes)"
    case "stream-file":
        var summary: ResourceStream.Summary?
        elapsed = try milliseconds {
            summary = try ResourceStream.forEachPart(inFileAt: path, options: options) { part in
                if case .resource(let r) = part { tally.add(type: r.object.type, id: r.object.id) }
            }
        }
        guard let summary, summary.diagnostics.isEmpty else {
            fail("diagnostics: \(summary?.diagnostics.prefix(3) ?? [])")
        }
        let s = summary.statistics
        extra =
            " slides=\(s.slides) window=\(s.windowCapacity) index_bytes=\(s.identityIndexBytes) index_keys=\(s.identityKeys) rescanned=\(s.rescannedBytes) deferred=\(s.deferredResources)"
    case "typed-document":
        elapsed = try milliseconds {
            let document = try Document(parsing: bytes)
            try document.primary(as: GeneratedModels.Article.self).forEachDecoded {
                tally.add(type: "articles", id: $0.id)
            }
            try document.included(of: GeneratedModels.Person.self).forEachDecoded {
                tally.add(type: "people", id: $0.id)
            }
            try document.included(of: GeneratedModels.Comment.self).forEachDecoded {
                tally.add(type: "comments", id: $0.id)
            }
            try document.included(of: GeneratedModels.Tag.self).forEachDecoded { tally.add(type: "tags", id: $0.id) }
        }
    case "typed-stream":
        elapsed = try milliseconds {
            _ = try streamResources(bytes, options: options) { r in try decodeModel(r, into: &tally) }
        }
    case "jsondecoder":
        let data = Data(bytes)
        elapsed = try milliseconds {
            let document = try JSONDecoder().decode(PlainCodableModel.Document.self, from: data)
            for article in document.data { tally.add(type: "articles", id: article.id) }
            for resource in document.included ?? [] {
                switch resource {
                case .person(let person): tally.add(type: "people", id: person.id)
                case .comment(let comment): tally.add(type: "comments", id: comment.id)
                case .tag(let tag): tally.add(type: "tags", id: tag.id)
                }
            }
        }
    default:
        fail("unknown variant \(variant)")
    }
    print(
        "variant=\(variant) ms=\(String(format: "%.1f", elapsed)) peak_rss_mib=\(String(format: "%.1f", peakResidentMiB()))"
            + " bytes=\(inputBytes) resources=\(tally.resources) articles=\(tally.articles) id_bytes=\(tally.idBytes)\(extra)"
    )

default:
    fail("usage: generate MEGABYTES SEED PATH | run VARIANT PATH")
}
