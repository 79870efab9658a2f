/* scan_chain.c: prefix reduction along a chain, for arrays whose blocks
 * make one row (each rank holds at most one block of the array, in rank
 * order: the blocked layout of one block per rank, or all elements on one
 * rank) with the same layout for src and dst.
 *
 * Rank p reduces its own block to one partial, waits for the prefix of
 * ranks 0 .. p-1 from rank p - 1 (rank 0 waits for nothing), sends rank
 * p + 1 that prefix followed by its partial, and then writes its results
 * with one client call. No rank ever waits for a higher rank, so
 * collectives issued back to back flow down the chain without stalls
 * (the dissemination algorithm makes every rank wait for its peers each
 * round). Partials are combined only in array order: correct for
 * non-commutative functions, and the grouping is fixed, so results repeat
 * bit for bit. */
#include "ops/reduce_apply.h"
#include "ops/reduce_layout.h"
#include "ops/scan_chain.h"

#include "engine/coll_early.h"

#define SCAN_CHAIN_STEP_CARRY 0u

typedef enum {
  CHAIN_LOCAL,  /* reduce my block */
  CHAIN_AWAIT,  /* the prefix of the ranks before me is here */
  CHAIN_PASS,   /* send the next rank its prefix */
  CHAIN_WRITE,  /* my results */
  CHAIN_FINISHED
} scan_chain_state_t;

typedef struct {
  gasnete_coll_apply_t fn;
  scan_chain_state_t state;
  uint64_t local, n; /* my elements: first local index, count */
  char *own;         /* my block's partial (n > 0) */
  char *before;      /* prefix of the ranks before me: elem_size bytes, then a "has" byte */
  size_t received;   /* atomic: bytes of before from rank p - 1 */
  char *pass;        /* what rank p + 1 gets, same format */
} scan_chain_t;

void gasnete_coll_scan_chain_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_reduce_args_t *r = &op->args.red;
  size_t es = r->elem_size;
  scan_chain_t *c = gasnete_coll_op_scratch(op, sizeof(*c));
  op->priv = c;
  gasnete_coll_layout_t l =
      gasnete_coll_layout_make(r->dst_blksz, r->dst_offset, r->elem_count, op->team->size);
  c->n = gasnete_coll_layout_local_run(&l, op->team->myrank, &c->local);
  gasnete_coll_apply_init_in(&c->fn, r, gasnete_coll_op_scratch(op, es));
  c->own = gasnete_coll_op_scratch(op, es);
  c->before = gasnete_coll_op_scratch(op, es + 1);
  c->pass = gasnete_coll_op_scratch(op, es + 1);
  c->state = CHAIN_LOCAL;
}

void gasnete_coll_scan_chain_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  scan_chain_t *c = op->priv;
  size_t es = op->args.red.elem_size;
  if (gasnete_coll_tag_step(msg->tag) != SCAN_CHAIN_STEP_CARRY || msg->offset + msg->nbytes > es + 1)
    gasneti_fatalerror("%s (chain scan): unexpected message tag 0x%x from rank %u", op->call,
                       (unsigned)msg->tag, (unsigned)msg->src_rank);
  memcpy(c->before + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&c->received, msg->nbytes);
}

/* pass = before followed by my partial (either may be empty). */
static void scan_chain_pass(gasnete_coll_op_t *op, scan_chain_t *c) {
  size_t es = op->args.red.elem_size;
  int before_has = c->before[es] != 0;
  if (c->n) {
    memcpy(c->pass, c->own, es);
    if (before_has) gasnete_coll_apply_prepend(&c->fn, c->pass, c->before);
  } else if (before_has) {
    memcpy(c->pass, c->before, es);
  }
  c->pass[es] = (char)(before_has || c->n);
  gasnet_node_t next = op->team->myrank + 1;
  gasnete_coll_send_data(op, next, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, SCAN_CHAIN_STEP_CARRY, 0),
                         0, c->pass, es + 1);
}

static void scan_chain_write(gasnete_coll_op_t *op, scan_chain_t *c) {
  size_t es = op->args.red.elem_size;
  if (!c->n) return;
  const char *in = (const char *)op->args.src + c->local * es;
  char *out = (char *)op->args.dst + c->local * es;
  const char *left = c->before[es] ? c->before : NULL;
  if (!(op->args.flags & GASNET_COLL_EXCLUSIVE_SCAN)) {
    gasnete_coll_apply_prefix(&c->fn, out, left, in, c->n);
    return;
  }
  if (left) memcpy(out, left, es); /* the array's first result is undefined */
  if (c->n > 1) gasnete_coll_apply_prefix(&c->fn, out + es, left, in, c->n - 1);
}

gasnete_coll_progress_t gasnete_coll_scan_chain_progress(gasnete_coll_op_t *op) {
  scan_chain_t *c = op->priv;
  size_t es = op->args.red.elem_size;
  gasnet_node_t me = op->team->myrank;
  switch (c->state) {
    case CHAIN_LOCAL:
      if (!gasnete_coll_apply_may_run(&c->fn)) return GASNETE_COLL_NOT_YET;
      if (c->n)
        gasnete_coll_apply_reduce(&c->fn, c->own, (const char *)op->args.src + c->local * es, c->n);
      c->state = CHAIN_AWAIT;
      __attribute__((fallthrough));
    case CHAIN_AWAIT:
      if (me > 0 && __atomic_load_n(&c->received, __ATOMIC_ACQUIRE) < es + 1)
        return GASNETE_COLL_WAITING;
      c->state = CHAIN_PASS;
      __attribute__((fallthrough));
    case CHAIN_PASS:
      if (!gasnete_coll_apply_may_run(&c->fn)) return GASNETE_COLL_NOT_YET;
      if (me + 1 < op->team->size) scan_chain_pass(op, c);
      c->state = CHAIN_WRITE;
      __attribute__((fallthrough));
    case CHAIN_WRITE:
      scan_chain_write(op, c);
      c->state = CHAIN_FINISHED;
      __attribute__((fallthrough));
    case CHAIN_FINISHED: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

void gasnete_coll_scan_chain_cleanup(gasnete_coll_op_t *op) { (void)op; /* all in the op's scratch */ }

/* Without an op, for small elements: rank 0, and a rank whose prefix from
 * rank p - 1 arrived early, run every step at once, on the stack. Where
 * this rank's elements lie and how the function is applied are worked out
 * once per team plan. */
#define SCAN_CHAIN_QUICK_ELEM 64u

typedef struct {
  int ok;                  /* small elements: the quick path applies */
  uint64_t local, n;       /* my elements */
  gasnete_coll_apply_t fn; /* without scratch (the quick path's own) */
} scan_chain_prep_t;

void gasnete_coll_scan_chain_prepare(const gasnete_coll_op_t *op, void *prep) {
  _Static_assert(sizeof(scan_chain_prep_t) <= GASNETE_COLL_PREP_WORDS * sizeof(uint64_t),
                 "the chain's plan fits a plan's room");
  scan_chain_prep_t *p = prep;
  const gasnete_coll_reduce_args_t *r = &op->args.red;
  gasnete_coll_apply_init_in(&p->fn, r, NULL);
  if (r->elem_size > SCAN_CHAIN_QUICK_ELEM) return;
  gasnete_coll_layout_t l =
      gasnete_coll_layout_make(r->dst_blksz, r->dst_offset, r->elem_count, op->team->size);
  p->n = gasnete_coll_layout_local_run(&l, op->team->myrank, &p->local);
  p->ok = 1;
}

static void scan_chain_take(void *before, const gasnete_coll_msg_t *msg) {
  memcpy((char *)before + msg->offset, msg->data, msg->nbytes);
}

gasnete_coll_quick_t gasnete_coll_scan_chain_quick(gasnete_coll_op_t *op, const void *prep) {
  const scan_chain_prep_t *p = prep;
  size_t es = op->args.red.elem_size;
  if (!p->ok) return GASNETE_COLL_QUICK_NO;
  char scratch[SCAN_CHAIN_QUICK_ELEM], own[SCAN_CHAIN_QUICK_ELEM];
  char before[SCAN_CHAIN_QUICK_ELEM + 1], pass[SCAN_CHAIN_QUICK_ELEM + 1];
  before[es] = 0; /* rank 0: nothing before it */
  if (op->team->myrank > 0 &&
      !gasnete_coll_early_take(op->team->id, op->seq, es + 1, scan_chain_take, before))
    return gasnete_coll_quick_missing(es + 1); /* rank p - 1 passes its prefix on unasked */
  scan_chain_t c;
  c.fn = p->fn;
  c.fn.scratch = scratch;
  c.local = p->local;
  c.n = p->n;
  c.own = own;
  c.before = before;
  c.pass = pass;
  if (c.n) gasnete_coll_apply_reduce(&c.fn, c.own, (const char *)op->args.src + c.local * es, c.n);
  if (op->team->myrank + 1 < op->team->size) scan_chain_pass(op, &c);
  scan_chain_write(op, &c);
  return GASNETE_COLL_QUICK_DONE;
}

/* One row: every rank holds at most one block, in rank order; and src is
 * laid out as dst, so no staging. */
int gasnete_coll_scan_chain_eligible(const gasnete_coll_args_t *a,
                                     const gasnete_coll_team_t *team) {
  const gasnete_coll_reduce_args_t *r = &a->red;
  if (r->src_blksz != r->dst_blksz || r->src_offset != r->dst_offset) return 0;
  gasnete_coll_layout_t l =
      gasnete_coll_layout_make(r->dst_blksz, r->dst_offset, r->elem_count, team->size);
  return gasnete_coll_layout_nrows(&l) == 1;
}
