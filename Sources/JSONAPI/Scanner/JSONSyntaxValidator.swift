/// Checks that bytes are one well-formed JSON text (RFC 8259), whole or as they arrive.
///
/// It accepts exactly what the library's parser accepts: one value of any type with only
/// whitespace around it, strictly valid UTF-8 (no byte order mark), escapes with paired
/// surrogates, and objects and arrays nested at most `maximumDepth` deep. It keeps no bytes and
/// builds nothing, so it runs at the scanner's speed in constant memory.
///
/// Check a whole buffer, with line, column and JSON Pointer filled in on failure:
///
/// ```swift
/// do {
///     try JSONSyntaxValidator.validate(Array(#"{"data": [1, 2,]}"#.utf8))
/// } catch {
///     print(error)  // 1:16: error: expected a value after ',' in an array, found ']' (/data/2)
/// }
/// ```
///
/// Or feed it chunks as they arrive:
///
/// ```swift
/// var validator = JSONSyntaxValidator()
/// for try await chunk in body {
///     try validator.feed(chunk)
/// }
/// try validator.finish()
/// ```
///
/// A streaming error carries its byte offset, line and column. Its ``JSONAPIError/pointer`` is
/// left empty (the streaming form keeps no keys); ``validate(_:maximumDepth:)-([UInt8],_)``
/// fills it. The line and column are left 0 in the one case the validator cannot know them: an
/// error whose offset lies more than 16 bytes before the chunk being fed (a string longer than
/// the scanner's limit).
public struct JSONSyntaxValidator: Sendable {
    /// How many bytes of the previous chunks are kept to place errors that point back into them.
    static let tailCapacity = 16

    var scanner: JSONScanner
    var failure: JSONAPIError?
    /// Line and column at `scanner.bytesConsumed`.
    var lines = LineCounter()
    /// The last bytes before `scanner.bytesConsumed` (at most `tailCapacity`), and the line and
    /// column at their start.
    var tail: [UInt8] = []
    var tailLines = LineCounter()

    /// Creates a validator.
    ///
    /// - Parameters:
    ///   - maximumDepth: The most objects and arrays that may be open at once.
    ///   - structuralIndex: The kernel that finds structural positions ahead of the scanner's
    ///     state machine (``StructuralIndex/automatic``, the fastest this processor runs, by
    ///     default); every choice gives the same verdict and the same error.
    public init(maximumDepth: Int = 512, structuralIndex: StructuralIndex = .automatic) {
        scanner = JSONScanner(maximumDepth: maximumDepth, structuralIndex: structuralIndex)
    }

    /// The number of bytes fed so far.
    public var bytesConsumed: Int { scanner.bytesConsumed }

    /// Checks the next chunk of the input.
    ///
    /// - Throws: The first syntax error, with its offset, line and column. After an error, every
    ///   later call throws it again.
    /// - Complexity: O(`bytes.count`).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(JSONAPIError) {
        unsafe try scan(bytes, isFinal: false)
    }

    /// Checks the next chunk of the input.
    ///
    /// - Throws: The first syntax error, with its offset, line and column. After an error, every
    ///   later call throws it again.
    /// - Complexity: O(`bytes.count`); collections without contiguous storage are copied in pieces.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(JSONAPIError) {
        let result = bytes.withContiguousStorageIfAvailable { buffer -> JSONAPIError? in
            do throws(JSONAPIError) {
                unsafe try scan(UnsafeRawBufferPointer(buffer), isFinal: false)
                return nil
            } catch {
                return error
            }
        }
        switch result {
        case .some(.some(let error)):
            throw error
        case .some(.none):
            return
        case .none:
            var piece: [UInt8] = []
            piece.reserveCapacity(1 << 16)
            for byte in bytes {
                piece.append(byte)
                if piece.count == 1 << 16 {
                    try feedPiece(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
            try feedPiece(piece)
        }
    }

    /// Ends the input.
    ///
    /// - Throws: ``JSONAPIError/Code/unexpectedEnd`` when the input stopped inside the value (or
    ///   held none), or the error an earlier call threw.
    public mutating func finish() throws(JSONAPIError) {
        // SAFETY: an empty buffer reads nothing.
        unsafe try scan(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true)
    }

    /// Checks a whole document.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - maximumDepth: The most objects and arrays that may be open at once.
    /// - Throws: The first syntax error, with its offset, line, column and JSON Pointer.
    /// - Complexity: O(`bytes.count`).
    public static func validate(_ bytes: [UInt8], maximumDepth: Int = 512) throws(JSONAPIError) {
        let failure = unsafe bytes.withUnsafeBytes { unsafe check($0, maximumDepth: maximumDepth) }
        if let failure { throw failure }
    }

    /// Checks a whole document.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - maximumDepth: The most objects and arrays that may be open at once.
    /// - Throws: The first syntax error, with its offset, line, column and JSON Pointer.
    /// - Complexity: O(`bytes.count`).
    public static func validate(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512) throws(JSONAPIError) {
        if let failure = unsafe check(bytes, maximumDepth: maximumDepth) { throw failure }
    }

    // MARK: Implementation

    /// The located error of a whole document, if any.
    static func check(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int) -> JSONAPIError? {
        var scanner = JSONScanner(maximumDepth: maximumDepth)
        var handler = SyntaxOnlyHandler()
        do {
            unsafe try scanner.scan(bytes, baseOffset: 0, isFinal: true, into: &handler)
            return nil
        } catch {
            var located = error
            if let location = unsafe SourceLocator.locate(offsets: [error.offset], in: bytes).first {
                located.line = location.line
                located.column = location.column
                located.pointer = location.pointer
            }
            return located
        }
    }

    /// Feeds bytes gathered from a collection without contiguous storage.
    mutating func feedPiece(_ piece: [UInt8]) throws(JSONAPIError) {
        let failure = unsafe piece.withUnsafeBytes { buffer -> JSONAPIError? in
            do throws(JSONAPIError) {
                unsafe try scan(buffer, isFinal: false)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Scans a chunk; keeps the line count and the tail up to date, and locates an error.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws(JSONAPIError) {
        if let failure { throw failure }
        let base = scanner.bytesConsumed
        var handler = SyntaxOnlyHandler()
        do {
            unsafe try scanner.scan(bytes, baseOffset: base, isFinal: isFinal, into: &handler)
        } catch {
            var located = error
            if let (line, column) = unsafe place(error.offset, chunk: bytes, base: base) {
                located.line = line
                located.column = column
            }
            failure = located
            throw located
        }
        unsafe record(bytes)
    }

    /// The line and column of `offset`, if it lies in the chunk or the kept tail.
    func place(_ offset: Int, chunk: UnsafeRawBufferPointer, base: Int) -> (line: Int, column: Int)? {
        if offset >= base {
            var counter = lines
            // SAFETY: `offset >= base` here, and the end is clamped to the chunk.
            unsafe counter.advance(over: UnsafeRawBufferPointer(rebasing: chunk[0..<min(offset &- base, chunk.count)]))
            return (counter.line, counter.column)
        }
        let tailStart = base &- tail.count
        guard offset >= tailStart else { return nil }
        var counter = tailLines
        // SAFETY: `tailStart <= offset` and the tail holds the bytes up to `offset`.
        unsafe tail.withUnsafeBytes {
            unsafe counter.advance(over: UnsafeRawBufferPointer(rebasing: $0[0..<(offset &- tailStart)]))
        }
        return (counter.line, counter.column)
    }

    /// Moves the line count and the tail past a chunk that scanned cleanly.
    mutating func record(_ chunk: UnsafeRawBufferPointer) {
        let capacity = Self.tailCapacity
        // SAFETY: the slices end inside the chunk (`chunk.count >= capacity`) and inside the tail (`excess <
        // tail.count`).
        if chunk.count >= capacity {
            unsafe lines.advance(over: UnsafeRawBufferPointer(rebasing: chunk[0..<(chunk.count &- capacity)]))
            tailLines = lines
            tail = unsafe Array(chunk[(chunk.count &- capacity)...])
            unsafe tail.withUnsafeBytes { unsafe lines.advance(over: $0) }
        } else if unsafe !chunk.isEmpty {
            unsafe lines.advance(over: chunk)
            unsafe tail.append(contentsOf: chunk)
            let excess = tail.count &- capacity
            if excess > 0 {
                unsafe tail.withUnsafeBytes {
                    // SAFETY: `0 < excess < tail.count`: the slice lies inside the buffer.
                    unsafe tailLines.advance(over: UnsafeRawBufferPointer(rebasing: $0[0..<excess]))
                }
                tail.removeFirst(excess)
            }
        }
    }
}

/// The handler of a syntax check: every event is fine.
struct SyntaxOnlyHandler: JSONEventHandler {
    @inline(__always) mutating func beginObject(at offset: Int) throws(JSONAPIError) {}
    @inline(__always) mutating func endObject(at offset: Int) throws(JSONAPIError) {}
    @inline(__always) mutating func beginArray(at offset: Int) throws(JSONAPIError) {}
    @inline(__always) mutating func endArray(at offset: Int) throws(JSONAPIError) {}
    @inline(__always) mutating func key(_ token: JSONStringToken) throws(JSONAPIError) {}
    @inline(__always) mutating func string(_ token: JSONStringToken) throws(JSONAPIError) {}
    @inline(__always) mutating func number(_ token: JSONNumberToken) throws(JSONAPIError) {}
    @inline(__always) mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError) {}
}

@_spi(Backend)
extension JSONSyntaxValidator {
    /// The first error the library's scanner finds in `bytes` (all of the input so far) with
    /// these limits, at its offset (line, column and pointer are left for the parser to fill
    /// in); nil when there is none.
    ///
    /// A tokenizer backend whose own errors are worded and placed differently (yajl's lexer
    /// reports some errors a byte late, and under codes of its own) calls this once it has found
    /// that the input is bad, so that every backend reports the same error at the same offset.
    ///
    /// - Complexity: O(`bytes.count`).
    public static func firstError(
        in bytes: UnsafeRawBufferPointer, isFinal: Bool, maximumDepth: Int, maximumStringBytes: Int
    ) -> JSONAPIError? {
        var scanner = JSONScanner(maximumDepth: maximumDepth, maximumStringBytes: maximumStringBytes)
        var handler = SyntaxOnlyHandler()
        do {
            unsafe try scanner.scan(bytes, baseOffset: 0, isFinal: isFinal, into: &handler)
            return nil
        } catch {
            return error
        }
    }
}
