/* shm_putget.c: put, get and memset to a member's segment as copies
 * through the region (extended-ref's conduit ops,
 * gasnet_extended_conduit.h), complete at return. The address the client
 * gives is the one in the peer's own process; the layer translates it to
 * the peer's slot as mapped here (the same address on smp). Copies use
 * gasnet_copy.h: one store of that width for an aligned 1, 2, 4 or 8
 * bytes, so a flag word is never written twice; memcpy otherwise.
 * extended-ref has already checked that the remote range lies inside the
 * peer's segment and copies a node's own memory itself. Any other node
 * gets 0: extended-ref serves it with its AM protocol. */
#include "shm_internal.h"

#include "gasnet_copy.h"

#include <strings.h>

/* The release fence orders the copy before whatever this node does next
 * (a flag put, a barrier notify), as a completed put must be; the acquire
 * fence orders a get after what this node saw before it. ThreadSanitizer
 * does not model fences (and sees no other process anyway): no fences
 * under it, so its builds stay warning-free. */
#if defined(__SANITIZE_THREAD__)
static inline void gasnetc_shm_release_fence(void) {}
static inline void gasnetc_shm_acquire_fence(void) {}
#else
static inline void gasnetc_shm_release_fence(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void gasnetc_shm_acquire_fence(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
#endif

int gasnetc_shm_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  if (!gasnetc_shm_is_member(node)) return 0;
  gasneti_copy(gasnetc_shm_translate(node, dest), src, nbytes);
  gasnetc_shm_release_fence();
  return 1;
}

int gasnetc_shm_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  if (!gasnetc_shm_is_member(node)) return 0;
  gasnetc_shm_acquire_fence();
  gasneti_copy(dest, gasnetc_shm_translate(node, src), nbytes);
  return 1;
}

int gasnetc_shm_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  if (!gasnetc_shm_is_member(node)) return 0;
  gasneti_set(gasnetc_shm_translate(node, dest), val, nbytes);
  gasnetc_shm_release_fence();
  return 1;
}

int gasnetc_shm_putget_direct(void) {
  const char *mode = gasneti_getenv_verbose("GASNET_SMP_PUTGET", "direct");
  if (mode && !strcasecmp(mode, "am")) return 0;
  if (mode && *mode && strcasecmp(mode, "direct"))
    gasneti_fatalerror("GASNET_SMP_PUTGET=\"%s\" is not one of direct, am", mode);
  return 1;
}
