// String contents: sixteen bytes at a time while they are plain, a byte-at-a-time state machine
// for everything else (invalid bytes, and escapes or UTF-8 sequences cut by the end of a chunk).

/// Where a string scan stands inside a half-read sequence.
enum StringSubState: UInt8, Sendable {
    /// Between characters.
    case clean
    /// After `\`.
    case escape
    /// Inside the four hex digits of `\u`.
    case hex
    /// After a high surrogate escape: a `\` must follow.
    case lowBackslash
    /// After a high surrogate escape and `\`: a `u` must follow.
    case lowU
    /// Inside the four hex digits of the low surrogate escape.
    case lowHex
    /// Inside a multi-byte UTF-8 sequence.
    case utf8
}

/// Everything a string scan needs to continue in the next chunk.
struct StringProgress: Sendable {
    /// Absolute offset of the first content byte.
    var start: Int
    /// Whether the string is an object key.
    var isKey: Bool
    /// Whether a `\` has been seen.
    var hasEscapes = false
    var sub = StringSubState.clean
    /// Hex digits read (`hex`, `lowHex`), or continuation bytes still needed (`utf8`).
    var count: UInt8 = 0
    /// The `utf8` range the next byte must fall in.
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    /// The `\u` value read so far.
    var value: UInt32 = 0
    /// The high surrogate waiting for its low half.
    var highSurrogate: UInt32 = 0
    /// Absolute offset of the `\` of the escape being read (for a surrogate pair, of the first).
    var mark = 0

    @inline(__always)
    init(start: Int, isKey: Bool) {
        self.start = start
        self.isKey = isKey
    }

    /// The lowest offset at which an error can still be reported, when the chunk ends at `chunkEnd`.
    func errorFloor(chunkEnd: Int) -> Int {
        switch sub {
        case .clean, .utf8: chunkEnd
        case .escape, .hex, .lowBackslash, .lowU, .lowHex: mark
        }
    }
}

extension JSONScanner {
    /// The hot path of a string: skips plain bytes sixteen at a time, non-ASCII text sixteen bytes
    /// at a time once the block's UTF-8 checks out, and valid escapes and UTF-8 sequences that
    /// lie wholly inside the chunk. Returns the index of the first byte it cannot
    /// accept: the closing quote, the chunk end `n`, or a byte for ``scanString`` (invalid input,
    /// or a sequence cut by the chunk end). Keeps no state, so it costs nothing to enter.
    @inline(always)
    static func scanStringFast(
        _ p: UnsafeRawPointer, from i: Int, count n: Int, hasEscapes: inout Bool
    ) -> Int {
        var i = i
        while true {
            var c: UInt8
            if i &+ 16 <= n {
                // SAFETY: the sixteen bytes at i end at i + 16 <= n.
                let chunk = unsafe p.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let special = LaneSet(specialLanes(chunk))
                if special.isEmpty {
                    i &+= 16
                    continue
                }
                i &+= special.first
                c = unsafe byte(p, i)  // SAFETY: the special byte lies inside the chunk just read.
            } else if i &+ 8 <= n {
                // SAFETY: the eight bytes at i end at i + 8 <= n.
                let word = unsafe UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let special = specialBytes(word)
                if special == 0 {
                    i &+= 8
                    continue
                }
                i &+= special.trailingZeroBitCount &>> 3
                c = unsafe byte(p, i)  // SAFETY: the special byte lies inside the word just read.
            } else {
                guard i < n else { return n }
                c = unsafe byte(p, i)  // SAFETY: i < n.
                if c >= 0x20 && c < 0x80 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
                    i &+= 1
                    continue
                }
            }
            if c == UInt8(ascii: "\\") {
                hasEscapes = true
                guard let next = unsafe fastEscape(p, at: i, count: n) else { return i }
                i = next
            } else if c >= 0x80 {
                // Non-ASCII text, and the escapes among it: checked sixteen bytes at a time where
                // it can be (out of line, so that the ASCII loop above stays small), else a
                // character at a time.
                let after = unsafe textBlocks(p, from: i, count: n, hasEscapes: &hasEscapes)
                if after != i {
                    i = after
                    continue
                }
                guard let next = unsafe fastUTF8(c, p, at: i, count: n) else { return i }
                i = next
                // Non-ASCII text comes in runs (CJK, Cyrillic, ...): a second character right
                // after the first takes a loop of its own, kept out of line so that the odd
                // accented letter in ASCII text costs one comparison.
                if unsafe i < n && byte(p, i) >= 0x80 { i = unsafe utf8Run(p, from: i, count: n) }  // SAFETY: i < n.
            } else {
                return i  // The closing quote or a control byte.
            }
        }
    }

    /// Scans string contents from `i` in any state: finishes a sequence the previous chunk cut,
    /// then alternates between the fast path and the byte-at-a-time machine. Returns the index
    /// of the closing quote, or `n` when the chunk ends first (then `progress` says where the
    /// scan stands).
    @inline(never)
    static func scanString(
        _ p: UnsafeRawPointer, from i: Int, count n: Int, base: Int, progress: inout StringProgress, limit: Int
    ) throws(JSONAPIError) -> Int {
        var i = i
        while true {
            if progress.sub != .clean {
                i = unsafe try stringSlow(p, from: i, count: n, base: base, progress: &progress, limit: limit)
                if progress.sub != .clean { return n }
            }
            i = unsafe scanStringFast(p, from: i, count: n, hasEscapes: &progress.hasEscapes)
            // SAFETY: i < n is checked before the read.
            if unsafe i == n || byte(p, i) == UInt8(ascii: "\"") { return i }
            i = unsafe try stringSlow(p, from: i, count: n, base: base, progress: &progress, limit: limit)
            if progress.sub != .clean { return n }
        }
    }

    /// The lanes of `chunk` that are `"`, `\\`, below 0x20 or above 0x7F.
    @inline(__always)
    static func specialLanes(_ chunk: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        stopLanes(chunk) .| (chunk .>= SIMD16<UInt8>(repeating: 0x80))
    }

    /// The lanes of `chunk` that are `"`, `\\` or below 0x20.
    @inline(__always)
    static func stopLanes(_ chunk: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        // Constants spelled with their full type: left to inference, the comparisons fall back
        // to a scalar loop per lane.
        let quote = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let backslash = SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))
        let space = SIMD16<UInt8>(repeating: 0x20)
        return (chunk .== quote) .| (chunk .== backslash) .| (chunk .< space)
    }

    /// The index after the blocks of non-ASCII text and escapes from `i` (a non-ASCII byte,
    /// between characters), block after block while the text goes on: the closing quote or a
    /// control byte, the first byte of a block of plain ASCII, a byte short of a sequence the last
    /// block cut, a byte the fast checks do not accept (an invalid or cut escape or UTF-8 sequence,
    /// for the caller to go a character at a time), or `i` itself when the first block is not
    /// taken. Only from i >= 3, where the three bytes before a block are in the chunk; `i` is
    /// always between characters, so they end complete ones.
    ///
    /// Escapes are ASCII, so a block's UTF-8 is checked once, through its first quote or control
    /// byte, escapes and all (``utf8BlockIsValid(_:at:_:through:)``); then its escapes are checked
    /// one after another (``fastEscape(_:at:count:)``), each wholly, even where it runs past the
    /// block. An escape that hides that quote (`\"`) or runs past the block leaves bytes the check
    /// did not cover: the next block starts right after it.
    @inline(never)
    static func textBlocks(_ p: UnsafeRawPointer, from i: Int, count n: Int, hasEscapes: inout Bool) -> Int {
        guard i >= 3 else { return i }
        var i = i
        blocks: while i &+ 16 <= n {
            // SAFETY: the sixteen bytes at i end at i + 16 <= n.
            let block = unsafe p.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let nonASCII = LaneSet(block .>= SIMD16<UInt8>(repeating: 0x80)).bits
            let backslashes = LaneSet(block .== SIMD16<UInt8>(repeating: UInt8(ascii: "\\"))).bits
            // Plain ASCII, or only a closing quote or control byte: the caller's loop is cheaper.
            if nonASCII | backslashes == 0 { break }
            let ends = LaneSet(
                (block .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))) .| (block .< SIMD16<UInt8>(repeating: 0x20))
            ).bits
            // The UTF-8 check covers lanes 0 ... checked (to 15 when there is no end).
            let checked = ends == 0 ? 16 : ends.trailingZeroBitCount
            if nonASCII != 0 {
                guard unsafe utf8BlockIsValid(p, at: i, block, through: checked) else { break }
            }
            // Lanes before `k` are taken; the stops from `k` on, in order.
            var k = 0
            while true {
                let laterEnds = ends &>> UInt32(k)
                let laterEscapes = backslashes &>> UInt32(k)
                let end = laterEnds == 0 ? 16 : k &+ laterEnds.trailingZeroBitCount
                let escape = laterEscapes == 0 ? 16 : k &+ laterEscapes.trailingZeroBitCount
                if escape < end {
                    hasEscapes = true
                    guard let next = unsafe fastEscape(p, at: i &+ escape, count: n) else { return i &+ escape }
                    k = next &- i
                    // Past the block, or past a quote the escape hid (lanes the check did not cover).
                    if k >= 16 || k > checked {
                        i &+= k
                        continue blocks
                    }
                } else if end < 16 {
                    return i &+ end  // The caller takes the quote or control byte.
                } else {
                    break
                }
            }
            // No stop left in the block: on to the next, short of a sequence the block cut.
            unsafe i &+= 16 &- incompleteTail(p, blockEnd: i &+ 16)
        }
        return i
    }

    /// Whether bytes `0 ... last` of `block` (read at `p + i`, `i >= 3`, with `i` between
    /// characters) are valid UTF-8 as far as they go, where `last` is `stop` (a byte that is not
    /// a continuation byte, so every sequence before it must be complete) or 15 when `stop` is
    /// 16 (a sequence may run past the block; ``incompleteTail(_:blockEnd:)`` finds it).
    ///
    /// Each byte is compared with the three before it, read as overlapping blocks: a byte must
    /// be a continuation byte (10xxxxxx) exactly when one of them is a lead that reaches it;
    /// C0, C1 and F5...FF never occur; and the second byte after E0, ED, F0 and F4 is range
    /// checked (overlong forms, surrogates, values past U+10FFFF). On false nothing is decided:
    /// the caller goes on a character at a time, which finds the error and its offset.
    @inline(__always)
    static func utf8BlockIsValid(_ p: UnsafeRawPointer, at i: Int, _ block: SIMD16<UInt8>, through stop: Int) -> Bool {
        // SAFETY: i >= 3, and the block at i lies in the chunk, so the three earlier ones do too.
        let back1 = unsafe p.loadUnaligned(fromByteOffset: i &- 1, as: SIMD16<UInt8>.self)
        let back2 = unsafe p.loadUnaligned(fromByteOffset: i &- 2, as: SIMD16<UInt8>.self)
        let back3 = unsafe p.loadUnaligned(fromByteOffset: i &- 3, as: SIMD16<UInt8>.self)
        let x80 = SIMD16<UInt8>(repeating: 0x80)
        let xC0 = SIMD16<UInt8>(repeating: 0xC0)
        let isContinuation = (block & xC0) .== x80
        let mustContinue =
            (back1 .>= xC0) .| (back2 .>= SIMD16<UInt8>(repeating: 0xE0)) .| (back3 .>= SIMD16<UInt8>(repeating: 0xF0))
        var bad = isContinuation .^ mustContinue
        bad .|= (block & SIMD16<UInt8>(repeating: 0xFE)) .== xC0
        bad .|= block .>= SIMD16<UInt8>(repeating: 0xF5)
        bad .|= (back1 .== SIMD16<UInt8>(repeating: 0xE0)) .& (block .< SIMD16<UInt8>(repeating: 0xA0))
        bad .|= (back1 .== SIMD16<UInt8>(repeating: 0xED)) .& (block .> SIMD16<UInt8>(repeating: 0x9F))
        bad .|= (back1 .== SIMD16<UInt8>(repeating: 0xF0)) .& (block .< SIMD16<UInt8>(repeating: 0x90))
        bad .|= (back1 .== SIMD16<UInt8>(repeating: 0xF4)) .& (block .> SIMD16<UInt8>(repeating: 0x8F))
        // No bad lane among lanes 0 ... stop (all sixteen when stop is 15 or 16).
        return LaneSet(bad).first > min(stop, 15)
    }

    /// How many bytes at the end of a block that ``utf8BlockIsValid(_:at:_:through:)`` accepted
    /// whole belong to a sequence that continues past it (0 to 3), so the scan resumes at that
    /// sequence's lead and stays between characters.
    @inline(__always)
    static func incompleteTail(_ p: UnsafeRawPointer, blockEnd end: Int) -> Int {
        // SAFETY: the block ending at `end` is in the chunk and is sixteen bytes long.
        // At most one of these holds in text the block check accepted, so `|` picks it.
        let one = unsafe byte(p, end &- 1) >= 0xC0 ? 1 : 0
        let two = unsafe byte(p, end &- 2) >= 0xE0 ? 2 : 0
        let three = unsafe byte(p, end &- 3) >= 0xF0 ? 3 : 0
        return one | two | three
    }

    /// A mask with the high bit set in the first byte of `word` (in memory order) that is `"`,
    /// `\`, below 0x20 or above 0x7F. Bits above the first such byte may be set spuriously.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // For a byte b < 0x80, (x - 1) has its high bit set iff x == 0, and b - 0x20 iff b < 0x20;
        // a borrow only leaves a byte that matched, so the lowest flagged byte is exact. Bytes
        // >= 0x80 are flagged by `| word`.
        let quote = (word ^ (ones &* 0x22)) &- ones
        let backslash = (word ^ (ones &* 0x5C)) &- ones
        let control = word &- (ones &* 0x20)
        return (quote | backslash | control | word) & (ones &* 0x80)
    }

    /// The index after a valid escape at `i` that lies wholly inside the chunk, or nil (for an
    /// invalid or cut escape, which the slow path then handles).
    @inline(__always)
    static func fastEscape(_ p: UnsafeRawPointer, at i: Int, count n: Int) -> Int? {
        guard i &+ 1 < n else { return nil }
        let e = unsafe byte(p, i &+ 1)  // SAFETY: i + 1 < n.
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i &+ 2
        case UInt8(ascii: "u"):
            guard i &+ 6 <= n, let first = unsafe hex4(p, at: i &+ 2) else { return nil }  // SAFETY: i + 6 <= n.
            if first < 0xD800 || first > 0xDFFF { return i &+ 6 }
            // A high surrogate with its low half right after it.
            // SAFETY: the reads end at `i + 12 <= n`, checked first.
            guard first < 0xDC00, i &+ 12 <= n, unsafe byte(p, i &+ 6) == UInt8(ascii: "\\"),
                unsafe byte(p, i &+ 7) == UInt8(ascii: "u"), let second = unsafe hex4(p, at: i &+ 8),
                second >= 0xDC00 && second <= 0xDFFF
            else { return nil }
            return i &+ 12
        default:
            return nil
        }
    }

    /// The value of the four hex digits at `i` (the caller checked `i + 4 <= count`), or nil.
    /// Read as one word and checked in all four bytes at once: Unicode-heavy text is mostly `\u`
    /// escapes, and a digit at a time cost a dozen branches per escape.
    @inline(__always)
    static func hex4(_ p: UnsafeRawPointer, at i: Int) -> UInt32? {
        // SAFETY: the callers check i + 4 <= n before calling.
        hex4(word: unsafe UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
    }

    /// The value of the four hex digits in `x` (the first lowest), or nil: the check of
    /// ``hex4(_:at:)``, shared with the string decoder.
    @inline(__always)
    static func hex4(word x: UInt32) -> UInt32? {
        let top: UInt32 = 0x8080_8080
        // With every byte below 0x80 no sum carries into the next byte, so each byte's top bit says:
        // at least '0' and not past '9', or (with 0x20 set, folding case) at least 'a' and not past 'f'.
        let lower = x | 0x2020_2020
        let digit = (x &+ 0x5050_5050) & ~(x &+ 0x4646_4646)
        let letter = (lower &+ 0x1F1F_1F1F) & ~(lower &+ 0x1919_1919)
        guard x & top == 0, (digit | letter) & top == top else { return nil }
        // Each byte's value: its low nibble, plus 9 for a letter (0x40 set).
        let values = (x & 0x0F0F_0F0F) &+ ((x & 0x4040_4040) &>> 6) &* 9
        let pairs = (values & 0x000F_000F) &<< 4 | (values &>> 8) & 0x000F_000F
        return (pairs & 0xFF) &<< 8 | (pairs &>> 16) & 0xFF
    }

    /// The value of a hex digit, or nil.
    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// The index after a valid UTF-8 sequence led by `c` at `i` that lies wholly inside the chunk,
    /// or nil (for an invalid or cut sequence, which the slow path then handles).
    @inline(__always)
    static func fastUTF8(_ c: UInt8, _ p: UnsafeRawPointer, at i: Int, count n: Int) -> Int? {
        guard let (needed, low, high) = utf8Lead(c), i &+ Int(needed) < n else { return nil }
        // SAFETY: every index read below is at most i + needed < n.
        let b1 = unsafe byte(p, i &+ 1)
        guard b1 >= low && b1 <= high else { return nil }
        if needed == 1 { return i &+ 2 }
        guard unsafe byte(p, i &+ 2) & 0xC0 == 0x80 else { return nil }
        if needed == 2 { return i &+ 3 }
        guard unsafe byte(p, i &+ 3) & 0xC0 == 0x80 else { return nil }
        return i &+ 4
    }

    /// The index after the run of valid, complete UTF-8 sequences starting at `i`: the first
    /// byte that is ASCII, invalid, or part of a sequence cut by the chunk end.
    @inline(never)
    static func utf8Run(_ p: UnsafeRawPointer, from i: Int, count n: Int) -> Int {
        var i = i
        while i < n {
            let lead = unsafe byte(p, i)  // SAFETY: i < n.
            guard lead >= 0x80, let next = unsafe fastUTF8(lead, p, at: i, count: n) else { return i }
            i = next
        }
        return i
    }

    /// For a UTF-8 lead byte: how many continuation bytes follow, and the range the first must be
    /// in (narrower than 0x80...0xBF where that excludes overlongs, surrogates and values past
    /// U+10FFFF). Nil for a byte that cannot start a sequence.
    @inline(__always)
    static func utf8Lead(_ c: UInt8) -> (needed: UInt8, low: UInt8, high: UInt8)? {
        switch c {
        case 0xC2...0xDF: (1, 0x80, 0xBF)
        case 0xE0: (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
        case 0xED: (2, 0x80, 0x9F)
        case 0xF0: (3, 0x90, 0xBF)
        case 0xF1...0xF3: (3, 0x80, 0xBF)
        case 0xF4: (3, 0x80, 0x8F)
        default: nil
        }
    }

    /// The byte-at-a-time string state machine. Consumes bytes from `i` until the scan is back
    /// between characters (or the chunk ends), and returns the index reached. Called at a byte
    /// the fast path did not accept, or to finish a sequence the previous chunk cut.
    @inline(never)
    static func stringSlow(
        _ p: UnsafeRawPointer, from i: Int, count n: Int, base: Int, progress: inout StringProgress, limit: Int
    ) throws(JSONAPIError) -> Int {
        var i = i
        while i < n {
            let c = unsafe byte(p, i)  // SAFETY: i < n.
            let at = base &+ i
            switch progress.sub {
            case .clean:
                if c == UInt8(ascii: "\\") {
                    progress.hasEscapes = true
                    progress.sub = .escape
                    progress.mark = at
                } else if c >= 0x80 {
                    guard let (needed, low, high) = utf8Lead(c) else {
                        throw progress.fail(at, .invalidUTF8, badLeadMessage(c), limit: limit)
                    }
                    progress.sub = .utf8
                    progress.count = needed
                    progress.low = low
                    progress.high = high
                } else if c < 0x20 {
                    throw progress.fail(
                        at, .invalidJSON,
                        "unescaped control character \(describe(c)) in a string; expected it escaped (e.g. \\n, \\u00XX)",
                        limit: limit)
                } else {
                    // A plain byte or the closing quote: the fast loop's business.
                    return i
                }
            case .escape:
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    progress.sub = .clean
                case UInt8(ascii: "u"):
                    progress.sub = .hex
                    progress.count = 0
                    progress.value = 0
                default:
                    throw progress.fail(
                        at, .invalidEscape,
                        "invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX after '\\', found \(describe(c))",
                        limit: limit)
                }
            case .hex, .lowHex:
                guard let digit = hexValue(c) else {
                    throw progress.fail(
                        at, .invalidEscape, "expected a hexadecimal digit in a \\u escape, found \(describe(c))",
                        limit: limit)
                }
                progress.value = progress.value &<< 4 | digit
                progress.count &+= 1
                if progress.count == 4 {
                    let value = progress.value
                    if progress.sub == .hex {
                        if value >= 0xD800 && value <= 0xDBFF {
                            progress.highSurrogate = value
                            progress.sub = .lowBackslash
                        } else if value >= 0xDC00 && value <= 0xDFFF {
                            throw progress.fail(
                                progress.mark, .invalidEscape,
                                "unpaired low surrogate escape \(escapeText(value)); expected a high surrogate "
                                    + "(\\uD800-\\uDBFF) before it",
                                limit: limit)
                        } else {
                            progress.sub = .clean
                        }
                    } else if value >= 0xDC00 && value <= 0xDFFF {
                        progress.sub = .clean
                    } else {
                        throw progress.fail(
                            progress.mark, .invalidEscape,
                            "unpaired high surrogate escape \(escapeText(progress.highSurrogate)); expected a low "
                                + "surrogate (\\uDC00-\\uDFFF) after it, found \(escapeText(value))",
                            limit: limit)
                    }
                }
            case .lowBackslash, .lowU:
                let wanted = progress.sub == .lowBackslash ? UInt8(ascii: "\\") : UInt8(ascii: "u")
                guard c == wanted else {
                    let found = progress.sub == .lowBackslash ? describe(c) : "'\\' followed by \(describe(c))"
                    throw progress.fail(
                        progress.mark, .invalidEscape,
                        "unpaired high surrogate escape \(escapeText(progress.highSurrogate)); expected a low "
                            + "surrogate escape (\\uDC00-\\uDFFF) after it, found \(found)",
                        limit: limit)
                }
                if progress.sub == .lowBackslash {
                    progress.sub = .lowU
                } else {
                    progress.sub = .lowHex
                    progress.count = 0
                    progress.value = 0
                }
            case .utf8:
                guard c >= progress.low && c <= progress.high else {
                    throw progress.fail(at, .invalidUTF8, badContinuationMessage(c, progress), limit: limit)
                }
                progress.count &-= 1
                progress.low = 0x80
                progress.high = 0xBF
                if progress.count == 0 { progress.sub = .clean }
            }
            i &+= 1
            if progress.sub == .clean { return i }
        }
        return i
    }
}

extension StringProgress {
    /// The error for a problem at `offset` in this string. A problem at or past the length limit
    /// is reported as `stringTooLong` instead: the limit was crossed first, and a chunked scan
    /// may already have stopped there.
    func fail(_ offset: Int, _ code: JSONAPIError.Code, _ message: String, limit: Int) -> JSONAPIError {
        if offset &- start >= limit { return JSONScanner.stringTooLong(start: start, limit: limit) }
        return .at(offset, code, message)
    }
}
