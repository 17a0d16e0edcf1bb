// The structural index: the first stage of the scanner (see include/CJSONAPISupport.h).
//
// Each 64-byte block becomes a handful of 64-bit masks, one bit per byte:
//
//     quote      '"'            backslash  '\'
//     op         { } [ ] : ,    white      space, tab, LF, CR
//     control    bytes below 0x20
//
// and the masks become the block's positions with a few scalar operations:
//
//     escaped    the bytes an odd run of backslashes escapes (the run's parity carried from the
//                previous block)
//     quotes     quote & ~escaped: the quotes that open or close a string
//     in string  the prefix XOR of quotes (bit i = the parity of the quotes at or before i), XOR
//                the carry: from an opening quote up to, not including, its closing quote
//     scalar     what is neither an operator, whitespace, a quote nor inside a string: the bytes
//                of numbers and literals (and of anything invalid outside strings)
//
//     positions  (op & ~in string) | quotes | (scalar starts) | (escape starts & in string)
//                | (control & in string)
//
// A consumer reads the byte at each position to know what it is. Between two positions outside
// a string there is only whitespace or the rest of a scalar; inside a string, only text that
// needs no look (valid UTF-8, no escape, no control byte).
//
// Everything carried from one block to the next is four words (`jsonapi_index_carry`): inside a
// string or not, whether the next byte is escaped, whether the last byte was a scalar byte, and
// the last bytes for the UTF-8 check. UTF-8 is checked a block at a time with the three-table
// lookup method (Keiser and Lemire, "Validating UTF-8 in less than one instruction per byte",
// 2021): each byte's high nibble, the previous byte's high and low nibbles index three tables of
// error classes whose AND is nonzero exactly where a two-byte pattern is invalid; the third and
// fourth bytes of longer sequences are checked by comparing the bytes two and three back. A
// block that fails stops the index before it: the scanner's byte-level machine, which reaches it
// next, reports the exact error.
//
// Kernels: portable C (every platform), SSE4.2 with PCLMULQDQ and AVX2 (x86_64, chosen at run
// time from CPUID whatever `-march` the build had), and NEON (arm64, always present there).
// They produce identical positions for valid input; for invalid input they may differ in the
// positions of bytes no valid document has there, which the consumer treats alike (it hands
// anything unexpected to the byte-level machine).

#include "CJSONAPISupport.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(__aarch64__)
#include <arm_neon.h>
#endif

// MARK: UTF-8 error classes

enum {
    TOO_SHORT = 1 << 0,  // a lead byte not followed by a continuation byte
    TOO_LONG = 1 << 1,  // an ASCII byte followed by a continuation byte
    OVERLONG_3 = 1 << 2,  // E0 followed by 80..9F
    TOO_LARGE = 1 << 3,  // F4 followed by 90..BF, or F5..FF
    SURROGATE = 1 << 4,  // ED followed by A0..BF
    OVERLONG_2 = 1 << 5,  // C0 or C1
    TOO_LARGE_1000 = 1 << 6,  // F5..FF followed by 80..8F
    OVERLONG_4 = 1 << 6,  // F0 followed by 80..8F
    TWO_CONTS = 1 << 7,  // two continuation bytes: valid only as a third or fourth byte
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS,
};

/// Indexed by the previous byte's high nibble.
static const uint8_t utf8_prev_high[16] = {
    TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
    TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
};

/// Indexed by the previous byte's low nibble.
static const uint8_t utf8_prev_low[16] = {
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
};

/// Indexed by the byte's own high nibble.
static const uint8_t utf8_high[16] = {
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
};

/// Whether the four bytes `last4` (little-endian: the last byte in the top byte) end inside a
/// UTF-8 sequence: a lead byte missing some of its continuation bytes.
static inline int utf8_ends_incomplete(uint32_t last4) {
    uint8_t b1 = (uint8_t)(last4 >> 24), b2 = (uint8_t)(last4 >> 16), b3 = (uint8_t)(last4 >> 8);
    return b1 >= 0xC0 || b2 >= 0xE0 || b3 >= 0xF0;
}

// MARK: The scalar steps every kernel shares

/// The masks a kernel classifies a block into.
typedef struct {
    uint64_t quote, backslash, op, white, control;
} block_masks;

/// The bytes escaped by a backslash (simdjson's branch-free method): of each run of backslashes,
/// the byte after the run is escaped when the run is odd. `*prev_escaped` (bit 0) says whether
/// the block's first byte is escaped, and receives the same for the next block.
static inline uint64_t escaped_bytes(uint64_t backslash, uint64_t *prev_escaped) {
    if (backslash == 0 && *prev_escaped == 0) return 0;
    const uint64_t even = 0x5555555555555555ULL;
    uint64_t escaped_in = *prev_escaped;
    backslash &= ~escaped_in;
    uint64_t follows_escape = (backslash << 1) | escaped_in;
    uint64_t odd_starts = backslash & ~even & ~follows_escape;
    uint64_t sequences_starting_on_even;
    *prev_escaped = __builtin_add_overflow(odd_starts, backslash, &sequences_starting_on_even) ? 1 : 0;
    uint64_t invert = sequences_starting_on_even << 1;
    return (even ^ invert) & follows_escape;
}

static inline uint64_t prefix_xor_portable(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/// The block's positions, given its masks and the prefix XOR of its quotes (`in_quotes`).
static inline uint64_t block_positions(block_masks m, uint64_t quotes, uint64_t in_quotes, uint64_t escaped,
                                       jsonapi_index_carry *carry) {
    uint64_t in_string = in_quotes ^ carry->in_string;
    carry->in_string = (uint64_t)((int64_t)in_string >> 63);
    uint64_t scalar = ~(m.op | m.white | quotes | in_string);
    uint64_t scalar_starts = scalar & ~((scalar << 1) | carry->scalar);
    carry->scalar = scalar >> 63;
    uint64_t escape_starts = m.backslash & ~escaped;
    return (m.op & ~in_string) | quotes | scalar_starts | ((escape_starts | m.control) & in_string);
}

/// Appends the offsets `base + i` of the set bits `i` of `bits`; may write up to eight slots
/// past the last (the caller keeps room for them).
static inline size_t flatten(uint32_t *out, size_t count, uint32_t base, uint64_t bits) {
    if (bits == 0) return count;
    int total = __builtin_popcountll(bits);
    uint32_t *o = out + count;
    // Eight at a time without a branch per bit: a zero `bits` writes bit 63's offset, past
    // the count and overwritten later.
#pragma clang loop vectorize(disable) unroll(full)
    for (int k = 0; k < 8; k++) {
        o[k] = base + (uint32_t)__builtin_ctzll(bits | 0x8000000000000000ULL);
        bits &= bits - 1;
    }
#pragma clang loop vectorize(disable)
    for (int k = 8; k < total; k++) {
        o[k] = base + (uint32_t)__builtin_ctzll(bits);
        bits &= bits - 1;
    }
    return count + (size_t)total;
}

// MARK: Portable kernel

static inline uint8_t utf8_error_at(uint8_t prev3, uint8_t prev2, uint8_t prev1, uint8_t byte) {
    uint8_t special = utf8_prev_high[prev1 >> 4] & utf8_prev_low[prev1 & 15] & utf8_high[byte >> 4];
    uint8_t must23 = (prev2 >= 0xE0 || prev3 >= 0xF0) ? 0x80 : 0;
    return special ^ must23;
}

/// One block's masks, and whether its UTF-8 (with the carried bytes before it) is valid.
static int portable_block(const uint8_t *b, jsonapi_index_carry *carry, block_masks *m) {
    uint64_t quote = 0, backslash = 0, op = 0, white = 0, control = 0, high = 0;
    for (int i = 0; i < 64; i++) {
        uint8_t c = b[i];
        uint64_t bit = 1ULL << i;
        switch (c) {
        case '"': quote |= bit; break;
        case '\\': backslash |= bit; break;
        case '{': case '}': case '[': case ']': case ':': case ',': op |= bit; break;
        case ' ': case '\t': case '\n': case '\r': white |= bit; break;
        default: break;
        }
        if (c < 0x20) control |= bit;
        if (c >= 0x80) high |= bit;
    }
    // Whitespace below 0x20 is also a control byte: inside a string it is one.
    if (high != 0) {
        uint8_t p3 = (uint8_t)(carry->last4 >> 8), p2 = (uint8_t)(carry->last4 >> 16), p1 = (uint8_t)(carry->last4 >> 24);
        uint8_t error = 0;
        for (int i = 0; i < 64; i++) {
            error |= utf8_error_at(p3, p2, p1, b[i]);
            p3 = p2;
            p2 = p1;
            p1 = b[i];
        }
        if (error) return 0;
    } else if (utf8_ends_incomplete(carry->last4)) {
        return 0;
    }
    m->quote = quote;
    m->backslash = backslash;
    m->op = op;
    m->white = white;
    m->control = control;
    return 1;
}

static size_t portable_index(const uint8_t *bytes, size_t blocks, jsonapi_index_carry *io, uint32_t *out,
                             size_t count, size_t max_count, size_t *done) {
    // A local copy: stores of positions could otherwise alias the carry's words.
    jsonapi_index_carry local = *io, *carry = &local;
    size_t k = 0;
    for (; k < blocks && count <= max_count; k++) {
        const uint8_t *b = bytes + 64 * k;
        block_masks m;
        if (!portable_block(b, carry, &m)) break;
        uint64_t escaped = escaped_bytes(m.backslash, &carry->escaped);
        uint64_t quotes = m.quote & ~escaped;
        uint64_t positions = block_positions(m, quotes, prefix_xor_portable(quotes), escaped, carry);
        memcpy(&carry->last4, b + 60, 4);
        count = flatten(out, count, (uint32_t)(64 * k), positions);
    }
    *io = local;
    *done = k;
    return count;
}

// MARK: x86_64 kernels

#if defined(__x86_64__)

#define SSE_TARGET __attribute__((target("sse4.2,pclmul,popcnt")))
#define AVX2_TARGET __attribute__((target("avx2,pclmul,popcnt,bmi")))

SSE_TARGET static inline uint64_t prefix_xor_clmul(uint64_t x) {
    __m128i all = _mm_set1_epi8((char)0xFF);
    return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), all, 0));
}

AVX2_TARGET static inline uint64_t prefix_xor_clmul_avx2(uint64_t x) {
    __m128i all = _mm_set1_epi8((char)0xFF);
    return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), all, 0));
}

// Operators by their low nibble, compared with the byte OR 0x20 (which maps '[' to '{' and
// ']' to '}'); whitespace by its low nibble, compared with the byte itself. A byte with its high
// bit set shuffles to 0, which matches neither. Two control bytes (0x0C, 0x1A) match an operator
// entry: they are positions then, which the consumer rejects.
#define OP_TABLE 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0
#define WHITE_TABLE ' ', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, '\t', '\n', 0xFF, 0xFF, '\r', 0xFF, 0

SSE_TARGET static inline __m128i sse_prev(__m128i in, __m128i prev, int n) {
    switch (n) {
    case 1: return _mm_alignr_epi8(in, prev, 15);
    case 2: return _mm_alignr_epi8(in, prev, 14);
    default: return _mm_alignr_epi8(in, prev, 13);
    }
}

SSE_TARGET static inline __m128i sse_utf8_error(__m128i in, __m128i prev) {
    const __m128i t1h = _mm_loadu_si128((const __m128i *)utf8_prev_high);
    const __m128i t1l = _mm_loadu_si128((const __m128i *)utf8_prev_low);
    const __m128i t2h = _mm_loadu_si128((const __m128i *)utf8_high);
    const __m128i nibble = _mm_set1_epi8(0x0F);
    __m128i prev1 = sse_prev(in, prev, 1);
    __m128i special = _mm_and_si128(
        _mm_and_si128(_mm_shuffle_epi8(t1h, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble)),
                      _mm_shuffle_epi8(t1l, _mm_and_si128(prev1, nibble))),
        _mm_shuffle_epi8(t2h, _mm_and_si128(_mm_srli_epi16(in, 4), nibble)));
    __m128i third = _mm_subs_epu8(sse_prev(in, prev, 2), _mm_set1_epi8((char)(0xE0 - 0x80)));
    __m128i fourth = _mm_subs_epu8(sse_prev(in, prev, 3), _mm_set1_epi8((char)(0xF0 - 0x80)));
    __m128i must23 = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8((char)0x80));
    return _mm_xor_si128(must23, special);
}

SSE_TARGET static inline void sse_classify(__m128i x, int shift, block_masks *m) {
    const __m128i op_table = _mm_setr_epi8(OP_TABLE);
    const __m128i white_table = _mm_setr_epi8(WHITE_TABLE);
    __m128i op = _mm_cmpeq_epi8(_mm_shuffle_epi8(op_table, x), _mm_or_si128(x, _mm_set1_epi8(0x20)));
    __m128i white = _mm_cmpeq_epi8(_mm_shuffle_epi8(white_table, x), x);
    __m128i quote = _mm_cmpeq_epi8(x, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'));
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
    m->op |= (uint64_t)(uint16_t)_mm_movemask_epi8(op) << shift;
    m->white |= (uint64_t)(uint16_t)_mm_movemask_epi8(white) << shift;
    m->quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(quote) << shift;
    m->backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(backslash) << shift;
    m->control |= (uint64_t)(uint16_t)_mm_movemask_epi8(control) << shift;
}

SSE_TARGET static size_t sse_index(const uint8_t *bytes, size_t blocks, jsonapi_index_carry *io, uint32_t *out,
                                   size_t count, size_t max_count, size_t *done) {
    // A local copy: stores of positions could otherwise alias the carry's words.
    jsonapi_index_carry local = *io, *carry = &local;
    size_t k = 0;
    for (; k < blocks && count <= max_count; k++) {
        const uint8_t *b = bytes + 64 * k;
        __m128i v0 = _mm_loadu_si128((const __m128i *)b), v1 = _mm_loadu_si128((const __m128i *)(b + 16));
        __m128i v2 = _mm_loadu_si128((const __m128i *)(b + 32)), v3 = _mm_loadu_si128((const __m128i *)(b + 48));
        __m128i any = _mm_or_si128(_mm_or_si128(v0, v1), _mm_or_si128(v2, v3));
        if (_mm_movemask_epi8(any) != 0) {
            __m128i prev = _mm_insert_epi32(_mm_setzero_si128(), (int)carry->last4, 3);
            __m128i error = _mm_or_si128(_mm_or_si128(sse_utf8_error(v0, prev), sse_utf8_error(v1, v0)),
                                         _mm_or_si128(sse_utf8_error(v2, v1), sse_utf8_error(v3, v2)));
            if (!_mm_testz_si128(error, error)) break;
        } else if (utf8_ends_incomplete(carry->last4)) {
            break;
        }
        block_masks m = {0, 0, 0, 0, 0};
        sse_classify(v0, 0, &m);
        sse_classify(v1, 16, &m);
        sse_classify(v2, 32, &m);
        sse_classify(v3, 48, &m);
        uint64_t escaped = escaped_bytes(m.backslash, &carry->escaped);
        uint64_t quotes = m.quote & ~escaped;
        uint64_t positions = block_positions(m, quotes, prefix_xor_clmul(quotes), escaped, carry);
        memcpy(&carry->last4, b + 60, 4);
        count = flatten(out, count, (uint32_t)(64 * k), positions);
    }
    *io = local;
    *done = k;
    return count;
}

AVX2_TARGET static inline __m256i avx2_prev(__m256i in, __m256i prev, int n) {
    __m256i shifted = _mm256_permute2x128_si256(prev, in, 0x21);
    switch (n) {
    case 1: return _mm256_alignr_epi8(in, shifted, 15);
    case 2: return _mm256_alignr_epi8(in, shifted, 14);
    default: return _mm256_alignr_epi8(in, shifted, 13);
    }
}

AVX2_TARGET static inline __m256i avx2_table(const uint8_t *table) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
}

AVX2_TARGET static inline __m256i avx2_utf8_error(__m256i in, __m256i prev) {
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i prev1 = avx2_prev(in, prev, 1);
    __m256i special = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(avx2_table(utf8_prev_high), _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble)),
            _mm256_shuffle_epi8(avx2_table(utf8_prev_low), _mm256_and_si256(prev1, nibble))),
        _mm256_shuffle_epi8(avx2_table(utf8_high), _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble)));
    __m256i third = _mm256_subs_epu8(avx2_prev(in, prev, 2), _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(avx2_prev(in, prev, 3), _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must23, special);
}

AVX2_TARGET static inline void avx2_classify(__m256i x, int shift, block_masks *m) {
    const __m256i op_table = _mm256_setr_epi8(OP_TABLE, OP_TABLE);
    const __m256i white_table = _mm256_setr_epi8(WHITE_TABLE, WHITE_TABLE);
    __m256i op = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(op_table, x), _mm256_or_si256(x, _mm256_set1_epi8(0x20)));
    __m256i white = _mm256_cmpeq_epi8(_mm256_shuffle_epi8(white_table, x), x);
    __m256i quote = _mm256_cmpeq_epi8(x, _mm256_set1_epi8('"'));
    __m256i backslash = _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\\'));
    __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1F)), x);
    m->op |= (uint64_t)(uint32_t)_mm256_movemask_epi8(op) << shift;
    m->white |= (uint64_t)(uint32_t)_mm256_movemask_epi8(white) << shift;
    m->quote |= (uint64_t)(uint32_t)_mm256_movemask_epi8(quote) << shift;
    m->backslash |= (uint64_t)(uint32_t)_mm256_movemask_epi8(backslash) << shift;
    m->control |= (uint64_t)(uint32_t)_mm256_movemask_epi8(control) << shift;
}

AVX2_TARGET static size_t avx2_index(const uint8_t *bytes, size_t blocks, jsonapi_index_carry *io, uint32_t *out,
                                     size_t count, size_t max_count, size_t *done) {
    // A local copy: stores of positions could otherwise alias the carry's words.
    jsonapi_index_carry local = *io, *carry = &local;
    size_t k = 0;
    for (; k < blocks && count <= max_count; k++) {
        const uint8_t *b = bytes + 64 * k;
        __m256i lo = _mm256_loadu_si256((const __m256i *)b), hi = _mm256_loadu_si256((const __m256i *)(b + 32));
        if (_mm256_movemask_epi8(_mm256_or_si256(lo, hi)) != 0) {
            __m256i prev = _mm256_insert_epi32(_mm256_setzero_si256(), (int)carry->last4, 7);
            __m256i error = _mm256_or_si256(avx2_utf8_error(lo, prev), avx2_utf8_error(hi, lo));
            if (!_mm256_testz_si256(error, error)) break;
        } else if (utf8_ends_incomplete(carry->last4)) {
            break;
        }
        block_masks m = {0, 0, 0, 0, 0};
        avx2_classify(lo, 0, &m);
        avx2_classify(hi, 32, &m);
        uint64_t escaped = escaped_bytes(m.backslash, &carry->escaped);
        uint64_t quotes = m.quote & ~escaped;
        uint64_t positions = block_positions(m, quotes, prefix_xor_clmul_avx2(quotes), escaped, carry);
        memcpy(&carry->last4, b + 60, 4);
        count = flatten(out, count, (uint32_t)(64 * k), positions);
    }
    *io = local;
    *done = k;
    return count;
}

#endif

// MARK: arm64 kernel

#if defined(__aarch64__)

static inline uint64_t neon_mask(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
    // One bit per byte from four 0x00/0xFF vectors: keep a distinct bit per lane, then add pairs.
    const uint8x16_t bits = {0x01, 0x02, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80,
                             0x01, 0x02, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80};
    uint8x16_t s0 = vpaddq_u8(vandq_u8(a, bits), vandq_u8(b, bits));
    uint8x16_t s1 = vpaddq_u8(vandq_u8(c, bits), vandq_u8(d, bits));
    s0 = vpaddq_u8(s0, s1);
    s0 = vpaddq_u8(s0, s0);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s0), 0);
}

static inline uint8x16_t neon_prev(uint8x16_t in, uint8x16_t prev, int n) {
    switch (n) {
    case 1: return vextq_u8(prev, in, 15);
    case 2: return vextq_u8(prev, in, 14);
    default: return vextq_u8(prev, in, 13);
    }
}

static inline uint8x16_t neon_utf8_error(uint8x16_t in, uint8x16_t prev) {
    const uint8x16_t t1h = vld1q_u8(utf8_prev_high), t1l = vld1q_u8(utf8_prev_low), t2h = vld1q_u8(utf8_high);
    uint8x16_t prev1 = neon_prev(in, prev, 1);
    uint8x16_t special = vandq_u8(vandq_u8(vqtbl1q_u8(t1h, vshrq_n_u8(prev1, 4)),
                                           vqtbl1q_u8(t1l, vandq_u8(prev1, vdupq_n_u8(0x0F)))),
                                  vqtbl1q_u8(t2h, vshrq_n_u8(in, 4)));
    uint8x16_t third = vqsubq_u8(neon_prev(in, prev, 2), vdupq_n_u8(0xE0 - 0x80));
    uint8x16_t fourth = vqsubq_u8(neon_prev(in, prev, 3), vdupq_n_u8(0xF0 - 0x80));
    uint8x16_t must23 = vandq_u8(vorrq_u8(third, fourth), vdupq_n_u8(0x80));
    return veorq_u8(must23, special);
}

static size_t neon_index(const uint8_t *bytes, size_t blocks, jsonapi_index_carry *io, uint32_t *out,
                         size_t count, size_t max_count, size_t *done) {
    // A local copy: stores of positions could otherwise alias the carry's words.
    jsonapi_index_carry local = *io, *carry = &local;
    const uint8x16_t op_table = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0};
    const uint8x16_t white_table = {' ', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                    0xFF, '\t', '\n', 0xFF, 0xFF, '\r', 0xFF, 0};
    size_t k = 0;
    for (; k < blocks && count <= max_count; k++) {
        const uint8_t *b = bytes + 64 * k;
        uint8x16_t v[4] = {vld1q_u8(b), vld1q_u8(b + 16), vld1q_u8(b + 32), vld1q_u8(b + 48)};
        uint8x16_t any = vorrq_u8(vorrq_u8(v[0], v[1]), vorrq_u8(v[2], v[3]));
        if (vmaxvq_u8(any) >= 0x80) {
            uint8x16_t prev = vreinterpretq_u8_u32(vsetq_lane_u32(carry->last4, vdupq_n_u32(0), 3));
            uint8x16_t error = vorrq_u8(vorrq_u8(neon_utf8_error(v[0], prev), neon_utf8_error(v[1], v[0])),
                                        vorrq_u8(neon_utf8_error(v[2], v[1]), neon_utf8_error(v[3], v[2])));
            if (vmaxvq_u8(error) != 0) break;
        } else if (utf8_ends_incomplete(carry->last4)) {
            break;
        }
        uint8x16_t op[4], white[4], quote[4], backslash[4], control[4];
        for (int i = 0; i < 4; i++) {
            // Indexed by the low nibble: a byte at or above 0x80 finds an ASCII entry, which it
            // cannot equal.
            uint8x16_t low = vandq_u8(v[i], vdupq_n_u8(0x0F));
            op[i] = vceqq_u8(vqtbl1q_u8(op_table, low), vorrq_u8(v[i], vdupq_n_u8(0x20)));
            white[i] = vceqq_u8(vqtbl1q_u8(white_table, low), v[i]);
            quote[i] = vceqq_u8(v[i], vdupq_n_u8('"'));
            backslash[i] = vceqq_u8(v[i], vdupq_n_u8('\\'));
            control[i] = vcltq_u8(v[i], vdupq_n_u8(0x20));
        }
        block_masks m;
        m.op = neon_mask(op[0], op[1], op[2], op[3]);
        m.white = neon_mask(white[0], white[1], white[2], white[3]);
        m.quote = neon_mask(quote[0], quote[1], quote[2], quote[3]);
        m.backslash = neon_mask(backslash[0], backslash[1], backslash[2], backslash[3]);
        m.control = neon_mask(control[0], control[1], control[2], control[3]);
        uint64_t escaped = escaped_bytes(m.backslash, &carry->escaped);
        uint64_t quotes = m.quote & ~escaped;
        // Carry-less multiplication (PMULL) is an optional feature of ARMv8-A: the shifts cost a
        // dozen instructions a block and run everywhere.
        uint64_t positions = block_positions(m, quotes, prefix_xor_portable(quotes), escaped, carry);
        memcpy(&carry->last4, b + 60, 4);
        count = flatten(out, count, (uint32_t)(64 * k), positions);
    }
    *io = local;
    *done = k;
    return count;
}

#endif

// MARK: Choosing a kernel

int jsonapi_index_kernel_available(int kernel) {
    switch (kernel) {
    case JSONAPI_INDEX_PORTABLE: return 1;
#if defined(__x86_64__)
    case JSONAPI_INDEX_SSE42:
        return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("popcnt");
    case JSONAPI_INDEX_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("popcnt")
               && __builtin_cpu_supports("bmi");
#endif
#if defined(__aarch64__)
    case JSONAPI_INDEX_NEON: return 1;
#endif
    default: return 0;
    }
}

int jsonapi_index_best_kernel(void) {
    if (jsonapi_index_kernel_available(JSONAPI_INDEX_AVX2)) return JSONAPI_INDEX_AVX2;
    if (jsonapi_index_kernel_available(JSONAPI_INDEX_NEON)) return JSONAPI_INDEX_NEON;
    if (jsonapi_index_kernel_available(JSONAPI_INDEX_SSE42)) return JSONAPI_INDEX_SSE42;
    return JSONAPI_INDEX_PORTABLE;
}

const char *jsonapi_index_kernel_from_environment(void) {
    return getenv("JSONAPI_STRUCTURAL_INDEX");
}

// MARK: The entry point

static size_t index_blocks(int kernel, const uint8_t *bytes, size_t blocks, jsonapi_index_carry *carry,
                           uint32_t *out, size_t count, size_t max_count, size_t *done) {
    switch (kernel) {
#if defined(__x86_64__)
    case JSONAPI_INDEX_AVX2: return avx2_index(bytes, blocks, carry, out, count, max_count, done);
    case JSONAPI_INDEX_SSE42: return sse_index(bytes, blocks, carry, out, count, max_count, done);
#endif
#if defined(__aarch64__)
    case JSONAPI_INDEX_NEON: return neon_index(bytes, blocks, carry, out, count, max_count, done);
#endif
    default: return portable_index(bytes, blocks, carry, out, count, max_count, done);
    }
}

size_t jsonapi_structural_index(int kernel, const uint8_t *bytes, size_t count, int ends, jsonapi_index_carry *carry,
                                uint32_t *positions, size_t capacity, size_t *indexed) {
    *indexed = 0;
    if (capacity < JSONAPI_INDEX_SLACK + 64) return 0;
    // A block is taken only while its 64 positions and the slack still fit.
    size_t max_count = capacity - JSONAPI_INDEX_SLACK - 64;
    size_t whole = count / 64, done = 0;
    size_t n = index_blocks(kernel, bytes, whole, carry, positions, 0, max_count, &done);
    *indexed = 64 * done;
    if (done < whole || !ends || count % 64 == 0 || n > max_count) return n;
    // The tail, padded with spaces: nothing of the padding becomes a position, and a sequence
    // the tail cuts short fails the UTF-8 check against the padding, so the tail is not indexed.
    uint8_t tail[64];
    memset(tail, ' ', sizeof tail);
    memcpy(tail, bytes + 64 * whole, count % 64);
    jsonapi_index_carry saved = *carry;
    size_t m = index_blocks(kernel, tail, 1, carry, positions + n, 0, max_count, &done);
    if (done == 0) {
        *carry = saved;
        return n;
    }
    for (size_t k = 0; k < m; k++) positions[n + k] += (uint32_t)(64 * whole);
    *indexed = count;
    return n + m;
}
