/* scan.c: prefix reduction on the dissemination pattern (seed 002's four
 * steps), correct for non-commutative functions.
 *
 *  1. Stage: every rank gets the source elements that belong to its part
 *     of the destination layout (free when the two layouts agree; else
 *     each source run is sent, split at destination block boundaries).
 *  2. Partials: each rank reduces each of its destination blocks. Number
 *     the blocks of the destination array k = row * P + rank: they are the
 *     array's pieces in order.
 *  3. Dissemination: in round i a rank sends to rank + 2^i and hears from
 *     rank - 2^i, whose blocks sit 2^i places to its left (one row up when
 *     the distance wraps past rank 0). Each rank keeps, per row, two
 *     windows of the blocks just left of its own block k: H, the last
 *     2^(i+1) - 1 of them, and A, the last ((P - 1) mod 2^(i+1)) of them.
 *     A rank sends H + own and A + own; the receiver grows H by the
 *     sender's H + own, and, when bit i of P - 1 is set, sets A to the
 *     sender's A + own followed by its own H. After ceil(log2 P) rounds A
 *     is exactly the P - 1 blocks between a rank's block in one row and
 *     its block in the row before.
 *  4. Prefix: walking its rows in order, a rank carries the prefix up to
 *     its previous block; carry + A is the prefix just before this block,
 *     from which one client call yields the block's results.
 * Windows are combined only in array order, so the grouping changes but
 * the order never does; every step is deterministic. scan_chain.c has the
 * chain for arrays of one row. */
#include "ops/reduce_apply.h"
#include "ops/reduce_layout.h"
#include "ops/scan_chain.h"
#include "patterns/trees.h"

#include <stdlib.h>

#define SCAN_STEP_STAGE 0u
#define SCAN_STEP_ROUND 1u

typedef enum {
  SCAN_STAGE,       /* send my source elements where the destination wants them */
  SCAN_AWAIT_STAGE, /* all of my destination's source elements are here */
  SCAN_PARTIALS,    /* reduce each of my destination blocks */
  SCAN_ROUND_SEND,  /* send this round's windows */
  SCAN_ROUND_FOLD,  /* fold in what rank - 2^i sent */
  SCAN_PREFIX,      /* write my results */
  SCAN_FINISHED
} scan_state_t;

/* Per-row values, each with a "holds something" flag: an absent value is
 * the empty sequence (rows before the array starts, ranks without a
 * block). */
typedef struct {
  char *val;
  uint8_t *has;
} scan_rows_t;

typedef struct {
  gasnete_coll_layout_t src, dst;
  gasnete_coll_apply_t fn;
  scan_state_t state;
  uint64_t nrows;           /* rows of the destination layout */
  uint64_t dst_local, dst_n; /* my destination run: first local index, elements */
  const char *staged;       /* my destination's source elements, in dst order */
  char *staged_buf;         /* owned copy when the layouts differ */
  size_t staged_received;   /* bytes; atomic */
  scan_rows_t own, h, a;
  unsigned nrounds, round;
  char *send_buf;           /* one message: H+own, A+own, their flags */
  char **recv_buf;          /* [nrounds] */
  size_t *recv_bytes;       /* [nrounds], atomic */
} scan_t;

static size_t scan_msg_bytes(const scan_t *s) {
  return (size_t)s->nrows * 2 * (s->fn.elem_size + 1);
}

static void scan_rows_alloc(scan_rows_t *r, const scan_t *s) {
  r->val = gasnete_coll_malloc((size_t)s->nrows * s->fn.elem_size);
  r->has = gasnete_coll_calloc((size_t)s->nrows, 1);
}

static void scan_rows_free(scan_rows_t *r) {
  free(r->val);
  free(r->has);
}

static int scan_same_layout(const gasnete_coll_layout_t *x, const gasnete_coll_layout_t *y) {
  return x->blksz == y->blksz && x->off == y->off;
}

static void scan_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_reduce_args_t *r = &op->args.red;
  gasnet_node_t size = op->team->size;
  scan_t *s = gasnete_coll_calloc(1, sizeof(*s));
  s->src = gasnete_coll_layout_make(r->src_blksz, r->src_offset, r->elem_count, size);
  s->dst = gasnete_coll_layout_make(r->dst_blksz, r->dst_offset, r->elem_count, size);
  gasnete_coll_apply_init(&s->fn, r);
  s->nrows = gasnete_coll_layout_nrows(&s->dst);
  s->dst_n = gasnete_coll_layout_local_run(&s->dst, op->team->myrank, &s->dst_local);
  if (scan_same_layout(&s->src, &s->dst)) {
    s->staged = (const char *)op->args.src + s->dst_local * r->elem_size;
  } else {
    s->staged_buf = gasnete_coll_malloc((size_t)s->dst_n * r->elem_size);
    s->staged = s->staged_buf;
  }
  scan_rows_alloc(&s->own, s);
  scan_rows_alloc(&s->h, s);
  scan_rows_alloc(&s->a, s);
  s->nrounds = gasnete_coll_log2_ceil(size);
  s->send_buf = gasnete_coll_malloc(scan_msg_bytes(s));
  s->recv_buf = gasnete_coll_calloc(s->nrounds, sizeof(char *));
  s->recv_bytes = gasnete_coll_calloc(s->nrounds, sizeof(size_t));
  for (unsigned i = 0; i < s->nrounds; i++) s->recv_buf[i] = gasnete_coll_malloc(scan_msg_bytes(s));
  s->state = SCAN_STAGE;
  op->priv = s;
}

static void scan_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  scan_t *s = op->priv;
  if (gasnete_coll_tag_step(msg->tag) == SCAN_STEP_STAGE) {
    memcpy(s->staged_buf + msg->offset, msg->data, msg->nbytes);
    __atomic_fetch_add(&s->staged_received, msg->nbytes, __ATOMIC_ACQ_REL);
    return;
  }
  unsigned i = gasnete_coll_tag_round(msg->tag);
  memcpy(s->recv_buf[i] + msg->offset, msg->data, msg->nbytes);
  __atomic_fetch_add(&s->recv_bytes[i], msg->nbytes, __ATOMIC_ACQ_REL);
}

/* ------------------------------------------------------------ step 1 */
/* Send (or copy) source elements [first, first + n) of the array, which
 * are contiguous here at src, split where destination blocks end. */
static void scan_stage_run(gasnete_coll_op_t *op, scan_t *s, uint64_t first, uint64_t n,
                           const char *src) {
  size_t es = s->fn.elem_size;
  while (n) {
    uint64_t g = s->dst.off + first;
    uint64_t run = s->dst.blksz - g % s->dst.blksz;
    if (run > n) run = n;
    uint32_t owner = gasnete_coll_layout_owner(&s->dst, first);
    uint64_t owner_first;
    gasnete_coll_layout_local_run(&s->dst, owner, &owner_first);
    uint64_t at = (gasnete_coll_layout_local_index(&s->dst, first) - owner_first) * es;
    if (owner == op->team->myrank) {
      memcpy(s->staged_buf + at, src, run * es);
      __atomic_fetch_add(&s->staged_received, run * es, __ATOMIC_ACQ_REL);
    } else {
      gasnete_coll_send_data(op, owner, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, SCAN_STEP_STAGE, 0),
                             at, src, run * es);
    }
    first += run;
    n -= run;
    src += run * es;
  }
}

static void scan_stage(gasnete_coll_op_t *op, scan_t *s) {
  if (!s->staged_buf) return;
  uint64_t nrows = gasnete_coll_layout_nrows(&s->src);
  for (uint64_t row = 0; row < nrows; row++) {
    gasnete_coll_piece_t p;
    if (!gasnete_coll_layout_piece(&s->src, row, op->team->myrank, &p)) continue;
    scan_stage_run(op, s, p.first, p.nelems,
                   (const char *)op->args.src + p.local * s->fn.elem_size);
  }
}

static int scan_staged(const scan_t *s) {
  return !s->staged_buf || __atomic_load_n(&s->staged_received, __ATOMIC_ACQUIRE) >=
                               (size_t)s->dst_n * s->fn.elem_size;
}

/* ------------------------------------------------------------ step 2 */
static const char *scan_staged_elem(const scan_t *s, const gasnete_coll_piece_t *p) {
  return s->staged + (p->local - s->dst_local) * s->fn.elem_size;
}

static void scan_partials(gasnete_coll_op_t *op, scan_t *s) {
  for (uint64_t row = 0; row < s->nrows; row++) {
    gasnete_coll_piece_t p;
    if (!gasnete_coll_layout_piece(&s->dst, row, op->team->myrank, &p)) continue;
    gasnete_coll_apply_reduce(&s->fn, s->own.val + row * s->fn.elem_size, scan_staged_elem(s, &p),
                              p.nelems);
    s->own.has[row] = 1;
  }
}

/* ------------------------------------------------------------ step 3 */
/* out = left followed by right, either possibly absent. */
static void scan_join(const gasnete_coll_apply_t *fn, char *out, uint8_t *out_has,
                      const char *left, int left_has, const char *right, int right_has) {
  size_t es = fn->elem_size;
  const char *only = left_has ? left : right;
  if (left_has && right_has) {
    if (out != right) memcpy(out, right, es);
    gasnete_coll_apply_prepend(fn, out, left);
  } else if ((left_has || right_has) && out != only) {
    memcpy(out, only, es);
  }
  *out_has = (uint8_t)(left_has || right_has);
}

/* The message: per row, H + own and A + own, then the two flag arrays. */
static void scan_round_send(gasnete_coll_op_t *op, scan_t *s) {
  size_t es = s->fn.elem_size, n = (size_t)s->nrows;
  char *sh = s->send_buf, *sa = sh + n * es;
  uint8_t *sh_has = (uint8_t *)(sa + n * es), *sa_has = sh_has + n;
  for (size_t row = 0; row < n; row++) {
    const char *own = s->own.val + row * es;
    scan_join(&s->fn, sh + row * es, &sh_has[row], s->h.val + row * es, s->h.has[row], own,
              s->own.has[row]);
    scan_join(&s->fn, sa + row * es, &sa_has[row], s->a.val + row * es, s->a.has[row], own,
              s->own.has[row]);
  }
  gasnet_node_t dest = gasnete_coll_rank_add(op->team->myrank, (gasnet_node_t)1 << s->round,
                                             op->team->size);
  gasnete_coll_send_data(op, dest, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, SCAN_STEP_ROUND, s->round),
                         0, s->send_buf, scan_msg_bytes(s));
}

static void scan_round_fold(gasnete_coll_op_t *op, scan_t *s) {
  size_t es = s->fn.elem_size, n = (size_t)s->nrows;
  const char *rh = s->recv_buf[s->round], *ra = rh + n * es;
  const uint8_t *rh_has = (const uint8_t *)(ra + n * es), *ra_has = rh_has + n;
  uint32_t dist = 1u << s->round;
  int wraps = op->team->myrank < dist; /* the sender's blocks are one row up */
  int grow_a = ((op->team->size - 1) >> s->round) & 1u;
  for (size_t row = 0; row < n; row++) {
    /* Across the wrap, row 0 has nothing to its left: the sender's part is empty. */
    int across = wraps && row == 0;
    size_t from = across ? 0 : wraps ? row - 1 : row;
    char *h = s->h.val + row * es;
    if (grow_a) /* A = sender's A + own, then my old H */
      scan_join(&s->fn, s->a.val + row * es, &s->a.has[row], ra + from * es,
                !across && ra_has[from], h, s->h.has[row]);
    int old_has = s->h.has[row];
    scan_join(&s->fn, h, &s->h.has[row], rh + from * es, !across && rh_has[from], h, old_has);
  }
}

/* ------------------------------------------------------------ step 4 */
static void scan_prefix(gasnete_coll_op_t *op, scan_t *s) {
  size_t es = s->fn.elem_size;
  int exclusive = (op->args.flags & GASNET_COLL_EXCLUSIVE_SCAN) != 0;
  char *carry = gasnete_coll_malloc(es), *before = gasnete_coll_malloc(es);
  uint8_t carry_has = 0, before_has = 0;
  for (uint64_t row = 0; row < s->nrows; row++) {
    gasnete_coll_piece_t p;
    if (!gasnete_coll_layout_piece(&s->dst, row, op->team->myrank, &p)) continue;
    /* Everything before this block: my previous block's prefix, then A. */
    scan_join(&s->fn, before, &before_has, carry, carry_has, s->a.val + row * es, s->a.has[row]);
    const char *in = scan_staged_elem(s, &p);
    char *out = (char *)op->args.dst + p.local * es;
    const char *left = before_has ? before : NULL;
    if (!exclusive) {
      gasnete_coll_apply_prefix(&s->fn, out, left, in, p.nelems);
    } else {
      if (before_has) memcpy(out, before, es); /* the array's first result is undefined */
      if (p.nelems > 1) gasnete_coll_apply_prefix(&s->fn, out + es, left, in, p.nelems - 1);
    }
    scan_join(&s->fn, carry, &carry_has, before, before_has, s->own.val + row * es, 1);
  }
  free(carry);
  free(before);
}

/* ------------------------------------------------------------ progress */
/* Step 3's rounds: send round i, then fold round i in; resumable. */
static gasnete_coll_progress_t scan_rounds(gasnete_coll_op_t *op, scan_t *s) {
  while (s->round < s->nrounds) {
    if (!gasnete_coll_apply_may_run(&s->fn)) return GASNETE_COLL_NOT_YET;
    if (s->state == SCAN_ROUND_SEND) {
      scan_round_send(op, s);
      s->state = SCAN_ROUND_FOLD;
    }
    if (__atomic_load_n(&s->recv_bytes[s->round], __ATOMIC_ACQUIRE) < scan_msg_bytes(s))
      return GASNETE_COLL_WAITING;
    scan_round_fold(op, s);
    s->round++;
    s->state = SCAN_ROUND_SEND;
  }
  return GASNETE_COLL_DONE;
}

static gasnete_coll_progress_t scan_progress(gasnete_coll_op_t *op) {
  scan_t *s = op->priv;
  switch (s->state) {
    case SCAN_STAGE:
      scan_stage(op, s);
      s->state = SCAN_AWAIT_STAGE;
      __attribute__((fallthrough));
    case SCAN_AWAIT_STAGE:
      if (!scan_staged(s)) return GASNETE_COLL_WAITING;
      s->state = SCAN_PARTIALS;
      __attribute__((fallthrough));
    case SCAN_PARTIALS:
      if (!gasnete_coll_apply_may_run(&s->fn)) return GASNETE_COLL_NOT_YET;
      scan_partials(op, s);
      s->state = SCAN_ROUND_SEND;
      __attribute__((fallthrough));
    case SCAN_ROUND_SEND:
    case SCAN_ROUND_FOLD: {
      gasnete_coll_progress_t r = scan_rounds(op, s);
      if (r != GASNETE_COLL_DONE) return r;
      s->state = SCAN_PREFIX;
    }
      __attribute__((fallthrough));
    case SCAN_PREFIX:
      if (!gasnete_coll_apply_may_run(&s->fn)) return GASNETE_COLL_NOT_YET;
      scan_prefix(op, s);
      s->state = SCAN_FINISHED;
      __attribute__((fallthrough));
    case SCAN_FINISHED: return GASNETE_COLL_DONE;
  }
  return GASNETE_COLL_NOT_YET;
}

static void scan_cleanup(gasnete_coll_op_t *op) {
  scan_t *s = op->priv;
  for (unsigned i = 0; i < s->nrounds; i++) free(s->recv_buf[i]);
  free(s->recv_buf);
  free(s->recv_bytes);
  free(s->send_buf);
  scan_rows_free(&s->own);
  scan_rows_free(&s->h);
  scan_rows_free(&s->a);
  free(s->staged_buf);
  gasnete_coll_apply_free(&s->fn);
  free(s);
}

const gasnete_coll_alg_t gasnete_coll_scan_algs[] = {
    {"dissem", "per-row partials over log2(P) dissemination rounds, then a local prefix",
     GASNETE_COLL_SCAN, 0, gasnete_coll_any_eligible, scan_setup, scan_progress, scan_deliver,
     scan_cleanup},
    {"chain", "the prefix of the ranks before passed down a chain (arrays of one row)",
     GASNETE_COLL_SCAN, 0, gasnete_coll_scan_chain_eligible, gasnete_coll_scan_chain_setup,
     gasnete_coll_scan_chain_progress, gasnete_coll_scan_chain_deliver,
     gasnete_coll_scan_chain_cleanup, gasnete_coll_scan_chain_quick,
     gasnete_coll_scan_chain_prepare},
};
const unsigned gasnete_coll_scan_nalgs =
    sizeof(gasnete_coll_scan_algs) / sizeof(gasnete_coll_scan_algs[0]);
