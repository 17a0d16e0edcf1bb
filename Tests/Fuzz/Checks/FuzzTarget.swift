@_spi(Backend) import JSONAPI
import JSONAPIYajl

/// An invariant a fuzz check found broken: what broke, for the crash report.
public struct FuzzFailure: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// One fuzz target per entry point of the library. Each check is a function of the input bytes
/// that must never crash and throws ``FuzzFailure`` when one of its invariants is broken; the
/// libFuzzer driver traps on that error (so the input is kept as a crash) and the test target
/// replays committed inputs through the same checks.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `Document(parsing:)` with the default options; a document is walked view by view.
    case strict
    /// The same in lenient mode.
    case lenient
    /// The whole-buffer parse against `DocumentParser` fed in chunks sized from the input.
    case chunked
    /// The handwritten scanner against the libyajl backend.
    case backends
    /// The scanner with each structural index kernel against the byte-level scanner alone,
    /// whole and in chunks sized from the input: the same events and the same error.
    case index
    /// Parse, write, parse again: the same document.
    case roundtrip
    /// Hand-written `Decodable` models, lazily and eagerly, through every decoding entry point.
    case typed
    /// Every view, with options chosen from the input.
    case views
    /// `ResourceStream` against `Document(parsing:)`, with window and chunk sizes chosen from
    /// the input.
    case stream
    /// `JSONAPIQuery(parsing:rules:options:)` under rules and limits chosen from the input:
    /// refusals are well-formed, accepted queries write and parse back equal.
    case query
    /// Content negotiation (`Content-Type` and `Accept`): refusals are 415 and 406, accepted
    /// media types are supported and write headers that parse back to them.
    case negotiation
    /// Pagination links for a request target and page chosen from the input: the target's
    /// pieces kept in order, one locator per link, and the links written and read back.
    case links

    /// Runs the target's check on `bytes`.
    public func check(_ bytes: [UInt8]) throws(FuzzFailure) {
        switch self {
        case .strict: try Self.parseAndWalk(bytes, options: ParsingOptions())
        case .lenient: try Self.parseAndWalk(bytes, options: ParsingOptions(kind: .response, lenient: true))
        case .chunked: try Self.chunked(bytes)
        case .backends: try Self.backends(bytes)
        case .index: try Self.index(bytes)
        case .roundtrip: try Self.roundtrip(bytes)
        case .typed: try TypedCheck.run(bytes)
        case .views:
            var plan = InputPlan(bytes)
            try Self.parseAndWalk(bytes, options: plan.parsingOptions())
        case .stream: try StreamCheck.run(bytes)
        case .query: try HTTPChecks.query(bytes)
        case .negotiation: try HTTPChecks.negotiation(bytes)
        case .links: try HTTPChecks.links(bytes)
        }
    }

    // MARK: strict, lenient, views

    static func parseAndWalk(_ bytes: [UInt8], options: ParsingOptions) throws(FuzzFailure) {
        let outcome = ParseOutcome { () throws(JSONAPIError) in try Document(parsing: bytes, options: options) }
        try checkOutcome(outcome, bytes: bytes, options: options)
    }

    /// What holds of any single parse: a document's views keep their invariants, and an error
    /// lies within the input, with a location and at least one diagnostic that agrees with it.
    static func checkOutcome(_ outcome: ParseOutcome, bytes: [UInt8], options: ParsingOptions) throws(FuzzFailure) {
        if !outcome.problems.isEmpty {
            throw FuzzFailure("view invariants broken: \(outcome.problems.prefix(5))")
        }
        switch outcome.verdict {
        case .document:
            guard let document = outcome.document else { throw FuzzFailure("a document verdict without a document") }
            if document.diagnostics.count > options.maximumDiagnostics {
                throw FuzzFailure("\(document.diagnostics.count) diagnostics, limit \(options.maximumDiagnostics)")
            }
            if !options.isLenient, document.diagnostics.contains(where: { $0.severity == .error }) {
                throw FuzzFailure("a strict parse succeeded with an error diagnostic")
            }
            try checkLocations(document.diagnostics, bytes: bytes)
        case .failure(_, let offset, _, let diagnostics):
            guard (0...bytes.count).contains(offset) else {
                throw FuzzFailure("error offset \(offset) outside the \(bytes.count)-byte input")
            }
            do {
                _ = try Document(parsing: bytes, options: options)
                throw FuzzFailure("a second parse of the same bytes succeeded")
            } catch let error as JSONAPIError {
                let description = error.description
                if error.line < 1 || error.column < 1 || description.isEmpty {
                    throw FuzzFailure("error location \(error.line):\(error.column), description \(description)")
                }
            } catch let failure as FuzzFailure {
                throw failure
            } catch {
                throw FuzzFailure("unexpected error type \(error)")
            }
            try checkLocations(diagnostics, bytes: bytes)
        }
    }

    /// Every diagnostic's line, column and pointer are those `SourceLocator` gives for its
    /// offset by walking the whole document (the build finds them from its arena).
    static func checkLocations(_ diagnostics: [Diagnostic], bytes: [UInt8]) throws(FuzzFailure) {
        let located = diagnostics.filter { $0.offset >= 0 }
        let locations = bytes.withUnsafeBytes { SourceLocator.locate(offsets: located.map(\.offset), in: $0) }
        guard locations.count == located.count else {
            throw FuzzFailure("\(locations.count) locations for \(located.count) offsets")
        }
        for (diagnostic, location) in zip(located, locations) {
            if location.line < 1 || location.column < 1 || diagnostic.line != location.line
                || diagnostic.column != location.column || diagnostic.pointer != location.pointer
            {
                throw FuzzFailure(
                    "\(diagnostic) at \(diagnostic.line):\(diagnostic.column) \(diagnostic.pointer), located at "
                        + "\(location.line):\(location.column) \(location.pointer)")
            }
        }
    }

    // MARK: chunked

    static func chunked(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        let options = plan.parsingOptions()
        let whole = ParseOutcome { () throws(JSONAPIError) in try Document(parsing: bytes, options: options) }
        try checkOutcome(whole, bytes: bytes, options: options)
        let sizes = plan.chunkSizes(covering: bytes.count)
        let sized = plan.flip()
        let feeding = plan.next(below: 3)
        let chunked = ParseOutcome { () throws(JSONAPIError) in
            try feed(bytes, sizes: sizes, feeding: feeding, options: options, sized: sized)
        }
        if chunked != whole {
            throw FuzzFailure(
                "chunks \(sizes.prefix(40)) (sized: \(sized), feeding \(feeding)): whole \(whole) vs chunked \(chunked): "
                    + ParseOutcome.firstDifference(whole, chunked))
        }
    }

    /// Feeds `bytes` to a `DocumentParser` in chunks of `sizes`, through one of its three `feed`
    /// methods (`[UInt8]`, a raw buffer, any collection).
    static func feed(
        _ bytes: [UInt8], sizes: [Int], feeding: Int, options: ParsingOptions, sized: Bool
    ) throws(JSONAPIError) -> Document {
        var parser = DocumentParser(options: options, expectedByteCount: sized ? bytes.count : 0)
        var offset = 0
        for size in sizes {
            let end = min(bytes.count, offset + size)
            switch feeding {
            case 0: try parser.feed(Array(bytes[offset..<end]))
            case 1:
                let chunk = Array(bytes[offset..<end])
                // A `withUnsafeBytes` closure cannot throw a typed error: carry it out.
                let result: Result<Void, JSONAPIError> = chunk.withUnsafeBytes { buffer in
                    do throws(JSONAPIError) {
                        return .success(try parser.feed(buffer))
                    } catch {
                        return .failure(error)
                    }
                }
                try result.get()
            default: try parser.feed(bytes[offset..<end])
            }
            offset = end
        }
        return try parser.finish()
    }

    // MARK: backends

    static func backends(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        var scannerOptions = plan.parsingOptions()
        scannerOptions.backend = .scanner
        var yajlOptions = scannerOptions
        yajlOptions.backend = .yajl
        let scanner = ParseOutcome { () throws(JSONAPIError) in
            try Document(parsing: bytes, options: scannerOptions)
        }
        try checkOutcome(scanner, bytes: bytes, options: scannerOptions)
        let yajl = ParseOutcome { () throws(JSONAPIError) in try Document(parsing: bytes, options: yajlOptions) }
        try compareBackends(scanner, yajl, what: "whole", inputCount: bytes.count)
        if plan.flip() {
            let sizes = plan.chunkSizes(covering: bytes.count)
            let chunked = ParseOutcome { () throws(JSONAPIError) in
                try feed(bytes, sizes: sizes, feeding: 0, options: yajlOptions, sized: false)
            }
            try compareBackends(scanner, chunked, what: "yajl in chunks \(sizes.prefix(40))", inputCount: bytes.count)
        }
    }

    /// The same document, or the same error code and offset; for an error that is not a syntax
    /// error (the shared builder's verdict), the same message and diagnostics as well.
    static func compareBackends(_ scanner: ParseOutcome, _ yajl: ParseOutcome, what: String, inputCount: Int)
        throws(FuzzFailure)
    {
        switch (scanner.verdict, yajl.verdict) {
        case (.document, .document):
            if scanner != yajl {
                throw FuzzFailure("\(what): documents differ: " + ParseOutcome.firstDifference(scanner, yajl))
            }
        case (.failure(let code, let offset, _, _), .failure(let yajlCode, let yajlOffset, _, _)):
            if code != yajlCode || offset != yajlOffset || (!code.isSyntaxError && scanner != yajl) {
                throw FuzzFailure("\(what): scanner \(scanner) vs yajl \(yajl)")
            }
        default:
            throw FuzzFailure("\(what): scanner \(scanner) vs yajl \(yajl)")
        }
    }

    // MARK: index

    static func index(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        let sizes = plan.chunkSizes(covering: bytes.count)
        let reference = IndexScan(bytes, kernel: .off, sizes: nil)
        for kernel in StructuralIndex.availableKernels {
            let whole = IndexScan(bytes, kernel: kernel, sizes: nil)
            if whole != reference { throw FuzzFailure("\(kernel), whole: \(whole) vs byte-level \(reference)") }
            let chunked = IndexScan(bytes, kernel: kernel, sizes: sizes)
            if chunked != reference {
                throw FuzzFailure("\(kernel) in chunks \(sizes.prefix(40)): \(chunked) vs byte-level \(reference)")
            }
        }
    }

    // MARK: roundtrip

    static func roundtrip(_ bytes: [UInt8]) throws(FuzzFailure) {
        var plan = InputPlan(bytes)
        let options = ParsingOptions(kind: .response, lenient: plan.flip())
        let first: Document
        do { first = try Document(parsing: bytes, options: options) } catch { return }
        let compact = first.jsonBytes()
        let second = try reparse(compact, options: options, what: "compact")
        try compareWritten(first, second, sortsMembers: false, what: "compact")
        let again = second.jsonBytes()
        if again != compact {
            throw FuzzFailure(
                "writing is not idempotent: \(String(decoding: compact, as: UTF8.self).prefix(400)) then "
                    + "\(String(decoding: again, as: UTF8.self).prefix(400))")
        }
        let escapesSlashes = plan.flip()
        let pretty = first.jsonBytes(
            options: JSONWritingOptions(
                prettyPrinted: true, indent: 1 + plan.next(below: 4), sortsKeys: true, escapesSlashes: escapesSlashes))
        let third = try reparse(pretty, options: options, what: "pretty, sorted")
        // The pretty rewrite, written compact and sorted again, is the original's sorted compact
        // writing byte for byte: a check linear in the size of the document.
        let sorted = JSONWritingOptions(sortsKeys: true, escapesSlashes: escapesSlashes)
        if third.jsonBytes(options: sorted) != first.jsonBytes(options: sorted) {
            throw FuzzFailure("pretty, sorted output does not write back to the sorted compact writing")
        }
        // Walking views costs the depth times the size, and indentation makes a pretty document
        // quadratic in its depth: past a bound, walking it would be cubic (500 nested arrays, 1 KB
        // of input, took 14 s), so deep pretty rewrites are checked by the bytes above alone.
        if pretty.count <= 16 * compact.count + 65_536 {
            try compareWritten(first, third, sortsMembers: true, what: "pretty, sorted")
        }
    }

    private static func reparse(_ written: [UInt8], options: ParsingOptions, what: String) throws(FuzzFailure)
        -> Document
    {
        do {
            return try Document(parsing: written, options: options)
        } catch {
            throw FuzzFailure(
                "the \(what) output does not parse: \(describe(error)): \(String(decoding: written, as: UTF8.self).prefix(600))"
            )
        }
    }

    private static func compareWritten(_ a: Document, _ b: Document, sortsMembers: Bool, what: String)
        throws(FuzzFailure)
    {
        var x = ViewWalk(positions: false, sortsMembers: sortsMembers)
        x.walk(a)
        var y = ViewWalk(positions: false, sortsMembers: sortsMembers)
        y.walk(b)
        if x.digest != y.digest {
            throw FuzzFailure(
                "\(what) output parses to another document: " + ParseOutcome.firstDifference(x.digest, y.digest))
        }
        if !x.problems.isEmpty || !y.problems.isEmpty {
            throw FuzzFailure("view invariants broken: \((x.problems + y.problems).prefix(5))")
        }
        if !a.jsonValue.isEquivalent(to: b.jsonValue, ignoringMemberOrder: sortsMembers) {
            throw FuzzFailure("\(what) output is not equivalent to the input")
        }
    }
}
