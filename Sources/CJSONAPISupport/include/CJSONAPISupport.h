// What the core library needs from C that Swift does not spell: a cache prefetch hint, (on Linux)
// moving a memory mapping to a chosen address, and the SIMD kernels of the structural index.
#ifndef CJSONAPISUPPORT_H
#define CJSONAPISUPPORT_H

#include <stddef.h>

#include <stdint.h>

/// The carry of the structural index between blocks of 64 bytes (see structural_index.c). Zero
/// is the state at a token boundary outside any string.
typedef struct {
    /// All ones when the previous block ended inside a string, else 0.
    uint64_t in_string;
    /// Bit 0: the next block's first byte is escaped by an odd run of backslashes.
    uint64_t escaped;
    /// Bit 0: the previous block's last byte belonged to a number or literal.
    uint64_t scalar;
    /// The previous block's last four bytes (little-endian), for the UTF-8 check.
    uint32_t last4;
    uint32_t reserved;
} jsonapi_index_carry;

/// The kernels of the structural index.
enum {
    JSONAPI_INDEX_PORTABLE = 0,
    JSONAPI_INDEX_SSE42 = 1,
    JSONAPI_INDEX_AVX2 = 2,
    JSONAPI_INDEX_NEON = 3,
};

/// Slots past the last position that `jsonapi_structural_index` may write.
#define JSONAPI_INDEX_SLACK 8

/// Whether `kernel` runs on this processor (and was compiled for this architecture).
int jsonapi_index_kernel_available(int kernel);

/// The fastest kernel this processor runs.
int jsonapi_index_best_kernel(void);

/// The kernel the environment variable `JSONAPI_STRUCTURAL_INDEX` names, or NULL when it is not set.
const char *jsonapi_index_kernel_from_environment(void);

/// Indexes `bytes[0 ..< count]` a block of 64 bytes at a time from `carry`, writing the offsets
/// (from `bytes`) of its structural positions to `positions` in order, and returns how many it
/// wrote. `*indexed` receives how many bytes were indexed: a multiple of 64, or `count` when
/// `ends` is set and the last partial block (read as if padded with spaces) was indexed too.
/// It stops early before a block whose 64 positions would not leave `JSONAPI_INDEX_SLACK` slots
/// free, and before a block whose UTF-8 is invalid (or cut short by the end); `carry` then
/// describes the end of the last block indexed.
size_t jsonapi_structural_index(int kernel, const uint8_t *bytes, size_t count, int ends, jsonapi_index_carry *carry,
                                uint32_t *positions, size_t capacity, size_t *indexed);

/// Asks the processor to start loading the cache line at `address` for reading. A hint only:
/// it never faults, whatever the address, and has no effect the program can observe except time.
static inline __attribute__((always_inline)) void jsonapi_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#ifdef __linux__
/// Moves the pages of the anonymous mapping `[old, old + size)` to `target`, replacing whatever
/// was mapped there (`mremap` with `MREMAP_MAYMOVE | MREMAP_FIXED`, which Swift cannot call: it
/// is variadic). Returns `target`, or NULL when the kernel refuses (nothing has moved then).
void *jsonapi_move_mapping(void *old, size_t size, void *target);
#endif

#endif
