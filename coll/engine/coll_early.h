/* coll_early.h: the early-arrival store. A message for an op this node has
 * not started yet (legal under IN_NOSYNC and IN_MYSYNC: a root may run
 * ahead of its receivers) is copied here, filed by (team, sequence), and
 * handed to the op when it starts, in arrival order.
 *
 * Entries come from free lists by payload size and go back to them, so a
 * root running ahead costs one copy and no allocation: with malloc and
 * free, every entry of a few KiB or more made the heap grow and shrink
 *  again, and each early chunk paid page faults (docs/performance.md,
 * "Early arrivals and flow control"). Only the engine calls these, with its lock held. */
#ifndef COLL_EARLY_H
#define COLL_EARLY_H

#include "engine/engine.h"

#include <string.h>

typedef struct gasnete_coll_early_s {
  gasnete_coll_keyed_t key; /* first: an entry is its key (the store's table, the free lists) */
  uint32_t size_class; /* its free list, or GASNETE_COLL_EARLY_CLASSES: malloc'd */
  gasnete_coll_msg_t msg; /* msg.data points just past this struct */
} gasnete_coll_early_t;

/* The entry whose key is k. */
static inline gasnete_coll_early_t *gasnete_coll_early_of(gasnete_coll_keyed_t *k) {
  return (gasnete_coll_early_t *)k; /* the key is the first member */
}

/* The bytes of msg an entry must hold: its data, or nothing for a placed
 * chunk (data NULL), whose bytes are already in their place. */
static inline size_t gasnete_coll_early_payload(const gasnete_coll_msg_t *msg) {
  return msg->data ? msg->nbytes : 0;
}

/* Fill entry e (room for gasnete_coll_early_payload(msg) bytes after it)
 * with a copy of msg for op (team_id, seq). */
static inline void gasnete_coll_early_fill(gasnete_coll_early_t *e, uint32_t team_id, uint32_t seq,
                                           const gasnete_coll_msg_t *msg) {
  size_t payload = gasnete_coll_early_payload(msg);
  e->key.next = NULL;
  e->key.team_id = team_id;
  e->key.seq = seq;
  e->msg = *msg;
  if (payload) memcpy(e + 1, msg->data, payload);
  if (msg->data) e->msg.data = e + 1;
}

/* Keep a copy of msg for op (team_id, seq). */
extern void gasnete_coll_early_store(uint32_t team_id, uint32_t seq, const gasnete_coll_msg_t *msg);
/* Hand every stored message of (team_id, seq) to deliver, in arrival order,
 * and forget them. */
extern void gasnete_coll_early_replay(uint32_t team_id, uint32_t seq, gasnete_coll_op_t *op,
                                      void (*deliver)(gasnete_coll_op_t *, const gasnete_coll_msg_t *));
/* For an algorithm's quick path (gasnete_coll_alg_t.quick): when the
 * messages stored for (team_id, seq) are data chunks that together hold
 * exactly `bytes` bytes, hand each to take(ctx, msg) in arrival order,
 * forget them and return 1; else leave them and return 0. */
extern int gasnete_coll_early_take(uint32_t team_id, uint32_t seq, size_t bytes,
                                   void (*take)(void *ctx, const gasnete_coll_msg_t *msg),
                                   void *ctx);
/* A message's data at its offset in dst (ctx): the take of ops whose
 * peers each send their blocks straight to their place. */
static inline void gasnete_coll_early_take_at_offset(void *dst, const gasnete_coll_msg_t *msg) {
  memcpy((char *)dst + msg->offset, msg->data, msg->nbytes);
}

/* The quick path of an op in which every rank sends its own blocks to
 * every other and takes `bytes` from them into dst (a small gather_all or
 * exchange): done once the peers' blocks are all stored (this node's sent
 * then, unless a waiting call sent them already), else
 * gasnete_coll_quick_send_first. */
static inline gasnete_coll_quick_t gasnete_coll_quick_all_to_all(gasnete_coll_op_t *op,
                                                                 size_t bytes,
                                                                 void (*send)(gasnete_coll_op_t *)) {
  if (gasnete_coll_early_take(op->team->id, op->seq, bytes, gasnete_coll_early_take_at_offset,
                              op->args.dst)) {
    if (!op->quick_sent) send(op);
    return GASNETE_COLL_QUICK_DONE;
  }
  return gasnete_coll_quick_send_first(op, bytes, send);
}

/* Drop everything stored for a team. */
extern void gasnete_coll_early_drop_team(uint32_t team_id);

#endif
