#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Where a stream's bytes come from: a file descriptor or path read in windows, or any
// `AsyncSequence` of byte chunks. And what the parts become: typed models.

extension ResourceStream {
    /// Reads up to `maximumBytes` from `descriptor` straight into the window (no intermediate
    /// copy); returns false at end of file.
    ///
    /// - Throws: ``JSONAPIError/Code/io`` when `read(2)` fails, and what ``feed(_:)-(UnsafeRawBufferPointer)`` throws.
    public mutating func feed(readingFrom descriptor: Int32, maximumBytes: Int = 1 << 20) throws(JSONAPIError) -> Bool {
        if let failure { throw failure }
        guard !finishRequested else {
            throw JSONAPIError(.invalidOption, "bytes were fed to a ResourceStream after finish()")
        }
        let want = max(1, maximumBytes)
        if window.freeCapacity < want && head == queue.count && scanned == window.count {
            try makeRoom()
        }
        ensureUniqueWindow()
        var got = 0
        repeat {
            got = window.append(readingFrom: descriptor, limit: want)
        } while got < 0 && errno == EINTR
        if got < 0 {
            let code = errno
            throw fail(
                JSONAPIError(
                    .io, "reading the input failed: \(unsafe String(cString: strerror(code)))", offset: stats.bytesFed))
        }
        if got == 0 { return false }
        stats.bytesFed &+= got
        try checkUnitSize()
        return true
    }

    /// Streams the file at `path`, calling `body` with each part in document order; returns the
    /// stream's statistics and diagnostics. The file is read in windows with `read(2)`, so a
    /// file of any size is read in the memory one resource needs.
    ///
    /// ```swift
    /// var count = 0
    /// let summary = try ResourceStream.forEachPart(inFileAt: "catalogue.json") { part in
    ///     if case .resource = part { count += 1 }
    /// }
    /// print(count, summary.diagnostics)
    /// ```
    public static func forEachPart(
        inFileAt path: String, options: Options = Options(), _ body: (StreamPart) throws -> Void
    ) throws -> Summary {
        let descriptor = unsafe open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let code = errno
            throw JSONAPIError(.io, "cannot open \(path): \(unsafe String(cString: strerror(code)))", offset: -1)
        }
        defer { close(descriptor) }
        #if os(Linux)
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
        var stream = try ResourceStream(options: options)
        let chunk = max(1 << 16, min(options.windowBytes / 2, 1 << 20))
        while try stream.feed(readingFrom: descriptor, maximumBytes: chunk) {
            while let part = try stream.next() { try body(part) }
        }
        try stream.finish()
        while let part = try stream.next() { try body(part) }
        return stream.summary
    }

    /// What a finished stream found: its diagnostics and statistics.
    public struct Summary: Sendable {
        /// Warnings (and in lenient mode errors), in the order found.
        public var diagnostics: [Diagnostic]
        /// Problems found but not kept (``ParsingOptions/maximumDiagnostics``).
        public var unrecordedDiagnosticCount: Int
        /// Memory and work.
        public var statistics: Statistics
    }

    /// The diagnostics and statistics so far.
    public var summary: Summary {
        Summary(diagnostics: diagnostics, unrecordedDiagnosticCount: uncountedDiagnostics, statistics: statistics)
    }
}

// MARK: - Typed resources

extension StreamedResource {
    /// Decodes the resource into `Model` (a ``JSONAPIResource``, a ``ResourceUnion`` or any
    /// `Decodable` shaped as a resource).
    ///
    /// Relationships decode as identifiers (``Identifier``, `[Identifier]`,
    /// ``ResourceIdentifier``): a stream cannot resolve linkage, so a relationship typed as a
    /// model fails to decode (or, with ``DecodingOptions/ignoresMissingResources``, is left out),
    /// and ``Lazy`` resolves to nothing.
    public func decode<Model: Decodable>(as type: Model.Type, options: DecodingOptions = DecodingOptions()) throws
        -> Model
    {
        let session = DecodingSession(storage: object.storage, options: options)
        return try session.run { decoder in
            try decoder.unbox(Model.self, .resource(UInt32(object.recordIndex)), key: .index(index))
        }
    }

    /// Whether `Model` (a ``JSONAPIResource`` or a ``ResourceUnion``) takes resources of this
    /// resource's type; true for any other `Decodable`.
    public func isOfType<Model: Decodable>(_ type: Model.Type) -> Bool {
        if let union = Model.self as? any ResourceUnion.Type {
            return union.memberTypes.contains(object.type)
        }
        if let resource = Model.self as? any JSONAPIResource.Type {
            return resource.resourceType == object.type
        }
        return true
    }
}

extension ResourceUnion {
    static var memberTypes: [String] { members.map(\.resourceType) }
}

/// A ``ResourceStream`` over any `AsyncSequence` of byte chunks (`URLSession` bytes in blocks,
/// NIO `ByteBuffer` views, file chunks): the parts, in document order.
///
/// ```swift
/// for try await part in AsyncResourceStream(response.body) {
///     if case .resource(let resource) = part { print(resource.object.type) }
/// }
/// for try await article in AsyncResourceStream(body).resources(of: Article.self) {
///     try await database.insert(article)
/// }
/// ```
///
/// The stream awaits the next chunk only when the bytes so far complete no part, so memory is
/// bounded as for ``ResourceStream``. A view from a part stays valid after the next one; keeping
/// many keeps their windows alive.
public struct AsyncResourceStream<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Collection<UInt8> {
    public typealias Element = StreamPart

    let base: Base
    let options: ResourceStream.Options

    /// Streams `base`'s bytes.
    public init(_ base: Base, options: ResourceStream.Options = ResourceStream.Options()) {
        self.base = base
        self.options = options
    }

    /// The parts' iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        final class State {
            var stream: ResourceStream
            init(_ stream: consuming ResourceStream) { self.stream = stream }
        }

        var chunks: Base.AsyncIterator
        let state: State?
        let failure: JSONAPIError?
        var ended = false

        /// The next part, or nil at the end.
        public mutating func next() async throws -> StreamPart? {
            if let failure { throw failure }
            guard let state else { return nil }
            while true {
                if let part = try state.stream.next() { return part }
                if ended { return nil }
                if let chunk = try await chunks.next() {
                    try state.stream.feed(chunk)
                } else {
                    try state.stream.finish()
                    ended = true
                }
            }
        }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        do {
            let stream = try ResourceStream(options: options)
            return AsyncIterator(chunks: base.makeAsyncIterator(), state: .init(stream), failure: nil)
        } catch {
            return AsyncIterator(chunks: base.makeAsyncIterator(), state: nil, failure: error)
        }
    }

    /// The resources of `Model`'s type (or a ``ResourceUnion``'s member types), decoded as they
    /// arrive, in document order, primary and included alike.
    ///
    /// Relationships decode as identifiers only (see ``StreamedResource/decode(as:options:)``).
    public func resources<Model: Decodable & Sendable>(
        of type: Model.Type, options decoding: DecodingOptions = DecodingOptions()
    ) -> AsyncThrowingCompactMapSequence<Self, Model> {
        self.compactMap { part in
            guard case .resource(let resource) = part, resource.isOfType(Model.self) else { return nil }
            return try resource.decode(as: Model.self, options: decoding)
        }
    }
}
