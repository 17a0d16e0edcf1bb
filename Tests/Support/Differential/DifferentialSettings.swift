import Foundation

/// The seed and iteration count of the random differential tests: fixed by default, so every run
/// checks the same documents; `JSONAPI_DIFFERENTIAL_SEED` (a number, or `random`) and
/// `JSONAPI_DIFFERENTIAL_ITERATIONS` override them for long runs.
enum DifferentialSettings {
    static var seed: UInt64 {
        let text = ProcessInfo.processInfo.environment["JSONAPI_DIFFERENTIAL_SEED"]
        if text == "random" { return UInt64.random(in: 0...UInt64.max) }
        return text.flatMap { UInt64($0) } ?? 0x0000_0A11_1D5E_ED00
    }

    /// `defaultCount`, or the count the environment asks for, scaled by `share` of it.
    static func iterations(_ defaultCount: Int, share: Double = 1) -> Int {
        guard let text = ProcessInfo.processInfo.environment["JSONAPI_DIFFERENTIAL_ITERATIONS"], let count = Int(text)
        else { return defaultCount }
        return max(1, Int(Double(count) * share))
    }
}
