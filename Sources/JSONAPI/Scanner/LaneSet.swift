// Which lanes of a sixteen-byte comparison are set, read the way each processor reads it fastest.
//
// x86_64 has SSE2's `pmovmskb`, one instruction from a byte mask to sixteen bits. arm64 has no
// such instruction: there the mask is read as its two 64-bit halves (each set lane all ones), and
// "is any lane set" and "which lane is first" are answered from the halves directly, which is
// cheaper than gathering a bit per lane first. Only a loop that shifts through several masks at
// once needs the gathered bits (``LaneSetKind/bits``).
//
// Both forms are compiled on every platform; ``LaneSet`` is the one the scanner and the writer
// use. `-D JSONAPI_PORTABLE_SIMD` selects the portable form on x86_64 too, so the path an arm64
// machine takes is built and run on this one (the fuzz build does so), and the tests hold both
// forms to a byte loop.

#if canImport(_Builtin_intrinsics.intel)
    private import _Builtin_intrinsics.intel
#endif

/// The lane-set form the library is built with.
#if canImport(_Builtin_intrinsics.intel) && !JSONAPI_PORTABLE_SIMD
    typealias LaneSet = SSE2LaneSet
#else
    typealias LaneSet = PortableLaneSet
#endif

/// The operations every lane-set form provides.
protocol LaneSetKind {
    /// The set lanes of `lanes`.
    init(_ lanes: SIMDMask<SIMD16<Int8>>)
    /// Whether no lane is set.
    var isEmpty: Bool { get }
    /// The index of the first set lane; 16 or more when none is set.
    var first: Int { get }
    /// Bit k set for lane k, bits 16 and up clear.
    var bits: UInt32 { get }
}

/// Lanes read as two 64-bit words (lanes 0-7 and 8-15), all eight bits of a set lane set: the
/// form for processors without a byte-mask instruction (arm64), built everywhere.
struct PortableLaneSet: LaneSetKind {
    var low: UInt64
    var high: UInt64

    @inline(__always)
    init(_ lanes: SIMDMask<SIMD16<Int8>>) {
        // SAFETY: a 16-lane mask of bytes viewed as two 64-bit words: same size, plain data.
        let words = unsafe unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        low = words[0]
        high = words[1]
    }

    @inline(__always)
    var isEmpty: Bool { low | high == 0 }

    /// 16 when none is set: the trailing zero count of 0 is 64.
    @inline(__always)
    var first: Int {
        low != 0 ? low.trailingZeroBitCount &>> 3 : 8 &+ (high.trailingZeroBitCount &>> 3)
    }

    /// Gathered by a multiplication that moves each byte's top bit into the top byte.
    @inline(__always)
    var bits: UInt32 {
        let top: UInt64 = 0x8080_8080_8080_8080
        let gather: UInt64 = 0x0002_0408_1020_4081
        let lowBits = ((low & top) &* gather) &>> 56
        let highBits = ((high & top) &* gather) &>> 56
        return UInt32(truncatingIfNeeded: lowBits | highBits &<< 8)
    }
}

#if canImport(_Builtin_intrinsics.intel)
    /// Lanes as a sixteen-bit mask from one SSE2 `pmovmskb`.
    struct SSE2LaneSet: LaneSetKind {
        var bits: UInt32

        @inline(__always)
        init(_ lanes: SIMDMask<SIMD16<Int8>>) {
            // SAFETY: a 16-lane byte mask viewed as the 128-bit integer vector it is: same size, plain data.
            let vector = unsafe unsafeBitCast(lanes, to: __m128i.self)
            bits = UInt32(truncatingIfNeeded: _mm_movemask_epi8(vector))
        }

        @inline(__always)
        var isEmpty: Bool { bits == 0 }

        /// 32 when none is set.
        @inline(__always)
        var first: Int { bits.trailingZeroBitCount }
    }
#endif
