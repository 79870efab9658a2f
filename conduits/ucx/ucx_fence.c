/* ucx_fence.c: the barrier as a fence for active messages
 * (docs/extended.md, "The barrier and active messages"): the shared
 * sender-side fence (src/gasnet_am_fence.h) over this conduit's control
 * messages. UCX keeps no order between different pairs of nodes, so a
 * request from A to C may still be on its way when C learns through B
 * that A has notified.
 *
 * FENCEs go at once; an answer found due inside UCX's callback waits for
 * the flush after the worker's progress returns (ucx_poll.c). Requests a
 * node sends itself skip UCX and the fence: they are run after the barrier
 * (gasnetc_fence_run_own). */
#include "ucx_internal.h"

/* Lock held, outside the worker's progress. */
static int gasnetc_fence_send(gasnet_node_t peer, int ack, uint32_t until) {
  gasnetc_send_ctrl(peer, ack ? GASNETC_K_FENCE_ACK : GASNETC_K_FENCE, until);
  return 1;
}

static uint32_t gasnetc_fence_next_request(gasnet_node_t peer) {
  return gasnetc_ucx.send_seq[peer][GASNETC_CH_REQ];
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

/* After a barrier (lock not held): run the requests this node sent itself
 * before it. */
void gasnetc_fence_run_own(void) {
  gasnetc_lock();
  uint32_t until = gasnetc_ucx.recv_seq[gasneti_mynode][GASNETC_CH_REQ];
  gasnetc_unlock();
  gasneti_amfence_wait_ran(gasneti_mynode, until);
}
