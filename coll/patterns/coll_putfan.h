/* coll_putfan.h: a fan of puts straight into peers' destination buffers,
 * the building block of every put-based algorithm.
 *
 * Each put goes to (rank, offset into that rank's destination buffer) and
 * travels as AM Long requests (gasnete_coll_send_placed): the conduit
 * writes the bytes into the peer's segment (or, on a team whose conduit
 * allows it, any buffer: gasneti_long_anywhere) and the peer's handler counts
 * them, so the target learns from the data itself that it is in, and the
 * sender is done with a put once its requests have returned. No put
 * handle is left to sync, so whichever thread advances the op (its
 * owner, another polling thread, the progress thread) can do every step.
 *
 * The base address of a peer's buffer is known when addressing is SINGLE
 * (it is this node's own dst argument); otherwise, or when the peer must
 * first have entered the collective (IN_MYSYNC), the peer announces its
 * buffer with a READY signal before anyone writes into it. Algorithms
 * describe the puts, who announces to whom and how many bytes each node
 * receives; this file does the rest. */
#ifndef COLL_PUTFAN_H
#define COLL_PUTFAN_H

#include "engine/engine.h"

/* Tag steps used by put fans (algorithms use steps below these). */
#define GASNETE_COLL_STEP_READY 0xf0u
#define GASNETE_COLL_STEP_DATA 0xf1u

typedef struct {
  gasnet_node_t rank;
  const void *src;
  size_t nbytes;
  uint64_t remote_offset;
  uint8_t sent;
} gasnete_coll_put_t;

typedef struct {
  uint32_t nputs;
  gasnete_coll_put_t *puts;
  uint32_t nannounce; /* ranks this node announces its buffer to */
  gasnet_node_t *announce;
  int announced;
  void *my_buffer; /* what this node announces */
  uint64_t *peer_base; /* [team size] */
  uint8_t *peer_ready; /* [team size], atomic */
  uint64_t bytes_expected; /* what peers put into this node's buffer */
  uint64_t bytes_received; /* atomic */
  uint32_t next_put;       /* puts before it are sent */
  /* The puts forward what peers put here: none starts before it is all in. */
  int forwards;
  /* Puts the conduit may still be reading (gasnete_coll_send_placed's
   * count), and the answers that say they are read (atomic). */
  uint32_t reads_expected;
  uint32_t reads_done;
  /* This node's own block, copied locally when the data phase begins, or,
   * when a put may go detached, once every put is sent (it travels
   * meanwhile). */
  void *own_dst;
  const void *own_src;
  size_t own_nbytes;
  size_t own_done; /* bytes of it copied so far */
} gasnete_coll_putfan_t;

/* Put-based algorithms need the destination in the segment, or a team
 * whose conduit lands Longs anywhere (team->puts_anywhere). */
extern int gasnete_coll_putfan_eligible(const gasnete_coll_args_t *args,
                                        const gasnete_coll_team_t *team);
/* Does this op need READY announcements (LOCAL addressing, IN_MYSYNC, or
 * a destination outside the segment)? */
extern int gasnete_coll_putfan_needs_ready(const gasnete_coll_op_t *op);
/* An algorithm's setup makes the op's fan (op->priv) for nputs puts and
 * nannounce announcements, receiving bytes_expected bytes from its peers,
 * then fills puts[] and announce[] (announce is NULL when no READY is
 * needed) and names its own block with gasnete_coll_putfan_own_block. */
extern gasnete_coll_putfan_t *gasnete_coll_putfan_new(gasnete_coll_op_t *op, uint32_t nputs,
                                                      uint32_t nannounce, uint64_t bytes_expected);

/* The block this node copies to itself (not when dst is src: the spec's
 * overlap exception). */
static inline void gasnete_coll_putfan_own_block(gasnete_coll_putfan_t *fan, void *dst,
                                                 const void *src, size_t nbytes) {
  fan->own_dst = dst;
  fan->own_src = src;
  fan->own_nbytes = nbytes;
}

/* The rest of every put algorithm's entry in its table. */
extern gasnete_coll_progress_t gasnete_coll_putfan_alg_progress(gasnete_coll_op_t *op);
extern void gasnete_coll_putfan_alg_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg);
extern void gasnete_coll_putfan_alg_cleanup(gasnete_coll_op_t *op);

#endif
