import Testing

@testable import JSONAPI
@testable import JSONAPITestSupport

/// `String(validatingUTF8Bytes:)` stands in for `String(validating:as:)`, which Apple platforms
/// have only from their 2024 releases; on Linux the standard library's is the reference.
@Suite("Strings from bytes validated as UTF-8")
struct StringUTF8Tests {
    @Test("agrees with the standard library on random bytes, valid text and its damaged forms")
    func agreesWithTheStandardLibrary() {
        var rng = SplitMix64(seed: 49)
        let samples: [[UInt8]] = [
            [], Array("plain".utf8), Array("é€😀".utf8), [0xEF, 0xBF, 0xBD], [0xC3], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xFF], Array("ok".utf8) + [0x80],
        ]
        var inputs = samples
        for _ in 0..<5_000 {
            let count = Int(rng.next() % 12)
            // Half from all bytes, half from text with a byte changed: near-valid input is where
            // a validator errs.
            if rng.next() % 2 == 0 {
                inputs.append((0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            } else {
                var text = Array("aé€😀z".utf8)
                text[Int(rng.next() % UInt64(text.count))] = UInt8(truncatingIfNeeded: rng.next())
                inputs.append(text)
            }
        }
        for bytes in inputs {
            #expect(String(validatingUTF8Bytes: bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}
