/* smp_barrier.c: the SMP barrier of the extended API (GASNET_BARRIER=SMP),
 * seed 004's counter barrier (sec. 3.1-3.3) on the nodes' control lines.
 *
 * Each node owns one cache line (gasnetc_smp_node_line_t) and bumps its
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
#include "smp_internal.h"

#include "gasnet_extended_conduit.h"

_Static_assert(sizeof(gasnetc_smp_node_line_t) == GASNETC_SMP_CACHE_LINE,
               "the SMP barrier state must fit in the node's cache line");

static uint32_t gasnetc_smp_bar_count; /* our counter after our last notify */
static gasnet_node_t gasnetc_smp_bar_scan; /* nodes below it are known to have arrived */

static void gasnetc_smp_barrier_init(void) {
  gasnetc_smp_node_line_t *mine = &gasnetc_smp_control->node[gasneti_mynode];
  gasnetc_smp_bar_count = __atomic_load_n(&mine->ext_barrier_count, __ATOMIC_RELAXED);
}

static void gasnetc_smp_barrier_notify(unsigned phase, int id, int flags) {
  gasnetc_smp_node_line_t *mine = &gasnetc_smp_control->node[gasneti_mynode];
  __atomic_store_n(&mine->ext_barrier_id[phase], id, __ATOMIC_RELAXED);
  __atomic_store_n(&mine->ext_barrier_flags[phase], flags, __ATOMIC_RELAXED);
  gasnetc_smp_bar_count++;
  gasnetc_smp_tsan_release(); /* ThreadSanitizer only: see smp_internal.h */
  __atomic_store_n(&mine->ext_barrier_count, gasnetc_smp_bar_count, __ATOMIC_RELEASE);
  gasnetc_smp_bar_scan = 0;
}

static int gasnetc_smp_barrier_try(unsigned phase, gasnete_consensus_t *result_p) {
  gasnetc_smp_node_line_t *lines = gasnetc_smp_control->node;
  const uint32_t ours = gasnetc_smp_bar_count;
  for (; gasnetc_smp_bar_scan < gasneti_nodes; gasnetc_smp_bar_scan++) {
    uint32_t theirs = __atomic_load_n(&lines[gasnetc_smp_bar_scan].ext_barrier_count,
                                      __ATOMIC_ACQUIRE);
    if (theirs == ours + 1) break; /* its owner saw this barrier complete */
    if (theirs != ours) return 0;
  }
  gasnetc_smp_bar_scan = gasneti_nodes;
  gasnetc_smp_tsan_acquire(); /* ThreadSanitizer only: see smp_internal.h */
  /* Every node has written this phase's slot before its counter store,
   * which our acquire loads (directly or through the node one ahead)
   * ordered before these reads. */
  gasnete_consensus_clear(result_p);
  for (gasnet_node_t i = 0; i < gasneti_nodes; i++)
    gasnete_consensus_add(result_p, __atomic_load_n(&lines[i].ext_barrier_id[phase], __ATOMIC_RELAXED),
                          __atomic_load_n(&lines[i].ext_barrier_flags[phase], __ATOMIC_RELAXED));
  return 1;
}

const gasnete_barrier_impl_t gasnetc_smp_barrier = {
    "SMP", "shared-memory counter barrier (seed 004): one cache line per node",
    gasnetc_smp_barrier_init, gasnetc_smp_barrier_notify, gasnetc_smp_barrier_try};
