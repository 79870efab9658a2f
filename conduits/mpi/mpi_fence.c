/* mpi_fence.c: the barrier as a fence for active messages that travel
 * through MPI (docs/extended.md, "The barrier and active messages"): the
 * shared sender-side fence (src/gasnet_am_fence.h) over this conduit's
 * control messages.
 *
 * A request to a member of the supernode is in the member's ring when its
 * sender notifies (the layer runs those, gasnetc_shm_run_arrived_requests);
 * one sent through MPI may still be on the wire, or held for an earlier
 * packet of its stream, when the barrier completes, since the barrier's
 * own messages (or the SMP counters) take other paths. The fence counts
 * request packets (a bundle of packed requests is one, GASNET_AM_COALESCE):
 * a FENCE names the number of the next request packet of the stream.
 *
 * Per peer, at most one FENCE and one FENCE_ACK are in flight (the next
 * fence starts after this one's answers), which GASNETC_CTRL_PER_PEER
 * counts. A message that finds no free send slot waits for the next
 * gasneti_amfence_flush, at the next poll. */
#include "mpi_internal.h"

#include <string.h>

/* Lock held. */
static int gasnetc_fence_send(gasnet_node_t peer, int ack, uint32_t until) {
  unsigned i;
  gasnetc_sendslot_t *slot = gasnetc_send_slot_get(&i);
  if (!slot) return 0;
  gasnetc_ctrl_t *ctrl = slot->buf;
  memset(ctrl, 0, sizeof(*ctrl));
  ctrl->kind = ack ? GASNETC_CTRL_FENCE_ACK : GASNETC_CTRL_FENCE;
  ctrl->src = gasneti_mynode;
  ctrl->code = (int32_t)until;
  gasnetc_send_slot_start(i, ctrl, sizeof(*ctrl), peer, GASNETC_TAG_CTRL);
  return 1;
}

static uint32_t gasnetc_fence_next_request(gasnet_node_t peer) {
  return gasnetc_mpi.payload_seq[peer][GASNETC_CH_REQ];
}

static void gasnetc_fence_lock(void) { gasnetc_lock(); }
static void gasnetc_fence_unlock(void) { gasnetc_unlock(); }

void gasnetc_fence_init(void) {
  static const gasneti_amfence_conduit_t conduit = {
      .send = gasnetc_fence_send,
      .next_request = gasnetc_fence_next_request,
      .lock = gasnetc_fence_lock,
      .unlock = gasnetc_fence_unlock,
  };
  gasneti_amfence_init(&conduit);
}
