/* scatter.c: scatter algorithms. The root's src holds one block per rank,
 * in rank order; rank r's block ends in its dst.
 *  - eager trees: each node receives the blocks of its whole subtree (a
 *    contiguous run of virtual ranks) into a scratch buffer, keeps its own
 *    and forwards each child's run. Leaves receive straight into dst.
 *  - flat put: the root puts each block into its rank's dst.
 *  - direct: each rank reads its block of the root's src in one copy
 *    (coll_readfan.h).
 *  - flow, for large blocks: rooted_flow.c. */
#include "patterns/coll_putfan.h"
#include "patterns/coll_readfan.h"
#include "ops/coll_segmented.h"
#include "patterns/coll_tree.h"

#include <stdlib.h>

#include "engine/coll_early.h"

#define SCATTER_STEP_DATA 0u

typedef enum { SCATTER_AWAIT_DATA, SCATTER_FORWARD, SCATTER_FINISHED } scatter_state_t;

typedef struct {
  gasnete_coll_treepos_t pos;
  scatter_state_t state;
  char *buf;       /* my subtree's blocks in virtual-rank order (dst for a leaf) */
  size_t received; /* atomic */
} scatter_tree_t;

static void scatter_tree_setup(gasnete_coll_op_t *op) {
  scatter_tree_t *s = gasnete_coll_op_priv(op, sizeof(*s));
  gasnete_coll_treepos_init(&s->pos, op);
  if (s->pos.vrank != 0)
    s->buf = s->pos.subtree == 1 ? op->args.dst
                                 : gasnete_coll_malloc((size_t)s->pos.subtree * op->args.nbytes);
  s->state = SCATTER_AWAIT_DATA;
}

static void scatter_tree_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  scatter_tree_t *s = op->priv;
  memcpy(s->buf + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&s->received, msg->nbytes);
}

/* Send each child its subtree's run: from the root's src (ordered by real
 * rank), or from buf (my run, ordered by virtual rank). */
static void scatter_tree_forward(gasnete_coll_op_t *op, const gasnete_coll_treepos_t *pos,
                                 const char *buf) {
  const gasnete_coll_args_t *a = &op->args;
  uint32_t tag = gasnete_coll_tag(GASNETE_COLL_TAG_ALG, SCATTER_STEP_DATA, 0);
  for (uint32_t i = 0; i < pos->nchildren; i++) {
    const gasnete_coll_tree_child_t *c = &pos->children[i];
    gasnet_node_t rank = gasnete_coll_vrank_to_rank(op, c->vrank);
    if (pos->vrank == 0)
      gasnete_coll_send_real_run(op, rank, tag, 0, a->src, c->vrank, c->subtree_size);
    else
      gasnete_coll_send_data(op, rank, tag, 0, buf + (size_t)(c->vrank - pos->vrank) * a->nbytes,
                             (size_t)c->subtree_size * a->nbytes);
  }
}

static void scatter_take(void *dst, const gasnete_coll_msg_t *msg) {
  memcpy((char *)dst + msg->offset, msg->data, msg->nbytes);
}

/* Without an op: the root sends and keeps its block; a leaf whose block
 * arrived early takes it. */
static gasnete_coll_quick_t scatter_tree_quick(gasnete_coll_op_t *op, const void *prep) {
  const gasnete_coll_args_t *a = &op->args;
  const gasnete_coll_tree_prep_t *t = prep;
  if (!t->ok) return GASNETE_COLL_QUICK_NO;
  if (t->pos.vrank == 0) {
    scatter_tree_forward(op, &t->pos, NULL);
    const char *mine = (const char *)a->src + (size_t)op->team->myrank * a->nbytes;
    if (mine != a->dst) memcpy(a->dst, mine, a->nbytes);
    return GASNETE_COLL_QUICK_DONE;
  }
  if (t->pos.subtree != 1) return GASNETE_COLL_QUICK_NO;
  if (!gasnete_coll_early_take(op->team->id, op->seq, a->nbytes, scatter_take, a->dst))
    return gasnete_coll_quick_missing(a->nbytes); /* the parent sends unasked */
  return GASNETE_COLL_QUICK_DONE;
}

static gasnete_coll_progress_t scatter_tree_progress(gasnete_coll_op_t *op) {
  scatter_tree_t *s = op->priv;
  const gasnete_coll_args_t *a = &op->args;
  switch (s->state) {
    case SCATTER_AWAIT_DATA:
      if (s->pos.vrank != 0 &&
          __atomic_load_n(&s->received, __ATOMIC_ACQUIRE) < (size_t)s->pos.subtree * a->nbytes)
        return GASNETE_COLL_WAITING;
      s->state = SCATTER_FORWARD;
      __attribute__((fallthrough));
    case SCATTER_FORWARD: {
      scatter_tree_forward(op, &s->pos, s->buf);
      /* My own block: first of my run, or my slot in the root's src. */
      const char *mine = s->pos.vrank == 0
                             ? (const char *)a->src + (size_t)op->team->myrank * a->nbytes
                             : s->buf;
      if (mine != a->dst) memcpy(a->dst, mine, a->nbytes);
      s->state = SCATTER_FINISHED;
    }
      __attribute__((fallthrough));
    case SCATTER_FINISHED: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

static void scatter_tree_cleanup(gasnete_coll_op_t *op) {
  scatter_tree_t *s = op->priv;
  if (s->buf && s->buf != op->args.dst) free(s->buf);
  gasnete_coll_treepos_free(&s->pos);
  gasnete_coll_op_priv_free(op);
}

/* ------------------------------------------------------------ flat put */
/* The root puts block r of its src into rank r's dst. */
static void scatter_put_setup(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, root = op->args.root;
  int is_root = op->team->myrank == root;
  size_t nb = op->args.nbytes;
  const char *src = op->args.src;
  gasnete_coll_putfan_t *fan =
      gasnete_coll_putfan_new(op, is_root ? size - 1 : 0, is_root ? 0 : 1, is_root ? 0 : nb);
  if (is_root) {
    gasnete_coll_putfan_own_block(fan, op->args.dst, src + (size_t)root * nb, nb);
    uint32_t n = 0;
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != root) fan->puts[n++] = (gasnete_coll_put_t){r, src + (size_t)r * nb, nb, 0, 0};
  } else if (fan->announce) {
    fan->announce[0] = root;
  }
}

/* ------------------------------------------------------------ direct */
/* The root announces its src; rank r reads block r of it. */
static void scatter_direct_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  if (me == a->root) {
    gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, 0, size - 1, a->src);
    gasnete_coll_readfan_own_block(fan, a->dst, (const char *)a->src + (size_t)me * a->nbytes);
    uint32_t n = 0;
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != a->root) fan->announce[n++] = r;
  } else {
    gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, 1, 0, NULL);
    gasnete_coll_readfan_add_read(fan, a->root, a->dst, (uint64_t)me * a->nbytes);
    gasnete_coll_readfan_ask_share(fan, gasnete_coll_readfan_root_share(size));
  }
}

#define SCATTER_TREE(name_, shape_, desc_)                                                 \
  {name_, desc_, GASNETE_COLL_SCATTER, shape_, gasnete_coll_any_eligible,                  \
   scatter_tree_setup, scatter_tree_progress, scatter_tree_deliver, scatter_tree_cleanup,  \
   scatter_tree_quick, gasnete_coll_tree_prepare}

const gasnete_coll_alg_t gasnete_coll_scatter_algs[] = {
    SCATTER_TREE("flat", GASNETE_COLL_TREE_FLAT, "root sends each block in AM chunks"),
    SCATTER_TREE("binomial", GASNETE_COLL_TREE_BINOMIAL, "subtree runs down a binomial tree"),
    SCATTER_TREE("binary", GASNETE_COLL_TREE_BINARY, "subtree runs down a binary tree"),
    SCATTER_TREE("knomial", GASNETE_COLL_TREE_KNOMIAL,
                 "subtree runs down a k-nomial tree (GASNET_COLL_TREE_RADIX)"),
    SCATTER_TREE("hier", GASNETE_COLL_TREE_PARAM_HIER,
                 "subtree runs down a binomial tree of supernode leaders, then to each member"),
    {"put",
     "root puts each block into its destination (dst in segment, or Longs anywhere)",
     GASNETE_COLL_SCATTER, 0, gasnete_coll_putfan_eligible, scatter_put_setup,
     gasnete_coll_putfan_alg_progress, gasnete_coll_putfan_alg_deliver,
     gasnete_coll_putfan_alg_cleanup},
    GASNETE_COLL_DIRECT_ALG(GASNETE_COLL_SCATTER,
                            "each rank reads its block of the root's src (cross-memory reads)",
                            scatter_direct_setup),
    GASNETE_COLL_ROOTED_FLOW_ALG(GASNETE_COLL_SCATTER,
                                 "root sends each block once its rank has announced itself "
                                 "(flow-controlled)",
                                 gasnete_coll_scatter_flow),
};
const unsigned gasnete_coll_scatter_nalgs =
    sizeof(gasnete_coll_scatter_algs) / sizeof(gasnete_coll_scatter_algs[0]);
