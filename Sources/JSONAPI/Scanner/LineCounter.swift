/// Counts lines and columns, eight bytes at a time: for the streaming validator, which counts
/// every chunk it is fed, and for ``SourceLocator``, which counts up to the offsets it places.
///
/// It lives with the scanner because its word loop reads raw bytes, like the scanner's own.
struct LineCounter: Sendable {
    /// The line at `position`.
    var line = 1
    /// The column at `position`.
    var column = 1
    /// The offset the counts describe.
    var position = 0

    /// Moves to `end` (at most `bytes.count`), counting the bytes of the whole document `bytes`
    /// from `position` on.
    mutating func advance(over bytes: ByteView, to end: Int) {
        let end = min(end, bytes.count)
        guard position < end else { return }
        unsafe bytes.subview(position..<end).withUnsafeBytes { unsafe advance(over: $0) }
    }

    /// Moves past `bytes`, which start at `position`.
    mutating func advance(over bytes: UnsafeRawBufferPointer) {
        position &+= bytes.count
        guard let base = bytes.baseAddress, unsafe !bytes.isEmpty else { return }
        let n = bytes.count
        let (feeds, continuations) = unsafe Self.count(base, from: 0, to: n)
        if feeds == 0 {
            column &+= n &- continuations
            return
        }
        line &+= feeds
        // The column restarts after the last line feed: find it from the end (it is near the
        // end of any text that has lines), and count the scalars after it.
        var lastFeed = n &- 1
        // SAFETY: a line feed exists at or before `n - 1`, so `lastFeed` stays in `0..<n`.
        while unsafe base.load(fromByteOffset: lastFeed, as: UInt8.self) != 0x0A { lastFeed &-= 1 }
        column = unsafe 1 &+ (n &- lastFeed &- 1) &- Self.count(base, from: lastFeed &+ 1, to: n).continuations
    }

    /// The line feeds and UTF-8 continuation bytes in `p[start ..< end]`, eight bytes at a time.
    static func count(_ p: UnsafeRawPointer, from start: Int, to end: Int) -> (feeds: Int, continuations: Int) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        var feeds = 0
        var continuations = 0
        var i = start
        while i &+ 8 <= end {
            // Per-byte counters: each lane counts to at most 255 before it is added up.
            var feedLanes: UInt64 = 0
            var continuationLanes: UInt64 = 0
            let stop = min(end, i &+ 8 &* 255)
            while i &+ 8 <= stop {
                // SAFETY: the eight bytes at i end at i + 8 <= end.
                let word = unsafe UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                // 0b10xxxxxx: bit 7 set and bit 6 (moved up to bit 7 by the shift) clear.
                continuationLanes &+= (word & ~(word &<< 1) & high) &>> 7
                // Exact zero-byte test of word ^ '\n' (no borrows, so every flag is real).
                let x = word ^ (ones &* 0x0A)
                feedLanes &+= (~(((x & (ones &* 0x7F)) &+ (ones &* 0x7F)) | x) & high) &>> 7
                i &+= 8
            }
            feeds &+= sumLanes(feedLanes)
            continuations &+= sumLanes(continuationLanes)
        }
        while i < end {
            let c = unsafe p.load(fromByteOffset: i, as: UInt8.self)  // SAFETY: i < end.
            if c == 0x0A { feeds &+= 1 } else if c & 0xC0 == 0x80 { continuations &+= 1 }
            i &+= 1
        }
        return (feeds, continuations)
    }

    /// The sum of the eight byte lanes of `lanes`.
    @inline(__always)
    static func sumLanes(_ lanes: UInt64) -> Int {
        let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes &>> 8) & 0x00FF_00FF_00FF_00FF)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) &>> 48)
    }
}
