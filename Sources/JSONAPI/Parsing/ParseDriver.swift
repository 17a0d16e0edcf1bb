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

    /// Turns pending diagnostics into located ones, in document order.
    static func locate(
        _ pending: [DocumentBuilder.PendingDiagnostic], uncounted: Int, in bytes: UnsafeRawBufferPointer
    ) -> [Diagnostic] {
        guard !pending.isEmpty else { return [] }
        let sorted = pending.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        let locations = unsafe SourceLocator.locate(
            offsets: sorted.map { max(0, min($0.offset, bytes.count)) }, in: unsafe bytes)
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
