// The C side of CJSONAPISupport (see include/CJSONAPISupport.h).
#define _GNU_SOURCE
#include "CJSONAPISupport.h"

#ifdef __linux__
#include <sys/mman.h>

void *jsonapi_move_mapping(void *old, size_t size, void *target) {
    void *moved = mremap(old, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, target);
    return moved == MAP_FAILED ? NULL : moved;
}
#endif
