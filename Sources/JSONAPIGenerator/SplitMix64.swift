/// A small, fast, deterministic pseudo-random number generator (Steele, Lea and Flood's SplitMix64).
///
/// The generator's output depends only on its seed, on every platform and in every build, which is
/// what makes generated documents reproducible. It is not cryptographically secure.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = random.next(below: 6) + 1  // 1...6, the same for every run with seed 42
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The internal state; advances by a fixed odd constant on every draw.
    @usableFromInline var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A random integer in `0..<bound`, for `bound` in `1...UInt32.max`.
    ///
    /// Uses Lemire's multiply-shift reduction of 32 random bits; the bias (at most
    /// `bound / 2^32`) is irrelevant for generating test data.
    @inlinable
    public mutating func next(below bound: Int) -> Int {
        Int(truncatingIfNeeded: ((next() >> 32) &* UInt64(truncatingIfNeeded: bound)) >> 32)
    }

    /// A random integer in `range`, whose width must fit in 32 bits.
    @inlinable
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// `true` with a probability of `percent` in 100.
    @inlinable
    public mutating func chance(_ percent: Int) -> Bool {
        next(below: 100) < percent
    }

    /// SplitMix64's finaliser: a bijection on 64-bit integers that scrambles every bit.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
