/* shm_barrier.c: the SMP barrier of the extended API (GASNET_BARRIER=SMP),
 * seed 004's counter barrier (sec. 3.1-3.3) on the members' control lines,
 * for a supernode that is the whole job (member m is then a node; which
 * one does not matter: every member takes part).
 *
 * Each member owns one cache line (gasnetc_shm_line_t) and bumps its
 * counter at every notify, after storing its id and flags in the slot of
 * the barrier's phase. The barrier is complete when every counter equals
 * ours; a counter one ahead of ours means its owner already saw this
 * barrier complete, which settles it for us too. Counters are compared for
 * equality only, so they may wrap around. No node can get two ahead: that
 * would need us to notify the next barrier. The next barrier writes the
 * other phase's slot, so the ids of this one stay readable until every
 * node is done with them.
 *
 * Only loads while waiting, each satisfied from cache until the owner
 * writes; the waiting loop polls and backs off by the core's policy
 * (gasneti_wait_step), so AMs keep flowing and oversubscribed nodes yield. */
#include "shm_internal.h"

static uint32_t gasnetc_shm_bar_count; /* our counter after our last notify */
static unsigned gasnetc_shm_bar_scan; /* members below it are known to have arrived */

static void gasnetc_shm_barrier_init(void) {
  gasnetc_shm_line_t *mine = gasnetc_shm_my_line();
  gasnetc_shm_bar_count = __atomic_load_n(&mine->ext_barrier_count, __ATOMIC_RELAXED);
}

static void gasnetc_shm_barrier_notify(unsigned phase, int id, int flags) {
  gasnetc_shm_line_t *mine = gasnetc_shm_my_line();
  __atomic_store_n(&mine->ext_barrier_id[phase], id, __ATOMIC_RELAXED);
  __atomic_store_n(&mine->ext_barrier_flags[phase], flags, __ATOMIC_RELAXED);
  gasnetc_shm_bar_count++;
  gasnetc_shm_tsan_release(); /* ThreadSanitizer only: see shm_internal.h */
  __atomic_store_n(&mine->ext_barrier_count, gasnetc_shm_bar_count, __ATOMIC_RELEASE);
  gasnetc_shm_bar_scan = 0;
}

static int gasnetc_shm_barrier_try(unsigned phase, gasnete_consensus_t *result_p) {
  gasnetc_shm_line_t *lines = gasnetc_shm.control->member;
  const uint32_t ours = gasnetc_shm_bar_count;
  for (; gasnetc_shm_bar_scan < gasnetc_shm.members; gasnetc_shm_bar_scan++) {
    uint32_t theirs = __atomic_load_n(&lines[gasnetc_shm_bar_scan].ext_barrier_count,
                                      __ATOMIC_ACQUIRE);
    if (theirs == ours + 1) break; /* its owner saw this barrier complete */
    if (theirs != ours) return 0;
  }
  gasnetc_shm_bar_scan = gasnetc_shm.members;
  gasnetc_shm_tsan_acquire(); /* ThreadSanitizer only: see shm_internal.h */
  /* Every node has written this phase's slot before its counter store,
   * which our acquire loads (directly or through the node one ahead)
   * ordered before these reads. */
  gasnete_consensus_clear(result_p);
  for (unsigned i = 0; i < gasnetc_shm.members; i++)
    gasnete_consensus_add(result_p, __atomic_load_n(&lines[i].ext_barrier_id[phase], __ATOMIC_RELAXED),
                          __atomic_load_n(&lines[i].ext_barrier_flags[phase], __ATOMIC_RELAXED));
  return 1;
}

const gasnete_barrier_impl_t gasnetc_shm_barrier_impl = {
    "SMP", "shared-memory counter barrier (seed 004): one cache line per node",
    gasnetc_shm_barrier_init, gasnetc_shm_barrier_notify, gasnetc_shm_barrier_try};
