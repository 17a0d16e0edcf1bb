/// Reads a JSON:API document of any size in bounded memory: bytes go in as they arrive, and
/// each resource of `data` and `included` comes out as soon as its object is complete, followed
/// (or preceded, in document order) by the top-level `meta`, `links`, `jsonapi`, `errors` and
/// extension members.
///
/// ```swift
/// var stream = try ResourceStream()
/// for chunk in chunks {
///     try stream.feed(chunk)
///     while let part = try stream.next() {
///         if case .resource(let resource) = part { print(resource.pointer, resource.object.type) }
///     }
/// }
/// try stream.finish()
/// while let part = try stream.next() { … }
/// print(stream.diagnostics)                     // warnings, e.g. unreachable included resources
/// ```
///
/// Or from a file, in windows read with `read(2)`:
///
/// ```swift
/// let summary = try ResourceStream.forEachPart(inFileAt: "export.json") { part in … }
/// ```
///
/// **Memory.** The stream keeps a window of the input: bytes before the first one still needed
/// (the open resource's `{`, or the scanner's position between resources) are released when
/// the window is full, so memory is bounded by the largest single resource (or top-level member
/// other than `data` and `included`, which are read element by element) plus a few bytes per
/// resource for the document-wide rules, not by the document. Positions are 64-bit: there is no
/// 4 GiB ceiling.
///
/// **Rules.** Every rule the in-memory parser checks is checked: the per-object rules by the
/// same builder, the top-level shape at the end, `(type, id)` uniqueness through an exact
/// identity index (every id is stored in a canonical form, so no two ids are ever confused), and
/// full linkage, reported when the input ends (an included resource that arrives before anything
/// links to it is remembered by key until the end). In strict mode the first error is thrown by
/// ``next()`` after every part before it has been handed out; in lenient mode it joins
/// ``diagnostics`` and the stream goes on. Syntax errors are fatal in both modes.
///
/// **Views.** A part's views (``StreamedResource/object`` and the top-level parts) read the
/// stream's window. Keeping one past the next call is safe: the stream then leaves the window
/// to the views and continues in a copy, so memory grows by what is kept. Relationships carry
/// identifiers only: a stream cannot resolve linkage (the target may be gone or still to come),
/// so ``Relationship/resolvedResource`` is nil.
///
/// - Note: A relationship document (``ParsingOptions/Kind/relationshipUpdate``, whose `data` is
///   linkage) is read whole: its primary data is not split into parts.
public struct ResourceStream: ~Copyable {
    /// What a ``ResourceStream`` checks and how much memory it may use.
    public struct Options: Sendable, Hashable {
        /// The parser's options: strict or lenient, the document kind, limits. The backend must
        /// be ``ParsingOptions/Backend/scanner`` (the default).
        /// ``ParsingOptions/maximumDocumentBytes`` does not apply to a stream (see
        /// ``maximumUnitBytes``); ``ParsingOptions/maximumResourceCount`` counts the whole stream.
        public var parsing: ParsingOptions
        /// The window's starting size in bytes (default 1 MiB, at least 64 bytes). A resource larger
        /// than the window makes it grow.
        public var windowBytes: Int = 1 << 20
        /// The largest single unit the window may hold (one resource, or a top-level member
        /// other than `data` and `included`): default 256 MiB, at most 2 GiB. A larger one is a
        /// ``JSONAPIError/Code/documentTooLarge`` error at its start.
        public var maximumUnitBytes: Int = 256 << 20
        /// Whether repeated `(type, id)` pairs are reported (default true); needs a few bytes of
        /// memory per resource (see ``ResourceStream/Statistics/identityIndexBytes``). Full
        /// linkage (``ParsingOptions/checksFullLinkage``) needs the same index.
        public var checksUniqueness: Bool = true
        /// Whether diagnostics get a line and column (default true); costs a line count of every
        /// byte as it is released.
        public var countsLines: Bool = true

        /// Creates options.
        public init(parsing: ParsingOptions = ParsingOptions()) {
            self.parsing = parsing
        }

        func validated() throws(JSONAPIError) -> Options {
            guard windowBytes >= 64, windowBytes <= maximumUnitBytes else {
                throw JSONAPIError(
                    .invalidOption,
                    "ResourceStream.Options.windowBytes must be at least 64 and at most maximumUnitBytes, got \(windowBytes)"
                )
            }
            // Releasing bytes inside a resource means restarting the tokenizer there: the built-in
            // scanner restarts before an array element (`JSONScanner.restartBeforeArrayElement`);
            // libyajl's state is private to it.
            guard parsing.backend == .scanner else {
                throw JSONAPIError(
                    .invalidOption,
                    "ResourceStream reads with the built-in scanner; the \(parsing.backend) backend cannot restart inside a document, which releasing bytes needs"
                )
            }
            guard maximumUnitBytes <= 1 << 31 else {
                throw JSONAPIError(
                    .invalidOption,
                    "ResourceStream.Options.maximumUnitBytes must be at most 2 GiB (2147483648), got \(maximumUnitBytes)"
                )
            }
            return self
        }
    }

    /// How the stream has used memory and time so far.
    public struct Statistics: Sendable, Hashable {
        /// Bytes fed.
        public var bytesFed = 0
        /// Resources handed out (or, for those after a strict error, completed).
        public var resources = 0
        /// Times the window released bytes.
        public var slides = 0
        /// Bytes scanned twice because a resource was open when the window slid.
        public var rescannedBytes = 0
        /// The window's capacity now.
        public var windowCapacity = 0
        /// Keys (resources and the identifiers they name) in the identity index.
        public var identityKeys = 0
        /// Bytes the identity index uses.
        public var identityIndexBytes = 0
        /// Included resources that arrived before anything linked to them, kept until the end
        /// to decide full linkage.
        public var deferredResources = 0

        /// Zero everywhere: a stream that has read nothing.
        public init() {}
    }

    // MARK: State

    let options: Options
    var driver: ParseDriver
    /// The window: absolute bytes `origin ..< origin + window.count`.
    var window: InputBuffer
    var origin = 0
    /// Window bytes the tokenizer has seen.
    var scanned = 0
    /// Records in the arena before this one are in the queue or were handed out.
    var queuedRecords = 0
    /// Records before this one went into the identity index.
    var trackedRecords = 0
    var queuedErrors = 0
    var errorsHandedOut = 0
    var queuedMembers = 0
    var queuedTop: (meta: Bool, links: Bool, jsonapi: Bool) = (false, false, false)
    /// Parts ready to hand out, in document order, and the next one.
    var queue: [Pending] = []
    var head = 0
    /// The views' storage for the current window and records, made when a part is handed out.
    var storage: DocumentStorage?
    /// Elements of each section counted so far (resources handed out, and elements that are not
    /// resource objects before the last of them), and at the arena's start.
    var sectionCounts = (primary: 0, included: 0)
    /// The arena's skipped elements before this one are in `sectionCounts`.
    var skippedCounted = 0
    var arenaSectionBase = (primary: 0, included: 0)
    var failure: JSONAPIError?
    var finishRequested = false
    var ended = false
    /// Lines and columns at `origin`.
    var lines = LineCounter()
    /// The absolute offset of the top-level object's `{`, once the window has slid past it.
    var documentStart = 0
    var identity: IdentityIndex?
    var localIdentity: IdentityIndex?
    var linkage = DeferredLinkage()
    /// What the resources `linkage` deferred are reported by, in the same order.
    var deferredResources: [DeferredResource] = []
    var sawIncluded = false
    var primaryLinkageTracked = false
    var scratch: [UInt8] = []
    var keys: [IdentityIndex.EncodedKey] = []
    /// Problems found so far (warnings, and in lenient mode errors), located, in the order found.
    public internal(set) var diagnostics: [Diagnostic] = []
    var uncountedDiagnostics = 0
    var stats = Statistics()

    enum Pending {
        case resource(Int)
        case meta(ByteRange), links(ByteRange), jsonapi(ByteRange)
        case error(Int)
        case member(Int)

        var sortKey: Int {
            switch self {
            case .resource(let r): Int(r)
            case .meta, .links, .jsonapi, .error, .member: 0
            }
        }
    }

    /// Creates a stream.
    ///
    /// - Throws: ``JSONAPIError/Code/invalidOption`` for options out of range.
    public init(options: Options = Options()) throws(JSONAPIError) {
        let options = try options.validated()
        self.options = options
        driver = ParseDriver(options: options.parsing)
        window = InputBuffer(reserving: options.windowBytes)
        driver.reserveCapacity(forDocumentBytes: options.windowBytes)
        if options.checksUniqueness || options.parsing.checksFullLinkage {
            identity = IdentityIndex()
        }
        stats.windowCapacity = window.capacity
    }

    /// How the stream has used memory and time so far.
    public var statistics: Statistics {
        var s = stats
        s.windowCapacity = window.capacity
        s.identityKeys = (identity?.keyCount ?? 0) + (localIdentity?.keyCount ?? 0)
        s.identityIndexBytes =
            (identity?.footprint ?? 0) + (localIdentity?.footprint ?? 0) + linkage.footprint
            + deferredResources.reduce(0) { $0 + MemoryLayout<DeferredResource>.stride + $1.id.count }
        s.deferredResources = deferredResources.count
        return s
    }

    /// The absolute offset (64-bit) of the next byte to be fed.
    public var bytesFed: Int { stats.bytesFed }

    // MARK: Feeding

    /// Appends bytes: any split, even inside a token. Parts they complete come out of ``next()``.
    ///
    /// Call ``next()`` until it returns nil before feeding more: only then can the window
    /// release bytes (feeding more first is correct, and makes the window grow).
    ///
    /// - Throws: the stream's failure, if it failed; ``JSONAPIError/Code/documentTooLarge`` when
    ///   one unit exceeds ``Options/maximumUnitBytes``; ``JSONAPIError/Code/invalidOption``
    ///   after ``finish()``.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(JSONAPIError) {
        if let failure { throw failure }
        guard !finishRequested else {
            throw JSONAPIError(.invalidOption, "bytes were fed to a ResourceStream after finish()")
        }
        guard unsafe !bytes.isEmpty else { return }
        stats.bytesFed &+= bytes.count
        if window.capacity &- window.count < bytes.count && head == queue.count && scanned == window.count {
            try makeRoom()
        }
        ensureUniqueWindow()
        guard window.reserveFree(bytes.count), unsafe window.append(bytes) else {
            throw fail(JSONAPIError(.documentTooLarge, "out of memory for the stream's window", offset: origin))
        }
        try checkUnitSize()
    }

    /// Fails the stream when the open unit has outgrown ``Options/maximumUnitBytes``.
    mutating func checkUnitSize() throws(JSONAPIError) {
        let unitStart = openUnitStart ?? 0
        guard window.count &- unitStart > options.maximumUnitBytes else { return }
        throw fail(
            JSONAPIError(
                .documentTooLarge,
                "one unit of the document (a resource or a top-level member) is larger than \(options.maximumUnitBytes) bytes (ResourceStream.Options.maximumUnitBytes)",
                offset: origin &+ unitStart))
    }

    /// Appends bytes from any collection (see ``feed(_:)-(UnsafeRawBufferPointer)``).
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(JSONAPIError) {
        var done = false
        var thrown: JSONAPIError?
        bytes.withContiguousStorageIfAvailable { buffer in
            done = true
            do throws(JSONAPIError) { try unsafe feed(UnsafeRawBufferPointer(buffer)) } catch { thrown = error }
        }
        if let thrown { throw thrown }
        if !done {
            let array = Array(bytes)
            unsafe array.withUnsafeBytes { buffer in
                do throws(JSONAPIError) { try unsafe feed(buffer) } catch { thrown = error }
            }
            if let thrown { throw thrown }
        }
    }

    /// Ends the input. The parts the last bytes complete, and the end-of-document diagnostics
    /// (the top-level shape, full linkage), come out of ``next()``.
    public mutating func finish() throws(JSONAPIError) {
        if let failure { throw failure }
        finishRequested = true
    }

    // MARK: Parts

    /// The next complete part, or nil when the bytes fed so far complete no more (feed more; after
    /// ``finish()``, nil means the end).
    ///
    /// - Throws: the first error (strict mode: syntax or rule; lenient mode: syntax), once every
    ///   part before it has been handed out; then again on every call.
    public mutating func next() throws(JSONAPIError) -> StreamPart? {
        while true {
            if head < queue.count {
                let item = queue[head]
                head &+= 1
                return part(item)
            }
            if let failure { throw failure }
            if scanned < window.count || (finishRequested && !ended) {
                scan()
                continue
            }
            return nil
        }
    }

    /// Whether ``finish()`` was called and every part has been handed out.
    public var isAtEnd: Bool { ended && head == queue.count && failure == nil }

    @discardableResult
    mutating func fail(_ error: JSONAPIError) -> JSONAPIError {
        if failure == nil { failure = error }
        return failure ?? error
    }

    /// Makes sure nothing but the stream holds the window before it changes.
    mutating func ensureUniqueWindow() {
        storage = nil
        if !isKnownUniquelyReferenced(&window) {
            // A view kept from an earlier part reads the old window; it keeps it.
            window = window.copy() ?? InputBuffer(reserving: window.capacity)
        }
    }

    /// The storage the views of the current parts read.
    mutating func currentStorage() -> DocumentStorage {
        if let storage { return storage }
        let made = unsafe DocumentStorage(
            bytes: .buffer(window), arena: driver.arena, diagnostics: [], options: options.parsing,
            stream: location)
        storage = made
        return made
    }

    /// Adds the arena's elements that are not resource objects before window offset `end` to
    /// ``sectionCounts``, once each.
    mutating func countSkippedElements(before end: Int) {
        let skipped = driver.arena.skippedElements
        while skippedCounted < skipped.count && Int(skipped[skippedCounted].range.start) < end {
            if skipped[skippedCounted].isIncluded { sectionCounts.included &+= 1 } else { sectionCounts.primary &+= 1 }
            skippedCounted &+= 1
        }
    }

    mutating func part(_ item: Pending) -> StreamPart {
        let storage = currentStorage()
        switch item {
        case .resource(let r):
            let record = storage.arena.resources[r]
            let included = record.flags.contains(.isIncluded)
            countSkippedElements(before: Int(record.object.start))
            let index: Int
            if included {
                index = sectionCounts.included
                sectionCounts.included &+= 1
            } else {
                index = sectionCounts.primary
                sectionCounts.primary &+= 1
            }
            let single = !included && storage.arena.topLevel.data == .one
            return .resource(
                StreamedResource(
                    object: ResourceObject(storage: storage, recordIndex: r),
                    section: included ? .included : .primary, index: index,
                    offset: origin &+ Int(record.object.start), isSingle: single))
        case .meta(let range): return .meta(JSONObject(storage: storage, range: range))
        case .links(let range):
            return .links(Links(storage: storage, present: range))
        case .jsonapi(let range): return .jsonapi(ImplementationInfo(value: JSONValue(storage: storage, range: range)))
        case .error(let i):
            let index = errorsHandedOut
            errorsHandedOut &+= 1
            return .error(ErrorObject(JSONValue(storage: storage, range: storage.arena.errors[i])), index: index)
        case .member(let i):
            let member = Document(storage: storage).extensionMembers[i]
            return .member(name: member.name, value: member.value)
        }
    }
}

/// One part of a streamed document, in document order.
public enum StreamPart: Sendable {
    /// A resource of `data` or `included`.
    case resource(StreamedResource)
    /// The top-level `meta`.
    case meta(JSONObject)
    /// The top-level `links`.
    case links(Links)
    /// The top-level `jsonapi` object.
    case jsonapi(ImplementationInfo)
    /// One element of the top-level `errors`, with its index.
    case error(ErrorObject, index: Int)
    /// A top-level member the base specification does not define (an extension member, an
    /// @-member, or in lenient mode an unknown member).
    case member(name: String, value: JSONValue)
}

/// A resource handed out by a ``ResourceStream``: its view and where it is in the document.
public struct StreamedResource: Sendable {
    /// Primary data or `included`.
    public enum Section: String, Sendable, Hashable {
        /// An element of `data` (or the single resource of `data`).
        case primary
        /// An element of `included`.
        case included
    }

    /// The resource: type, id, `lid`, attributes, relationships (identifiers only: a stream
    /// cannot resolve linkage), links and meta.
    public let object: ResourceObject
    /// Where the resource is.
    public let section: Section
    /// Its position in `data` or in `included` (0-based). An element that is not a resource
    /// object (which a lenient read reports and reads past) counts: the index is the one its JSON
    /// Pointer names.
    public let index: Int
    /// The absolute byte offset (64-bit) of its `{`.
    public let offset: Int
    let isSingle: Bool

    /// Its JSON Pointer: `/data/3`, `/included/123456`, or `/data` for a single resource.
    public var pointer: String {
        switch section {
        case .primary: isSingle ? "/data" : "/data/\(index)"
        case .included: "/included/\(index)"
        }
    }

    /// The resource object's raw bytes (valid inside `body` only).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let range = object.record.object
        return try object.storage.withView { view in try unsafe view.subview(range).withUnsafeBytes(body) }
    }
}
