/* gasnet_am_fence.c: the barrier as a fence for active messages over
 * independent streams (the protocol: gasnet_am_fence.h). Used by the mpi
 * and ucx conduits. */
#include "gasnet_am_fence.h"

#include <stdlib.h>

typedef struct {
  gasnet_node_t *peers;
  unsigned n;
} gasneti_amfence_list_t;

static gasneti_amfence_conduit_t gasneti_amfence_conduit;

/* Sending side: the lists under the conduit's lock, the counter atomic. */
static gasneti_amfence_list_t gasneti_amfence_dirty; /* client requests sent since the last fence */
static uint8_t *gasneti_amfence_is_dirty;
static gasneti_amfence_list_t gasneti_amfence_to_ask; /* FENCEs not yet sent */
static uint32_t *gasneti_amfence_ask_until;           /* the number each names */
static unsigned gasneti_amfence_unanswered; /* FENCEs whose FENCE_ACK has not come; atomic */
/* Receiving side. */
static uint32_t *gasneti_amfence_ran;   /* per source: requests run to the end; gasneti_mt_* */
static uint32_t *gasneti_amfence_until; /* per source: answer once ran reaches it */
static uint32_t *gasneti_amfence_asked; /* per source: an answer is due at until; gasneti_mt_* */
static gasneti_amfence_list_t gasneti_amfence_to_answer; /* FENCE_ACKs not yet sent */
/* Both lists' lengths together, for gasneti_amfence_flush's test (lock held). */
unsigned gasneti_amfence_queued;

static void gasneti_amfence_recount(void) {
  gasneti_amfence_queued = gasneti_amfence_to_ask.n + gasneti_amfence_to_answer.n;
}

static void *gasneti_amfence_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) gasneti_fatalerror("gasnet_init: out of memory for the barrier's AM fence");
  return p;
}

void gasneti_amfence_init(const gasneti_amfence_conduit_t *conduit) {
  size_t n = gasneti_nodes;
  gasneti_amfence_conduit = *conduit;
  gasneti_amfence_dirty.peers = gasneti_amfence_calloc(n, sizeof(gasnet_node_t));
  gasneti_amfence_is_dirty = gasneti_amfence_calloc(n, 1);
  gasneti_amfence_to_ask.peers = gasneti_amfence_calloc(n, sizeof(gasnet_node_t));
  gasneti_amfence_ask_until = gasneti_amfence_calloc(n, sizeof(uint32_t));
  gasneti_amfence_ran = gasneti_amfence_calloc(n, sizeof(uint32_t));
  gasneti_amfence_until = gasneti_amfence_calloc(n, sizeof(uint32_t));
  gasneti_amfence_asked = gasneti_amfence_calloc(n, sizeof(uint32_t));
  gasneti_amfence_to_answer.peers = gasneti_amfence_calloc(n, sizeof(gasnet_node_t));
}

/* ------------------------------------------------------------ sending side */
void gasneti_amfence_note_request(gasnet_node_t dest, gasnet_handler_t handler) {
  if (!gasneti_handler_carries_client(handler) || gasneti_amfence_is_dirty[dest]) return;
  gasneti_amfence_is_dirty[dest] = 1;
  gasneti_amfence_dirty.peers[gasneti_amfence_dirty.n++] = dest;
}

/* Each message leaves from the end of its list; one that cannot go stops
 * the flush, and the next one tries again. */
static void gasneti_amfence_send_lists(void) {
  while (gasneti_amfence_to_ask.n) {
    gasnet_node_t peer = gasneti_amfence_to_ask.peers[gasneti_amfence_to_ask.n - 1];
    if (!gasneti_amfence_conduit.send(peer, 0, gasneti_amfence_ask_until[peer])) return;
    gasneti_amfence_to_ask.n--;
  }
  while (gasneti_amfence_to_answer.n) {
    gasnet_node_t peer = gasneti_amfence_to_answer.peers[gasneti_amfence_to_answer.n - 1];
    if (!gasneti_amfence_conduit.send(peer, 1, 0)) return;
    gasneti_amfence_to_answer.n--;
  }
}

void gasneti_amfence_flush_queued(void) {
  gasneti_amfence_send_lists();
  gasneti_amfence_recount();
}

int gasneti_amfence_start(void) {
  gasneti_amfence_conduit.lock();
  unsigned asked = gasneti_amfence_dirty.n;
  __atomic_add_fetch(&gasneti_amfence_unanswered, asked, __ATOMIC_ACQ_REL);
  for (unsigned k = 0; k < asked; k++) {
    gasnet_node_t peer = gasneti_amfence_dirty.peers[k];
    gasneti_amfence_is_dirty[peer] = 0;
    gasneti_amfence_ask_until[peer] = gasneti_amfence_conduit.next_request(peer);
    gasneti_amfence_to_ask.peers[gasneti_amfence_to_ask.n++] = peer;
  }
  gasneti_amfence_dirty.n = 0;
  gasneti_amfence_recount();
  gasneti_amfence_flush();
  gasneti_amfence_conduit.unlock();
  return asked == 0;
}

int gasneti_amfence_done(void) {
  return __atomic_load_n(&gasneti_amfence_unanswered, __ATOMIC_ACQUIRE) == 0;
}

void gasneti_amfence_answered(void) {
  __atomic_sub_fetch(&gasneti_amfence_unanswered, 1, __ATOMIC_ACQ_REL);
}

/* ------------------------------------------------------------ receiving side */
/* Request numbers wrap: has `ran` reached `until`? */
static int gasneti_amfence_reached(uint32_t ran, uint32_t until) {
  return (int32_t)(ran - until) >= 0;
}

/* Whoever sees the answer due and clears the flag queues it (lock held). */
static void gasneti_amfence_answer_if_due(gasnet_node_t src) {
  uint32_t ran = gasneti_mt_load(&gasneti_amfence_ran[src]);
  if (!gasneti_amfence_reached(ran, gasneti_amfence_until[src])) return;
  uint32_t asked = 1;
  if (!gasneti_mt_cas(&gasneti_amfence_asked[src], &asked, 0)) return;
  gasneti_amfence_to_answer.peers[gasneti_amfence_to_answer.n++] = src;
  gasneti_amfence_recount();
}

void gasneti_amfence_asked_by(gasnet_node_t src, uint32_t until) {
  gasneti_amfence_until[src] = until;
  gasneti_mt_store(&gasneti_amfence_asked[src], 1);
  gasneti_amfence_answer_if_due(src);
}

void gasneti_amfence_ran_request(gasnet_node_t src) {
  gasneti_mt_add(&gasneti_amfence_ran[src], 1);
  if (!gasneti_mt_load(&gasneti_amfence_asked[src])) return;
  gasneti_amfence_conduit.lock();
  gasneti_amfence_answer_if_due(src);
  gasneti_amfence_flush();
  gasneti_amfence_conduit.unlock();
}

void gasneti_amfence_wait_ran(gasnet_node_t src, uint32_t until) {
  unsigned spins = 0;
  while (!gasneti_amfence_reached(gasneti_mt_load(&gasneti_amfence_ran[src]), until))
    gasneti_wait_step(&spins);
}
