/// Runs the chosen tokenizer over the input and owns the builder; shared by whole-buffer and
/// chunked parsing and the resource stream, so all take exactly the same path. Callers talk to
/// the driver only: the tokenizer and the builder are its own, changed only here.
struct ParseDriver {
    private(set) var builder: DocumentBuilder
    private(set) var scanner: JSONScanner
    private var custom: (any DocumentTokenizer)?
    let options: ParsingOptions

    init(options: ParsingOptions) {
        self.options = options
        builder = DocumentBuilder(options: options)
        scanner = JSONScanner(maximumDepth: options.maximumDepth, maximumStringBytes: options.maximumStringBytes)
        custom = options.backend.makeTokenizer?(options)
    }

    /// The records built so far.
    var arena: ResourceArena { builder.arena }

    /// Sizes the builder's record arrays for a document of about `byteCount` bytes.
    mutating func reserveCapacity(forDocumentBytes byteCount: Int) {
        builder.reserveCapacity(forDocumentBytes: byteCount)
    }

    /// Ends the build once the tokenizer has accepted the last byte of `all` (every byte of the
    /// document): the identifier index, linkage and the document-wide rules.
    mutating func finish(all: UnsafeRawBufferPointer) -> DocumentBuilder.Output {
        unsafe builder.input = all
        return builder.finish()
    }

    /// Tokenizes `all[base...]`; `all` is every byte received so far.
    mutating func feed(all: UnsafeRawBufferPointer, from base: Int, isFinal: Bool) throws(JSONAPIError) {
        unsafe builder.input = all
        // SAFETY: the view is used only during this call, while `all` is lent to it.
        let chunk = unsafe ByteView(unsafeBytes: all).subview(from: min(base, all.count))
        if var tokenizer = custom {
            defer { custom = tokenizer }
            unsafe try chunk.withUnsafeBytes { (chunk) throws(JSONAPIError) in
                unsafe try tokenizer.feed(chunk, baseOffset: base, isFinal: isFinal, into: &builder)
            }
        } else {
            unsafe try chunk.withUnsafeBytes { (chunk) throws(JSONAPIError) in
                unsafe try scanner.scan(chunk, baseOffset: base, isFinal: isFinal, into: &builder)
            }
        }
    }

    /// Fills in line, column and pointer of an error from the bytes.
    static func located(_ error: JSONAPIError, in bytes: UnsafeRawBufferPointer) -> JSONAPIError {
        guard error.offset >= 0, error.line == 0 else { return error }
        var error = error
        let offset = min(error.offset, bytes.count)
        if let location = unsafe SourceLocator.locate(offsets: [offset], in: bytes).first {
            error.line = location.line
            error.column = location.column
            error.pointer = location.pointer
        }
        return error
    }

    /// Turns pending diagnostics into located ones, in document order: lines and columns by
    /// counting line feeds up to each offset, pointers from the arena the build left
    /// (``StreamLocation/documentPointer(_:in:arena:)``), so a lenient read does not tokenize
    /// the document a second time.
    static func locate(
        _ pending: [DocumentBuilder.PendingDiagnostic], uncounted: Int, in bytes: UnsafeRawBufferPointer,
        arena: ResourceArena
    ) -> [Diagnostic] {
        guard !pending.isEmpty else { return [] }
        let sorted = pending.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        let view = unsafe ByteView(unsafeBytes: bytes)
        var lines = LineCounter()
        var locations: [SourceLocation] = []
        locations.reserveCapacity(sorted.count)
        for item in sorted {
            let o = max(0, min(item.offset, bytes.count))
            lines.advance(over: view, to: o)
            let pointer = unsafe StreamLocation.documentPointer(o, in: bytes, arena: arena)
            locations.append(SourceLocation(line: lines.line, column: lines.column, pointer: pointer))
        }
        var result: [Diagnostic] = []
        result.reserveCapacity(sorted.count + 1)
        for (item, location) in zip(sorted, locations) {
            result.append(
                Diagnostic(
                    severity: item.severity, code: item.code, message: item.message, offset: item.offset,
                    line: location.line, column: location.column, pointer: location.pointer))
        }
        if uncounted > 0 {
            result.append(
                Diagnostic(
                    severity: .warning, code: .specViolation,
                    message:
                        "\(uncounted) more problems were found but not recorded (ParsingOptions.maximumDiagnostics)",
                    offset: -1))
        }
        return result
    }
}

// MARK: - Window operations

// For a reader whose input is a sliding window (the resource stream): offsets are window
// coordinates, and the window's owner feeds the bytes. The driver asks its tokenizer and builder,
// each through its own window operations (`JSONScanner+Window.swift`,
// `DocumentBuilder+Window.swift`, `ResourceArena+Release.swift`).

extension ParseDriver {
    /// The window offset of the first byte the open unit (a resource of `data` or `included`, a
    /// top-level member) needs, or nil between units.
    var openUnitStart: Int? {
        if let frame = builder.openResourceFrame, builder.resourceFrameIsInArray { return Int(frame.start) }
        if scanner.isBetweenTokens && builder.isBetweenStreamUnits { return nil }
        return 0
    }

    /// The window offset of the `{` of the resource object being built, if one is open (its
    /// record is already in the arena).
    var openResourceStart: Int? { builder.openResourceFrame.map { Int($0.start) } }

    /// How many leading window bytes may be released now, and whether the kept bytes must then
    /// be scanned again from the first: inside an element of `data` or `included`, everything
    /// before its `{` goes and the element is read again; between units, everything scanned goes;
    /// inside anything else, nothing.
    var releasablePrefix: (count: Int, rescans: Bool) {
        if let frame = builder.openResourceFrame {
            return builder.resourceFrameIsInArray ? (Int(frame.start), true) : (0, false)
        }
        if scanner.isBetweenTokens && builder.isBetweenStreamUnits { return (scanner.bytesConsumed, false) }
        return (0, false)
    }

    /// Releases the window's first `count` bytes (``releasablePrefix``) and every record: the
    /// builder forgets its records (and, when `rescanning`, the open element), and the tokenizer
    /// moves to the new coordinates or, when `rescanning`, to before the element, whose bytes
    /// the caller feeds again from offset 0.
    mutating func releasePrefix(_ count: Int, rescanning: Bool) {
        builder.releaseRecords(rollingBack: rescanning, retainFrom: count)
        if rescanning {
            scanner.restartBeforeArrayElement()
        } else {
            scanner.rebase(droppingFirst: count)
        }
    }

    /// The builder's diagnostics before window offset `end` (see
    /// `DocumentBuilder.takeDiagnostics(before:)`).
    mutating func takeDiagnostics(before end: Int) -> (diagnostics: [DocumentBuilder.PendingDiagnostic], uncounted: Int)
    {
        builder.takeDiagnostics(before: end)
    }

    /// The document's frame while it is open: the top-level member being read, and its start.
    var documentFrame: DocumentBuilder.Frame? { builder.documentFrame }
}
