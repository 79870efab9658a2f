/* gather_all_ring.c: gather_all round a ring, for large blocks.
 *
 * Rank p sends to p + 1 and hears from p - 1. In step k (0 .. P-2) it
 * sends block p - k: its own src first, then each block as it arrives
 * from p - 1, straight from its dst. Every rank sends and receives P - 1
 * blocks, one neighbour each way, so every link carries the same load
 * and no rank is anyone's hot spot. Every rank announces itself to p - 1
 * when its op starts and nobody sends before that (coll_flow.h): blocks
 * land straight in dst, never in the early-arrival store. */
#include "patterns/coll_flow.h"
#include "ops/coll_segmented.h"

typedef struct {
  gasnete_coll_flow_t flow; /* pieces are the blocks of dst */
  uint32_t next;            /* ring steps sent */
  int announced, own_copied;
} gather_all_ring_t;

void gasnete_coll_gather_all_ring_setup(gasnete_coll_op_t *op) {
  gather_all_ring_t *g = gasnete_coll_op_priv(op, sizeof(*g));
  size_t nb = op->args.nbytes;
  gasnete_coll_flow_init(&g->flow, op, op->args.dst, nb * op->team->size, nb);
}

void gasnete_coll_gather_all_ring_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gather_all_ring_t *g = op->priv;
  gasnete_coll_flow_deliver(op, &g->flow, msg);
}

static void ring_send(gasnete_coll_op_t *op, gather_all_ring_t *g) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  gasnet_node_t succ = gasnete_coll_rank_add(me, 1, size);
  size_t nb = op->args.nbytes;
  if (!gasnete_coll_flow_ready(&g->flow, succ)) return;
  while (g->next + 1 < size) {
    gasnet_node_t block = gasnete_coll_rank_sub(me, g->next, size);
    const char *from = (const char *)op->args.dst + (size_t)block * nb;
    if (g->next == 0) from = op->args.src;
    else if (!gasnete_coll_flow_has(&g->flow, block)) return;
    gasnete_coll_flow_send(op, succ, (uint64_t)block * nb, from, nb);
    g->next++;
  }
}

gasnete_coll_progress_t gasnete_coll_gather_all_ring_progress(gasnete_coll_op_t *op) {
  gather_all_ring_t *g = op->priv;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  if (!g->announced) {
    g->announced = 1;
    if (size > 1) gasnete_coll_flow_announce(op, gasnete_coll_rank_sub(me, 1, size));
  }
  ring_send(op, g);
  if (!g->own_copied) {
    char *mine = (char *)op->args.dst + (size_t)me * op->args.nbytes;
    if (mine != op->args.src) memcpy(mine, op->args.src, op->args.nbytes);
    g->own_copied = 1;
    ring_send(op, g);
  }
  if (g->next + 1 < size) return GASNETE_COLL_WAITING;
  for (gasnet_node_t k = 1; k < size; k++)
    if (!gasnete_coll_flow_has(&g->flow, gasnete_coll_rank_sub(me, k, size)))
      return GASNETE_COLL_WAITING; /* only a block changes that */
  return GASNETE_COLL_DONE;
}

void gasnete_coll_gather_all_ring_cleanup(gasnete_coll_op_t *op) {
  gather_all_ring_t *g = op->priv;
  gasnete_coll_flow_free(&g->flow);
  gasnete_coll_op_priv_free(op);
}
