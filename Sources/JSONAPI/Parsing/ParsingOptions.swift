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

        /// Whether a relationship object must contain `data`: in the resource a create or an
        /// update sends, the linkage is what the request sets.
        var relationshipsNeedData: Bool { self == .createRequest || self == .updateRequest }
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
    /// Of resources that repeat a (type, id), the first is the one ``Document/resource(type:id:)``
    /// and linkage find; each later one is reported as a duplicate.
    public var isLenient: Bool = false

    /// Maximum nesting of objects and arrays. Default 512: deep enough for any real document,
    /// shallow enough that consumers which do recurse (user `Decodable` types) stay safe.
    ///
    /// At most ``depthCeiling``: parsing itself never recurses, but an owned ``JSON`` copied from
    /// a value is released, compared and hashed recursively, and must fit a thread's stack.
    public var maximumDepth: Int = 512

    /// Maximum input size in bytes. Default ``largestDocumentBytes``, the largest value allowed;
    /// lower it for services that take untrusted bodies. A larger document is read with
    /// ``ResourceStream``, which has no size limit.
    public var maximumDocumentBytes: Int = Self.largestDocumentBytes

    /// The largest ``maximumDocumentBytes`` allowed: 4 GiB minus 2 where `Int` has 64 bits, the
    /// most the arena's 32-bit offsets can address; 2 GiB minus 2 where `Int` has 32 bits
    /// (watchOS devices), so that every offset is an `Int`.
    public static let largestDocumentBytes = Int(clamping: UInt32.max) - 1

    /// The largest ``maximumResourceCount`` allowed: `UInt32.max - 1` where `Int` has 64 bits, the
    /// most the index can number; `Int32.max - 1` where it has 32.
    public static let largestResourceCount = Int(clamping: UInt32.max) - 1

    /// Maximum length of one string's raw contents in bytes. Default 1 GiB.
    public var maximumStringBytes: Int = 1 << 30

    /// Maximum number of resource objects (primary plus included). Default 50 million; at
    /// most ``largestResourceCount``.
    public var maximumResourceCount: Int = 50_000_000

    /// Maximum number of diagnostics recorded; the rest are counted but not kept. Default 1,000.
    public var maximumDiagnostics: Int = 1000

    /// The largest ``maximumDepth`` allowed: 2,048.
    ///
    /// Releasing an owned ``JSON`` tree takes about 160 bytes of stack per level, so a tree of
    /// this depth needs about 330 KB, which fits the 512 KB stacks of secondary threads on Apple
    /// platforms with room to spare. Documents nested deeper than this are not JSON:API
    /// documents anyone writes.
    public static let depthCeiling = 2048

    /// Checks that every limit is in its documented range.
    ///
    /// Parsing calls this first, so an out-of-range limit is reported before any byte is read,
    /// never turned into a wrong offset or a crash later.
    ///
    /// ```swift
    /// var options = ParsingOptions()
    /// options.maximumDocumentBytes = -5
    /// try options.validate()   // invalid option: maximumDocumentBytes must be ...
    /// ```
    ///
    /// - Throws: ``JSONAPIError`` with code ``JSONAPIError/Code/invalidOption`` naming the
    ///   first limit out of range and the range it must be in.
    public func validate() throws(JSONAPIError) {
        try Self.check("maximumDepth", maximumDepth, in: 1...Self.depthCeiling)
        try Self.check("maximumDocumentBytes", maximumDocumentBytes, in: 0...Self.largestDocumentBytes)
        try Self.check("maximumStringBytes", maximumStringBytes, in: 0...Int.max)
        try Self.check("maximumResourceCount", maximumResourceCount, in: 0...Self.largestResourceCount)
        try Self.check("maximumDiagnostics", maximumDiagnostics, in: 0...Int.max)
    }

    /// Throws ``JSONAPIError/Code/invalidOption`` unless `value` lies in `range`.
    static func check(
        _ name: String, _ value: Int, in range: ClosedRange<Int>, of type: String = "ParsingOptions"
    ) throws(JSONAPIError) {
        guard !range.contains(value) else { return }
        let bounds =
            range.upperBound == Int.max
            ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
        throw JSONAPIError(.invalidOption, "\(type).\(name) is \(value); it must be \(bounds)")
    }

    /// Whether to check that every included resource is reachable from primary data through
    /// relationships ("full linkage"). Default `true`. An unreachable resource is always a
    /// warning, never an error, because sparse fieldsets may legitimately hide the linkage.
    public var checksFullLinkage: Bool = true

    /// The tokenizer. Default ``Backend/scanner``.
    public var backend: Backend = .scanner

    /// Whether a document of 2 MiB or more may reuse the memory that a released document of a
    /// similar size left behind, and leaves its own behind when it is released. Default `true`
    /// on Linux and macOS; `false` on iOS, tvOS, watchOS and visionOS, where an app's memory is
    /// what the system weighs when it ends apps in the background, and memory held for a document
    /// that may never come again counts against it.
    ///
    /// A large build writes its records into tens of megabytes of fresh memory, and a chunked
    /// parse (``DocumentParser``) copies its input into a fresh buffer, which the system must map
    /// and zero page by page unless the allocator happens to keep it. Reusing released memory
    /// spares repeated large builds those faults and that zeroing. What is kept: for each power-of-two size
    /// class, one released document's record arrays and index, one build's scratch, and (Linux)
    /// one chunked document's input buffer of 16 MB or more. It stays allocated after the last
    /// large document is released, until a build of that size takes it or
    /// ``Document/releaseRecycledMemory()`` frees it.
    public var recyclesMemory: Bool = Self.recyclesMemoryByDefault

    /// The default of ``recyclesMemory`` on this platform.
    static var recyclesMemoryByDefault: Bool {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            false
        #else
            true
        #endif
    }

    /// The member-name rules every path of the build reads (``JSONAPIRules/standard``). Not public:
    /// the specification fixes them; tests add entries to check that every path obeys the table.
    var rules: JSONAPIRules = .standard

    /// Creates the default options.
    public init() {}

    /// Creates options for a document kind.
    public init(kind: Kind, lenient: Bool = false) {
        self.kind = kind
        self.isLenient = lenient
    }
}
