import PropertyBased
import Testing

@testable @_spi(Backend) import JSONAPI
@testable import JSONAPITestSupport

/// The scanner reads string contents and whitespace runs a block at a time (sixteen bytes, and a
/// run of blocks for long text) wherever a whole block lies in the chunk, and byte by byte near the
/// chunk's end. Fed a byte at a time, no block ever lies in the chunk, so `scanEveryWay`, which
/// compares the whole scan with the scan split at every byte and with one byte per chunk, checks the
/// block paths against the byte loop: the same tokens, the same errors at the same offsets.
@Suite("Scanner: blocks against the byte loop")
struct ScannerBlockTests {
    /// What may end a plain run inside a string: the closing quote, escapes (short, `\u`, a
    /// surrogate pair, one cut short or invalid), raw control bytes, and UTF-8 (valid and not).
    static let stops: [[UInt8]] = [
        Array(#"""#.utf8), Array(#"\n"#.utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\/"#.utf8),
        Array(#"\u00e9"#.utf8), Array(#"\uD83D\uDE00"#.utf8), Array(#"\uDE00"#.utf8), Array(#"\uD83Dx"#.utf8),
        Array(#"\u12G4"#.utf8), Array(#"\x"#.utf8), [0x00], [0x0A], [0x1F], [0x7F], [0xC3, 0xA9],
        [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC3], [0xED, 0xA0, 0x80],
    ]

    /// A string whose stop falls at content offset `position` (after `lead` bytes before the
    /// string, which shift the block alignment), with plain text after it.
    static func document(lead: Int, position: Int, stop: [UInt8], key: Bool) -> [UInt8] {
        var bytes: [UInt8] = Array(repeating: 0x20, count: lead)
        bytes += Array((key ? #"{""# : #"[""#).utf8)
        bytes += (0..<position).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
        bytes += stop
        bytes += Array("tail text past the block".utf8)
        bytes += Array((key ? #"":1}"# : #""]"#).utf8)
        return bytes
    }

    @Test("a stop byte at every position of a 16, 32 and 64-byte block, split at every byte")
    func stopAtEveryPosition() {
        for stop in Self.stops {
            for position in 0...66 {
                for lead in [0, 7] {
                    for key in [false, true] {
                        let bytes = Self.document(lead: lead, position: position, stop: stop, key: key)
                        _ = scanEveryWay(bytes)
                    }
                }
            }
        }
    }

    @Test("escapes straddling blocks: runs of escapes at every alignment, split at every byte")
    func escapeRuns() {
        let escapes = [#"\u00e9"#, #"\n"#, #"\uD83D\uDE00"#, #"\\"#, #"\u4E2D"#]
        for offset in 0..<20 {
            for escape in escapes {
                var text = String(repeating: "x", count: offset)
                for k in 0..<12 { text += k % 3 == 2 ? "é" : escape }
                let outcome = scanEveryWay("[\"" + text + "\"]")
                #expect(outcome.isAccepted, "\(text)")
            }
        }
    }

    @Test("whitespace runs of every length around a block before every kind of token, and a bad byte inside a run")
    func whitespaceRuns() {
        let fill: [UInt8] = [0x20, 0x20, 0x0A, 0x20, 0x09, 0x20, 0x0D]
        // Every length up to two blocks, then the lengths around the third and fourth.
        for length in Array(0...33) + [47, 48, 49, 63, 64, 65, 70] {
            let run = (0..<length).map { fill[$0 % fill.count] }
            for token in [#""k":1"#, #""k":[ ]"#, "\"k\":"] {
                var bytes = Array("{".utf8) + run + Array(token.utf8) + run
                bytes += token.hasSuffix(":") ? Array("true".utf8) + run + Array("}".utf8) : Array("}".utf8)
                _ = scanEveryWay(bytes)
            }
            _ = scanEveryWay(Array("[".utf8) + run + Array("1,".utf8) + run + Array("2".utf8) + run + Array("]".utf8))
            // A control byte (or another non-whitespace byte) inside the run is an error at its offset.
            for bad in [UInt8(0x0B), 0x00, 0x1F, UInt8(ascii: "x")] where length > 0 {
                for at in Set([0, length / 2, length - 1]) {
                    var broken = run
                    broken[at] = bad
                    let outcome = scanEveryWay(Array("[".utf8) + broken + Array("1]".utf8))
                    #expect(outcome.error?.offset == 1 + at, "run \(length), bad byte at \(at)")
                }
            }
        }
    }

    /// Random bytes drawn mostly from what the block paths treat specially.
    static let alphabet: [UInt8] =
        Array(#""\\\\uUdDeE09afAF /nbtr{}[],:"#.utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x20, 0x20, 0x7F]
        + [0x80, 0xBF, 0xC2, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xED, 0xA0, 0xF0, 0x9F, 0x98, 0xF4, 0x90, 0xFF]

    @Test("random bytes inside a string and between tokens: the block paths agree with the byte loop")
    func randomBytes() async {
        let bytes = Gen<Int>.int(in: 0...(Self.alphabet.count - 1)).map { Self.alphabet[$0] }.array(of: 0...90)
        await propertyCheck(count: 1_500, input: bytes, Gen<Int>.int(in: 0...3)) { body, shape in
            let wrapped: [UInt8]
            switch shape {
            case 0: wrapped = Array(#"[""#.utf8) + body + Array(#""]"#.utf8)
            case 1: wrapped = Array(#"{""#.utf8) + body + Array(#"":0}"#.utf8)
            case 2: wrapped = Array("[".utf8) + body + Array("]".utf8)
            default: wrapped = Array(#"["abcdefghijklmnopqrstuvwxyz"#.utf8) + body + Array(#""]"#.utf8)
            }
            let whole = scan(wrapped)
            let bytewise = scanBytewise(wrapped)
            #expect(whole == bytewise, "\(wrapped): whole \(whole) vs bytewise \(bytewise)")
            let cut = wrapped.count / 2
            #expect(scan(wrapped, cuts: [cut]) == whole, "\(wrapped) split at \(cut)")
        }
    }

    /// Every lane-set form built on this machine, the portable one (what arm64 runs) included,
    /// against a loop over the lanes: random masks, with empty and full ones among them.
    @Test("each lane-set form agrees with a loop over the lanes")
    func laneSets() {
        var rng = SplitMix64(seed: 32)
        for round in 0..<4_000 {
            var bytes = SIMD16<UInt8>()
            var expected: UInt32 = 0
            // Rounds 0 and 1: no lane and every lane; then each lane with probability 1/2, 1/8, 1/32.
            let sparsity = round < 2 ? 0 : [1, 3, 5][round % 3]
            for k in 0..<16 where round == 1 || (round > 1 && rng.next() % (1 << UInt64(sparsity)) == 0) {
                bytes[k] = UInt8(ascii: "\"")
                expected |= 1 << UInt32(k)
            }
            let lanes = bytes .== SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
            let first = expected == 0 ? 16 : expected.trailingZeroBitCount
            Self.expect(PortableLaneSet(lanes), bits: expected, first: first)
            #if canImport(_Builtin_intrinsics.intel)
                Self.expect(SSE2LaneSet(lanes), bits: expected, first: first)
            #endif
            Self.expect(LaneSet(lanes), bits: expected, first: first)
        }
    }

    static func expect<Set: LaneSetKind>(
        _ set: Set, bits: UInt32, first: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(set.bits == bits, "\(Set.self)", sourceLocation: sourceLocation)
        #expect(set.isEmpty == (bits == 0), "\(Set.self)", sourceLocation: sourceLocation)
        #expect(min(set.first, 16) == first, "\(Set.self)", sourceLocation: sourceLocation)
    }
}
