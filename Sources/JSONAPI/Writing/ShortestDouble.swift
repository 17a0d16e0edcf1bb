/// The text of a finite `Double` as `description` writes it, without allocating: the shortest
/// decimal that reads back as the same double (of those, the closest), in `description`'s layout
/// (`0.1`, `123.456`, `9007199254740992.0`, `1e-05`, `1.7976931348623157e+308`).
///
/// The digits come from Raffaello Giulietti's Schubfach algorithm ("The Schubfach way to render
/// doubles", 2020): the binary significand times a 126-bit upper approximation of a power of ten
/// (``powersOfTen``), rounded to odd, gives the decimal interval of the double's rounding range
/// at a precision where the shortest member can be read off directly, with no loop over digits
/// and no big-number fallback. Writers call it instead of `description`, which builds a `String`
/// (a heap allocation for the longer ones) for every number, and it writes straight into their
/// buffer.
@usableFromInline @safe
struct ShortestDouble {
    /// The most bytes the text takes (`-2.2250738585072014e-308` is 24).
    @inlinable
    static var maximumBytes: Int { 32 }

    /// Where the text goes: room for ``maximumBytes``.
    private let out: UnsafeMutablePointer<UInt8>
    private var count = 0

    static let smallestPower = -292
    static let largestPower = 324

    /// Writes the text of `value`, which must be finite, at `out`, which must have room for
    /// ``maximumBytes``; returns how many bytes it wrote.
    @usableFromInline
    static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var text = unsafe ShortestDouble(out: out)
        text.write(value)
        return text.count
    }

    private init(out: UnsafeMutablePointer<UInt8>) {
        unsafe self.out = out
    }

    private mutating func write(_ value: Double) {
        if value.sign == .minus { put(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        if magnitude < 9_007_199_254_740_992.0, magnitude.rounded(.towardZero) == magnitude {
            // An integer below 2^53 is its own shortest decimal (and zero is `0.0`).
            format(UInt64(magnitude), 0, large: false)
            return
        }
        var (significand, exponent) = Self.shortest(magnitude)
        while significand % 10 == 0 {
            significand /= 10
            exponent &+= 1
        }
        format(significand, exponent, large: magnitude > 9_007_199_254_740_992.0)
    }

    /// Appends one byte.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        // SAFETY: the caller gave room for `maximumBytes`, and no text is longer.
        unsafe out[count] = byte
        count &+= 1
    }

    /// Writes `digits` × 10^`exponent` as `description` lays it out: plain decimal from 10^-4 up
    /// to 2^53, exponential (a two-digit exponent at least) outside.
    private mutating func format(_ digits: UInt64, _ exponent: Int, large: Bool) {
        let length = Self.digitCount(digits)
        // The exponent of the first digit: value = d.ddd × 10^scientific.
        let scientific = exponent &+ length &- 1
        if scientific < -4 || large {
            let tail = length &- 1
            let power = Self.powersOfTenUpTo19[tail]
            put(UInt8(truncatingIfNeeded: digits / power) &+ UInt8(ascii: "0"))
            if tail > 0 {
                put(UInt8(ascii: "."))
                putDigits(digits % power, width: tail)
            }
            put(UInt8(ascii: "e"))
            put(scientific < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = UInt64(scientific.magnitude)
            putDigits(magnitude, width: magnitude >= 100 ? 3 : 2)
        } else if scientific < 0 {
            put(UInt8(ascii: "0"))
            put(UInt8(ascii: "."))
            for _ in 0..<(-scientific &- 1) { put(UInt8(ascii: "0")) }
            putDigits(digits, width: length)
        } else if scientific >= length &- 1 {
            putDigits(digits, width: length)
            for _ in 0..<(scientific &- (length &- 1)) { put(UInt8(ascii: "0")) }
            put(UInt8(ascii: "."))
            put(UInt8(ascii: "0"))
        } else {
            let fraction = length &- scientific &- 1
            let power = Self.powersOfTenUpTo19[fraction]
            putDigits(digits / power, width: scientific &+ 1)
            put(UInt8(ascii: "."))
            putDigits(digits % power, width: fraction)
        }
    }

    /// Writes the last `width` decimal digits of `value`, zeros first where it has fewer, two at
    /// a time from the right.
    private mutating func putDigits(_ value: UInt64, width: Int) {
        var rest = value
        var remaining = width
        var index = count &+ width
        count = index
        while remaining >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            remaining &-= 2
            index &-= 2
            // SAFETY: every index lies below `count`, which `format` keeps within `maximumBytes`.
            unsafe out[index] = Self.digitPairs[pair]
            unsafe out[index &+ 1] = Self.digitPairs[pair &+ 1]
        }
        if remaining == 1 {
            // SAFETY: as above.
            unsafe out[index &- 1] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
        }
    }

    /// How many decimal digits `value` has (1 for 0).
    private static func digitCount(_ value: UInt64) -> Int {
        // floor(log10(2^bits)) + 1 is right or one too many.
        let odd = value | 1
        let estimate = ((64 &- odd.leadingZeroBitCount) &* 1233) &>> 12
        return odd < powersOfTenUpTo19[estimate] ? estimate : estimate &+ 1
    }

    /// 10^0 ... 10^19.
    private static let powersOfTenUpTo19: [UInt64] = (0..<20).reduce(into: []) { powers, index in
        powers.append(index == 0 ? 1 : powers[index &- 1] &* 10)
    }

    /// "00", "01", ... "99", two bytes each.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { pair in
        [
            UInt8(truncatingIfNeeded: pair / 10) &+ UInt8(ascii: "0"),
            UInt8(truncatingIfNeeded: pair % 10) &+ UInt8(ascii: "0"),
        ]
    }

    // MARK: - Schubfach

    /// The shortest decimal `significand × 10^exponent` that rounds to `value` (positive and
    /// finite), the closest to it when several are as short; `significand` may end in zeros.
    static func shortest(_ value: Double) -> (significand: UInt64, exponent: Int) {
        let fraction = value.significandBitPattern
        let biased = Int(value.exponentBitPattern)
        if biased != 0 {
            // value = c × 2^q with 2^52 <= c < 2^53.
            return decimal(q: biased &- 1075, c: fraction | (1 << 52))
        }
        // Subnormal: c × 2^-1074.
        return decimal(q: -1074, c: fraction)
    }

    /// Section 9 of the paper: the decimal of `c × 2^q`.
    private static func decimal(q: Int, c: UInt64) -> (significand: UInt64, exponent: Int) {
        // Doubles round to nearest, ties to even: an even significand's rounding interval
        // includes its bounds.
        let out: UInt64 = c & 1
        let cb = c &<< 2
        let cbr = cb &+ 2
        let cbl: UInt64
        let k: Int
        if c != 1 << 52 || q == -1074 {
            cbl = cb &- 2
            k = floorLog10Pow2(q)
        } else {
            // At a power of two the interval below is half as wide.
            cbl = cb &- 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let h = q &+ floorLog2Pow10(-k) &+ 2
        let index = 2 &* (-k &- smallestPower)
        let g1 = powersOfTen[index]
        let g0 = powersOfTen[index &+ 1]
        let vb = roundToOdd(g1, g0, cb &<< h)
        let vbl = roundToOdd(g1, g0, cbl &<< h)
        let vbr = roundToOdd(g1, g0, cbr &<< h)
        let s = vb &>> 2
        if s >= 10 {
            // One digit fewer, when a multiple of ten lies in the interval. (The paper's Java
            // asks for s >= 100, because Java prints two digits at least; `description` prints
            // `5e-324` and `8e-323`.)
            let sp10 = (s / 10) &* 10
            let tp10 = sp10 &+ 10
            let upin = vbl &+ out <= sp10 &<< 2
            let wpin = (tp10 &<< 2) &+ out <= vbr
            if upin != wpin { return (upin ? sp10 : tp10, k) }
        }
        let t = s &+ 1
        let uin = vbl &+ out <= s &<< 2
        let win = (t &<< 2) &+ out <= vbr
        if uin != win { return (uin ? s : t, k) }
        // Both or neither in the interval: the closer, the even one on a tie.
        let cmp = Int64(bitPattern: vb) &- Int64(bitPattern: (s &+ t) &<< 1)
        return (cmp < 0 || (cmp == 0 && s & 1 == 0) ? s : t, k)
    }

    /// The top bits of `g × cp` (g = g1 × 2^63 + g0), rounded to odd.
    @inline(__always)
    private static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = g0.multipliedFullWidth(by: cp).high
        let y0 = g1 &* cp
        let y1 = g1.multipliedFullWidth(by: cp).high
        let z = (y0 &>> 1) &+ x1
        let vbp = y1 &+ (z &>> 63)
        let mask: UInt64 = (1 << 63) &- 1
        return vbp | (((z & mask) &+ mask) &>> 63)
    }

    // The three logarithms multiply by constants of 40 bits, in 64-bit arithmetic whatever the
    // width of `Int` (32 bits on watchOS devices).

    /// floor(q × log10(2)), for |q| <= 5456721.
    @inline(__always)
    static func floorLog10Pow2(_ q: Int) -> Int {
        Int(truncatingIfNeeded: (Int64(truncatingIfNeeded: q) &* 661_971_961_083) &>> 41)
    }

    /// floor(log10(3/4 × 2^q)), for |q| <= 5456721.
    @inline(__always)
    static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        Int(truncatingIfNeeded: (Int64(truncatingIfNeeded: q) &* 661_971_961_083 &- 274_743_187_321) &>> 41)
    }

    /// floor(e × log2(10)), for |e| <= 1233.
    @inline(__always)
    static func floorLog2Pow10(_ e: Int) -> Int {
        Int(truncatingIfNeeded: (Int64(truncatingIfNeeded: e) &* 913_124_641_741) &>> 38)
    }
}
