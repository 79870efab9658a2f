/* bcast.c: broadcast algorithms.
 *  - eager trees (flat, binomial, binary, k-nomial): the data travels in AM
 *    Medium chunks from parent to child; a node forwards once it holds it
 *    all. Works for any buffers.
 *  - put and put_tree: the root puts straight into every destination, or
 *    down a binomial tree whose ranks forward their dst once it is in
 *    (coll_putfan.c: dst in the segment, or Longs anywhere).
 *  - direct: every receiver reads the root's src in one copy where the
 *    conduit can read another process's memory (bcast_direct.c).
 *  - pipe and scatter_allgather, for large data: bcast_pipe.c, bcast_sag.c. */
#include "patterns/coll_putfan.h"
#include "ops/ops.h"
#include "patterns/coll_readfan.h"
#include "ops/coll_segmented.h"
#include "patterns/coll_tree.h"
#include "patterns/trees.h"

#include <stdlib.h>

#include "engine/coll_early.h"

#define BCAST_STEP_DATA 0u

/* ------------------------------------------------------------ eager tree */
typedef enum { BCAST_AWAIT_DATA, BCAST_FORWARD, BCAST_FINISHED } bcast_state_t;

typedef struct {
  gasnete_coll_treepos_t pos;
  bcast_state_t state;
  size_t received; /* atomic: bytes already in dst */
} bcast_tree_t;

static void bcast_tree_setup(gasnete_coll_op_t *op) {
  bcast_tree_t *b = gasnete_coll_op_priv(op, sizeof(*b));
  gasnete_coll_treepos_init(&b->pos, op);
  b->state = BCAST_AWAIT_DATA;
}

/* Send the children the data; the root sends from src, so its own copy
 * need not come first. */
static void bcast_tree_forward(gasnete_coll_op_t *op, const gasnete_coll_treepos_t *pos) {
  const gasnete_coll_args_t *a = &op->args;
  const void *data = pos->vrank == 0 ? a->src : a->dst;
  uint32_t tag = gasnete_coll_tag(GASNETE_COLL_TAG_ALG, BCAST_STEP_DATA, 0);
  for (uint32_t i = 0; i < pos->nchildren; i++)
    gasnete_coll_send_data(op, gasnete_coll_vrank_to_rank(op, pos->children[i].vrank), tag, 0,
                           data, a->nbytes);
  if (pos->vrank == 0 && a->dst != a->src) memcpy(a->dst, a->src, a->nbytes);
}

static void bcast_take(void *dst, const gasnete_coll_msg_t *msg) {
  memcpy((char *)dst + msg->offset, msg->data, msg->nbytes);
}

/* Without an op: the root sends and is done; a receiver whose data all
 * arrived early takes it and forwards it. */
static gasnete_coll_quick_t bcast_tree_quick(gasnete_coll_op_t *op, const void *prep) {
  const gasnete_coll_tree_prep_t *t = prep;
  if (!t->ok) return GASNETE_COLL_QUICK_NO;
  int done = t->pos.vrank == 0 ||
             gasnete_coll_early_take(op->team->id, op->seq, op->args.nbytes, bcast_take, op->args.dst);
  if (!done) return gasnete_coll_quick_missing(op->args.nbytes); /* the parent sends unasked */
  bcast_tree_forward(op, &t->pos);
  return GASNETE_COLL_QUICK_DONE;
}

static void bcast_tree_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  bcast_tree_t *b = op->priv;
  memcpy((char *)op->args.dst + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&b->received, msg->nbytes);
}

static gasnete_coll_progress_t bcast_tree_progress(gasnete_coll_op_t *op) {
  bcast_tree_t *b = op->priv;
  const gasnete_coll_args_t *a = &op->args;
  switch (b->state) {
    case BCAST_AWAIT_DATA:
      if (b->pos.vrank != 0 && __atomic_load_n(&b->received, __ATOMIC_ACQUIRE) < a->nbytes)
        return GASNETE_COLL_WAITING;
      b->state = BCAST_FORWARD;
      __attribute__((fallthrough));
    case BCAST_FORWARD:
      bcast_tree_forward(op, &b->pos);
      b->state = BCAST_FINISHED;
      __attribute__((fallthrough));
    case BCAST_FINISHED: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

static void bcast_tree_cleanup(gasnete_coll_op_t *op) {
  bcast_tree_t *b = op->priv;
  gasnete_coll_treepos_free(&b->pos);
  gasnete_coll_op_priv_free(op);
}

/* ------------------------------------------------------------ flat put */
/* The root puts its src into every other rank's dst. */
static void bcast_put_setup(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, root = op->args.root;
  int is_root = op->team->myrank == root;
  gasnete_coll_putfan_t *fan =
      gasnete_coll_putfan_new(op, is_root ? size - 1 : 0, is_root ? 0 : 1,
                              is_root ? 0 : op->args.nbytes);
  if (is_root) {
    gasnete_coll_putfan_own_block(fan, op->args.dst, op->args.src, op->args.nbytes);
    uint32_t n = 0;
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != root) fan->puts[n++] = (gasnete_coll_put_t){r, op->args.src, op->args.nbytes, 0, 0};
  } else if (fan->announce) {
    fan->announce[0] = root;
  }
}

/* The put down a binomial tree: each rank puts its whole dst into its
 * children's once a parent's put has filled it, the child with the largest
 * subtree first. Over a network this spreads the root's sends: at 4 ranks
 * it sends two blocks, not three, while its first child forwards the
 * third. */
static void bcast_put_tree_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_tree_kind_t binomial = {GASNETE_COLL_TREE_BINOMIAL, 0};
  gasnet_node_t size = op->team->size;
  uint32_t vrank = gasnete_coll_rank_sub(op->team->myrank, op->args.root, size);
  gasnete_coll_tree_child_t children[32]; /* a binomial node has at most log2(size) */
  uint32_t nchildren = gasnete_coll_tree_children(binomial, size, vrank, children, 32);
  int is_root = vrank == 0;
  gasnete_coll_putfan_t *fan =
      gasnete_coll_putfan_new(op, nchildren, is_root ? 0 : 1, is_root ? 0 : op->args.nbytes);
  fan->forwards = !is_root;
  const void *from = op->args.dst;
  if (is_root) {
    gasnete_coll_putfan_own_block(fan, op->args.dst, op->args.src, op->args.nbytes);
    from = op->args.src;
  } else if (fan->announce) {
    uint32_t parent = gasnete_coll_tree_parent(binomial, size, vrank);
    fan->announce[0] = gasnete_coll_vrank_to_rank(op, parent);
  }
  for (uint32_t i = 0; i < nchildren; i++)
    fan->puts[i] = (gasnete_coll_put_t){gasnete_coll_vrank_to_rank(op, children[i].vrank), from,
                                        op->args.nbytes, 0, 0};
}

/* ------------------------------------------------------------ the table */
#define BCAST_TREE(name_, shape_, desc_)                                           \
  {name_, desc_, GASNETE_COLL_BROADCAST, shape_, gasnete_coll_any_eligible,        \
   bcast_tree_setup, bcast_tree_progress, bcast_tree_deliver, bcast_tree_cleanup,  \
   bcast_tree_quick, gasnete_coll_tree_prepare}

const gasnete_coll_alg_t gasnete_coll_bcast_algs[] = {
    BCAST_TREE("flat", GASNETE_COLL_TREE_FLAT, "root sends AM chunks to every node"),
    BCAST_TREE("binomial", GASNETE_COLL_TREE_BINOMIAL, "AM chunks down a binomial tree"),
    BCAST_TREE("binary", GASNETE_COLL_TREE_BINARY, "AM chunks down a binary tree"),
    BCAST_TREE("knomial", GASNETE_COLL_TREE_KNOMIAL,
               "AM chunks down a k-nomial tree (GASNET_COLL_TREE_RADIX)"),
    BCAST_TREE("hier", GASNETE_COLL_TREE_PARAM_HIER,
               "AM chunks down a binomial tree of supernode leaders, then to each member"),
    {"put",
     "root puts into every destination (dst in segment, or Longs anywhere)",
     GASNETE_COLL_BROADCAST, 0, gasnete_coll_putfan_eligible, bcast_put_setup,
     gasnete_coll_putfan_alg_progress, gasnete_coll_putfan_alg_deliver,
     gasnete_coll_putfan_alg_cleanup},
    {"put_tree",
     "puts down a binomial tree, each rank forwarding its dst once it is in (dst in segment, "
     "or Longs anywhere)",
     GASNETE_COLL_BROADCAST, 0, gasnete_coll_putfan_eligible, bcast_put_tree_setup,
     gasnete_coll_putfan_alg_progress, gasnete_coll_putfan_alg_deliver,
     gasnete_coll_putfan_alg_cleanup},
    GASNETE_COLL_DIRECT_ALG(GASNETE_COLL_BROADCAST,
                            "receivers read the root's src in one copy (cross-memory reads)",
                            gasnete_coll_direct_bcast_setup),
    GASNETE_COLL_SEGMENTED_ALG("pipe", GASNETE_COLL_BROADCAST,
                               "segments down a chain, forwarded as they arrive (flow-controlled)",
                               gasnete_coll_bcast_pipe),
    GASNETE_COLL_SEGMENTED_ALG("scatter_allgather", GASNETE_COLL_BROADCAST,
                               "root scatters P-1 pieces, the others pass them round a ring "
                               "(flow-controlled)",
                               gasnete_coll_bcast_sag),
};
const unsigned gasnete_coll_bcast_nalgs = sizeof(gasnete_coll_bcast_algs) / sizeof(gasnete_coll_bcast_algs[0]);
