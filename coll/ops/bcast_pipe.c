/* bcast_pipe.c: the pipelined (segmented) chain broadcast, for large data.
 *
 * The ranks form a chain in virtual-rank order (rank root + v is link v):
 * the root sends its src to link 1 one segment (an AM Medium) at a time,
 * and each link forwards every segment to the next as soon as the segment
 * is in its dst, so all links copy at once and the root's work does not
 * grow with the team. Every link but the root announces itself to the
 * previous one when its op starts, and nobody sends before that
 * (coll_flow.h): segments land straight in dst, a root never runs ahead
 * into the early-arrival store, and the data in flight stay within the
 * chain's message queues. The root copies its own block while it waits
 * for link 1, or after its sends. */
#include "patterns/coll_flow.h"
#include "ops/coll_segmented.h"

typedef struct {
  gasnete_coll_flow_t flow; /* pieces are segments of dst */
  uint32_t vrank, size;
  uint32_t next_send; /* segments sent on to the next link */
  int announced, own_copied;
} bcast_pipe_t;

static gasnet_node_t pipe_rank(const gasnete_coll_op_t *op, uint32_t vrank) {
  return gasnete_coll_rank_add(vrank, op->args.root, op->team->size);
}

void gasnete_coll_bcast_pipe_setup(gasnete_coll_op_t *op) {
  bcast_pipe_t *p = gasnete_coll_op_priv(op, sizeof(*p));
  p->size = op->team->size;
  p->vrank = gasnete_coll_rank_sub(op->team->myrank, op->args.root, p->size);
  gasnete_coll_flow_init(&p->flow, op, op->args.dst, op->args.nbytes, gasnete_coll_flow_segment());
  p->own_copied = p->vrank != 0 || op->args.dst == op->args.src;
}

void gasnete_coll_bcast_pipe_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  bcast_pipe_t *p = op->priv;
  gasnete_coll_flow_deliver(op, &p->flow, msg);
}

/* Send the next link what it may have: everything from the root's src,
 * the segments already here from a link's dst. */
static void bcast_pipe_forward(gasnete_coll_op_t *op, bcast_pipe_t *p) {
  gasnet_node_t next = pipe_rank(op, p->vrank + 1);
  const char *from = p->vrank == 0 ? op->args.src : op->args.dst;
  size_t seg = p->flow.piece_bytes;
  while (p->next_send < p->flow.npieces &&
         (p->vrank == 0 || gasnete_coll_flow_has(&p->flow, p->next_send))) {
    uint32_t i = p->next_send++;
    gasnete_coll_flow_send(op, next, (uint64_t)i * seg, from + (size_t)i * seg,
                           gasnete_coll_flow_piece_size(&p->flow, i));
  }
}

gasnete_coll_progress_t gasnete_coll_bcast_pipe_progress(gasnete_coll_op_t *op) {
  bcast_pipe_t *p = op->priv;
  if (!p->announced) {
    p->announced = 1;
    if (p->vrank) gasnete_coll_flow_announce(op, pipe_rank(op, p->vrank - 1));
  }
  int last = p->vrank + 1 == p->size;
  int next_ready = !last && gasnete_coll_flow_ready(&p->flow, pipe_rank(op, p->vrank + 1));
  if (!p->own_copied && !next_ready) { /* nothing to send yet: copy meanwhile */
    memcpy(op->args.dst, op->args.src, op->args.nbytes);
    p->own_copied = 1;
  }
  if (next_ready) bcast_pipe_forward(op, p);
  if (!p->own_copied) {
    memcpy(op->args.dst, op->args.src, op->args.nbytes);
    p->own_copied = 1;
  }
  int sent = last || p->next_send == p->flow.npieces;
  int received = 1;
  for (uint32_t i = 0; p->vrank && received && i < p->flow.npieces; i++)
    received = gasnete_coll_flow_has(&p->flow, i);
  /* Only a READY or a segment changes anything now. */
  return sent && received ? GASNETE_COLL_DONE : GASNETE_COLL_WAITING;
}

void gasnete_coll_bcast_pipe_cleanup(gasnete_coll_op_t *op) {
  bcast_pipe_t *p = op->priv;
  gasnete_coll_flow_free(&p->flow);
  gasnete_coll_op_priv_free(op);
}
