/// The Eisel-Lemire conversion of a decimal `w × 10^q` (at most 19 significant digits) to the
/// nearest `Double`, for what Clinger's fast path in ``JSONNumberParsing/double(_:)`` cannot
/// take: long significands and large exponents, which the standard library's conversion
/// (`strtod`) answers with multi-precision arithmetic.
///
/// The significand is normalized to 64 bits and multiplied by a 128-bit approximation of 5^q
/// (``powersOfFive``); the top bits of the product, with the binary exponent estimated from q,
/// are the double's bits, correctly rounded (Daniel Lemire, "Number Parsing at a Gigabyte per
/// Second", 2021; Noble Mushtak and Daniel Lemire, "Fast Number Parsing Without Fallback",
/// 2023, prove that the second 64-bit multiplication always settles the product). The one case
/// those papers leave to a slower path in their earlier form, a product whose low word is all
/// ones outside the exponents where that is known to be exact, is still handed back (nil), and
/// the caller falls back to the standard library.
extension JSONNumberParsing {
    /// The smallest q with a table entry; a non-zero `w × 10^q` below it rounds to zero.
    static let smallestPowerOfFive = -342
    /// The largest q with a table entry; `w × 10^q` above it is past the largest double.
    static let largestPowerOfFive = 308

    /// The bits of the `Double` nearest to `w × 10^q` (without its sign), or nil when this path
    /// cannot decide and the caller must use an exact conversion. `w` is at most 19 digits and
    /// not a truncation of a longer significand.
    static func eiselLemire(significand w: UInt64, exponent q: Int) -> UInt64? {
        // Binary64: 52 explicit mantissa bits, exponent bias 1023, all-ones exponent for infinity.
        let mantissaBits = 52
        let infinity: UInt64 = 0x7FF << 52
        if w == 0 || q < smallestPowerOfFive { return 0 }
        if q > largestPowerOfFive { return infinity }
        let leadingZeros = w.leadingZeroBitCount
        let normalized = w &<< UInt64(leadingZeros)
        let index = 2 &* (q &- smallestPowerOfFive)
        var product = normalized.multipliedFullWidth(by: powersOfFive[index])
        // 55 bits of the product are used (the mantissa, a hidden bit and two for rounding): when
        // the nine below them are all ones, the truncated power may have carried into them.
        let precisionMask: UInt64 = 0x1FF
        if product.high & precisionMask == precisionMask {
            let second = normalized.multipliedFullWidth(by: powersOfFive[index &+ 1])
            let (low, carry) = product.low.addingReportingOverflow(second.high)
            product.low = low
            if carry { product.high &+= 1 }
        }
        if product.low == .max && (q < -27 || q > 55) { return nil }
        let upperBit = Int(product.high &>> 63)
        let shift = upperBit &+ 64 &- mantissaBits &- 3
        var mantissa = product.high &>> UInt64(shift)
        // floor(log2(10^q)) + 63, by a fixed-point multiplication exact over the table's range.
        let power = ((152_170 &+ 65_536) &* q) &>> 16 &+ 63
        var power2 = power &+ upperBit &- leadingZeros &+ 1023
        if power2 <= 0 {
            // Subnormal, or zero.
            let rightShift = -power2 &+ 1
            if rightShift >= 64 { return 0 }
            mantissa &>>= UInt64(rightShift)
            mantissa &+= mantissa & 1
            mantissa &>>= 1
            // Rounding up to the smallest normal number gives it its exponent.
            power2 = mantissa < (1 &<< UInt64(mantissaBits)) ? 0 : 1
            return UInt64(power2) &<< 52 | (mantissa & ((1 &<< 52) &- 1))
        }
        // A product exactly halfway between two doubles rounds to the even one: only possible
        // for small q, when the low word shows no bits were lost.
        if product.low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1
            && mantissa &<< UInt64(shift) == product.high
        {
            mantissa &= ~1
        }
        mantissa &+= mantissa & 1
        mantissa &>>= 1
        if mantissa >= (2 &<< UInt64(mantissaBits)) {
            mantissa = 1 &<< UInt64(mantissaBits)
            power2 &+= 1
        }
        mantissa &= ~(1 &<< UInt64(mantissaBits))
        if power2 >= 0x7FF { return infinity }
        return UInt64(power2) &<< 52 | mantissa
    }
}
