// What the core library needs from C that Swift does not spell: a cache prefetch hint, and (on
// Linux) moving a memory mapping to a chosen address.
#ifndef CJSONAPISUPPORT_H
#define CJSONAPISUPPORT_H

#include <stddef.h>

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
