// The handwritten, resumable, byte-level JSON tokenizer.
//
// # Shape
//
// The scanner is a push parser: the caller hands it chunks of bytes in order, and it calls a
// `JSONEventHandler` for every token as soon as the token is complete. Tokens are positions
// (absolute byte offsets), never values.
//
// # The grammar state: `Expect` plus a bit stack
//
// Between tokens, everything the scanner knows is
//
//     expect     what may come next (the `Expect` cases below)
//     depth      how many objects and arrays are open
//     containers one bit per open container, 1 = object, 0 = array (bit k = depth k + 1): an
//                inline word for the first 64 levels, an array beyond; the top bit is cached
//                in `inObject`
//
// and the main loop is one cursor over the chunk: skip whitespace, switch on `expect`, consume
// one token, set `expect` for what may follow it:
//
//     topValue ──value──▶ done
//     '{' ──▶ firstKeyOrEnd ──"key"──▶ colon ──':'──▶ memberValue ──value──▶ commaOrEnd
//                                                           ▲                 │ ','
//             key ◀─────────────────────────────────────────┼─────────────────┘ (in an object)
//     '[' ──▶ firstElementOrEnd ──value──▶ commaOrEnd ──','──▶ element ──value──▶ commaOrEnd
//     '}' / ']' pop the bit stack ──▶ commaOrEnd (or done at depth 0)
//
// Nesting never recurses, so depth is a limit (`maximumDepth`), not a stack overflow.
//
// # Resumption: `Pending`
//
// Tokens are scanned by tight loops that run inside the current chunk. Only when a chunk ends in
// the middle of a token does the scanner record how far it got, in `pending`:
//
//     .string(StringProgress)     inside a string: where it started, whether it is a key, whether
//                                 it has escapes so far, and a sub-state for a half-read sequence:
//                                 after `\`, inside `\uXXXX` (digits read, value so far), after a
//                                 high surrogate escape waiting for `\`, `u` and the low one, or
//                                 inside a multi-byte UTF-8 sequence (bytes still needed and the
//                                 range the next byte must fall in)
//     .number(start, phase)       inside a number: the grammar phase reached (after '-', after
//                                 a leading zero, in the integer/fraction/exponent digits, after
//                                 '.', 'e' or the exponent sign). A number at the end of a chunk
//                                 is emitted only when the next byte (or `isFinal`) shows it ended.
//     .literal(which, start, n)   inside `true`, `false` or `null`, with n bytes matched
//
// The next `scan` call finishes the pending token first (byte by byte for a half-read escape or
// UTF-8 sequence, then back into the 8-bytes-at-a-time loop for the rest of a string) and then
// enters the main loop. No byte is ever scanned twice and no earlier chunk is ever needed: the
// state above is all there is. Whole-buffer scanning pays nothing for this: the fast paths
// accept only sequences that lie entirely inside the chunk and hand everything else (invalid
// input, or a sequence cut by the chunk end) to the same byte-at-a-time state machine the
// resumption uses, so whole and chunked scans agree on every event and every error by
// construction.

/// A resumable RFC 8259 tokenizer that drives a ``JSONEventHandler``.
///
/// ```swift
/// var scanner = JSONScanner()
/// try bytes.withUnsafeBytes { buffer in
///     try scanner.scan(buffer, baseOffset: 0, isFinal: true, into: &handler)
/// }
/// ```
///
/// Feed chunks in order with `baseOffset` equal to ``bytesConsumed``; pass `isFinal: true` with
/// the last one (which may be empty). Events fire as soon as a token is complete, with absolute
/// offsets. After an error (the scanner's own or one thrown by the handler) every later call
/// throws that same error, and ``bytesConsumed`` stays at the start of the chunk that failed.
@_spi(Backend)
public struct JSONScanner: Sendable {
    /// What the grammar allows next, between tokens.
    enum Expect: UInt8, Sendable {
        /// The document's one value (only whitespace seen so far).
        case topValue
        /// Right after `[`: a value or `]`.
        case firstElementOrEnd
        /// After `,` in an array: a value.
        case element
        /// Right after `{`: a key or `}`.
        case firstKeyOrEnd
        /// After `,` in an object: a key.
        case key
        /// After a key: `:`.
        case colon
        /// After `:`: a value.
        case memberValue
        /// After a value inside a container: `,` or the container's closing bracket.
        case commaOrEnd
        /// After the top-level value: only whitespace.
        case done
    }

    /// A token cut by the end of a chunk.
    enum Pending: Sendable {
        case none
        case string(StringProgress)
        case number(start: Int, phase: NumberPhase)
        case literal(JSONLiteral, start: Int, matched: Int)

        var isNone: Bool {
            if case .none = self { return true }
            return false
        }
    }

    /// The most containers that may be open at once.
    public let maximumDepth: Int
    /// The most raw content bytes one string may hold.
    public let maximumStringBytes: Int
    /// The structural index kernel (its C number), or -1 to scan byte by byte.
    let indexKernel: Int32
    /// Whether dense text is left to the byte loop (``StructuralIndex/automatic``).
    let indexesSparseTextOnly: Bool

    /// Absolute offset of the next byte expected.
    var offset = 0
    var expect = Expect.topValue
    var depth = 0
    /// Whether the innermost open container is an object (the cached top of `containers`).
    var inObject = false
    /// One bit per open container, 1 = object: bit `d` describes depth `d + 1`, for the first 64.
    var innerContainers: UInt64 = 0
    /// The same for deeper containers: bit `d & 63` of word `(d >> 6) - 1` describes depth `d + 1`.
    var outerContainers: [UInt64] = []
    var pending = Pending.none
    var failure: JSONAPIError?
    var isFinished = false

    /// Creates a scanner.
    ///
    /// - Parameters:
    ///   - maximumDepth: The most objects and arrays that may be open at once; one more throws
    ///     ``JSONAPIError/Code/depthLimitExceeded``.
    ///   - maximumStringBytes: The most raw (still escaped) content bytes a string may hold; one
    ///     more throws ``JSONAPIError/Code/stringTooLong``.
    ///   - structuralIndex: The kernel that finds the structural positions ahead of the state
    ///     machine; every kernel yields the same events and errors.
    public init(
        maximumDepth: Int = 512, maximumStringBytes: Int = 1 << 30, structuralIndex: StructuralIndex = .automatic
    ) {
        self.maximumDepth = max(0, maximumDepth)
        self.maximumStringBytes = max(0, maximumStringBytes)
        indexKernel = structuralIndex.resolved
        indexesSparseTextOnly = structuralIndex.indexesSparseTextOnly
    }

    /// Absolute offset of the next byte expected: the `baseOffset` of the next chunk.
    public var bytesConsumed: Int { offset }

    /// Scans one chunk, calling `handler` for every token completed in it.
    ///
    /// - Parameters:
    ///   - chunk: The bytes at absolute offsets `baseOffset ..< baseOffset + chunk.count`.
    ///   - baseOffset: The absolute offset of `chunk`'s first byte; must equal ``bytesConsumed``.
    ///   - isFinal: Whether this is the last chunk (it may be empty). The input must then hold
    ///     exactly one complete JSON value.
    ///   - handler: Receives the events.
    /// - Throws: The first syntax error (with its absolute offset; line, column and pointer are
    ///   left for the caller), or the first error the handler throws, unchanged.
    /// - Complexity: O(`chunk.count`).
    public mutating func scan<H: JSONEventHandler>(
        _ chunk: UnsafeRawBufferPointer, baseOffset: Int, isFinal: Bool, into handler: inout H
    ) throws(JSONAPIError) {
        if let failure { throw failure }
        guard baseOffset == offset, !isFinished else {
            let error = Self.misuse(baseOffset: baseOffset, expected: offset, finished: isFinished)
            failure = error
            throw error
        }
        do {
            // An empty chunk changes nothing but, when final, ends the input.
            if let p = chunk.baseAddress, unsafe !chunk.isEmpty {
                unsafe try run(p, count: chunk.count, base: baseOffset, into: &handler)
            }
            if isFinal {
                try finish(into: &handler)
                isFinished = true
            }
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: The main loop

    /// Scans `p[0 ..< n]`: first finishes a pending token, then runs the token loop to the end of
    /// the chunk, leaving a new pending token if the chunk ends inside one.
    @inline(__always)
    mutating func run<H: JSONEventHandler>(
        _ p: UnsafeRawPointer, count n: Int, base: Int, into handler: inout H
    ) throws(JSONAPIError) {
        var i = 0
        if !pending.isNone { i = unsafe try resume(p, count: n, base: base, into: &handler) }
        if indexKernel >= 0 && !H.readsWholeObjects && i < n {
            i = unsafe try runIndexed(
                p, count: n, base: base, from: i, kernel: indexKernel, sparseOnly: indexesSparseTextOnly, into: &handler
            )
        }
        let limit = maximumStringBytes
        var expect = self.expect
        var inObject = self.inObject
        // Written back on errors too: `SourceLocator` reads where the scan stopped.
        defer {
            self.expect = expect
            self.inObject = inObject
        }

        tokens: while true {
            var c: UInt8
            // Whitespace: any byte above ' ' is not, which settles almost every byte at once.
            repeat {
                guard i < n else { break tokens }
                c = unsafe Self.byte(p, i)  // SAFETY: 0 <= i < n.
                if c > 0x20 || !Self.isWhitespace(c) { break }
                i &+= 1
                // Indentation: a second whitespace byte starts a run, taken in blocks (SAFETY: i < n
                // is checked first).
                if unsafe i &+ 16 <= n && Self.byte(p, i) <= 0x20 {
                    i = unsafe Self.whitespaceRun(p, from: i, count: n)
                }
            } while true

            if c == UInt8(ascii: "\"") {
                // Strings first, keys and values alike: they are most of the tokens.
                let isKey: Bool
                switch expect {
                case .key, .firstKeyOrEnd: isKey = true
                case .topValue, .firstElementOrEnd, .element, .memberValue: isKey = false
                case .colon, .commaOrEnd, .done:
                    throw Self.unexpected(c, at: base &+ i, expecting: expect, inObject: inObject)
                }
                let start = base &+ i &+ 1
                var hasEscapes = false
                var close = unsafe Self.scanStringFast(p, from: i &+ 1, count: n, hasEscapes: &hasEscapes)
                // SAFETY: close < n is checked before the read.
                if unsafe close == n || Self.byte(p, close) != UInt8(ascii: "\"") {
                    // Rare: invalid input, or a sequence or the string itself cut by the chunk end.
                    var progress = StringProgress(start: start, isKey: isKey)
                    progress.hasEscapes = hasEscapes
                    close = unsafe try Self.scanString(
                        p, from: close, count: n, base: base, progress: &progress, limit: limit)
                    guard close < n else {
                        try suspend(progress, chunkEnd: base &+ n)
                        i = n
                        break tokens
                    }
                    hasEscapes = progress.hasEscapes
                }
                let end = base &+ close
                if end &- start > limit { throw Self.stringTooLong(start: start, limit: limit) }
                let token = JSONStringToken(start: start, end: end, hasEscapes: hasEscapes)
                i = close &+ 1
                if isKey {
                    try handler.key(token)
                    // The colon nearly always follows at once: take it here rather than on
                    // another turn of the loop (SAFETY: i < n is checked before the read).
                    if unsafe i < n && Self.byte(p, i) == UInt8(ascii: ":") {
                        expect = .memberValue
                        i &+= 1
                    } else {
                        expect = .colon
                    }
                } else {
                    try handler.string(token)
                    expect = depth == 0 ? .done : .commaOrEnd
                    // Likewise the comma after a value (SAFETY: as above).
                    if unsafe depth > 0 && i < n && Self.byte(p, i) == UInt8(ascii: ",") {
                        expect = inObject ? .key : .element
                        i &+= 1
                    }
                }
                continue
            }

            switch expect {
            case .commaOrEnd:
                if c == UInt8(ascii: ",") {
                    expect = inObject ? .key : .element
                    i &+= 1
                } else if inObject ? c == UInt8(ascii: "}") : c == UInt8(ascii: "]") {
                    try close(at: base &+ i, inObject: &inObject, expect: &expect, into: &handler)
                    i &+= 1
                } else {
                    throw Self.unexpected(c, at: base &+ i, expecting: expect, inObject: inObject)
                }

            case .colon:
                guard c == UInt8(ascii: ":") else {
                    throw Self.unexpected(c, at: base &+ i, expecting: expect, inObject: inObject)
                }
                expect = .memberValue
                i &+= 1

            case .key, .firstKeyOrEnd:
                guard c == UInt8(ascii: "}") && expect == .firstKeyOrEnd else {
                    throw Self.unexpected(c, at: base &+ i, expecting: expect, inObject: inObject)
                }
                try close(at: base &+ i, inObject: &inObject, expect: &expect, into: &handler)
                i &+= 1

            case .done:
                throw Self.unexpected(c, at: base &+ i, expecting: expect, inObject: inObject)

            case .topValue, .firstElementOrEnd, .element, .memberValue:
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = c == UInt8(ascii: "{")
                    // The handler may take a small object whole (never past the depth limit,
                    // whose error the event path must raise).
                    if isObject && depth < maximumDepth,
                        let end = unsafe handler.wholeObject(
                            p, at: i, count: n, base: base, stringLimit: limit, depthLimit: maximumDepth &- depth)
                    {
                        expect = depth == 0 ? .done : .commaOrEnd
                        i = end
                        continue
                    }
                    try open(isObject: isObject, at: base &+ i, inObject: &inObject, expect: &expect, into: &handler)
                    i &+= 1

                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                    var phase: NumberPhase =
                        c == UInt8(ascii: "-") ? .afterMinus : (c == UInt8(ascii: "0") ? .zero : .integer)
                    let end = unsafe try Self.scanNumber(p, from: i &+ 1, count: n, base: base, phase: &phase)
                    guard end < n else {
                        pending = .number(start: base &+ i, phase: phase)
                        i = n
                        break tokens
                    }
                    try handler.number(
                        JSONNumberToken(start: base &+ i, end: base &+ end, isInteger: phase.isInteger))
                    expect = depth == 0 ? .done : .commaOrEnd
                    i = end
                    // The comma nearly always follows at once (SAFETY: i < n is checked first).
                    if unsafe depth > 0 && i < n && Self.byte(p, i) == UInt8(ascii: ",") {
                        expect = inObject ? .key : .element
                        i &+= 1
                    }

                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let literal: JSONLiteral =
                        c == UInt8(ascii: "t") ? .true : (c == UInt8(ascii: "f") ? .false : .null)
                    let length = literal.length
                    // SAFETY: the four bytes at `i + length - 4` end at `i + length <= n`.
                    if i &+ length <= n,
                        unsafe UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i &+ length &- 4, as: UInt32.self))
                            == literal.lastFourBytes
                    {
                        try handler.literal(literal, at: base &+ i)
                        expect = depth == 0 ? .done : .commaOrEnd
                        i &+= length
                        // As after a number (SAFETY: i < n is checked first).
                        if unsafe depth > 0 && i < n && Self.byte(p, i) == UInt8(ascii: ",") {
                            expect = inObject ? .key : .element
                            i &+= 1
                        }
                    } else {
                        var matched = 0
                        let end = unsafe try Self.matchLiteral(
                            literal, p, from: i, count: n, base: base, start: base &+ i, matched: &matched)
                        pending = .literal(literal, start: base &+ i, matched: matched)
                        i = end
                        break tokens
                    }

                case UInt8(ascii: "]") where expect == .firstElementOrEnd:
                    try close(at: base &+ i, inObject: &inObject, expect: &expect, into: &handler)
                    i &+= 1

                default:
                    throw Self.unexpected(c, at: base &+ i, expecting: expect, inObject: inObject)
                }
            }
        }
        offset = base &+ n
    }

    // MARK: Containers

    /// Opens a container, enforcing the depth limit.
    @inline(__always)
    mutating func push(isObject: Bool, at offset: Int) throws(JSONAPIError) {
        guard depth < maximumDepth else { throw Self.tooDeep(at: offset, limit: maximumDepth) }
        let bit = UInt64(1) &<< UInt64(depth & 63)
        if depth < 64 {
            if isObject { innerContainers |= bit } else { innerContainers &= ~bit }
        } else {
            pushDeep(isObject: isObject, bit: bit)
        }
        depth &+= 1
    }

    /// Records a container deeper than 64 levels in the overflow words.
    @inline(never)
    mutating func pushDeep(isObject: Bool, bit: UInt64) {
        let word = (depth &>> 6) &- 1
        if word == outerContainers.count { outerContainers.append(0) }
        if isObject { outerContainers[word] |= bit } else { outerContainers[word] &= ~bit }
    }

    /// Opens a container at `offset` (the bracket is there and a value may start): enforces
    /// the depth limit, reports the event and sets what may follow.
    @inline(__always)
    mutating func open<H: JSONEventHandler>(
        isObject: Bool, at offset: Int, inObject: inout Bool, expect: inout Expect, into handler: inout H
    ) throws(JSONAPIError) {
        try push(isObject: isObject, at: offset)
        inObject = isObject
        if isObject {
            try handler.beginObject(at: offset)
            expect = .firstKeyOrEnd
        } else {
            try handler.beginArray(at: offset)
            expect = .firstElementOrEnd
        }
    }

    /// Closes the innermost container (the caller checked the bracket matches it).
    @inline(__always)
    mutating func close<H: JSONEventHandler>(
        at offset: Int, inObject: inout Bool, expect: inout Expect, into handler: inout H
    ) throws(JSONAPIError) {
        if inObject { try handler.endObject(at: offset) } else { try handler.endArray(at: offset) }
        depth &-= 1
        if depth == 0 {
            inObject = false
            expect = .done
        } else {
            let d = depth &- 1
            let word = d < 64 ? innerContainers : outerContainers[(d &>> 6) &- 1]
            inObject = word & (UInt64(1) &<< UInt64(d & 63)) != 0
            expect = .commaOrEnd
        }
    }

    // MARK: Chunk boundaries

    /// Finishes the token the previous chunk ended in; returns the index after it.
    @inline(never)
    mutating func resume<H: JSONEventHandler>(
        _ p: UnsafeRawPointer, count n: Int, base: Int, into handler: inout H
    ) throws(JSONAPIError) -> Int {
        switch pending {
        case .none:
            return 0
        case .string(var progress):
            let close = unsafe try Self.scanString(
                p, from: 0, count: n, base: base, progress: &progress, limit: maximumStringBytes)
            guard close < n else {
                try suspend(progress, chunkEnd: base &+ n)
                return n
            }
            pending = .none
            if base &+ close &- progress.start > maximumStringBytes {
                throw Self.stringTooLong(start: progress.start, limit: maximumStringBytes)
            }
            let token = JSONStringToken(start: progress.start, end: base &+ close, hasEscapes: progress.hasEscapes)
            if progress.isKey {
                try handler.key(token)
                expect = .colon
            } else {
                try handler.string(token)
                expect = depth == 0 ? .done : .commaOrEnd
            }
            return close &+ 1
        case .number(let start, var phase):
            let end = unsafe try Self.scanNumber(p, from: 0, count: n, base: base, phase: &phase)
            guard end < n else {
                pending = .number(start: start, phase: phase)
                return n
            }
            pending = .none
            try handler.number(JSONNumberToken(start: start, end: base &+ end, isInteger: phase.isInteger))
            expect = depth == 0 ? .done : .commaOrEnd
            return end
        case .literal(let literal, let start, var matched):
            let end = unsafe try Self.matchLiteral(
                literal, p, from: 0, count: n, base: base, start: start, matched: &matched)
            guard matched == literal.length else {
                pending = .literal(literal, start: start, matched: matched)
                return n
            }
            pending = .none
            try handler.literal(literal, at: start)
            expect = depth == 0 ? .done : .commaOrEnd
            return end
        }
    }

    /// Records a string cut by the chunk end, failing early once it is certain to be too long.
    @inline(never)
    mutating func suspend(_ progress: StringProgress, chunkEnd: Int) throws(JSONAPIError) {
        pending = .string(progress)
        // Whole and chunked scans must agree, so this throws only when every continuation would
        // end in `stringTooLong` anyway: either the bytes known to be content already exceed the
        // limit, or every error still possible would lie at or beyond the limit (and is then
        // reported as `stringTooLong`; see `StringProgress.fail`).
        let floor = progress.errorFloor(chunkEnd: chunkEnd)
        let tooLong =
            progress.sub == .clean
            ? chunkEnd &- progress.start > maximumStringBytes
            : floor &- progress.start >= maximumStringBytes
        if tooLong { throw Self.stringTooLong(start: progress.start, limit: maximumStringBytes) }
    }

    /// Ends the input: completes a number cut by the end, or reports what is missing.
    @inline(never)
    mutating func finish<H: JSONEventHandler>(into handler: inout H) throws(JSONAPIError) {
        switch pending {
        case .none:
            break
        case .string(let progress):
            throw Self.unterminatedString(progress, at: offset)
        case .number(let start, let phase):
            guard phase.isComplete else { throw Self.numberCutShort(phase, at: offset) }
            pending = .none
            try handler.number(JSONNumberToken(start: start, end: offset, isInteger: phase.isInteger))
            expect = depth == 0 ? .done : .commaOrEnd
        case .literal(let literal, _, let matched):
            throw Self.literalCutShort(literal, matched: matched, at: offset)
        }
        guard expect == .done else { throw Self.unexpectedEnd(at: offset, expecting: expect, inObject: inObject) }
    }

    // MARK: Checks

    /// Whether the scanner, stopped by an error or between chunks, was about to read a value (or
    /// was inside one): the path tracker of ``SourceLocator`` uses it to attribute an error.
    var isAtValue: Bool {
        if pending.isNone {
            switch expect {
            case .topValue, .firstElementOrEnd, .element, .memberValue: return true
            default: return false
            }
        }
        if case .string(let progress) = pending { return !progress.isKey }
        return true
    }

    /// Whether the last key seen is still waiting for its value.
    var isAfterKey: Bool { expect == .colon || expect == .memberValue }

    // MARK: Bytes

    /// The byte at `i`.
    @inline(__always)
    static func byte(_ p: UnsafeRawPointer, _ i: Int) -> UInt8 {
        // SAFETY: callers read only below the end of the buffer at `p` (their loops are bounded by it).
        unsafe p.load(fromByteOffset: i, as: UInt8.self)
    }

    /// The bytes of `range` of the buffer at `p`, for handing part of a chunk to the type table,
    /// the index and the name rules (the whole-object readers).
    @inline(__always)
    static func bytes(_ p: UnsafeRawPointer, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        // SAFETY: callers pass a range they found inside the buffer at `p` (their loops are
        // bounded by its end), so the bytes lie inside it.
        unsafe UnsafeRawBufferPointer(start: p + range.lowerBound, count: range.count)
    }

    /// Moves `j` past JSON whitespace (space, tab, LF, CR), staying at or below `n`.
    @inline(__always)
    static func skipWhitespace(_ p: UnsafeRawPointer, _ j: inout Int, count n: Int) {
        while j < n {
            let c = unsafe byte(p, j)  // SAFETY: j < n.
            // The space first: indentation is nearly all spaces.
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            j &+= 1
            // Indentation: a second whitespace byte starts a run, taken in blocks (SAFETY: j < n
            // is checked first).
            if unsafe j &+ 16 <= n && byte(p, j) <= 0x20 { j = unsafe whitespaceRun(p, from: j, count: n) }
        }
    }

    /// The index of the first byte at or after `j` that is not JSON whitespace, found sixteen
    /// bytes at a time; or the index where fewer than sixteen bytes remain before `n`, all
    /// whitespace up to it (the caller's byte loop goes on from there). Pretty-printed input
    /// puts a run of indentation before nearly every key and element.
    @inline(never)
    static func whitespaceRun(_ p: UnsafeRawPointer, from j: Int, count n: Int) -> Int {
        var j = j
        while j &+ 16 <= n {
            // SAFETY: the sixteen bytes at j end at j + 16 <= n.
            let block = unsafe p.loadUnaligned(fromByteOffset: j, as: SIMD16<UInt8>.self)
            let space = (block .== SIMD16<UInt8>(repeating: 0x20)) .| (block .== SIMD16<UInt8>(repeating: 0x0A))
            let other = (block .== SIMD16<UInt8>(repeating: 0x0D)) .| (block .== SIMD16<UInt8>(repeating: 0x09))
            let white = space .| other
            let stops = LaneSet(.!white)
            if !stops.isEmpty { return j &+ stops.first }
            j &+= 16
        }
        return j
    }

    /// Whether `literal` lies at `p[j]`, wholly before `n`.
    @inline(__always)
    static func literal(_ literal: JSONLiteral, at j: Int, _ p: UnsafeRawPointer, count n: Int) -> Bool {
        let length = literal.length
        guard j &+ length <= n else { return false }
        if j &+ 8 <= n {
            // SAFETY: the eight bytes at `j` end at or before `n`.
            let word = unsafe UInt64(littleEndian: p.loadUnaligned(fromByteOffset: j, as: UInt64.self))
            return word & ((1 &<< UInt64(length &* 8)) &- 1) == literal.packedBytes
        }
        var i = 0
        while i < length {
            guard unsafe byte(p, j &+ i) == literal.byte(at: i) else { return false }  // SAFETY: j + i < n.
            i &+= 1
        }
        return true
    }

    /// Whether a byte at most 0x20 is JSON whitespace (space, tab, LF, CR).
    @inline(__always)
    static func isWhitespace(_ c: UInt8) -> Bool {
        // Bits 0x09, 0x0A, 0x0D and 0x20.
        (UInt64(0x1_0000_2600) &>> UInt64(c & 0x3F)) & 1 != 0
    }
}

extension JSONLiteral {
    /// The literal's last four bytes as a little-endian `UInt32` (`"true"`, `"alse"`, `"null"`).
    @inline(__always)
    var lastFourBytes: UInt32 {
        switch self {
        case .true: 0x6575_7274
        case .false: 0x6573_6C61
        case .null: 0x6C6C_756E
        }
    }

    /// The literal's text.
    var text: StaticString {
        switch self {
        case .true: "true"
        case .false: "false"
        case .null: "null"
        }
    }

    /// The literal's bytes as a little-endian word.
    @inline(__always)
    var packedBytes: UInt64 {
        switch self {
        case .true: 0x6575_7274
        case .false: 0x65_736C_6166
        case .null: 0x6C6C_756E
        }
    }

    /// The literal's byte at `index` (`index < length`).
    @inline(__always)
    func byte(at index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: packedBytes &>> UInt64((index & 7) &* 8))
    }
}
