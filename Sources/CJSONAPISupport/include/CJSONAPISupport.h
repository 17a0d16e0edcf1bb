// What the core library needs from C that Swift does not spell: a cache prefetch hint.
#ifndef CJSONAPISUPPORT_H
#define CJSONAPISUPPORT_H

/// Asks the processor to start loading the cache line at `address` for reading. A hint only:
/// it never faults, whatever the address, and has no effect the program can observe except time.
static inline __attribute__((always_inline)) void jsonapi_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
