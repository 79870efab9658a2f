/* smp_extended.c: the smp conduit's overrides of extended-ref, from the
 * shared-memory layer (conduits/shm/).
 *
 * Every node's segment lies in the one shared mapping, at the same address
 * in every process, so a put or get to a peer is a copy, complete at
 * return (gasnetc_shm_put and friends, shm_putget.c).
 *
 * GASNET_SMP_PUTGET=am leaves put/get/memset to extended-ref's AM protocols
 * (to test them, or compare); the default is direct. The SMP barrier
 * (the layer's counter barrier, shm_barrier.c) is registered either way
 * and is the default barrier. */
#include "smp_internal.h"

#include "gasnet_extended_conduit.h"

static const gasnete_barrier_impl_t *const gasnetc_smp_barriers[] = {&gasnetc_shm_barrier_impl,
                                                                     NULL};

/* Every request is in its destination's ring before its sender notifies a
 * barrier: the barrier's AM fence needs only the run of what has arrived. */
static void gasnetc_smp_run_arrived(void) { gasnetc_shm_run_arrived_requests(gasnetc_am_poll); }

static gasnete_conduit_ops_t gasnetc_smp_ops = {
    .name = "smp",
    .barriers = gasnetc_smp_barriers,
    .default_barrier = "SMP",
    .am_run_arrived = gasnetc_smp_run_arrived,
};

void gasnetc_smp_extended_init(void) {
  int direct = gasnetc_shm_putget_direct();
  gasnetc_smp_ops.put = direct ? gasnetc_shm_put : NULL;
  gasnetc_smp_ops.get = direct ? gasnetc_shm_get : NULL;
  gasnetc_smp_ops.memset = direct ? gasnetc_shm_memset : NULL;
  gasnete_register_conduit_ops(&gasnetc_smp_ops);
}
