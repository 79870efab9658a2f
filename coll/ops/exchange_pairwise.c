/* exchange_pairwise.c: exchange in P - 1 pairwise steps, for large blocks.
 *
 * In step k (1 .. P-1) rank p sends its block for its partner of that
 * step and receives the partner's block for p: the partner is p XOR k
 * when P is a power of two (both sides of a pair then exchange with each
 * other in the same step), else p + k (receiving from p - k). A rank
 * takes the steps in order, so at any time each rank feeds one peer and
 * is fed by one. Every rank announces itself to every peer when its op
 * starts and nobody sends before that (coll_flow.h): blocks land straight
 * in dst, never in the early-arrival store. */
#include "patterns/coll_flow.h"
#include "ops/coll_segmented.h"

typedef struct {
  gasnete_coll_flow_t flow; /* pieces are the blocks of dst, by source rank */
  uint32_t step;            /* next step to send (1 .. P-1) */
  int announced, own_copied, pow2;
} exchange_pairwise_t;

static gasnet_node_t pairwise_partner(const gasnete_coll_op_t *op, const exchange_pairwise_t *x,
                                      uint32_t step) {
  gasnet_node_t me = op->team->myrank;
  return x->pow2 ? (gasnet_node_t)(me ^ step) : gasnete_coll_rank_add(me, step, op->team->size);
}

void gasnete_coll_exchange_pairwise_setup(gasnete_coll_op_t *op) {
  exchange_pairwise_t *x = gasnete_coll_op_priv(op, sizeof(*x));
  gasnet_node_t size = op->team->size;
  size_t nb = op->args.nbytes;
  gasnete_coll_flow_init(&x->flow, op, op->args.dst, nb * size, nb);
  x->step = 1;
  x->pow2 = (size & (size - 1)) == 0;
}

void gasnete_coll_exchange_pairwise_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  exchange_pairwise_t *x = op->priv;
  gasnete_coll_flow_deliver(op, &x->flow, msg);
}

static void pairwise_send(gasnete_coll_op_t *op, exchange_pairwise_t *x) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  while (x->step < size) {
    gasnet_node_t peer = pairwise_partner(op, x, x->step);
    if (!gasnete_coll_flow_ready(&x->flow, peer)) return;
    gasnete_coll_flow_send(op, peer, (uint64_t)me * nb, (const char *)op->args.src + (size_t)peer * nb,
                           nb);
    x->step++;
  }
}

gasnete_coll_progress_t gasnete_coll_exchange_pairwise_progress(gasnete_coll_op_t *op) {
  exchange_pairwise_t *x = op->priv;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  if (!x->announced) {
    x->announced = 1;
    for (uint32_t k = 1; k < size; k++) gasnete_coll_flow_announce(op, pairwise_partner(op, x, k));
  }
  pairwise_send(op, x);
  if (!x->own_copied) {
    memcpy((char *)op->args.dst + (size_t)me * nb, (const char *)op->args.src + (size_t)me * nb, nb);
    x->own_copied = 1;
    pairwise_send(op, x);
  }
  if (x->step < size) return GASNETE_COLL_WAITING;
  for (gasnet_node_t r = 0; r < size; r++)
    if (r != me && !gasnete_coll_flow_has(&x->flow, r)) return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}

void gasnete_coll_exchange_pairwise_cleanup(gasnete_coll_op_t *op) {
  exchange_pairwise_t *x = op->priv;
  gasnete_coll_flow_free(&x->flow);
  gasnete_coll_op_priv_free(op);
}
