import JSONAPI

/// Choices derived from the input bytes alone (options, chunk sizes), so that a crash input
/// replays exactly: the same bytes always take the same path.
struct InputPlan {
    private var state: UInt64

    /// Seeds the plan with the FNV-1a hash of `bytes`.
    init(_ bytes: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        state = hash
    }

    /// The next number of a SplitMix64 sequence.
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func flip() -> Bool { next() & 1 == 1 }

    /// Parsing options of any kind, strict or lenient.
    mutating func parsingOptions() -> ParsingOptions {
        let kinds = ParsingOptions.Kind.allCases
        var options = ParsingOptions(kind: kinds[next(below: kinds.count)], lenient: flip())
        options.checksFullLinkage = next(below: 4) != 0
        return options
    }

    /// Chunk sizes that cover `count` bytes: mostly small, sometimes empty, sometimes large,
    /// so that every kind of token gets split somewhere.
    mutating func chunkSizes(covering count: Int) -> [Int] {
        var sizes: [Int] = []
        var covered = 0
        let style = next(below: 4)
        while covered < count {
            let size: Int
            switch style {
            case 0: size = 1
            case 1: size = 1 + next(below: 16)
            case 2: size = next(below: 8) == 0 ? 0 : 1 + next(below: max(1, count / 3))
            default: size = next(below: 5) == 0 ? 1 + next(below: 4096) : 1 + next(below: 64)
            }
            sizes.append(size)
            covered += size
        }
        return sizes
    }
}
