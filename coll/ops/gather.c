/* gather.c: gather algorithms, scatter run backwards. Rank r's src block
 * ends at block r of the root's dst.
 *  - eager trees: a node collects its subtree's blocks (a run of virtual
 *    ranks, its own first) in a scratch buffer and sends the run to its
 *    parent once complete; the root places runs straight into dst.
 *  - flat put: every rank puts its block into the root's dst.
 *  - direct: the root reads every rank's src in one copy each
 *    (coll_readfan.h).
 *  - flow, for large blocks: rooted_flow.c. */
#include "patterns/coll_putfan.h"
#include "patterns/coll_readfan.h"
#include "ops/coll_segmented.h"
#include "patterns/coll_tree.h"

#include <stdlib.h>

#include "engine/coll_early.h"

#define GATHER_STEP_DATA 0u

typedef enum { GATHER_COLLECT, GATHER_FINISHED } gather_state_t;

typedef struct {
  gasnete_coll_treepos_t pos;
  gather_state_t state;
  char *buf;       /* interior nodes: my subtree's blocks in virtual-rank order */
  size_t received; /* atomic: bytes from my children */
} gather_tree_t;

static void gather_tree_setup(gasnete_coll_op_t *op) {
  gather_tree_t *g = gasnete_coll_op_priv(op, sizeof(*g));
  gasnete_coll_treepos_init(&g->pos, op);
  if (g->pos.vrank != 0 && g->pos.subtree > 1)
    g->buf = gasnete_coll_malloc((size_t)g->pos.subtree * op->args.nbytes);
  g->state = GATHER_COLLECT;
}

/* Offsets are relative to the receiver's run: the root's run is every
 * virtual rank, which it maps to real-rank order in dst. */
static void gather_tree_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gather_tree_t *g = op->priv;
  if (g->pos.vrank == 0)
    gasnete_coll_copy_vrank_to_real(op->args.dst, op, msg->offset, msg->data, msg->nbytes);
  else
    memcpy(g->buf + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&g->received, msg->nbytes);
}

static void gather_take(void *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_op_t *o = op;
  gasnete_coll_copy_vrank_to_real(o->args.dst, o, msg->offset, msg->data, msg->nbytes);
}

/* Without an op: a leaf sends its block and is done; the root whose
 * blocks all arrived early places them. */
static gasnete_coll_quick_t gather_tree_quick(gasnete_coll_op_t *op, const void *prep) {
  const gasnete_coll_args_t *a = &op->args;
  const gasnete_coll_tree_prep_t *t = prep;
  const gasnete_coll_treepos_t *pos = &t->pos;
  if (!t->ok) return GASNETE_COLL_QUICK_NO;
  if (pos->vrank == 0) {
    size_t want = (size_t)(pos->subtree - 1) * a->nbytes;
    if (!gasnete_coll_early_take(op->team->id, op->seq, want, gather_take, op))
      return gasnete_coll_quick_missing(want); /* the subtrees send unasked */
    char *mine = (char *)a->dst + (size_t)a->root * a->nbytes;
    if (mine != a->src) memcpy(mine, a->src, a->nbytes);
    return GASNETE_COLL_QUICK_DONE;
  }
  if (pos->subtree != 1) return GASNETE_COLL_QUICK_NO;
  gasnete_coll_send_data(op, gasnete_coll_vrank_to_rank(op, pos->parent),
                         gasnete_coll_tag(GASNETE_COLL_TAG_ALG, GATHER_STEP_DATA, 0),
                         (uint64_t)(pos->vrank - pos->parent) * a->nbytes, a->src, a->nbytes);
  return GASNETE_COLL_QUICK_DONE;
}

static gasnete_coll_progress_t gather_tree_progress(gasnete_coll_op_t *op) {
  gather_tree_t *g = op->priv;
  const gasnete_coll_args_t *a = &op->args;
  switch (g->state) {
    case GATHER_COLLECT: {
      size_t expected = (size_t)(g->pos.subtree - 1) * a->nbytes;
      if (__atomic_load_n(&g->received, __ATOMIC_ACQUIRE) < expected) return GASNETE_COLL_WAITING;
      uint32_t tag = gasnete_coll_tag(GASNETE_COLL_TAG_ALG, GATHER_STEP_DATA, 0);
      if (g->pos.vrank == 0) {
        char *mine = (char *)a->dst + (size_t)a->root * a->nbytes;
        if (mine != a->src) memcpy(mine, a->src, a->nbytes);
      } else {
        gasnet_node_t parent = gasnete_coll_vrank_to_rank(op, g->pos.parent);
        uint64_t offset = (uint64_t)(g->pos.vrank - g->pos.parent) * a->nbytes;
        if (g->buf) {
          memcpy(g->buf, a->src, a->nbytes);
          gasnete_coll_send_data(op, parent, tag, offset, g->buf, (size_t)g->pos.subtree * a->nbytes);
        } else {
          gasnete_coll_send_data(op, parent, tag, offset, a->src, a->nbytes);
        }
      }
      g->state = GATHER_FINISHED;
    }
      __attribute__((fallthrough));
    case GATHER_FINISHED: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

static void gather_tree_cleanup(gasnete_coll_op_t *op) {
  gather_tree_t *g = op->priv;
  free(g->buf);
  gasnete_coll_treepos_free(&g->pos);
  gasnete_coll_op_priv_free(op);
}

/* ------------------------------------------------------------ flat put */
/* Every other rank puts its src into block r of the root's dst. */
static void gather_put_setup(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, root = op->args.root, me = op->team->myrank;
  int is_root = me == root;
  size_t nb = op->args.nbytes;
  gasnete_coll_putfan_t *fan = gasnete_coll_putfan_new(op, is_root ? 0 : 1, is_root ? size - 1 : 0,
                                                       is_root ? (uint64_t)(size - 1) * nb : 0);
  if (!is_root) {
    fan->puts[0] = (gasnete_coll_put_t){root, op->args.src, nb, (uint64_t)me * nb, 0};
    return;
  }
  gasnete_coll_putfan_own_block(fan, (char *)op->args.dst + (size_t)root * nb, op->args.src, nb);
  if (fan->announce) {
    uint32_t n = 0;
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != root) fan->announce[n++] = r;
  }
}

/* ------------------------------------------------------------ direct */
/* Every rank announces its src to the root, which reads it into block r of
 * its dst; a rank's op completes once the root's DONE says it has. */
static void gather_direct_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  if (me == a->root) {
    gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, size - 1, 0, NULL);
    gasnete_coll_readfan_own_block(fan, (char *)a->dst + (size_t)me * a->nbytes, a->src);
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != a->root)
        gasnete_coll_readfan_add_read(fan, r, (char *)a->dst + (size_t)r * a->nbytes, 0);
    gasnete_coll_readfan_ask_share(fan, gasnete_coll_readfan_leaf_share(size));
  } else {
    gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, 0, 1, a->src);
    fan->announce[0] = a->root;
  }
}

#define GATHER_TREE(name_, shape_, desc_)                                              \
  {name_, desc_, GASNETE_COLL_GATHER, shape_, gasnete_coll_any_eligible,               \
   gather_tree_setup, gather_tree_progress, gather_tree_deliver, gather_tree_cleanup,  \
   gather_tree_quick, gasnete_coll_tree_prepare}

const gasnete_coll_alg_t gasnete_coll_gather_algs[] = {
    GATHER_TREE("flat", GASNETE_COLL_TREE_FLAT, "every rank sends its block to the root"),
    GATHER_TREE("binomial", GASNETE_COLL_TREE_BINOMIAL, "subtree runs up a binomial tree"),
    GATHER_TREE("binary", GASNETE_COLL_TREE_BINARY, "subtree runs up a binary tree"),
    GATHER_TREE("knomial", GASNETE_COLL_TREE_KNOMIAL,
                "subtree runs up a k-nomial tree (GASNET_COLL_TREE_RADIX)"),
    GATHER_TREE("hier", GASNETE_COLL_TREE_PARAM_HIER,
                "each member's block to its supernode's leader, runs up a binomial tree of leaders"),
    {"put",
     "every rank puts its block into the root's dst (dst in segment, or Longs anywhere)",
     GASNETE_COLL_GATHER, 0, gasnete_coll_putfan_eligible, gather_put_setup,
     gasnete_coll_putfan_alg_progress, gasnete_coll_putfan_alg_deliver,
     gasnete_coll_putfan_alg_cleanup},
    GASNETE_COLL_DIRECT_ALG(GASNETE_COLL_GATHER,
                            "the root reads every rank's src (cross-memory reads)",
                            gather_direct_setup),
    GASNETE_COLL_ROOTED_FLOW_ALG(GASNETE_COLL_GATHER,
                                 "every rank sends its block once the root has announced itself "
                                 "(flow-controlled)",
                                 gasnete_coll_gather_flow),
};
const unsigned gasnete_coll_gather_nalgs =
    sizeof(gasnete_coll_gather_algs) / sizeof(gasnete_coll_gather_algs[0]);
