/* coll_flow.h: flow-controlled AM streams, the building block of the
 * segmented algorithms (broadcast pipe and scatter_allgather, gather_all
 * ring, exchange pairwise).
 *
 * A rank that expects data tells each peer that will send it some READY
 * once its op has started; a sender sends a peer data only after that
 * peer's READY. So data never reach a rank before its op exists: they
 * land in its dst with one copy out of the message, never in the
 * early-arrival store, and a root cannot run ahead of its receivers by
 * more than one collective, whatever the sync mode (what the eager AM
 * algorithms allow, at the price of one signal per sender and receiver).
 *
 * Data are AM Medium chunks at byte offsets of the receiver's dst. The
 * receiver counts the bytes of each piece, a fixed-size range of dst
 * ([i * piece_bytes, (i + 1) * piece_bytes), the last one clipped), so an
 * algorithm can forward or finish piece by piece. */
#ifndef COLL_FLOW_H
#define COLL_FLOW_H

#include "engine/engine.h"

typedef struct {
  char *dst;          /* where data land */
  size_t total;       /* bytes of dst that data may cover */
  size_t piece_bytes; /* at least 1 */
  uint32_t npieces;
  size_t *got;    /* [npieces], atomic: bytes of each piece in dst */
  uint8_t *ready; /* [team size], atomic: that rank has sent READY */
} gasnete_coll_flow_t;

extern void gasnete_coll_flow_init(gasnete_coll_flow_t *f, const gasnete_coll_op_t *op, void *dst,
                                   size_t total, size_t piece_bytes);
extern void gasnete_coll_flow_free(gasnete_coll_flow_t *f);

/* Tell rank that this op has started here and may be sent data. */
extern void gasnete_coll_flow_announce(gasnete_coll_op_t *op, gasnet_node_t rank);
static inline int gasnete_coll_flow_ready(const gasnete_coll_flow_t *f, gasnet_node_t rank) {
  return __atomic_load_n(&f->ready[rank], __ATOMIC_ACQUIRE) != 0;
}

static inline size_t gasnete_coll_flow_piece_size(const gasnete_coll_flow_t *f, uint32_t i) {
  size_t start = (size_t)i * f->piece_bytes;
  if (start >= f->total) return 0;
  return f->total - start < f->piece_bytes ? f->total - start : f->piece_bytes;
}
/* Is piece i all in dst? */
static inline int gasnete_coll_flow_has(const gasnete_coll_flow_t *f, uint32_t i) {
  return __atomic_load_n(&f->got[i], __ATOMIC_ACQUIRE) == gasnete_coll_flow_piece_size(f, i);
}

/* Send nbytes from data to rank's dst at offset (never a piece's worth
 * more than one piece: chunks count towards the piece they start in). */
extern void gasnete_coll_flow_send(gasnete_coll_op_t *op, gasnet_node_t rank, uint64_t offset,
                                   const void *data, size_t nbytes);

/* Take a READY or a data chunk of this flow (an algorithm's deliver). */
extern void gasnete_coll_flow_deliver(gasnete_coll_op_t *op, gasnete_coll_flow_t *f,
                                      const gasnete_coll_msg_t *msg);

/* The segment size of a pipelined stream: one AM Medium. */
static inline size_t gasnete_coll_flow_segment(void) { return gasnet_AMMaxMedium(); }

/* The eligibility of every flow-controlled algorithm: any buffers, any team. */
extern int gasnete_coll_segmented_eligible(const gasnete_coll_args_t *args,
                                           const gasnete_coll_team_t *team);

#endif
