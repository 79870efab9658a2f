/* reduce.c: reduce algorithms, one tree family (flat, binomial, binary,
 * k-nomial) rooted at the destination image.
 *
 * Every tree shape numbers its nodes so that a subtree is a contiguous
 * range of virtual ranks (trees.h), and virtual rank v is rank root + v. In
 * the array rotated so that the root's block comes first in each row, the
 * blocks of a subtree within one row are therefore consecutive pieces of
 * the array: a subtree's contribution is one partial result per rotated
 * row (reduce_layout.h), and a parent combines its own partials with its
 * children's, in virtual-rank order, without ever changing the order of
 * the elements. That is what makes the trees correct for non-commutative
 * functions.
 *
 * For a commutative function a rank first reduces all its elements (a
 * contiguous run of its buffer) with one call, and every subtree sends
 * one partial. The combining order is still fixed (virtual-rank order,
 * never arrival order), so results are bit-identical from run to run. */
#include "patterns/coll_tree.h"
#include "ops/reduce_apply.h"
#include "ops/reduce_layout.h"

#include <stdlib.h>

#include "engine/coll_early.h"

#define REDUCE_STEP_PARTIAL 0u

typedef enum {
  REDUCE_LOCAL,          /* reduce this rank's own elements */
  REDUCE_AWAIT_CHILDREN, /* every child's partials are in */
  REDUCE_COMBINE,        /* fold them in, then send up or write dst */
  REDUCE_FINISHED
} reduce_state_t;

/* Rows [lo, hi) of a range of virtual ranks, and their partials. */
typedef struct {
  uint32_t vrank, nranks;
  int any; /* the range holds some of the array */
  uint64_t lo, hi;
  char *partials;  /* (hi - lo) elements */
  size_t received; /* children: bytes in; atomic */
} reduce_range_t;

typedef struct {
  gasnete_coll_treepos_t pos;
  gasnete_coll_layout_t layout;
  gasnete_coll_apply_t fn;
  reduce_state_t state;
  reduce_range_t mine;      /* my whole subtree; partials start as my own */
  uint8_t *have;            /* [mine.hi - mine.lo]: row of mine filled yet */
  uint32_t nchildren;
  reduce_range_t *children; /* ascending virtual rank: the combining order */
} reduce_tree_t;

/* Rows of a range: one per rotated row, or the single row 0 when the
 * function is commutative (each rank pre-reduces everything it holds). */
static void reduce_range_init(gasnete_coll_op_t *op, reduce_range_t *r, const reduce_tree_t *t,
                              gasnet_node_t root, uint32_t vrank, uint32_t nranks) {
  r->vrank = vrank;
  r->nranks = nranks;
  r->any = gasnete_coll_layout_rows(&t->layout, root, vrank, nranks, &r->lo, &r->hi);
  if (r->any && !gasnete_coll_apply_noncomm(&t->fn)) {
    r->lo = 0;
    r->hi = 1;
  }
  if (!r->any) r->lo = r->hi = 0;
  r->partials = gasnete_coll_op_scratch(op, (size_t)(r->hi - r->lo) * t->fn.elem_size);
  r->received = 0;
}

static int reduce_child_cmp(const void *a, const void *b) {
  const gasnete_coll_tree_child_t *x = a, *y = b;
  return x->vrank < y->vrank ? -1 : x->vrank > y->vrank;
}

/* Everything lives in the op's scratch (freed when it retires). */
static void reduce_tree_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  reduce_tree_t *t = gasnete_coll_op_scratch(op, sizeof(*t));
  op->priv = t;
  gasnete_coll_treepos_init(&t->pos, op);
  t->layout = gasnete_coll_layout_make(a->red.src_blksz, a->red.src_offset, a->red.elem_count,
                                       op->team->size);
  gasnete_coll_apply_init_in(&t->fn, &a->red, gasnete_coll_op_scratch(op, a->red.elem_size));
  reduce_range_init(op, &t->mine, t, a->root, t->pos.vrank, t->pos.subtree);
  t->have = gasnete_coll_op_scratch(op, (size_t)(t->mine.hi - t->mine.lo));
  t->nchildren = t->pos.nchildren;
  gasnete_coll_tree_child_t *sorted = gasnete_coll_op_scratch(op, t->nchildren * sizeof(*sorted));
  memcpy(sorted, t->pos.children, t->nchildren * sizeof(*sorted));
  qsort(sorted, t->nchildren, sizeof(*sorted), reduce_child_cmp);
  t->children = gasnete_coll_op_scratch(op, t->nchildren * sizeof(reduce_range_t));
  for (uint32_t i = 0; i < t->nchildren; i++)
    reduce_range_init(op, &t->children[i], t, a->root, sorted[i].vrank, sorted[i].subtree_size);
  t->state = REDUCE_LOCAL;
}

static void reduce_tree_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  reduce_tree_t *t = op->priv;
  uint32_t vrank = gasnete_coll_rank_sub(msg->src_rank, op->args.root, op->team->size);
  for (uint32_t i = 0; i < t->nchildren; i++) {
    reduce_range_t *c = &t->children[i];
    if (c->vrank != vrank) continue;
    memcpy(c->partials + msg->offset, msg->data, msg->nbytes);
    gasnete_coll_count_add(&c->received, msg->nbytes);
    return;
  }
  gasneti_fatalerror("%s: reduce partials from rank %u, which is not a child of rank %u", op->call,
                     (unsigned)msg->src_rank, (unsigned)op->team->myrank);
}

static const char *reduce_src_elem(const gasnete_coll_op_t *op, uint64_t local) {
  return (const char *)op->args.src + local * op->args.red.elem_size;
}

/* My own partials: all my elements at once, or one per block of mine. */
static void reduce_local(gasnete_coll_op_t *op, reduce_tree_t *t) {
  size_t es = t->fn.elem_size;
  if (!gasnete_coll_apply_noncomm(&t->fn)) {
    uint64_t local, n = gasnete_coll_layout_local_run(&t->layout, op->team->myrank, &local);
    if (n) gasnete_coll_apply_reduce(&t->fn, t->mine.partials, reduce_src_elem(op, local), n);
    if (n) t->have[0] = 1;
    return;
  }
  for (uint64_t row = t->mine.lo; row < t->mine.hi; row++) {
    gasnete_coll_piece_t piece;
    if (!gasnete_coll_layout_vpiece(&t->layout, op->args.root, row, t->pos.vrank, &piece)) continue;
    gasnete_coll_apply_reduce(&t->fn, t->mine.partials + (row - t->mine.lo) * es,
                              reduce_src_elem(op, piece.local), piece.nelems);
    t->have[row - t->mine.lo] = 1;
  }
}

static int reduce_children_in(const reduce_tree_t *t) {
  for (uint32_t i = 0; i < t->nchildren; i++) {
    const reduce_range_t *c = &t->children[i];
    if (__atomic_load_n(&c->received, __ATOMIC_ACQUIRE) < (c->hi - c->lo) * t->fn.elem_size)
      return 0;
  }
  return 1;
}

/* Fold each child's partials into mine, children in virtual-rank order:
 * within a row my block comes first, then the children's subtrees. */
static void reduce_combine_children(reduce_tree_t *t) {
  size_t es = t->fn.elem_size;
  for (uint32_t i = 0; i < t->nchildren; i++) {
    const reduce_range_t *c = &t->children[i];
    for (uint64_t row = c->lo; row < c->hi; row++) {
      char *acc = t->mine.partials + (row - t->mine.lo) * es;
      const char *part = c->partials + (row - c->lo) * es;
      if (t->have[row - t->mine.lo])
        gasnete_coll_apply_accumulate(&t->fn, acc, part);
      else
        memcpy(acc, part, es);
      t->have[row - t->mine.lo] = 1;
    }
  }
}

/* Send my subtree's partials up, or, at the root, reduce the rows. */
static void reduce_finish(gasnete_coll_op_t *op, reduce_tree_t *t) {
  size_t nrows = (size_t)(t->mine.hi - t->mine.lo);
  if (t->pos.vrank != 0) {
    if (nrows)
      gasnete_coll_send_data(op, gasnete_coll_vrank_to_rank(op, t->pos.parent),
                             gasnete_coll_tag(GASNETE_COLL_TAG_ALG, REDUCE_STEP_PARTIAL, 0), 0,
                             t->mine.partials, nrows * t->fn.elem_size);
    return;
  }
  gasnete_coll_apply_reduce(&t->fn, op->args.dst, t->mine.partials, nrows);
}

static gasnete_coll_progress_t reduce_tree_progress(gasnete_coll_op_t *op) {
  reduce_tree_t *t = op->priv;
  switch (t->state) {
    case REDUCE_LOCAL:
      if (!gasnete_coll_apply_may_run(&t->fn)) return GASNETE_COLL_NOT_YET;
      reduce_local(op, t);
      t->state = REDUCE_AWAIT_CHILDREN;
      __attribute__((fallthrough));
    case REDUCE_AWAIT_CHILDREN:
      if (!reduce_children_in(t)) return GASNETE_COLL_WAITING;
      t->state = REDUCE_COMBINE;
      __attribute__((fallthrough));
    case REDUCE_COMBINE:
      if (!gasnete_coll_apply_may_run(&t->fn)) return GASNETE_COLL_NOT_YET;
      reduce_combine_children(t);
      reduce_finish(op, t);
      t->state = REDUCE_FINISHED;
      __attribute__((fallthrough));
    case REDUCE_FINISHED: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

static void reduce_tree_cleanup(gasnete_coll_op_t *op) {
  reduce_tree_t *t = op->priv;
  gasnete_coll_treepos_free(&t->pos); /* the rest is the op's scratch */
}

/* ------------------------------------------------------------ quick path
 * For a commutative function (one partial per subtree) of small elements,
 * without an op: a rank whose children's partials all arrived early (a
 * leaf has none) reduces its own elements, folds the children's in, in
 * the op's order (ascending virtual rank, so the result is the same bit
 * for bit), and sends the partial up or writes the result. What depends
 * only on the team and the call's single-valued arguments is worked out
 * once per team plan (reduce_tree_prepare). */
#define REDUCE_QUICK_ELEM 64u /* largest element taken: partials live on the stack */

typedef struct {
  int ok;                        /* the quick path applies */
  gasnete_coll_treepos_t pos;    /* children in ascending virtual rank */
  uint8_t sends[GASNETE_COLL_TREEPOS_FEW]; /* child i's subtree holds elements */
  size_t expect;                 /* bytes of the children's partials */
  uint64_t local, n;             /* my elements */
  gasnete_coll_apply_t fn;       /* without scratch (the quick path's own) */
} reduce_prep_t;

typedef struct {
  const gasnete_coll_op_t *op;
  const gasnete_coll_treepos_t *pos;
  char (*parts)[REDUCE_QUICK_ELEM]; /* by position in pos->children */
} reduce_quick_t;

static void reduce_quick_take(void *ctx, const gasnete_coll_msg_t *msg) {
  reduce_quick_t *q = ctx;
  uint32_t v = gasnete_coll_rank_sub(msg->src_rank, q->op->args.root, q->op->team->size);
  for (uint32_t i = 0; i < q->pos->nchildren; i++)
    if (q->pos->children[i].vrank == v) memcpy(q->parts[i], msg->data, msg->nbytes);
}

static void reduce_tree_prepare(const gasnete_coll_op_t *op, void *prep) {
  _Static_assert(sizeof(reduce_prep_t) <= GASNETE_COLL_PREP_WORDS * sizeof(uint64_t),
                 "the reduce plan fits a plan's room");
  reduce_prep_t *r = prep;
  const gasnete_coll_args_t *a = &op->args;
  size_t es = a->red.elem_size;
  gasnete_coll_apply_init_in(&r->fn, &a->red, NULL);
  if (es > REDUCE_QUICK_ELEM || gasnete_coll_apply_noncomm(&r->fn)) return;
  gasnete_coll_treepos_init(&r->pos, op);
  if (r->pos.children != r->pos.few) { /* too many children for the stack */
    gasnete_coll_treepos_free(&r->pos);
    return;
  }
  /* Ascending virtual rank: the order the op combines in (a flat tree's
   * children are in it already). */
  qsort(r->pos.children, r->pos.nchildren, sizeof(*r->pos.children), reduce_child_cmp);
  gasnete_coll_layout_t l =
      gasnete_coll_layout_make(a->red.src_blksz, a->red.src_offset, a->red.elem_count, op->team->size);
  for (uint32_t i = 0; i < r->pos.nchildren; i++) {
    uint64_t lo, hi;
    r->sends[i] = (uint8_t)gasnete_coll_layout_rows(&l, a->root, r->pos.children[i].vrank,
                                                    r->pos.children[i].subtree_size, &lo, &hi);
    r->expect += r->sends[i] ? es : 0;
  }
  r->n = gasnete_coll_layout_local_run(&l, op->team->myrank, &r->local);
  r->ok = 1;
}

static gasnete_coll_quick_t reduce_tree_quick(gasnete_coll_op_t *op, const void *prep) {
  const reduce_prep_t *r = prep;
  const gasnete_coll_args_t *a = &op->args;
  if (!r->ok) return GASNETE_COLL_QUICK_NO;
  const gasnete_coll_treepos_t *pos = &r->pos;
  size_t es = r->fn.elem_size;
  char parts[GASNETE_COLL_TREEPOS_FEW][REDUCE_QUICK_ELEM], acc[REDUCE_QUICK_ELEM];
  reduce_quick_t q = {op, pos, parts};
  if (r->expect &&
      !gasnete_coll_early_take(op->team->id, op->seq, r->expect, reduce_quick_take, &q))
    return gasnete_coll_quick_missing(r->expect); /* the children send unasked */
  char scratch[REDUCE_QUICK_ELEM]; /* a client function's accumulate combines into it */
  gasnete_coll_apply_t fn = r->fn;
  fn.scratch = scratch;
  if (r->n) gasnete_coll_apply_reduce(&fn, acc, (const char *)a->src + r->local * es, r->n);
  int have = r->n != 0;
  for (uint32_t i = 0; i < pos->nchildren; i++) {
    if (!r->sends[i]) continue;
    if (have) gasnete_coll_apply_accumulate(&fn, acc, parts[i]);
    else memcpy(acc, parts[i], es);
    have = 1;
  }
  if (pos->vrank == 0)
    memcpy(a->dst, acc, es); /* the array has an element, so some subtree had it */
  else if (have)
    gasnete_coll_send_data(op, gasnete_coll_vrank_to_rank(op, pos->parent),
                           gasnete_coll_tag(GASNETE_COLL_TAG_ALG, REDUCE_STEP_PARTIAL, 0), 0, acc, es);
  return GASNETE_COLL_QUICK_DONE;
}

#define REDUCE_TREE(name_, shape_, desc_)                                              \
  {name_, desc_, GASNETE_COLL_REDUCE, shape_, gasnete_coll_any_eligible,               \
   reduce_tree_setup, reduce_tree_progress, reduce_tree_deliver, reduce_tree_cleanup,  \
   reduce_tree_quick, reduce_tree_prepare}

const gasnete_coll_alg_t gasnete_coll_reduce_algs[] = {
    REDUCE_TREE("flat", GASNETE_COLL_TREE_FLAT, "every rank sends its partials to the root"),
    REDUCE_TREE("binomial", GASNETE_COLL_TREE_BINOMIAL, "partials up a binomial tree"),
    REDUCE_TREE("binary", GASNETE_COLL_TREE_BINARY, "partials up a binary tree"),
    REDUCE_TREE("knomial", GASNETE_COLL_TREE_KNOMIAL,
                "partials up a k-nomial tree (GASNET_COLL_TREE_RADIX)"),
    REDUCE_TREE("hier", GASNETE_COLL_TREE_PARAM_HIER,
                "partials to each supernode's leader, then up a binomial tree of leaders"),
};
const unsigned gasnete_coll_reduce_nalgs =
    sizeof(gasnete_coll_reduce_algs) / sizeof(gasnete_coll_reduce_algs[0]);
