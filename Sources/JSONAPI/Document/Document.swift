/// A parsed JSON:API document: immutable, `Sendable`, cheap to copy.
///
/// Parsing checks the bytes against RFC 8259 and the JSON:API 1.1 grammar and builds a compact
/// arena of records plus a (type, id) index. Everything you read from it (resources,
/// attributes, relationships, links, meta, errors) is a small view that decodes on access.
///
/// ```swift
/// let document = try Document(parsing: #"""
///     {"data": {"type": "articles", "id": "1", "attributes": {"title": "Rails is Omakase"},
///               "relationships": {"author": {"data": {"type": "people", "id": "9"}}}},
///      "included": [{"type": "people", "id": "9", "attributes": {"name": "Dan"}}]}
///     """#)
/// let article = document.primaryResources[0]
/// print(article.attributes["title"]?.stringValue ?? "")            // Rails is Omakase
/// let author = article.relationship("author")?.resolvedResource
/// print(author?.attributes["name"]?.stringValue ?? "")             // Dan
/// print(document.resource(type: "people", id: "9") != nil)         // true, in O(1)
/// ```
public struct Document: Sendable {
    @usableFromInline let storage: DocumentStorage
    /// The decoding state of ``decodingOptions`` (nil: the defaults), which the typed views share.
    /// Out of line, so that a document stays two words: copied cheaply, and held in an
    /// existential's inline buffer without a box.
    private var optionsSession: DecodingSession?

    init(storage: DocumentStorage) {
        self.storage = storage
    }

    /// The document a decode hands back (in a report, a ``CompoundDocument``): it keeps the
    /// options that decode was given, and shares its state.
    init(session: DecodingSession) {
        storage = session.storage
        optionsSession = session
    }

    /// The options the typed views use when a call passes none: ``primary(as:options:)``,
    /// ``included(of:options:)``, ``resources(of:options:)``, ``resource(_:id:options:)`` and
    /// ``decode(_:options:)``.
    ///
    /// Every document a ``JSONAPIDecoder`` makes has the decoder's options, so its key and date
    /// strategies reach every typed view: one parsed by ``JSONAPIDecoder/document(from:)-([UInt8])``,
    /// a ``DecodingReport/document``, a ``CompoundDocument/document``. So has the report's
    /// document of a typed view (``TypedResourceCollection/decodeAllReporting()``), with the
    /// options that view decoded with. A document parsed with ``init(parsing:options:)-(Bytes,_)``
    /// has the defaults.
    ///
    /// ```swift
    /// let decoder = JSONAPIDecoder()
    /// decoder.keyDecodingStrategy = .convertFromKebabCase
    /// let document = try decoder.document(from: data)
    /// let articles = try document.primary(as: Article.self).decodeAll()   // kebab-case keys
    /// ```
    public var decodingOptions: DecodingOptions {
        get { optionsSession?.given ?? DecodingOptions() }
        set { optionsSession = DecodingSession(storage: storage, options: newValue) }
    }

    /// The state a typed view decodes with: one for `options` when given, else the one of
    /// ``decodingOptions`` (made once and shared).
    func session(_ options: DecodingOptions?) -> DecodingSession {
        if let options { return DecodingSession(storage: storage, options: options) }
        return optionsSession ?? DecodingSession(storage: storage, options: DecodingOptions())
    }

    /// Parses a complete document held in an array, without copying it.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 bytes of the document. The document keeps a reference to the array.
    ///   - options: Document kind, strictness, limits and tokenizer backend.
    /// - Throws: ``JSONAPIError`` with every problem found, each with offset, line, column and pointer.
    /// - Complexity: O(n) in the input length.
    public init(parsing bytes: [UInt8], options: ParsingOptions = ParsingOptions()) throws(JSONAPIError) {
        let storageBytes = unsafe DocumentStorage.Bytes.array(bytes)
        self = unsafe try Document.build(storageBytes, options: options)
    }

    /// Parses a complete document from any collection of bytes, such as Foundation's `Data`
    /// (copied once into an array the document keeps).
    public init<Bytes: Collection>(parsing bytes: Bytes, options: ParsingOptions = ParsingOptions())
        throws(JSONAPIError) where Bytes.Element == UInt8
    {
        try self.init(parsing: [UInt8](bytes), options: options)
    }

    /// Parses a complete document from a string's UTF-8.
    public init(parsing text: String, options: ParsingOptions = ParsingOptions()) throws(JSONAPIError) {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// Parses a complete document from raw memory, copying the bytes once.
    ///
    /// To parse without any copy, use ``withParsing(_:options:_:)-(UnsafeRawBufferPointer,_,_)``.
    public init(parsing buffer: UnsafeRawBufferPointer, options: ParsingOptions = ParsingOptions())
        throws(JSONAPIError)
    {
        unsafe try self.init(parsing: [UInt8](buffer), options: options)
    }

    /// Parses bytes in place, without copying them, and passes the document to `body`.
    ///
    /// The document reads `buffer` directly, so neither it nor any view taken from it may be
    /// used after `body` returns (the same contract as `withUnsafeBytes`).
    ///
    /// ```swift
    /// let count = try Document.withParsing(buffer) { $0.primaryResources.count }
    /// ```
    public static func withParsing<R>(
        _ buffer: UnsafeRawBufferPointer, options: ParsingOptions = ParsingOptions(),
        _ body: (Document) throws -> R
    ) throws -> R {
        let document = unsafe try build(.borrowed(buffer), options: options)
        return try body(document)
    }

    /// Parses the bytes of a `RawSpan` in place; see ``withParsing(_:options:_:)-(UnsafeRawBufferPointer,_,_)``.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    public static func withParsing<R>(
        _ span: RawSpan, options: ParsingOptions = ParsingOptions(), _ body: (Document) throws -> R
    ) throws -> R {
        unsafe try span.withUnsafeBytes { buffer in unsafe try withParsing(buffer, options: options, body) }
    }

    /// Builds a document from complete bytes with the chosen backend.
    static func build(_ bytes: DocumentStorage.Bytes, options: ParsingOptions) throws(JSONAPIError) -> Document {
        try options.validate()
        var driver = ParseDriver(options: options)
        let output: DocumentBuilder.Output = unsafe try bytes.withBytes { (buffer) throws(JSONAPIError) in
            guard buffer.count <= options.maximumDocumentBytes else {
                throw unsafe ParseDriver.located(
                    JSONAPIError.at(
                        options.maximumDocumentBytes, .documentTooLarge,
                        "the document is longer than \(options.maximumDocumentBytes) bytes (ParsingOptions.maximumDocumentBytes)"
                    ), in: unsafe buffer)
            }
            driver.reserveCapacity(forDocumentBytes: buffer.count)
            do throws(JSONAPIError) {
                unsafe try driver.feed(all: buffer, from: 0, isFinal: true)
            } catch {
                throw unsafe ParseDriver.located(error, in: buffer)
            }
            return unsafe driver.finish(all: buffer)
        }
        return unsafe try Document(bytes: bytes, output: output, options: options)
    }

    /// Locates diagnostics, then throws (strict, with errors) or wraps the arena.
    init(bytes: DocumentStorage.Bytes, output: DocumentBuilder.Output, options: ParsingOptions) throws(JSONAPIError) {
        let diagnostics = unsafe bytes.withBytes { buffer in
            unsafe ParseDriver.locate(output.pending, uncounted: output.uncounted, in: buffer, arena: output.arena)
        }
        if !options.isLenient && output.errorCount > 0, let first = diagnostics.first(where: { $0.severity == .error })
        {
            throw JSONAPIError(
                first.code, first.message, offset: first.offset, line: first.line, column: first.column,
                pointer: first.pointer, diagnostics: diagnostics)
        }
        unsafe self.init(
            storage: DocumentStorage(
                bytes: bytes, arena: output.arena, diagnostics: diagnostics, options: options,
                recyclesArena: output.recyclesArena))
    }

    /// Warnings (and, in lenient mode, the errors it let through), in document order.
    public var diagnostics: [Diagnostic] { storage.diagnostics }

    /// The options the document was parsed with.
    public var options: ParsingOptions { storage.options }

    /// Calls `body` with the document's input bytes.
    public func withUnsafeInputBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        unsafe try storage.withBytes(body)
    }

    /// Bytes the parsed structure occupies beyond the input itself (records, index, type table).
    public var arenaByteCount: Int { storage.arena.footprint }

    /// Frees the memory that released large documents left for reuse (see
    /// ``ParsingOptions/recyclesMemory``): for each power-of-two size class, at most one released
    /// document's record arrays and index, one build's scratch and one chunked input buffer. Call
    /// it when a process is done with large documents for a while.
    ///
    /// ```swift
    /// let count = try Document(parsing: hugeExport).included.count
    /// Document.releaseRecycledMemory()
    /// ```
    public static func releaseRecycledMemory() {
        ArenaShelf.active.empty()
    }
}

/// The shared, immutable state behind a ``Document`` and all its views.
///
/// `@safe`: its only unsafe storage is ``Bytes``, whose `.borrowed` memory stays valid for the
/// scope `Document.withParsing` documents (the `withUnsafeBytes` contract its caller accepts by
/// lending raw memory); the other cases own their bytes.
@safe
@usableFromInline
final class DocumentStorage: @unchecked Sendable {
    /// The input: an array the document keeps alive, or memory borrowed for a `withParsing` scope.
    ///
    /// `@unsafe`: `.borrowed` memory is valid only inside the `withParsing` call that lent it;
    /// whoever holds this value must not read it after that call returns.
    @unsafe
    enum Bytes {
        case array([UInt8])
        case borrowed(UnsafeRawBufferPointer)
        /// The bytes a ``DocumentParser`` collected, owned by the document from then on.
        case buffer(InputBuffer)

        @inline(__always)
        func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
            switch unsafe self {
            case .array(let array):
                // `withUnsafeBytes` is rethrows-only; carry a typed error through it by hand.
                var result: Result<R, E>?
                unsafe array.withUnsafeBytes { buffer in
                    do throws(E) { result = unsafe .success(try body(buffer)) } catch { result = .failure(error) }
                }
                switch result {
                case .success(let value)?: return value
                case .failure(let error)?: throw error
                // Unreached (`withUnsafeBytes` always calls its closure); an empty view reads nothing.
                case nil: return unsafe try ByteView.empty.withUnsafeBytes(body)
                }
            case .borrowed(let buffer):
                return unsafe try body(buffer)
            case .buffer(let input):
                return unsafe try body(input.bytes)
            }
        }
    }

    // SAFETY: every stored property is immutable after init. `Bytes.borrowed` holds memory that
    // `Document.withParsing` guarantees alive for the only scope in which the document may be used.
    let bytes: Bytes
    let arena: ResourceArena
    let diagnostics: [Diagnostic]
    let options: ParsingOptions

    /// Whether `arena`'s arrays go to ``ArenaShelf`` on release (see ``DocumentBuilder/Output``).
    let recyclesArena: Bool
    /// For the views of a ``ResourceStream``: where its window sits in the document (offsets in
    /// the arena are window offsets). Nil for a whole document.
    let stream: StreamLocation?

    init(
        bytes: Bytes, arena: ResourceArena, diagnostics: [Diagnostic], options: ParsingOptions,
        recyclesArena: Bool = false, stream: StreamLocation? = nil
    ) {
        unsafe self.bytes = bytes
        self.arena = arena
        self.diagnostics = diagnostics
        self.options = options
        self.recyclesArena = recyclesArena
        self.stream = stream
    }

    /// The absolute offset in the input of offset `offset` of the bytes.
    @inline(__always)
    func absolute(_ offset: Int) -> Int { (stream?.origin ?? 0) &+ offset }

    /// Locates byte offset `offset` of the bytes: absolute offset, line, column, pointer.
    func locate(_ offset: Int) -> (offset: Int, line: Int, column: Int, pointer: String) {
        unsafe withBytes { bytes in
            let clamped = min(max(0, offset), bytes.count)
            if let stream { return unsafe stream.locate(clamped, in: bytes, arena: arena) }
            let location = unsafe SourceLocator.locate(offsets: [clamped], in: bytes).first
            return (clamped, location?.line ?? 0, location?.column ?? 0, location?.pointer ?? "")
        }
    }

    deinit {
        if recyclesArena { ArenaShelf.active.put(arena) }
    }

    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch unsafe bytes {
        case .array(let array): return unsafe try array.withUnsafeBytes(body)
        case .borrowed(let buffer): return unsafe try body(buffer)
        case .buffer(let input): return unsafe try body(input.bytes)
        }
    }

    /// Runs `body` with a checked view of the input bytes; `body` must not keep the view.
    @inline(__always)
    func withView<R>(_ body: (ByteView) throws -> R) rethrows -> R {
        // SAFETY: the view is made inside `withBytes`, whose bytes stay valid while `body` runs.
        unsafe try withBytes { bytes in try body(unsafe ByteView(unsafeBytes: bytes)) }
    }
}
