/// Parses a document that arrives in pieces: feed chunks of any size as they come (split
/// anywhere, even inside a string or a multi-byte character), then call ``finish()``.
///
/// The result is identical to parsing the whole buffer at once. Bytes are tokenized as they
/// arrive, so syntax errors and limit violations surface at the chunk that contains them, and
/// the parser keeps one contiguous copy of the input (the document's views read it later).
///
/// ```swift
/// var parser = DocumentParser()
/// for try await chunk in body {          // e.g. an HTTP response body
///     try parser.feed(chunk)
/// }
/// let document = try parser.finish()
/// ```
public struct DocumentParser {
    private var driver: ParseDriver
    private var input: InputBuffer
    private var failed: JSONAPIError?
    private var finished = false

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - options: Document kind, strictness, limits and backend.
    ///   - expectedByteCount: The document's size if known (say from `Content-Length`), so the
    ///     input buffer is allocated once instead of growing.
    ///
    /// Options out of their documented range (``ParsingOptions/validate()``) make the first
    /// ``feed(_:)-(UnsafeRawBufferPointer)`` or ``finish()`` throw.
    public init(options: ParsingOptions = ParsingOptions(), expectedByteCount: Int = 0) {
        do throws(JSONAPIError) {
            try options.validate()
        } catch {
            failed = error
        }
        driver = ParseDriver(options: options)
        let expected = failed == nil ? min(max(expectedByteCount, 0), options.maximumDocumentBytes) : 0
        driver.builder.reserveCapacity(forDocumentBytes: expected)
        input = InputBuffer(reserving: expected, recycles: options.recyclesMemory)
    }

    /// Tokenizes the next chunk.
    ///
    /// - Throws: ``JSONAPIError`` as soon as the bytes so far cannot start a valid document;
    ///   every later call throws the same error.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(JSONAPIError) {
        if let failed { throw failed }
        guard !finished else { throw JSONAPIError(.invalidJSON, "feed(_:) called after finish()") }
        let base = input.count
        let limit = driver.options.maximumDocumentBytes
        if chunk.count > limit - base {
            let error = ParseDriver.located(
                JSONAPIError.at(
                    limit, .documentTooLarge,
                    "the document is longer than \(limit) bytes (ParsingOptions.maximumDocumentBytes)"),
                in: input.bytes)
            failed = error
            throw error
        }
        // A copied parser shares the buffer until one of them writes: copy on write.
        if !isKnownUniquelyReferenced(&input), let copy = input.copy() { input = copy }
        guard input.append(chunk) else {
            let error = JSONAPIError(
                .documentTooLarge, "out of memory holding a \(base + chunk.count)-byte document", offset: base)
            failed = error
            throw error
        }
        try run(from: base, isFinal: false)
    }

    /// Tokenizes the next chunk.
    public mutating func feed(_ chunk: [UInt8]) throws(JSONAPIError) {
        var failure: JSONAPIError?
        chunk.withUnsafeBytes { buffer in
            do throws(JSONAPIError) { try feed(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Tokenizes the next chunk (for example a Foundation `Data` or a NIO `ByteBufferView`).
    public mutating func feed<Bytes: Collection>(_ chunk: Bytes) throws(JSONAPIError) where Bytes.Element == UInt8 {
        if let done: Void = try chunk.withContiguousStorageIfAvailableTyped({ (buffer) throws(JSONAPIError) in
            try feed(UnsafeRawBufferPointer(buffer))
        }) {
            return done
        }
        try feed([UInt8](chunk))
    }

    /// Ends the input and returns the document.
    ///
    /// - Throws: ``JSONAPIError`` when the input is incomplete or breaks a rule (all problems together).
    public mutating func finish() throws(JSONAPIError) -> Document {
        if let failed { throw failed }
        guard !finished else { throw JSONAPIError(.invalidJSON, "finish() called twice") }
        finished = true
        try run(from: input.count, isFinal: true)
        driver.builder.input = input.bytes
        let output = driver.builder.finish()
        return try Document(bytes: .buffer(input), output: output, options: driver.options)
    }

    private mutating func run(from base: Int, isFinal: Bool) throws(JSONAPIError) {
        let all = input.bytes
        let result: JSONAPIError?
        do throws(JSONAPIError) {
            try driver.feed(all: all, from: base, isFinal: isFinal)
            result = nil
        } catch {
            result = ParseDriver.located(error, in: all)
        }
        if let result {
            failed = result
            throw result
        }
    }
}

extension Collection {
    /// `withContiguousStorageIfAvailable` for a body with a typed error.
    fileprivate func withContiguousStorageIfAvailableTyped<R, E: Error>(
        _ body: (UnsafeBufferPointer<Element>) throws(E) -> R
    ) throws(E) -> R? {
        var failure: E?
        let result = withContiguousStorageIfAvailable { buffer -> R? in
            do throws(E) { return try body(buffer) } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return result ?? nil
    }
}

/// Runs the chosen tokenizer over the input and owns the builder; shared by whole-buffer and
/// chunked parsing so both take exactly the same path.
struct ParseDriver {
    var builder: DocumentBuilder
    var scanner: JSONScanner
    var custom: (any DocumentTokenizer)?
    let options: ParsingOptions

    init(options: ParsingOptions) {
        self.options = options
        builder = DocumentBuilder(options: options)
        scanner = JSONScanner(maximumDepth: options.maximumDepth, maximumStringBytes: options.maximumStringBytes)
        custom = options.backend.makeTokenizer?(options)
    }

    /// Tokenizes `all[base...]`; `all` is every byte received so far.
    mutating func feed(all: UnsafeRawBufferPointer, from base: Int, isFinal: Bool) throws(JSONAPIError) {
        builder.input = all
        let chunk = UnsafeRawBufferPointer(rebasing: all[min(base, all.count)...])
        if var tokenizer = custom {
            defer { custom = tokenizer }
            try tokenizer.feed(chunk, baseOffset: base, isFinal: isFinal, into: &builder)
        } else {
            try scanner.scan(chunk, baseOffset: base, isFinal: isFinal, into: &builder)
        }
    }

    /// Fills in line, column and pointer of an error from the bytes.
    static func located(_ error: JSONAPIError, in bytes: UnsafeRawBufferPointer) -> JSONAPIError {
        guard error.offset >= 0, error.line == 0 else { return error }
        var error = error
        let offset = min(error.offset, bytes.count)
        if let location = SourceLocator.locate(offsets: [offset], in: bytes).first {
            error.line = location.line
            error.column = location.column
            error.pointer = location.pointer
        }
        return error
    }

    /// Turns pending diagnostics into located ones, in document order.
    static func locate(
        _ pending: [DocumentBuilder.PendingDiagnostic], uncounted: Int, in bytes: UnsafeRawBufferPointer
    ) -> [Diagnostic] {
        guard !pending.isEmpty else { return [] }
        let sorted = pending.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        let locations = SourceLocator.locate(offsets: sorted.map { max(0, min($0.offset, bytes.count)) }, in: bytes)
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
