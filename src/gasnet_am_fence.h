/* gasnet_am_fence.h: the barrier as a fence for active messages, for a
 * conduit whose streams (one per pair of nodes) are independent of each
 * other (docs/extended.md, "The barrier and active messages";
 * docs/porting.md, "The barrier is a fence for requests").
 *
 * gasnet_barrier_wait must return only after this node has run every
 * request any node sent it before that node's notify. Over such a network
 * a request from A to C may still be on its way when C learns through B
 * that A has notified. So the sender makes sure before it notifies: each
 * peer it has sent a client request to (handler 128 and up, or a bundle of
 * such) since its last barrier gets a FENCE naming the number of its next
 * request to that peer, and answers with FENCE_ACK once every request
 * before that number has run to the end of its handler. The notify goes
 * out when every answer is in. A barrier with no client request sent since
 * the last one costs nothing.
 *
 * The conduit numbers the requests of each stream (the same numbers it
 * gives gasneti_amfence_ran_request's calls, one per request or packet of
 * requests), carries FENCE and FENCE_ACK as control messages, and calls
 * the functions below at the places named. Its lock (the one it passes in
 * gasneti_amfence_conduit_t) serialises the lists; the counters are
 * atomic. */
#ifndef GASNET_AM_FENCE_H
#define GASNET_AM_FENCE_H

#include "gasnet_internal.h"

typedef struct {
  /* Send peer a FENCE naming until (ack 0), or a FENCE_ACK (ack 1, until
   * 0). Lock held, never inside the network's own progress. Returns 0 when
   * the message cannot leave now; it is kept for the next
   * gasneti_amfence_flush. */
  int (*send)(gasnet_node_t peer, int ack, uint32_t until);
  /* The number the next request to peer will carry (lock held). */
  uint32_t (*next_request)(gasnet_node_t peer);
  void (*lock)(void);
  void (*unlock)(void);
} gasneti_amfence_conduit_t;

/* At start-up, once gasneti_nodes is known. */
extern void gasneti_amfence_init(const gasneti_amfence_conduit_t *conduit);

/* A request to dest with this handler is being sent (lock held). */
extern void gasneti_amfence_note_request(gasnet_node_t dest, gasnet_handler_t handler);

/* The table's am_fence_start and am_fence_done (lock not held): ask the
 * peers sent client requests since the last fence; 1 when nobody was
 * asked. Done once every answer is in; the caller polls between calls. */
extern int gasneti_amfence_start(void);
extern int gasneti_amfence_done(void);

/* Control messages as they arrive (lock held; may be inside the network's
 * progress: an answer then due waits for gasneti_amfence_flush). */
extern void gasneti_amfence_asked_by(gasnet_node_t src, uint32_t until);
extern void gasneti_amfence_answered(void);

/* A request handler of src's has returned (lock not held). */
extern void gasneti_amfence_ran_request(gasnet_node_t src);

/* Send the FENCE and FENCE_ACK messages kept back (lock held, outside the
 * network's progress). Every poll calls it, and nearly always nothing is
 * kept back: the test is inline, the sending is not. */
extern unsigned gasneti_amfence_queued;
extern void gasneti_amfence_flush_queued(void);
static inline void gasneti_amfence_flush(void) {
  if (gasneti_amfence_queued) gasneti_amfence_flush_queued();
}

/* Wait, polling, until src's requests numbered before until have run (lock
 * not held): for the requests a node sends itself outside the network. */
extern void gasneti_amfence_wait_ran(gasnet_node_t src, uint32_t until);

#endif
