@_spi(Backend) import JSONAPI

/// The `stream` fuzz target: `ResourceStream` against `Document(parsing:)` on the same bytes,
/// with options, window size and chunk sizes chosen from the input. The stream must agree with
/// the document on every resource (offset, section, identity, raw object), every top-level part,
/// every diagnostic (severity, code, offset, pointer) and on whether the input is rejected; a
/// rejection must name an error the document also finds (or, when the document stops at a syntax
/// error, a rule error before it: the stream reports errors in the order it reads).
enum StreamCheck {
    struct Part: Equatable, Comparable {
        var offset: Int
        var text: String
        static func < (a: Part, b: Part) -> Bool { (a.offset, a.text) < (b.offset, b.text) }
    }

    struct Outcome {
        var parts: [Part] = []
        var diagnostics: [String] = []
        var failure: JSONAPIError?
    }

    static func resourceText(_ resource: ResourceObject, section: String, index: Int) -> String {
        "\(section) \(index) \(resource.identifier) included:\(resource.isIncluded) \(resource.rawJSON.jsonString())"
    }

    static func line(_ d: Diagnostic) -> String {
        "\(d.severity) \(d.code) @\(d.offset) \(d.pointer) \(d.message)"
    }

    static func document(_ bytes: [UInt8], options: ParsingOptions) -> Outcome {
        var outcome = Outcome()
        do {
            let document = try Document(parsing: bytes, options: options)
            // Each resource's place in its section from a walk of the whole document: an element
            // that is not a resource object (read on in lenient mode) counts.
            let resources =
                document.primaryResources.map { ($0, "primary") } + document.included.map { ($0, "included") }
            let places = bytes.withUnsafeBytes { SourceLocator.locate(offsets: resources.map(\.0.byteOffset), in: $0) }
            for ((r, section), place) in zip(resources, places) {
                let index = place.pointer.split(separator: "/").last.flatMap { Int($0) } ?? 0
                outcome.parts.append(Part(offset: r.byteOffset, text: resourceText(r, section: section, index: index)))
            }
            if let v = document.meta?.jsonValue {
                outcome.parts.append(Part(offset: v.byteOffset, text: "meta \(v.jsonString())"))
            }
            if let v = document.links?.jsonValue {
                outcome.parts.append(Part(offset: v.byteOffset, text: "links \(v.jsonString())"))
            }
            if let v = document.jsonapi?.jsonValue {
                outcome.parts.append(Part(offset: v.byteOffset, text: "jsonapi \(v.jsonString())"))
            }
            for (i, e) in document.errors.enumerated() {
                outcome.parts.append(
                    Part(offset: e.jsonValue.byteOffset, text: "error \(i) \(e.jsonValue.jsonString())"))
            }
            for m in document.extensionMembers {
                outcome.parts.append(Part(offset: m.value.byteOffset, text: "member \(m.name) \(m.value.jsonString())"))
            }
            outcome.parts.sort()
            outcome.diagnostics = document.diagnostics.map(line).sorted()
        } catch {
            outcome.failure = error
        }
        return outcome
    }

    static func stream(_ bytes: [UInt8], options: ResourceStream.Options, sizes: [Int]) -> Outcome {
        var outcome = Outcome()
        func take(_ part: StreamPart) {
            switch part {
            case .resource(let r):
                outcome.parts.append(
                    Part(offset: r.offset, text: resourceText(r.object, section: r.section.rawValue, index: r.index)))
            case .meta(let m):
                let v = m.jsonValue
                outcome.parts.append(Part(offset: v?.byteOffset ?? -1, text: "meta \(v?.jsonString() ?? "")"))
            case .links(let l):
                outcome.parts.append(Part(offset: l.jsonValue.byteOffset, text: "links \(l.jsonValue.jsonString())"))
            case .jsonapi(let j):
                outcome.parts.append(Part(offset: j.jsonValue.byteOffset, text: "jsonapi \(j.jsonValue.jsonString())"))
            case .error(let e, let i):
                outcome.parts.append(
                    Part(offset: e.jsonValue.byteOffset, text: "error \(i) \(e.jsonValue.jsonString())"))
            case .member(let name, let value):
                outcome.parts.append(Part(offset: value.byteOffset, text: "member \(name) \(value.jsonString())"))
            }
        }
        do throws(JSONAPIError) {
            var stream = try ResourceStream(options: options)
            var offset = 0
            for size in sizes where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                try stream.feed(bytes[offset..<end])
                offset = end
                while let part = try stream.next() { take(part) }
            }
            try stream.finish()
            while let part = try stream.next() { take(part) }
            outcome.parts.sort()
            outcome.diagnostics = stream.diagnostics.map(line).sorted()
        } catch {
            outcome.failure = error
        }
        return outcome
    }

    static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        var parsing = plan.parsingOptions()
        parsing.maximumDiagnostics = 1 << 20
        var options = ResourceStream.Options(parsing: parsing)
        options.windowBytes = 64 + plan.next(below: 4096)
        let sizes = plan.chunkSizes(covering: bytes.count)
        let whole = document(bytes, options: parsing)
        let streamed = stream(bytes, options: options, sizes: sizes)
        let setting =
            "window \(options.windowBytes), \(parsing.kind), lenient \(parsing.isLenient), chunks \(sizes.prefix(20))"
        switch (whole.failure, streamed.failure) {
        case (nil, nil):
            if streamed.parts != whole.parts {
                let first = zip(streamed.parts, whole.parts).first { $0 != $1 }
                throw FuzzFailure(
                    "\(setting): parts differ (\(streamed.parts.count) vs \(whole.parts.count)): \(String(describing: first))"
                )
            }
            // Unreachable resources are decided at the end in a stream, without their lines.
            if streamed.diagnostics != whole.diagnostics {
                let onlyStreamed = streamed.diagnostics.filter { !whole.diagnostics.contains($0) }
                let onlyWhole = whole.diagnostics.filter { !streamed.diagnostics.contains($0) }
                throw FuzzFailure(
                    "\(setting): diagnostics differ (\(streamed.diagnostics.count) vs \(whole.diagnostics.count)); "
                        + "only the stream's: \(onlyStreamed.prefix(5)), only the document's: \(onlyWhole.prefix(5))")
            }
        case (let expected?, let got?):
            let documentErrors = Set(
                expected.diagnostics.filter { $0.severity == .error }.map { "\($0.code) @\($0.offset)" })
            let agrees =
                (got.code == expected.code && got.offset == expected.offset)
                || (expected.code.isSyntaxError && !got.code.isSyntaxError && got.offset < expected.offset)
                || documentErrors.contains("\(got.code) @\(got.offset)")
            if !agrees {
                throw FuzzFailure("\(setting): the stream failed with \(got), the document with \(expected)")
            }
            guard (0...bytes.count).contains(got.offset) else {
                throw FuzzFailure("\(setting): error offset \(got.offset) outside the input")
            }
        case (nil, let got?):
            throw FuzzFailure("\(setting): the document parsed, the stream failed with \(got)")
        case (let expected?, nil):
            throw FuzzFailure("\(setting): the stream accepted what the document rejected with \(expected)")
        }
    }
}
