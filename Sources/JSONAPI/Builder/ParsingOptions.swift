/// How a document is parsed: its kind, strictness, and the limits that keep hostile input cheap.
///
/// Every limit is checked as the bytes arrive, so an oversized input fails early with
/// a located error instead of exhausting memory.
///
/// ```swift
/// var options = ParsingOptions()
/// options.kind = .createRequest
/// options.maximumDepth = 64
/// let document = try Document(parsing: body, options: options)
/// ```
public struct ParsingOptions: Sendable, Hashable {
    /// Which kind of JSON:API document is expected. The kind decides a few rules: whether a
    /// resource may lack an `id`, and whether primary data holds resources or identifiers.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A server's response (the default): every resource has `type` and `id`.
        case response
        /// A create request (`POST /things`): the primary resource may omit `id` (and use a 1.1 `lid`).
        case createRequest
        /// An update request (`PATCH /things/1`): the primary resource has `type` and `id`.
        case updateRequest
        /// A relationship update (`PATCH|POST|DELETE /things/1/relationships/x`): primary data is
        /// linkage (`null`, one resource identifier, or an array of them).
        case relationshipUpdate
    }

    /// Which tokenizer turns bytes into events. Both build identical documents.
    ///
    /// The core library ships ``scanner``; the `JSONAPIYajl` product adds `.yajl`.
    public struct Backend: Hashable, Sendable, CustomStringConvertible {
        /// The backend's name, as the command-line tool spells it.
        public let name: String
        /// Makes a fresh tokenizer; nil for the built-in scanner.
        @_spi(Backend) public let makeTokenizer: (@Sendable (ParsingOptions) -> any DocumentTokenizer)?

        /// Registers a tokenizer under `name`.
        @_spi(Backend)
        public init(name: String, makeTokenizer: (@Sendable (ParsingOptions) -> any DocumentTokenizer)?) {
            self.name = name
            self.makeTokenizer = makeTokenizer
        }

        /// The handwritten byte-level scanner in this library (the default, and the fastest).
        public static let scanner = Backend(name: "scanner", makeTokenizer: nil)

        public var description: String { name }

        public static func == (lhs: Backend, rhs: Backend) -> Bool { lhs.name == rhs.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// The kind of document expected. Default: ``Kind/response``.
    public var kind: Kind = .response

    /// When `false` (the default), any broken MUST rule makes parsing throw, reporting every
    /// problem found. When `true`, problems that leave the document readable become warnings in
    /// ``Document/diagnostics`` and parsing keeps everything it can, so data from servers that
    /// do not quite follow the specification can still be read. Malformed JSON always throws.
    public var isLenient: Bool = false

    /// Maximum nesting of objects and arrays. Default 512: deep enough for any real document,
    /// shallow enough that consumers which do recurse (user `Decodable` types) stay safe.
    public var maximumDepth: Int = 512

    /// Maximum input size in bytes. Default 4 GiB minus 2, the most the arena's 32-bit offsets
    /// can address; lower it for services that take untrusted bodies.
    public var maximumDocumentBytes: Int = Int(UInt32.max) - 1

    /// Maximum length of one string's raw contents in bytes. Default 1 GiB.
    public var maximumStringBytes: Int = 1 << 30

    /// Maximum number of resource objects (primary plus included). Default 50 million.
    public var maximumResourceCount: Int = 50_000_000

    /// Maximum number of diagnostics recorded; the rest are counted but not kept. Default 1,000.
    public var maximumDiagnostics: Int = 1000

    /// Whether to check that every included resource is reachable from primary data through
    /// relationships ("full linkage"). Default `true`. An unreachable resource is always a
    /// warning, never an error, because sparse fieldsets may legitimately hide the linkage.
    public var checksFullLinkage: Bool = true

    /// The tokenizer. Default ``Backend/scanner``.
    public var backend: Backend = .scanner

    /// Whether a document of 2 MiB or more may reuse the memory that a released document of a
    /// similar size left behind, and leaves its own behind when it is released. Default `true`.
    ///
    /// A large build writes its records into tens of megabytes of fresh memory, and a chunked
    /// parse (``DocumentParser``) copies its input into a fresh buffer, which the system must map
    /// and zero page by page unless the allocator happens to keep it. Reusing released memory
    /// made repeated 100 MB builds about a tenth faster. What is kept: for each power-of-two size
    /// class, one released document's record arrays and index, one build's scratch, and (Linux)
    /// one chunked document's input buffer of 16 MB or more. It stays allocated after the last
    /// large document is released, until a build of that size takes it or
    /// ``Document/releaseRecycledMemory()`` frees it.
    public var recyclesMemory: Bool = true

    /// Creates the default options.
    public init() {}

    /// Creates options for a document kind.
    public init(kind: Kind, lenient: Bool = false) {
        self.kind = kind
        self.isLenient = lenient
    }
}
