import CJSONAPISupport

// The token loop driven by structural positions.
//
// The structural index (CJSONAPISupport/structural_index.c) turns 64 bytes at a time into the
// positions of everything the grammar looks at: operators, quotes, the first byte of each number
// and literal, and inside strings the escapes and control bytes. This loop walks those positions
// with the same `Expect` state as the byte-level loop, so it never looks at whitespace or at the
// text of a string:
//
//     "  "id": "12",\n  "type": "people",\n   ...
//        ^   ^^ ^  ^^      ^     ^      ^
//
// A key or string is its opening quote and the next position, its closing quote (after the
// string's escapes, each checked where it stands). A number or literal is parsed from its first
// byte, as the byte loop parses it.
//
// The byte-level loop stays the reference. This loop takes only what it can settle entirely
// from indexed positions; at anything else (a byte the grammar does not allow there, a control
// byte or an invalid escape in a string, a token the chunk cuts, the end of what the index could
// vouch for, such as a block of invalid UTF-8) it stops *before the token*, with the grammar
// state as it stands, and the byte loop goes on from there: it reports the error, or suspends
// the cut token, exactly as it would have without the index. So whole and chunked scans, and
// every kernel, agree on every event and error by construction, and an index starts only at a
// token boundary, from a zero carry: what carries over between chunks is the byte loop's
// `pending` token, never a half-indexed block.

/// The structural index kernel a scanner runs ahead of its state machine.
///
/// The index classifies 64 bytes at a time into the positions the grammar looks at, so the
/// scanner steps from token to token without reading whitespace or the text of strings. Every
/// kernel finds the same positions and gives the same events and errors; they differ in speed
/// and in where they run. ``off`` scans byte by byte, with the scanner's reference state
/// machine alone.
///
/// The default, ``automatic``, runs the fastest kernel the processor has (chosen when the
/// program runs, not when it was built) where the index pays: on text whose tokens are far
/// apart (long strings, prose), and not on dense JSON, where the byte loop is faster (see
/// ``JSONSyntaxValidator``). The environment variable `JSONAPI_STRUCTURAL_INDEX` overrides it
/// (`off`, `portable`, `sse42`, `avx2` or `neon`), so a benchmark or a test can run each
/// kernel on everything. The document build reads resource objects whole and runs no index.
///
/// ```swift
/// var validator = JSONSyntaxValidator(structuralIndex: .portable)
/// try validator.feed(Array(#"{"data": null}"#.utf8))
/// try validator.finish()
/// ```
public struct StructuralIndex: Sendable, Hashable, CustomStringConvertible {
    /// The C kernel number, or one of the two choices below.
    let code: Int32

    private static let automaticCode: Int32 = -2
    private static let offCode: Int32 = -1

    /// The fastest kernel this processor runs, on text sparse in tokens; or the kernel
    /// `JSONAPI_STRUCTURAL_INDEX` names, on everything.
    public static let automatic = StructuralIndex(code: automaticCode)
    /// No index: the byte-level state machine alone.
    public static let off = StructuralIndex(code: offCode)
    /// Portable C, 64 bytes at a time with 64-bit masks: every platform.
    public static let portable = StructuralIndex(code: Int32(JSONAPI_INDEX_PORTABLE))
    /// SSE4.2 and PCLMULQDQ, 16 bytes per instruction: x86_64 processors since 2010.
    public static let sse42 = StructuralIndex(code: Int32(JSONAPI_INDEX_SSE42))
    /// AVX2, 32 bytes per instruction: x86_64 processors since 2013.
    public static let avx2 = StructuralIndex(code: Int32(JSONAPI_INDEX_AVX2))
    /// NEON, 16 bytes per instruction: every arm64 processor.
    public static let neon = StructuralIndex(code: Int32(JSONAPI_INDEX_NEON))

    /// Every kernel this processor runs (``portable`` always).
    public static var availableKernels: [StructuralIndex] {
        [portable, sse42, avx2, neon].filter(\.isAvailable)
    }

    /// Whether this choice runs on this processor: ``automatic``, ``off`` and ``portable``
    /// always do.
    public var isAvailable: Bool {
        code < 0 || jsonapi_index_kernel_available(code) != 0
    }

    public var description: String {
        switch code {
        case Self.automaticCode: "automatic"
        case Self.offCode: "off"
        case Int32(JSONAPI_INDEX_SSE42): "sse42"
        case Int32(JSONAPI_INDEX_AVX2): "avx2"
        case Int32(JSONAPI_INDEX_NEON): "neon"
        default: "portable"
        }
    }

    /// Whether the scanner indexes only text that is sparse in tokens (see
    /// ``IndexStage/sparseBytesPerPosition``): the automatic choice. A kernel named explicitly
    /// indexes everything.
    var indexesSparseTextOnly: Bool { code == Self.automaticCode && !Self.environmentNamesKernel }

    /// Whether `JSONAPI_STRUCTURAL_INDEX` names the kernel ``automatic`` runs.
    private static let environmentNamesKernel = jsonapi_index_kernel_from_environment() != nil

    /// The kernel to run: its C number, or -1 for none. A kernel the processor lacks runs as
    /// ``automatic``.
    var resolved: Int32 {
        if code == Self.offCode { return -1 }
        if code >= 0 && isAvailable { return code }
        return Self.automaticKernel
    }

    /// What ``automatic`` runs, settled once per process.
    private static let automaticKernel: Int32 = {
        let best = jsonapi_index_best_kernel()
        guard let named = jsonapi_index_kernel_from_environment() else { return best }
        let choice = String(cString: named)
        for kernel in [off, portable, sse42, avx2, neon] where kernel.description == choice {
            if kernel == off { return -1 }
            return kernel.isAvailable ? kernel.code : best
        }
        return best
    }()
}

/// What the structural index carries between windows of positions: at most `capacity`
/// positions (4 KiB) are held at a time, whatever the size of the chunk.
///
/// The loop keeps the window it reads (`buffer`, its count and the chunk index its offsets count
/// from) in locals, and asks for the next window by value (``refill(_:)``), so those locals stay
/// in registers.
struct IndexStage {
    static let defaultCapacity = 1024
    /// The least input bytes per position for which the automatic choice keeps indexing. The
    /// index pays where tokens are far apart (long strings, text): on a document of long
    /// strings (55 bytes per position) it scans 1.8 times as fast as the byte loop, but on
    /// dense JSON:API (7 to 12 bytes per position: short keys and values) the byte loop, whose
    /// branches follow the grammar's rhythm, is 1.5 to 1.8 times as fast (`jsonapi measure
    /// --path tokenize`, wall time, one run). The index of such text is handed back to the byte
    /// loop after one window.
    static let sparseBytesPerPosition = 16
    /// The bytes of the first window when only sparse text is indexed: a dense document wastes
    /// no more than these on the index.
    static let probeBytes = 2048
    /// The most bytes one call indexes (positions are 32-bit offsets from the call's start).
    static let stride = 1 << 20

    let buffer: UnsafeMutablePointer<UInt32>
    /// The slots of `buffer`.
    let capacity: Int
    let kernel: Int32
    let p: UnsafeRawPointer
    let n: Int
    /// Everything before this chunk index has been indexed.
    var indexedEnd: Int
    /// The index stopped before the end (invalid UTF-8): no position lies past `indexedEnd`.
    var stopped = false
    var carry = jsonapi_index_carry()
    /// Whether dense text goes back to the byte loop (``StructuralIndex/automatic``).
    let sparseOnly: Bool
    /// Whether the next window is the first.
    var probing: Bool

    init(
        buffer: UnsafeMutablePointer<UInt32>, capacity: Int = defaultCapacity, kernel: Int32, sparseOnly: Bool = false,
        p: UnsafeRawPointer, count n: Int, from start: Int
    ) {
        unsafe self.buffer = buffer
        self.capacity = capacity
        self.sparseOnly = sparseOnly
        probing = sparseOnly
        self.kernel = kernel
        unsafe self.p = p
        self.n = n
        indexedEnd = start
    }

    /// Indexes the next stretch into `buffer`: returns how many positions it holds and the chunk
    /// index they count from, or nil when nothing is left to index. A stretch may hold no
    /// position (the inside of a long string).
    @inline(never)
    mutating func refill() -> (count: Int, window: Int)? {
        guard !stopped, indexedEnd < n else { return nil }
        let length = min(n &- indexedEnd, probing ? Self.probeBytes : Self.stride)
        probing = false
        var indexed = 0
        // SAFETY: `indexedEnd + length <= n`, the end of the chunk at `p`; the buffer holds
        // `capacity` slots.
        let count = unsafe jsonapi_structural_index(
            kernel, (p + indexedEnd).assumingMemoryBound(to: UInt8.self), length,
            indexedEnd &+ length == n ? 1 : 0, &carry, buffer, capacity, &indexed)
        let window = indexedEnd
        indexedEnd &+= indexed
        if indexed == 0 { stopped = true }
        return (count, window)
    }

    /// Whether the window just indexed, `count` positions from `window`, is too dense for the
    /// index to pay (only when ``sparseOnly``).
    func isDense(count: Int, window: Int) -> Bool {
        sparseOnly && count &* Self.sparseBytesPerPosition > indexedEnd &- window
    }
}

extension StructuralIndex {
    /// The positions this kernel finds in `bytes` (the whole input), read a window of
    /// `capacity` positions at a time, and how many bytes it indexed (all of them unless a block
    /// failed the UTF-8 check). For comparing kernels with each other and with a model.
    func positions(in bytes: [UInt8], capacity: Int = IndexStage.defaultCapacity) -> (positions: [Int], indexed: Int) {
        let kernel = max(0, resolved)
        // SAFETY: the slots are this function's alone, freed when it returns; the stage writes at
        // most `capacity` of them.
        let slots = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        // SAFETY: allocated above, and no pointer to it outlives this function.
        defer { unsafe slots.deallocate() }
        var found: [Int] = []
        let indexed = unsafe bytes.withUnsafeBytes { buffer -> Int in
            guard let p = buffer.baseAddress, !buffer.isEmpty else { return 0 }
            var stage = unsafe IndexStage(
                buffer: slots, capacity: capacity, kernel: kernel, p: p, count: buffer.count, from: 0)
            while let (count, window) = stage.refill() {
                for k in 0..<count { found.append(window &+ Int(unsafe slots[k])) }
            }
            return stage.indexedEnd
        }
        return (found, indexed)
    }
}

extension JSONScanner {
    /// Scans `p[start ..< n]` by its structural positions, from a token boundary, and returns
    /// the index where the byte loop is to go on: after the last token taken (only whitespace
    /// follows it when the index covered the chunk), or at the first token this loop declined.
    mutating func runIndexed<H: JSONEventHandler>(
        _ p: UnsafeRawPointer, count n: Int, base: Int, from start: Int, kernel: Int32, sparseOnly: Bool,
        into handler: inout H
    ) throws(JSONAPIError) -> Int {
        let result: Result<Int, JSONAPIError> = withUnsafeTemporaryAllocation(
            of: UInt32.self, capacity: IndexStage.defaultCapacity
        ) { slots in
            // SAFETY: the buffer lives for this closure, which is the stage's whole life.
            guard let buffer = slots.baseAddress else { return .success(start) }
            var stage = unsafe IndexStage(
                buffer: buffer, kernel: kernel, sparseOnly: sparseOnly, p: p, count: n, from: start)
            do throws(JSONAPIError) {
                return .success(
                    unsafe try indexedTokens(p, count: n, base: base, from: start, stage: &stage, into: &handler))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The loop of ``runIndexed(_:count:base:from:kernel:sparseOnly:into:)``.
    @inline(__always)
    mutating func indexedTokens<H: JSONEventHandler>(
        _ p: UnsafeRawPointer, count n: Int, base: Int, from start: Int, stage: inout IndexStage,
        into handler: inout H
    ) throws(JSONAPIError) -> Int {
        let limit = maximumStringBytes
        var expect = self.expect
        var inObject = self.inObject
        defer {
            self.expect = expect
            self.inObject = inObject
        }
        var i = start
        // The window of positions, in locals: `buffer[next ..< count]` are left, offsets from
        // `window`.
        let buffer = stage.buffer
        var next = 0
        var count = 0
        var window = 0
        while true {
            while next == count {
                guard let stretch = stage.refill() else { return i }
                (count, window, next) = (stretch.count, stretch.window, 0)
                // Dense text: the byte loop takes the rest of the chunk.
                if stage.isDense(count: count, window: window) { return i }
            }
            let pos = unsafe window &+ Int(buffer[next])  // SAFETY: next < count <= capacity.
            next &+= 1
            let c = unsafe Self.byte(p, pos)  // SAFETY: positions lie inside the chunk.
            switch c {
            case UInt8(ascii: "\""):
                let isKey: Bool
                switch expect {
                case .key, .firstKeyOrEnd: isKey = true
                case .topValue, .firstElementOrEnd, .element, .memberValue: isKey = false
                case .colon, .commaOrEnd, .done: return pos
                }
                var hasEscapes = false
                var close = pos
                while true {
                    while next == count {
                        guard let stretch = stage.refill() else { return pos }
                        (count, window, next) = (stretch.count, stretch.window, 0)
                    }
                    let q = unsafe window &+ Int(buffer[next])  // SAFETY: next < count.
                    next &+= 1
                    let d = unsafe Self.byte(p, q)  // SAFETY: as above.
                    if d == UInt8(ascii: "\"") {
                        close = q
                        break
                    }
                    // Otherwise an escape (checked here) or a control byte (the byte loop's error).
                    guard d == UInt8(ascii: "\\"), let after = unsafe Self.fastEscape(p, at: q, count: n) else {
                        return pos
                    }
                    hasEscapes = true
                    // A surrogate pair's second backslash is part of this escape (it lies within
                    // the chunk, so the index has it, or stopped before it).
                    if after &- q == 12 {
                        while next == count {
                            guard let stretch = stage.refill() else { return pos }
                            (count, window, next) = (stretch.count, stretch.window, 0)
                        }
                        next &+= 1
                    }
                }
                let tokenStart = base &+ pos &+ 1
                let end = base &+ close
                if end &- tokenStart > limit { return pos }
                let token = JSONStringToken(start: tokenStart, end: end, hasEscapes: hasEscapes)
                if isKey {
                    try handler.key(token)
                    expect = .colon
                } else {
                    try handler.string(token)
                    expect = depth == 0 ? .done : .commaOrEnd
                }
                i = close &+ 1

            case UInt8(ascii: ","):
                guard expect == .commaOrEnd else { return pos }
                expect = inObject ? .key : .element
                i = pos &+ 1

            case UInt8(ascii: ":"):
                guard expect == .colon else { return pos }
                expect = .memberValue
                i = pos &+ 1

            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let isBrace = c == UInt8(ascii: "}")
                switch expect {
                case .commaOrEnd: guard inObject == isBrace else { return pos }
                case .firstKeyOrEnd: guard isBrace else { return pos }
                case .firstElementOrEnd: guard !isBrace else { return pos }
                default: return pos
                }
                try close(at: base &+ pos, inObject: &inObject, expect: &expect, into: &handler)
                i = pos &+ 1

            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard expect.isValue else { return pos }
                let isObject = c == UInt8(ascii: "{")
                try open(isObject: isObject, at: base &+ pos, inObject: &inObject, expect: &expect, into: &handler)
                i = pos &+ 1

            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                guard expect.isValue else { return pos }
                var phase: NumberPhase =
                    c == UInt8(ascii: "-") ? .afterMinus : (c == UInt8(ascii: "0") ? .zero : .integer)
                // The byte loop would make this very call here: its error is the byte loop's.
                let end = unsafe try Self.scanNumber(p, from: pos &+ 1, count: n, base: base, phase: &phase)
                guard unsafe Self.endsValue(p, at: end, count: n) else { return pos }
                try handler.number(JSONNumberToken(start: base &+ pos, end: base &+ end, isInteger: phase.isInteger))
                expect = depth == 0 ? .done : .commaOrEnd
                i = end

            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                guard expect.isValue else { return pos }
                let literal: JSONLiteral =
                    c == UInt8(ascii: "t") ? .true : (c == UInt8(ascii: "f") ? .false : .null)
                let end = pos &+ literal.length
                // SAFETY: the four bytes at `end - 4` end at `end <= n`.
                guard end <= n,
                    unsafe UInt32(littleEndian: p.loadUnaligned(fromByteOffset: end &- 4, as: UInt32.self))
                        == literal.lastFourBytes,
                    unsafe Self.endsValue(p, at: end, count: n)
                else { return pos }
                try handler.literal(literal, at: base &+ pos)
                expect = depth == 0 ? .done : .commaOrEnd
                i = end

            default:
                return pos
            }
        }
    }

    /// Whether the byte at `end` may follow a number or literal that ends there (whitespace,
    /// a comma or a closing bracket), so that the index's next position is the next token. At
    /// the chunk end the byte loop decides (the value may go on in the next chunk).
    @inline(__always)
    static func endsValue(_ p: UnsafeRawPointer, at end: Int, count n: Int) -> Bool {
        guard end < n else { return false }
        let c = unsafe byte(p, end)  // SAFETY: end < n.
        return c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]")
            || (c <= 0x20 && isWhitespace(c))
    }
}

extension JSONScanner.Expect {
    /// Whether a value may start here.
    @inline(__always)
    var isValue: Bool {
        switch self {
        case .topValue, .firstElementOrEnd, .element, .memberValue: true
        default: false
        }
    }
}
