import Foundation
import JSONAPIGenerator
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The resource stream against the in-memory parser: the same resources, top-level members,
/// diagnostics and first error at the same absolute offsets and pointers, however the bytes are
/// split and however small the window, strict and lenient.
@Suite("Resource stream: the same answers as Document(parsing:)")
struct ResourceStreamTests {
    static func options(window: Int, lenient: Bool = false, kind: ParsingOptions.Kind = .response)
        -> ResourceStream.Options
    {
        var parsing = ParsingOptions()
        parsing.isLenient = lenient
        parsing.kind = kind
        var options = ResourceStream.Options(parsing: parsing)
        options.windowBytes = window
        return options
    }

    /// Checks `bytes` through the stream with every window size and chunk pattern given against
    /// the whole-document parse.
    static func check(
        _ bytes: [UInt8], lenient: Bool = false, kind: ParsingOptions.Kind = .response,
        windows: [Int] = [64, 97, 256, 1 << 20], chunks: [[Int]] = [[], [1], [7, 3, 64], [1000]],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var parsing = ParsingOptions()
        parsing.isLenient = lenient
        parsing.kind = kind
        let expected = StreamOutcome(document: bytes, options: parsing)
        for window in windows {
            for pattern in chunks {
                let got = StreamOutcome(
                    stream: bytes, options: options(window: window, lenient: lenient, kind: kind), chunks: pattern)
                if !got.agrees(withDocument: expected) {
                    if let path = ProcessInfo.processInfo.environment["JSONAPI_STREAM_FAILURE_PATH"] {
                        _ = FileManager.default.createFile(atPath: "\(path)-\(bytes.count)", contents: Data(bytes))
                    }
                    Issue.record(
                        "window \(window), chunks \(pattern), lenient \(lenient): \(got.firstDifference(from: expected))\n\(String(decoding: bytes.prefix(300), as: UTF8.self))",
                        sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    @Test("generated compound documents of every id scheme", arguments: [0, 1, 3, 40])
    func generated(_ resources: Int) {
        for scheme in [IDScheme.standard, .sequential(start: 1), .uuid, .slug, .opaque, .escaped] {
            var generator = CompoundDocumentGenerator(resources: resources, seed: UInt64(resources) &+ 3)
            generator.idScheme = scheme
            Self.check(generator.generate())
        }
    }

    @Test("hand-written documents: top-level members, errors, single data, lids, rule violations")
    func handWritten() {
        let documents = [
            #"{"data":null}"#,
            #"{"data":[]}"#,
            #"{"meta":{"total":2},"data":[{"type":"a","id":"1"}],"links":{"self":"/a"},"jsonapi":{"version":"1.1"}}"#,
            #"{"data":{"type":"a","id":"1","attributes":{"n":1},"relationships":{"b":{"data":{"type":"b","id":"2"}}}},"included":[{"type":"b","id":"2"}]}"#,
            #"{"errors":[{"status":"404","title":"Not found"},{"code":"x","source":{"pointer":"/data"}}],"meta":{"m":1}}"#,
            #"{"errors":[{}]}"#,
            #"{"data":[{"type":"a","id":"1"},{"type":"a","id":"1"}]}"#,
            #"{"data":[{"type":"a","id":"1"}],"included":[{"type":"b","id":"9"}]}"#,
            #"{"included":[{"type":"b","id":"2","relationships":{"c":{"data":{"type":"c","id":"3"}}}},{"type":"c","id":"3"}],"data":[{"type":"a","id":"1","relationships":{"b":{"data":{"type":"b","id":"2"}}}}]}"#,
            #"{"data":[{"type":"a","id":"1","relationships":{"b":{"data":[{"type":"b","lid":"x"}]}}}],"included":[{"type":"b","lid":"x","id":"5"}]}"#,
            #"{"data":[{"type":"a","id":"1","attributes":{"type":3}}]}"#,
            #"{"data":[{"type":"a","id":"1","attributes":{"x":1,"x":2}}]}"#,
            #"{"data":[{"type":"a"}]}"#,
            #"{"data":[{"type":"a","id":"1"}],"errors":[{"status":"500"}]}"#,
            #"{"included":[{"type":"a","id":"1"}]}"#,
            #"{}"#,
            #"{"data":[{"type":"a","id":"1"}],"ext:x":{"y":[1,2]},"@m":true}"#,
            #"{"data":[{"type":"a","id":"1","links":{"self":{"href":"/a/1","meta":{"k":1}}},"meta":{"m":[1,{"z":null}]}}]}"#,
            #"{"data":[{"type":"a","id":"1"},{"type":"a","id":"\u0031"}]}"#,
            #"{"data":[{"type":"a","id":"1"}]"#,
            #"{"data":[{"type":"a","id":"1"}]} x"#,
            #"{"data":[{"type":"a","id":1}]}"#,
            "{\n  \"data\": [\n    {\"type\": \"a\", \"id\": \"1\"},\n    {\"type\": \"a\", \"id\": \"1\"}\n  ]\n}\n",
            // Top-level keys read after the window slid past `data`: a repeated member, a member
            // repeated after a complete one, a foreign one and one not allowed, each located at its key.
            #"{"data":[{"type":"a","id":"1","attributes":{"t":"xxxxxxxxxxxxxxxx"}},{"type":"a","id":"2"}],"included":[{"type":"b","id":"9"}],"included":[{"type":"c","id":"3"}],"data":null}"#,
            #"{"data":[{"type":"a","id":"1","attributes":{"t":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}],"meta":{"m":1},"meta":{"n":2},"ext:x":1,"bad key":2,"links":{"self":"/a"}}"#,
        ]
        for text in documents {
            let bytes = Array(text.utf8)
            Self.check(bytes)
            Self.check(bytes, lenient: true)
        }
    }

    @Test("rule violations inside ignored members and non-object elements, after the window slid")
    func violationsInsideIgnoredValues() {
        let filler = String(repeating: "x", count: 90)
        let text =
            #"{"data":[{"type":"a","id":"1"}],"included":[{"type":"b","id":"2","attributes":{"t":"\#(filler)"}},"#
            + #"{"type":"b","id":"3","relationship=":{"author":{"da=a":{"type":"c","id":"4"}}},"meta":{"a b":1}}]}"#
        // The same inside a repeated `included`, whose value the builder does not keep.
        let repeated =
            #"{"data":[{"type":"a","id":"1"}],"included":[{"type":"b","id":"2","attributes":{"t":"\#(filler)"}}],"#
            + #""included":[{"type":"b","id":"5"},{"type":"b","id":"3","relationship=":{"author":{"da=a":1}}}],"meta":{"a b":[{"c=d":2}]}}"#
        // Elements of `data` and `included` that are not objects, before resources and after a slide.
        let skipped =
            #"{"data":[7,{"type":"a","id":"1","attributes":{"t":"\#(filler)"}},[{"x=y":1}],{"type":"a","id":"2"}],"#
            + #""included":[{"type":"b","id":"2","attributes":{"t":"\#(filler)"}},1,"#
            + #"{"type":"b","id":"3","attributes":{"a=b":1}},null]}"#
        for document in [text, repeated, skipped] {
            for kind in ParsingOptions.Kind.allCases {
                Self.check(Array(document.utf8), kind: kind)
                Self.check(Array(document.utf8), lenient: true, kind: kind)
            }
        }
    }

    @Test(
        "random documents of the differential model: hard ids, duplicates, forward references, lids, few and many types"
    )
    func randomModelDocuments() {
        let iterations = ProcessInfo.processInfo.environment["JSONAPI_STREAM_ITERATIONS"].flatMap { Int($0) } ?? 120
        for iteration in 0..<iterations {
            var generator = RandomModelDocuments(seed: 0x5EED &+ UInt64(iteration) &* 0x9E37_79B9)
            let model = generator.document(
                typeCount: iteration % 3 == 0 ? .thousands(1100) : iteration % 3 == 1 ? .hundreds : .few)
            let bytes = model.render().bytes
            let kind: ParsingOptions.Kind = model.kind == ModelDocument.Kind.linkage ? .relationshipUpdate : .response
            Self.check(bytes, kind: kind, windows: [64, 700], chunks: [[], [5, 1, 33]])
            Self.check(bytes, lenient: true, kind: kind, windows: [64, 700], chunks: [[], [5, 1, 33]])
        }
    }

    @Test("every split of small documents into two chunks, with a window that slides inside every resource")
    func everySplit() {
        var generator = CompoundDocumentGenerator(resources: 6, seed: 5)
        generator.idScheme = .escaped
        let bytes = generator.generate()
        let splits = (1..<bytes.count).map { [$0, bytes.count] }
        Self.check(bytes, windows: [64, 300], chunks: splits)
    }

    @Test("views kept past later parts stay correct")
    func keptViews() throws {
        let bytes = CompoundDocumentGenerator(resources: 60, seed: 9).generate()
        let document = try Document(parsing: bytes)
        var stream = try ResourceStream(options: Self.options(window: 256))
        var kept: [StreamedResource] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 100)
            try bytes[offset..<end].withUnsafeBytes { try stream.feed($0) }
            offset = end
            while let part = try stream.next() { if case .resource(let r) = part { kept.append(r) } }
        }
        try stream.finish()
        while let part = try stream.next() { if case .resource(let r) = part { kept.append(r) } }
        let all = Array(document.primaryResources) + Array(document.included)
        #expect(kept.count == all.count)
        for (streamed, whole) in zip(
            kept.sorted { $0.offset < $1.offset }, all.sorted { $0.byteOffset < $1.byteOffset })
        {
            #expect(streamed.object.rawJSON.jsonString() == whole.rawJSON.jsonString())
            #expect(streamed.object.byteOffset == whole.byteOffset)
        }
        #expect(stream.statistics.slides > 0)
    }

    @Test("strict mode hands out the parts before the first error, never the resource it is in")
    func partsBeforeAnError() throws {
        let cases: [(String, Int, JSONAPIError.Code)] = [
            (
                #"{"data":[{"type":"a","id":"0"},{"type":"a","id":"1"},{"type":"a","id":2},{"type":"a","id":"3"}]}"#, 2,
                .specViolation
            ),
            (#"{"data":[{"type":"a","id":"0"},{"type":"a","id":"2","attributes":{"n":2"#, 1, .unexpectedEnd),
            (#"{"data":[{"type":"a","id":"0"},{"type":"a","id":"0"}]}"#, 1, .duplicateResource),
            (#"{"meta":{"a":1},"data":[{"type":"a","id":"0"},{"type":"a","id":"1","x":1}]}"#, 2, .specViolation),
        ]
        for (text, expected, code) in cases {
            for chunk in [1, 5, 1000] {
                let bytes = Array(text.utf8)
                var stream = try ResourceStream(options: Self.options(window: 64))
                var parts: [String] = []
                var failure: JSONAPIError?
                do {
                    var offset = 0
                    while offset < bytes.count {
                        let end = min(bytes.count, offset + chunk)
                        try stream.feed(bytes[offset..<end])
                        offset = end
                        while let part = try stream.next() { parts.append("\(part)") }
                    }
                    try stream.finish()
                    while let part = try stream.next() { parts.append("\(part)") }
                } catch {
                    failure = error
                }
                #expect(parts.count == expected, "\(text), chunks of \(chunk): \(parts)")
                #expect(failure?.code == code, "\(text), chunks of \(chunk)")
                // The failure stays.
                #expect(throws: JSONAPIError.self) { _ = try stream.next() }
            }
        }
    }

    @Test("options are validated")
    func invalidOptions() {
        var small = ResourceStream.Options()
        small.windowBytes = 8
        #expect(throws: JSONAPIError.self) { _ = try ResourceStream(options: small) }
        var yajl = ResourceStream.Options()
        yajl.parsing.backend = ParsingOptions.Backend(name: "other", makeTokenizer: nil)
        #expect(throws: JSONAPIError.self) { _ = try ResourceStream(options: yajl) }
        var huge = ResourceStream.Options()
        huge.maximumUnitBytes = 1 << 32
        #expect(throws: JSONAPIError.self) { _ = try ResourceStream(options: huge) }
    }
}
