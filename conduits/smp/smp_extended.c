/* smp_extended.c: the smp conduit's overrides of extended-ref.
 *
 * Every node's segment lies in the one shared mapping, at the same address
 * in every process, so the segment addresses gasnet_getSegmentInfo gives are
 * directly usable: a put or get to a peer is a copy, complete at return
 * (gasnet_copy.h: one store of that width for an aligned 1, 2, 4 or 8
 * bytes, so a flag word is never written twice; memcpy otherwise).
 * extended-ref has already checked that the remote range lies inside the
 * peer's segment (against that same table) before calling these, and
 * copies a node's own memory itself (in or out of the segment).
 *
 * GASNET_SMP_PUTGET=am leaves put/get/memset to extended-ref's AM protocols
 * (to test them, or compare); the default is direct. The SMP barrier
 * (smp_barrier.c) is registered either way and is the default barrier. */
#include "smp_internal.h"

#include "gasnet_copy.h"
#include "gasnet_extended_conduit.h"

#include <string.h>
#include <strings.h>

extern const gasnete_barrier_impl_t gasnetc_smp_barrier;

/* The release fence orders the copy before whatever this node does next
 * (a flag put, a barrier notify), as a completed put must be; the acquire
 * fence orders a get after what this node saw before it. ThreadSanitizer
 * does not model fences (and sees no other process anyway): no fences
 * under it, so its builds stay warning-free. */
#if defined(__SANITIZE_THREAD__)
static inline void gasnetc_smp_release_fence(void) {}
static inline void gasnetc_smp_acquire_fence(void) {}
#else
static inline void gasnetc_smp_release_fence(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void gasnetc_smp_acquire_fence(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
#endif

static int gasnetc_smp_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  (void)node;
  gasneti_copy(dest, src, nbytes);
  gasnetc_smp_release_fence();
  return 1;
}

static int gasnetc_smp_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  (void)node;
  gasnetc_smp_acquire_fence();
  gasneti_copy(dest, src, nbytes);
  return 1;
}

static int gasnetc_smp_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  (void)node;
  gasneti_set(dest, val, nbytes);
  gasnetc_smp_release_fence();
  return 1;
}

static const gasnete_barrier_impl_t *const gasnetc_smp_barriers[] = {&gasnetc_smp_barrier, NULL};

static gasnete_conduit_ops_t gasnetc_smp_ops = {
    .name = "smp",
    .barriers = gasnetc_smp_barriers,
    .default_barrier = "SMP",
};

void gasnetc_smp_extended_init(void) {
  const char *mode = gasneti_getenv_verbose("GASNET_SMP_PUTGET", "direct");
  int direct = 1;
  if (mode && !strcasecmp(mode, "am"))
    direct = 0;
  else if (mode && *mode && strcasecmp(mode, "direct"))
    gasneti_fatalerror("GASNET_SMP_PUTGET=\"%s\" is not one of direct, am", mode);
  gasnetc_smp_ops.put = direct ? gasnetc_smp_put : NULL;
  gasnetc_smp_ops.get = direct ? gasnetc_smp_get : NULL;
  gasnetc_smp_ops.memset = direct ? gasnetc_smp_memset : NULL;
  gasnete_register_conduit_ops(&gasnetc_smp_ops);
}
