/* mpi_ops.c: the mpi conduit's one table of extended-API overrides
 * (gasnet_extended_conduit.h; extended-ref keeps a single table).
 *
 * Two layers fill it: the shared-memory layer moves data to the members
 * of this node's supernode with copies, and MPI-3 RMA (mpi_rma.c) moves
 * large transfers to every other node. Each slot asks them in that order
 * and returns 0 when neither takes the call, so extended-ref sends it as
 * AMs. A member is never handed to RMA: with GASNET_SMP_PUTGET=am its
 * transfers stay AMs through the rings, the path that setting tests. */
#include "mpi_rma.h"
#include "mpi_shm.h"

/* Whether node's memory is this process's to copy (a supernode member). */
static int gasnetc_ops_shared(gasnet_node_t node) { return gasnetc_shm_is_member(node); }

static int gasnetc_ops_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  if (gasnetc_ops_shared(node))
    return gasnetc_mpi_shm_direct && gasnetc_shm_put(node, dest, src, nbytes);
  return gasnetc_rma_put(node, dest, src, nbytes);
}

static int gasnetc_ops_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  if (gasnetc_ops_shared(node))
    return gasnetc_mpi_shm_direct && gasnetc_shm_get(dest, node, src, nbytes);
  return gasnetc_rma_get(dest, node, src, nbytes);
}

static int gasnetc_ops_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  return gasnetc_ops_shared(node) && gasnetc_mpi_shm_direct &&
         gasnetc_shm_memset(node, dest, val, nbytes);
}

/* Deferred forms: only RMA completes later; a member's copy is synchronous
 * (declining here sends extended-ref to the put/get slots above). */
static int gasnetc_ops_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes,
                              int bulk, gasnete_done_t *done) {
  return !gasnetc_ops_shared(node) && gasnetc_rma_put_nb(node, dest, src, nbytes, bulk, done);
}

static int gasnetc_ops_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes,
                              gasnete_done_t *done) {
  return !gasnetc_ops_shared(node) && gasnetc_rma_get_nb(dest, node, src, nbytes, done);
}

/* The barrier's AM fence: requests through MPI are made sure of by their
 * senders (mpi_fence.c), those through the rings by their receivers. */
static void gasnetc_ops_run_arrived(void) { gasnetc_shm_run_arrived_requests(gasnetc_am_poll); }

static gasnete_conduit_ops_t gasnetc_mpi_ops = {
    .name = "mpi",
    .put = gasnetc_ops_put,
    .get = gasnetc_ops_get,
    .memset = gasnetc_ops_memset,
    .put_nb = gasnetc_ops_put_nb,
    .get_nb = gasnetc_ops_get_nb,
    .am_fence_start = gasneti_amfence_start,
    .am_fence_done = gasneti_amfence_done,
    .am_run_arrived = gasnetc_ops_run_arrived,
};

void gasnetc_mpi_ops_attach(void) {
  gasnetc_mpi_shm_attach(&gasnetc_mpi_ops);
  gasnetc_rma_attach();
  gasnete_register_conduit_ops(&gasnetc_mpi_ops);
}
