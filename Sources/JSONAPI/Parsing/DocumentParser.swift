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
        driver.reserveCapacity(forDocumentBytes: expected)
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
            let error = unsafe ParseDriver.located(
                JSONAPIError.at(
                    limit, .documentTooLarge,
                    "the document is longer than \(limit) bytes (ParsingOptions.maximumDocumentBytes)"),
                in: unsafe input.bytes)
            failed = error
            throw error
        }
        // A copied parser shares the buffer until one of them writes: copy on write.
        if !isKnownUniquelyReferenced(&input), let copy = input.copy() { input = copy }
        guard unsafe input.append(chunk) else {
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
        unsafe chunk.withUnsafeBytes { buffer in
            do throws(JSONAPIError) { unsafe try feed(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Tokenizes the next chunk (for example a Foundation `Data` or a NIO `ByteBufferView`).
    public mutating func feed<Bytes: Collection>(_ chunk: Bytes) throws(JSONAPIError) where Bytes.Element == UInt8 {
        if let done: Void = unsafe try chunk.withContiguousStorageIfAvailableTyped({ (buffer) throws(JSONAPIError) in
            unsafe try feed(UnsafeRawBufferPointer(buffer))
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
        let output = unsafe driver.finish(all: input.bytes)
        return unsafe try Document(bytes: .buffer(input), output: output, options: driver.options)
    }

    private mutating func run(from base: Int, isFinal: Bool) throws(JSONAPIError) {
        let all = unsafe input.bytes
        let result: JSONAPIError?
        do throws(JSONAPIError) {
            unsafe try driver.feed(all: all, from: base, isFinal: isFinal)
            result = nil
        } catch {
            result = unsafe ParseDriver.located(error, in: all)
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
            do throws(E) { return unsafe try body(buffer) } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return result ?? nil
    }
}
