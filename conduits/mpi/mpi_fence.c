/* mpi_fence.c: the barrier as a fence for active messages that travel
 * through MPI (docs/extended.md, "The barrier and active messages").
 *
 * gasnet_barrier_wait must return only after this node has run every
 * request any node sent it before that node's notify. A request to a
 * member of the supernode is in the member's ring when its sender notifies
 * (the layer runs those, gasnetc_shm_run_arrived_requests); one sent
 * through MPI may still be on the wire, or held for an earlier packet of
 * its stream, when the barrier completes, since the barrier's own messages
 * (or the SMP counters) take other paths. So the sender makes sure before
 * it notifies: each peer it has sent a client request to (handler 128 and
 * up, or a bundle of such, GASNET_AM_COALESCE) since its last barrier gets
 * a FENCE message naming the number of the next request packet of their
 * stream, and answers with FENCE_ACK once
 * every request packet before that number has been delivered and its
 * handler has returned. The notify goes out when every answer is in. A
 * barrier with no client request sent through MPI since the last one costs
 * nothing; one after a flood costs a round trip to each peer of the flood.
 *
 * Per peer, at most one FENCE and one FENCE_ACK are in flight (the next
 * fence starts after this one's answers), which GASNETC_CTRL_PER_PEER
 * counts. Messages that find no free send slot wait in a queue sent at the
 * next poll. Lock held unless said otherwise. */
#include "mpi_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ state */
typedef struct {
  gasnet_node_t *peers;
  unsigned n;
} gasnetc_node_list_t;

/* Sending side. */
static gasnetc_node_list_t gasnetc_fence_dirty; /* client requests sent since the last fence */
static uint8_t *gasnetc_fence_is_dirty;
static gasnetc_node_list_t gasnetc_fence_to_ask; /* FENCE messages not yet sent */
static uint32_t *gasnetc_fence_ask_seq;           /* the number each names */
static unsigned gasnetc_fence_unanswered;         /* FENCEs whose FENCE_ACK has not come; atomic */
/* Receiving side. */
static uint32_t *gasnetc_fence_ran;      /* per source: request packets run to the end; atomic */
static uint32_t *gasnetc_fence_until;    /* per source: answer once ran reaches it */
static int *gasnetc_fence_asked;         /* per source: an answer is due at until; atomic */
static gasnetc_node_list_t gasnetc_fence_to_answer; /* FENCE_ACKs not yet sent */

static void *gasnetc_fence_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) gasneti_fatalerror("gasnet_init: out of memory");
  return p;
}

void gasnetc_fence_init(void) {
  size_t n = gasneti_nodes;
  gasnetc_fence_dirty.peers = gasnetc_fence_calloc(n, sizeof(gasnet_node_t));
  gasnetc_fence_is_dirty = gasnetc_fence_calloc(n, 1);
  gasnetc_fence_to_ask.peers = gasnetc_fence_calloc(n, sizeof(gasnet_node_t));
  gasnetc_fence_ask_seq = gasnetc_fence_calloc(n, sizeof(uint32_t));
  gasnetc_fence_ran = gasnetc_fence_calloc(n, sizeof(uint32_t));
  gasnetc_fence_until = gasnetc_fence_calloc(n, sizeof(uint32_t));
  gasnetc_fence_asked = gasnetc_fence_calloc(n, sizeof(int));
  gasnetc_fence_to_answer.peers = gasnetc_fence_calloc(n, sizeof(gasnet_node_t));
}

/* ------------------------------------------------------------ sending control messages */
static int gasnetc_fence_send_ctrl(gasnet_node_t peer, uint32_t kind, uint32_t seq) {
  unsigned i;
  gasnetc_sendslot_t *slot = gasnetc_send_slot_get(&i);
  if (!slot) return 0;
  gasnetc_ctrl_t *ctrl = slot->buf;
  memset(ctrl, 0, sizeof(*ctrl));
  ctrl->kind = kind;
  ctrl->src = gasneti_mynode;
  ctrl->code = (int32_t)seq;
  gasnetc_send_slot_start(i, ctrl, sizeof(*ctrl), peer, GASNETC_TAG_CTRL);
  return 1;
}

void gasnetc_fence_flush(void) {
  while (gasnetc_fence_to_ask.n) {
    gasnet_node_t peer = gasnetc_fence_to_ask.peers[gasnetc_fence_to_ask.n - 1];
    if (!gasnetc_fence_send_ctrl(peer, GASNETC_CTRL_FENCE, gasnetc_fence_ask_seq[peer])) return;
    gasnetc_fence_to_ask.n--;
  }
  while (gasnetc_fence_to_answer.n) {
    gasnet_node_t peer = gasnetc_fence_to_answer.peers[gasnetc_fence_to_answer.n - 1];
    if (!gasnetc_fence_send_ctrl(peer, GASNETC_CTRL_FENCE_ACK, 0)) return;
    gasnetc_fence_to_answer.n--;
  }
}

/* ------------------------------------------------------------ sending side */
void gasnetc_fence_note_request(gasnet_node_t dest, gasnet_handler_t handler) {
  if (!gasneti_handler_carries_client(handler) || gasnetc_fence_is_dirty[dest]) return;
  gasnetc_fence_is_dirty[dest] = 1;
  gasnetc_fence_dirty.peers[gasnetc_fence_dirty.n++] = dest;
}

/* Lock not held. */
int gasnetc_fence_start(void) {
  gasnetc_mpi_t *m = &gasnetc_mpi;
  gasnetc_lock();
  unsigned asked = gasnetc_fence_dirty.n;
  __atomic_add_fetch(&gasnetc_fence_unanswered, asked, __ATOMIC_ACQ_REL);
  for (unsigned k = 0; k < asked; k++) {
    gasnet_node_t peer = gasnetc_fence_dirty.peers[k];
    gasnetc_fence_is_dirty[peer] = 0;
    gasnetc_fence_ask_seq[peer] = m->payload_seq[peer][GASNETC_CH_REQ];
    gasnetc_fence_to_ask.peers[gasnetc_fence_to_ask.n++] = peer;
  }
  gasnetc_fence_dirty.n = 0;
  if (asked) gasnetc_fence_flush();
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
/* Packet numbers wrap: has `ran` reached `until`? */
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

void gasnetc_fence_asked_by(gasnet_node_t src, uint32_t until) {
  gasnetc_fence_until[src] = until;
  __atomic_store_n(&gasnetc_fence_asked[src], 1, __ATOMIC_SEQ_CST);
  gasnetc_fence_answer_if_due(src);
}

/* Lock not held: a request handler has returned. */
void gasnetc_fence_ran_request(gasnet_node_t src) {
  __atomic_add_fetch(&gasnetc_fence_ran[src], 1, __ATOMIC_SEQ_CST);
  if (!__atomic_load_n(&gasnetc_fence_asked[src], __ATOMIC_SEQ_CST)) return;
  gasnetc_lock();
  gasnetc_fence_answer_if_due(src);
  gasnetc_fence_flush();
  gasnetc_unlock();
}
