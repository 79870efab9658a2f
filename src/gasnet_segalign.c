/* gasnet_segalign.c: reserving address space for aligned segments
 * (gasnet_internal.h). */
#define _GNU_SOURCE
#include "gasnet_internal.h"

#include <sys/mman.h>

int gasneti_segment_align_wanted(void) { return gasneti_getenv_yesno("GASNET_SEGMENT_ALIGN", 1); }

void *gasneti_addr_reserve(void *at, size_t bytes) {
  if (!bytes) return NULL;
  int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
#ifdef MAP_FIXED_NOREPLACE
  if (at) flags |= MAP_FIXED_NOREPLACE;
#endif
  void *got = mmap(at, bytes, PROT_NONE, flags, -1, 0);
  if (got == MAP_FAILED) return NULL;
  if (at && got != at) { /* a kernel that took the address as a hint only */
    munmap(got, bytes);
    return NULL;
  }
  return got;
}

void gasneti_addr_release(void *addr, size_t bytes) {
  if (addr && bytes) munmap(addr, bytes);
}
