/* rooted_flow.c: scatter and gather as flat fans with flow control, for
 * large blocks (coll_flow.h).
 *
 *  - scatter: every non-root announces itself to the root when its op
 *    starts; the root sends block r to rank r once r has, staggered from
 *    root + 1, and copies its own block while it waits.
 *  - gather: the root announces itself to every rank when its op starts;
 *    each rank sends the root its block once the root has.
 * So blocks land straight in their destination, never in the early-
 * arrival store, and neither side runs ahead of the other by more than
 * one collective: with the eager flat algorithms a root running ahead
 * (scatter) or ranks running ahead of the root (gather) park megabytes
 * in the store, whose copies and allocations made large MYSYNC
 * collectives slower and far more variable than the same work with a
 * handshake first (docs/performance.md, "Early arrivals and flow
 * control"). */
#include "patterns/coll_flow.h"
#include "ops/coll_segmented.h"

typedef struct {
  gasnete_coll_flow_t flow;
  uint32_t next; /* root of a scatter: ranks served, in staggered order */
  int announced, own_copied, sent;
} rooted_flow_t;

static void rooted_flow_setup(gasnete_coll_op_t *op, size_t total, size_t piece) {
  rooted_flow_t *f = gasnete_coll_op_priv(op, sizeof(*f));
  gasnete_coll_flow_init(&f->flow, op, op->args.dst, total, piece);
}

void gasnete_coll_rooted_flow_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  rooted_flow_t *f = op->priv;
  gasnete_coll_flow_deliver(op, &f->flow, msg);
}

void gasnete_coll_rooted_flow_cleanup(gasnete_coll_op_t *op) {
  rooted_flow_t *f = op->priv;
  gasnete_coll_flow_free(&f->flow);
  gasnete_coll_op_priv_free(op);
}

/* ------------------------------------------------------------ scatter */
void gasnete_coll_scatter_flow_setup(gasnete_coll_op_t *op) {
  int root = op->team->myrank == op->args.root;
  /* A receiver's one piece is its block; the root receives nothing. */
  rooted_flow_setup(op, root ? 0 : op->args.nbytes, op->args.nbytes);
}

static void scatter_flow_serve(gasnete_coll_op_t *op, rooted_flow_t *f) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  while (f->next + 1 < size) {
    gasnet_node_t r = gasnete_coll_rank_add(me, f->next + 1, size);
    if (!gasnete_coll_flow_ready(&f->flow, r)) return;
    gasnete_coll_flow_send(op, r, 0, (const char *)op->args.src + (size_t)r * nb, nb);
    f->next++;
  }
}

gasnete_coll_progress_t gasnete_coll_scatter_flow_progress(gasnete_coll_op_t *op) {
  rooted_flow_t *f = op->priv;
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t me = op->team->myrank;
  if (me != a->root) {
    if (!f->announced) {
      f->announced = 1;
      gasnete_coll_flow_announce(op, a->root);
    }
    return gasnete_coll_flow_has(&f->flow, 0) ? GASNETE_COLL_DONE : GASNETE_COLL_WAITING;
  }
  scatter_flow_serve(op, f);
  if (!f->own_copied) {
    const char *mine = (const char *)a->src + (size_t)me * a->nbytes;
    if (mine != a->dst) memcpy(a->dst, mine, a->nbytes);
    f->own_copied = 1;
    scatter_flow_serve(op, f);
  }
  /* Only a READY changes anything now. */
  return f->next + 1 >= op->team->size ? GASNETE_COLL_DONE : GASNETE_COLL_WAITING;
}

/* ------------------------------------------------------------ gather */
void gasnete_coll_gather_flow_setup(gasnete_coll_op_t *op) {
  int root = op->team->myrank == op->args.root;
  size_t nb = op->args.nbytes;
  rooted_flow_setup(op, root ? nb * op->team->size : 0, nb);
}

gasnete_coll_progress_t gasnete_coll_gather_flow_progress(gasnete_coll_op_t *op) {
  rooted_flow_t *f = op->priv;
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = a->nbytes;
  if (me != a->root) {
    if (!gasnete_coll_flow_ready(&f->flow, a->root)) return GASNETE_COLL_WAITING;
    if (!f->sent) {
      gasnete_coll_flow_send(op, a->root, (uint64_t)me * nb, a->src, nb);
      f->sent = 1;
    }
    return GASNETE_COLL_DONE;
  }
  if (!f->announced) {
    f->announced = 1;
    for (gasnet_node_t k = 1; k < size; k++) gasnete_coll_flow_announce(op, gasnete_coll_rank_add(me, k, size));
  }
  if (!f->own_copied) {
    char *mine = (char *)a->dst + (size_t)me * nb;
    if (mine != a->src) memcpy(mine, a->src, nb);
    f->own_copied = 1;
  }
  for (gasnet_node_t r = 0; r < size; r++)
    if (r != me && !gasnete_coll_flow_has(&f->flow, r)) return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}
