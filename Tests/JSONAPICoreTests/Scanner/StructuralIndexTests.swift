import Foundation
import JSONAPIGenerator
import Testing

@_spi(Backend) @testable import JSONAPI
@testable import JSONAPITestSupport

/// The structural positions of `bytes` one byte at a time, as the index defines them: operators
/// outside strings, every quote that is not escaped, the first byte of each run of other
/// non-whitespace bytes outside strings, and inside strings each backslash that starts an escape
/// and each control byte. A backslash escapes the next byte wherever it stands (outside a string
/// it is already an error the scanner reports).
func referencePositions(_ bytes: [UInt8]) -> [Int] {
    var positions: [Int] = []
    var inString = false
    var escaped = false
    var inScalar = false
    for (i, c) in bytes.enumerated() {
        let wasEscaped = escaped
        escaped = false
        if inString {
            if c < 0x20 { positions.append(i) }
            if wasEscaped { continue }
            if c == UInt8(ascii: "\\") {
                positions.append(i)
                escaped = true
            } else if c == UInt8(ascii: "\"") {
                positions.append(i)
                inString = false
            }
            continue
        }
        if c == UInt8(ascii: "\\") && !wasEscaped { escaped = true }
        if c == UInt8(ascii: "\"") && !wasEscaped {
            positions.append(i)
            inString = true
            inScalar = false
        } else if "{}[]:,".utf8.contains(c) {
            positions.append(i)
            inScalar = false
        } else if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
            inScalar = false
        } else {
            if !inScalar { positions.append(i) }
            inScalar = true
        }
    }
    return positions
}

/// Pieces of JSON-like text, valid and not, that random inputs are made of.
private let pieces: [[UInt8]] =
    [
        "\"", "\\", "{", "}", "[", "]", ":", ",", " ", "\n", "\r\n", "\t", "a", "12", "-", "true", "null", "x",
        "\\\\", "\\\"", "\\u00e9", "\\ud83d\\ude00", "é", "€", "😀", "日本",
    ].map { Array($0.utf8) } + [
        [0x01], [0x1F], [0x80], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ]

/// Random text of about `length` bytes from `pieces`; `clean` leaves out the pieces that are
/// invalid UTF-8 or control bytes.
private func randomText(_ length: Int, clean: Bool, using rng: inout JSONAPITestSupport.SplitMix64) -> [UInt8] {
    let usable =
        clean
        ? pieces.filter {
            String(validating: $0, as: UTF8.self) != nil
                && !$0.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        } : pieces
    var bytes: [UInt8] = []
    while bytes.count < length { bytes += usable[Int.random(in: 0..<usable.count, using: &rng)] }
    return bytes
}

/// The offset of the first byte of `bytes` that no valid continuation of the bytes before it can
/// follow: where a validator reading from the start fails.
private func firstInvalidByte(_ bytes: [UInt8]) -> Int {
    var k = 0
    while k < bytes.count {
        let lead = bytes[k]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let end = min(bytes.count, k + length)
        guard String(validating: bytes[k..<end], as: UTF8.self) != nil else { return k }
        k = end
    }
    return bytes.count
}

/// The scanner's events and error for `bytes` fed in chunks ending at `cuts`, with `kernel`.
private func scanWith(_ kernel: StructuralIndex, _ bytes: [UInt8], cuts: [Int] = []) -> ScanOutcome {
    scan(bytes, cuts: cuts, structuralIndex: kernel)
}

/// Expects every kernel to give the byte-level scanner's events and error for `bytes`, whole
/// and fed in chunks ending at `cuts`.
private func expectKernelsAgree(
    _ bytes: [UInt8], cuts: [Int] = [], _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let reference = scanWith(.off, bytes)
    for kernel in StructuralIndex.availableKernels {
        let whole = scanWith(kernel, bytes)
        #expect(whole == reference, "\(name), \(kernel): \(whole) vs \(reference)", sourceLocation: sourceLocation)
        if !cuts.isEmpty {
            let chunked = scanWith(kernel, bytes, cuts: cuts)
            #expect(chunked == reference, "\(name), \(kernel) in chunks: \(chunked)", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Structural index")
struct StructuralIndexTests {
    @Test("The portable kernel runs everywhere; off and automatic are always available")
    func availability() {
        #expect(StructuralIndex.availableKernels.contains(.portable))
        #expect(StructuralIndex.off.isAvailable && StructuralIndex.automatic.isAvailable)
        #expect(StructuralIndex.off.resolved == -1)
        #if arch(x86_64)
            #expect(!StructuralIndex.neon.isAvailable)
        #elseif arch(arm64)
            #expect(StructuralIndex.neon.isAvailable)
        #endif
        #expect(
            StructuralIndex.availableKernels.map(\.description).allSatisfy {
                ["portable", "sse42", "avx2", "neon"].contains($0)
            })
    }

    @Test("Every kernel finds the positions of the byte-at-a-time model, window after window")
    func positionsMatchTheModel() {
        var rng = JSONAPITestSupport.SplitMix64(seed: 51)
        for round in 0..<1500 {
            let bytes = randomText(Int.random(in: 0...700, using: &rng), clean: true, using: &rng)
            let expected = referencePositions(bytes)
            for kernel in StructuralIndex.availableKernels {
                // A small window makes most inputs take several windows.
                let capacity = round.isMultiple(of: 2) ? 72 + Int.random(in: 0...200, using: &rng) : 1024
                let (positions, indexed) = kernel.positions(in: bytes, capacity: capacity)
                #expect(indexed == bytes.count, "\(kernel) stopped at \(indexed) of \(bytes.count) valid bytes")
                #expect(
                    positions == expected,
                    "\(kernel), round \(round): \(positions.prefix(20)) vs \(expected.prefix(20))")
                if positions != expected || indexed != bytes.count { return }
            }
        }
    }

    @Test("A block of invalid UTF-8 stops the index before it; valid text never does")
    func utf8() {
        var rng = JSONAPITestSupport.SplitMix64(seed: 8)
        for _ in 0..<1500 {
            let bytes = randomText(Int.random(in: 1...400, using: &rng), clean: false, using: &rng)
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let firstBad = valid ? bytes.count : firstInvalidByte(bytes)
            let expected = referencePositions(bytes)
            for kernel in StructuralIndex.availableKernels {
                let (positions, indexed) = kernel.positions(in: bytes)
                if valid {
                    #expect(indexed == bytes.count, "\(kernel) stopped in valid text")
                } else {
                    // Stopped at a block boundary, no later than the end of the block where the
                    // invalid sequence starts (a sequence cut by a block's end fails in the next).
                    #expect(indexed < bytes.count && indexed % 64 == 0, "\(kernel) indexed \(indexed) of invalid text")
                    #expect(
                        indexed <= (firstBad / 64 + 1) * 64, "\(kernel) indexed past the invalid byte at \(firstBad)")
                }
                #expect(positions == expected.filter { $0 < indexed }, "\(kernel): positions before the stop")
            }
        }
    }

    @Test("Every two-byte sequence in a string: indexed exactly when it is valid UTF-8")
    func everyTwoByteSequence() {
        for kernel in StructuralIndex.availableKernels {
            var wrong: [String] = []
            for first in 0x80...0xFF {
                for second in 0...0xFF where second >= 0x20 && second != 0x22 && second != 0x5C {
                    let text: [UInt8] = [0x22, UInt8(first), UInt8(second), 0x22]
                    let bytes = Array(repeating: UInt8(ascii: " "), count: 62) + text
                    let valid = String(validating: text, as: UTF8.self) != nil
                    let indexed = kernel.positions(in: bytes).indexed
                    if (indexed == bytes.count) != valid { wrong.append(String(format: "%02X %02X", first, second)) }
                }
            }
            #expect(wrong.isEmpty, "\(kernel): \(wrong.prefix(10))")
        }
    }

    @Test("Every three- and four-byte lead with boundary continuations, across a block boundary")
    func longerSequences() {
        let continuations: [UInt8] = [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0]
        for kernel in StructuralIndex.availableKernels {
            var wrong: [String] = []
            for lead in 0xE0...0xF7 {
                for a in continuations {
                    for b in continuations {
                        let four = lead >= 0xF0
                        for c in four ? continuations : [0x41] {
                            let sequence: [UInt8] = four ? [UInt8(lead), a, b, c] : [UInt8(lead), a, b]
                            let valid = String(validating: sequence, as: UTF8.self) != nil
                            // The sequence starts at 62, 63 and 64: inside, across and after the first
                            // block's end.
                            for pad in 61...63 {
                                let bytes = Array(repeating: UInt8(ascii: " "), count: pad) + [0x22] + sequence + [0x22]
                                let indexed = kernel.positions(in: bytes).indexed
                                if (indexed == bytes.count) != valid {
                                    wrong.append(sequence.map { String(format: "%02X", $0) }.joined(separator: " "))
                                }
                            }
                        }
                    }
                }
            }
            #expect(wrong.isEmpty, "\(kernel): \(wrong.prefix(10))")
        }
    }

    @Test(
        "JSONTestSuite: every kernel gives the byte-level scanner's events and error, whole and at every split",
        .enabled(if: jsonTestSuiteDirectory != nil, "JSONTestSuite not found beside the package root"),
        arguments: jsonTestSuiteFiles)
    func jsonTestSuite(_ name: String) throws {
        let bytes = try jsonTestSuiteBytes(name)
        expectKernelsAgree(bytes, name)
        guard bytes.count <= 2000 else { return }
        let reference = scanWith(.off, bytes)
        for kernel in StructuralIndex.availableKernels {
            for cut in 0...bytes.count {
                let split = scanWith(kernel, bytes, cuts: [cut])
                #expect(split == reference, "\(name), \(kernel) split at \(cut): \(split) vs \(reference)")
                if split != reference { break }
            }
        }
    }

    @Test("Random valid documents and their mutations: every kernel agrees with the byte-level scanner")
    func randomDocuments() {
        var rng = JSONAPITestSupport.SplitMix64(seed: 2051)
        for round in 0..<400 {
            var generator = RandomJSON(seed: UInt64(round) &+ 77)
            generator.document()
            var bytes = generator.text
            if round.isMultiple(of: 2), !bytes.isEmpty {
                // A mutation: a byte replaced, inserted or removed.
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.insert(pieces.randomElement(using: &rng)?.first ?? 0x22, at: at)
                default: bytes.remove(at: at)
                }
            }
            expectKernelsAgree(bytes, cuts: randomCuts(bytes.count, using: &rng), "round \(round)")
        }
    }

    @Test("Generated documents of every shape, whole and in 64 KiB chunks", arguments: CorpusShape.allCases)
    func generatedShapes(_ shape: CorpusShape) {
        let bytes = CorpusDocumentGenerator(shape: shape, primaryCount: 600, seed: 7).generate()
        let cuts = Array(stride(from: 65_536, to: bytes.count, by: 65_536))
        expectKernelsAgree(bytes, cuts: cuts, "\(shape)")
    }

    @Test("The validator gives every kernel's verdict and error the byte-level one")
    func validator() {
        let documents = [
            #"{"data": [1, 2, {"a": "\u00e9\ud83d\ude00"}], "meta": null}"#, #"{"data": [1, 2,]}"#,
            "{\"a\": \"b\u{01}\"}", #"[1, 2"#, #"{"a" "b"}"#, "\"\\ud800\"",
        ]
        for text in documents {
            let bytes = Array(text.utf8)
            var reference = JSONSyntaxValidator(structuralIndex: .off)
            let expected = Result { () throws(JSONAPIError) in
                try reference.feed(bytes)
                try reference.finish()
            }
            for kernel in StructuralIndex.availableKernels {
                var validator = JSONSyntaxValidator(structuralIndex: kernel)
                let result = Result { () throws(JSONAPIError) in
                    try validator.feed(bytes)
                    try validator.finish()
                }
                #expect(String(describing: result) == String(describing: expected), "\(text) with \(kernel)")
            }
        }
    }
}
