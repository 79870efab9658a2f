/* ucx_fence.c: the barrier as a fence for active messages
 * (docs/extended.md, "The barrier and active messages").
 *
 * gasnet_barrier_wait must return only after this node has run every
 * request any node sent it before that node's notify. UCX keeps no order
 * between different pairs of nodes, so a request from A to C may still be
 * on its way when C learns through B that A has notified. So the sender
 * makes sure before it notifies: each peer it has sent a client request to
 * (handler 128 and up, or a bundle of such) since its last barrier gets a
 * FENCE naming the number of its next request to that peer, and answers
 * with FENCE_ACK once every request before that number has been delivered
 * and its handler has returned. The notify goes out when every answer is in. A barrier with no
 * client request sent since the last one costs nothing.
 *
 * FENCEs are sent at once (lock held); an answer found due inside UCX's
 * callback waits in a list sent after the worker's progress returns
 * (gasnetc_fence_flush). */
#include "ucx_internal.h"

#include <stdlib.h>

typedef struct {
  gasnet_node_t *peers;
  unsigned n;
} gasnetc_node_list_t;

/* Sending side (lock held). */
static gasnetc_node_list_t gasnetc_fence_dirty; /* client requests sent since the last fence */
static uint8_t *gasnetc_fence_is_dirty;
static unsigned gasnetc_fence_unanswered; /* FENCEs whose FENCE_ACK has not come; atomic */
/* Receiving side. */
static uint32_t *gasnetc_fence_ran;   /* per source: requests run to the end; atomic */
static uint32_t *gasnetc_fence_until; /* per source: answer once ran reaches it */
static int *gasnetc_fence_asked;      /* per source: an answer is due at until; atomic */
static gasnetc_node_list_t gasnetc_fence_to_answer; /* FENCE_ACKs not yet sent (lock held) */

static void *gasnetc_fence_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) gasneti_fatalerror("gasnet_init: out of memory");
  return p;
}

void gasnetc_fence_init(void) {
  size_t n = gasneti_nodes;
  gasnetc_fence_dirty.peers = gasnetc_fence_calloc(n, sizeof(gasnet_node_t));
  gasnetc_fence_is_dirty = gasnetc_fence_calloc(n, 1);
  gasnetc_fence_ran = gasnetc_fence_calloc(n, sizeof(uint32_t));
  gasnetc_fence_until = gasnetc_fence_calloc(n, sizeof(uint32_t));
  gasnetc_fence_asked = gasnetc_fence_calloc(n, sizeof(int));
  gasnetc_fence_to_answer.peers = gasnetc_fence_calloc(n, sizeof(gasnet_node_t));
}

/* ------------------------------------------------------------ sending side */
void gasnetc_fence_note_request(gasnet_node_t dest, gasnet_handler_t handler) {
  if (!gasneti_handler_carries_client(handler) || dest == gasneti_mynode ||
      gasnetc_fence_is_dirty[dest])
    return;
  gasnetc_fence_is_dirty[dest] = 1;
  gasnetc_fence_dirty.peers[gasnetc_fence_dirty.n++] = dest;
}

/* Lock not held. */
int gasnetc_fence_start(void) {
  gasnetc_lock();
  unsigned asked = gasnetc_fence_dirty.n;
  __atomic_add_fetch(&gasnetc_fence_unanswered, asked, __ATOMIC_ACQ_REL);
  for (unsigned k = 0; k < asked; k++) {
    gasnet_node_t peer = gasnetc_fence_dirty.peers[k];
    gasnetc_fence_is_dirty[peer] = 0;
    gasnetc_send_ctrl(peer, GASNETC_K_FENCE, gasnetc_ucx.send_seq[peer][GASNETC_CH_REQ]);
  }
  gasnetc_fence_dirty.n = 0;
  gasnetc_unlock();
  return asked == 0;
}

/* Lock not held; the caller polls between calls. */
int gasnetc_fence_done(void) {
  return __atomic_load_n(&gasnetc_fence_unanswered, __ATOMIC_ACQUIRE) == 0;
}

void gasnetc_fence_answered(void) {
  __atomic_sub_fetch(&gasnetc_fence_unanswered, 1, __ATOMIC_ACQ_REL);
}

/* ------------------------------------------------------------ receiving side */
/* Request numbers wrap: has `ran` reached `until`? */
static int gasnetc_fence_reached(uint32_t ran, uint32_t until) { return (int32_t)(ran - until) >= 0; }

/* Whoever sees the answer due and clears the flag queues it. Lock held. */
static void gasnetc_fence_answer_if_due(gasnet_node_t src) {
  uint32_t ran = __atomic_load_n(&gasnetc_fence_ran[src], __ATOMIC_SEQ_CST);
  if (!gasnetc_fence_reached(ran, gasnetc_fence_until[src])) return;
  int asked = 1;
  if (__atomic_compare_exchange_n(&gasnetc_fence_asked[src], &asked, 0, 0, __ATOMIC_SEQ_CST,
                                  __ATOMIC_SEQ_CST))
    gasnetc_fence_to_answer.peers[gasnetc_fence_to_answer.n++] = src;
}

/* Lock held, inside the worker's progress. */
void gasnetc_fence_asked_by(gasnet_node_t src, uint32_t until) {
  gasnetc_fence_until[src] = until;
  __atomic_store_n(&gasnetc_fence_asked[src], 1, __ATOMIC_SEQ_CST);
  gasnetc_fence_answer_if_due(src);
}

/* Lock held, outside the worker's progress. */
void gasnetc_fence_flush(void) {
  while (gasnetc_fence_to_answer.n) {
    gasnet_node_t peer = gasnetc_fence_to_answer.peers[--gasnetc_fence_to_answer.n];
    gasnetc_send_ctrl(peer, GASNETC_K_FENCE_ACK, 0);
  }
}

/* Lock not held: a request handler of src's has returned. */
void gasnetc_fence_ran_request(gasnet_node_t src) {
  __atomic_add_fetch(&gasnetc_fence_ran[src], 1, __ATOMIC_SEQ_CST);
  if (!__atomic_load_n(&gasnetc_fence_asked[src], __ATOMIC_SEQ_CST)) return;
  gasnetc_lock();
  gasnetc_fence_answer_if_due(src);
  gasnetc_fence_flush();
  gasnetc_unlock();
}

/* After a barrier (lock not held): run the requests this node sent itself
 * before it, which skip UCX and so the FENCE above. */
void gasnetc_fence_run_own(void) {
  gasnetc_lock();
  uint32_t until = gasnetc_ucx.recv_seq[gasneti_mynode][GASNETC_CH_REQ];
  gasnetc_unlock();
  unsigned spins = 0;
  while (!gasnetc_fence_reached(__atomic_load_n(&gasnetc_fence_ran[gasneti_mynode], __ATOMIC_SEQ_CST),
                                until))
    gasneti_wait_step(&spins);
}
