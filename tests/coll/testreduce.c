/* testreduce: gasnet_coll_reduce and gasnet_coll_scan against a serial
 * reference. Every node builds the whole array (element i is a function of
 * i), places its own elements by the layout, and checks the results it
 * receives against the same function folded in array order.
 *
 * Functions: int64 sum (commutative; once without AMSAFE, once with), 2x2
 * matrix product and concatenation of fixed-size records (both
 * non-commutative), the built-in double sum (also run twice to check the
 * result is bit-identical) and minloc. Then the element-wise calls of
 * GASNet 1.x (blksz 0) with an int64 sum and a matrix product written as
 * GASNet 1.x clients write them (checking that they are called in place),
 * and the two built-ins. Functions registered without
 * GASNET_COLL_AMSAFE send an AM request each time they run, which the core
 * refuses inside a handler: a callback run in handler context ends the job.
 *
 * Usage: testreduce [-r REDUCE_ALG] [-s SCAN_ALG] [-R RADIX] [-q]
 *   -q: fewer layouts and counts (used at larger node counts). */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <math.h>
#include <stdlib.h>

static gasnet_node_t N, ME;
#define H_PING TEST_HIDX_FIRST
static volatile uint64_t pings;
static uint64_t strict_calls;
static void ping_handler(gasnet_token_t token) {
  (void)token;
  pings++;
}

/* ------------------------------------------------------------ element types */
typedef struct {
  const char *name;
  size_t es;
  void (*gen)(void *out, uint64_t i);
  void (*comb)(void *acc, const void *b); /* acc = acc op b */
  int exact;                              /* compare bytes, not approximately */
} elem_ops_t;

static uint64_t mix(uint64_t x) {
  x = (x + 1) * 0x9e3779b97f4a7c15ull;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  return x ^ (x >> 29);
}

static void gen_i64(void *out, uint64_t i) { *(int64_t *)out = (int64_t)(mix(i) % 2001) - 1000; }
static void comb_i64(void *acc, const void *b) { *(int64_t *)acc += *(const int64_t *)b; }

typedef struct { uint32_t m[4]; } mat_t; /* row-major 2x2, arithmetic mod 2^32 */
static void gen_mat(void *out, uint64_t i) {
  mat_t *m = out;
  for (int k = 0; k < 4; k++) m->m[k] = (uint32_t)(mix(i * 4 + (uint64_t)k) % 7);
}
static void comb_mat(void *acc, const void *b) {
  mat_t *x = acc, r;
  const mat_t *y = b;
  r.m[0] = x->m[0] * y->m[0] + x->m[1] * y->m[2];
  r.m[1] = x->m[0] * y->m[1] + x->m[1] * y->m[3];
  r.m[2] = x->m[2] * y->m[0] + x->m[3] * y->m[2];
  r.m[3] = x->m[2] * y->m[1] + x->m[3] * y->m[3];
  *x = r;
}

/* A record standing for a string: its length and polynomial hash; the
 * record of a concatenation follows from the two parts. */
typedef struct { uint64_t len, hash; } rec_t;
static void gen_rec(void *out, uint64_t i) {
  rec_t *r = out;
  r->len = 1 + i % 3;
  r->hash = mix(i);
}
static void comb_rec(void *acc, const void *b) {
  rec_t *x = acc;
  const rec_t *y = b;
  uint64_t p = 1, base = 1000003;
  for (uint64_t e = y->len; e; e >>= 1, base *= base)
    if (e & 1) p *= base;
  x->hash = x->hash * p + y->hash;
  x->len += y->len;
}

static void gen_dbl(void *out, uint64_t i) { *(double *)out = (double)(mix(i) % 100000) / 7.0; }
static void comb_dbl(void *acc, const void *b) { *(double *)acc += *(const double *)b; }

static void gen_loc(void *out, uint64_t i) {
  gasnet_coll_loc_double_t *p = out;
  p->value = (double)(mix(i) % 50);
  p->loc = (int64_t)i;
}
static void comb_loc(void *acc, const void *b) {
  gasnet_coll_loc_double_t *x = acc;
  const gasnet_coll_loc_double_t *y = b;
  if (y->value < x->value || (y->value == x->value && y->loc < x->loc)) *x = *y;
}

/* The prefix-reduction signature, in terms of a pairwise combine. */
static void fold(const elem_ops_t *t, void *results, size_t n, const void *left, size_t nleft,
                 const void *right) {
  unsigned char acc[32];
  const unsigned char *l = left, *r = right;
  unsigned char *out = results;
  size_t i = 0;
  memcpy(acc, nleft ? l : r, t->es);
  if (!nleft) i = 1;
  for (size_t j = 1; j < nleft; j++) t->comb(acc, l + j * t->es);
  if (i) memcpy(out, acc, t->es);
  for (; i < n; i++) {
    t->comb(acc, r + i * t->es);
    memcpy(out + i * t->es, acc, t->es);
  }
}

static const elem_ops_t OPS_I64 = {"int64 sum", 8, gen_i64, comb_i64, 1};
static const elem_ops_t OPS_MAT = {"2x2 matrix product", sizeof(mat_t), gen_mat, comb_mat, 1};
static const elem_ops_t OPS_REC = {"record concatenation", sizeof(rec_t), gen_rec, comb_rec, 1};
static const elem_ops_t OPS_DBL = {"double sum (built-in)", 8, gen_dbl, comb_dbl, 0};
static const elem_ops_t OPS_LOC = {"minloc (built-in)", 16, gen_loc, comb_loc, 1};

/* A function registered without AMSAFE: proves it runs outside handlers. */
static void strict_check(void) {
  strict_calls++;
  gasnet_AMRequestShort0(ME, H_PING);
}
static void fn_sum_strict(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                          int flags, int arg) {
  (void)es, (void)flags, (void)arg;
  strict_check();
  fold(&OPS_I64, res, n, l, nl, r);
}
static void fn_sum_amsafe(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                          int flags, int arg) {
  (void)es, (void)flags, (void)arg;
  fold(&OPS_I64, res, n, l, nl, r);
}
static void fn_mat_strict(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                          int flags, int arg) {
  (void)es, (void)arg;
  TEST_CHECK(flags & GASNET_COLL_NONCOMM, "flags 0x%x lack GASNET_COLL_NONCOMM", (unsigned)flags);
  strict_check();
  fold(&OPS_MAT, res, n, l, nl, r);
}
static void fn_rec_amsafe(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                          int flags, int arg) {
  (void)es, (void)flags;
  TEST_CHECK(arg == 42, "func_arg %d, expected 42", arg);
  fold(&OPS_REC, res, n, l, nl, r);
}

/* Element-wise functions (blksz 0), called as GASNet 1.x calls them: the
 * result in place (results is the left operand, as many results as left
 * operands), element i of the right operand combined into element i. */
static void elementwise(const elem_ops_t *t, void *res, size_t n, const void *l, size_t nl,
                        const void *r) {
  TEST_CHECK(res == l && n == nl, "element-wise call: results %p, left %p, %zu results, %zu left",
             res, l, n, nl);
  for (size_t i = 0; i < n; i++) t->comb((char *)res + i * t->es, (const char *)r + i * t->es);
}
static void fn_ew_sum_strict(void *res, size_t n, const void *l, size_t nl, const void *r,
                             size_t es, int flags, int arg) {
  (void)flags, (void)arg;
  TEST_CHECK(es == 8, "element-wise sum: elem_size %zu", es);
  strict_check();
  elementwise(&OPS_I64, res, n, l, nl, r);
}
static void fn_ew_mat(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                      int flags, int arg) {
  (void)flags, (void)arg;
  TEST_CHECK(es == sizeof(mat_t), "element-wise matrix product: elem_size %zu", es);
  elementwise(&OPS_MAT, res, n, l, nl, r);
}

enum {
  FN_SUM_STRICT, FN_SUM_AMSAFE, FN_MAT, FN_REC, FN_DBL, FN_MINLOC,
  FN_EW_SUM, FN_EW_MAT, /* element-wise only */
  FN_COUNT
};
static const gasnet_coll_fn_entry_t fn_table[FN_COUNT] = {
    {fn_sum_strict, 0},
    {fn_sum_amsafe, GASNET_COLL_AMSAFE},
    {fn_mat_strict, GASNET_COLL_NONCOMM},
    {fn_rec_amsafe, GASNET_COLL_NONCOMM | GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_minloc, 0},
    {fn_ew_sum_strict, 0},
    {fn_ew_mat, GASNET_COLL_NONCOMM | GASNET_COLL_AMSAFE},
};
static const elem_ops_t *const fn_ops[FN_COUNT] = {&OPS_I64, &OPS_I64, &OPS_MAT, &OPS_REC,
                                                  &OPS_DBL, &OPS_LOC, &OPS_I64, &OPS_MAT};
static const int fn_arg[FN_COUNT] = {0, 0, 0, 42, GASNET_COLL_TYPE_DOUBLE, GASNET_COLL_TYPE_DOUBLE,
                                     0, 0};
#define FN_LAYOUT_COUNT FN_EW_SUM /* the functions of layout calls */
/* The functions of element-wise calls: the built-ins work both ways. */
static const int ew_fns[] = {FN_EW_SUM, FN_EW_MAT, FN_DBL, FN_MINLOC};

/* ------------------------------------------------------------ layouts */
typedef struct { size_t blksz, off; } layout_t;

static size_t blk(layout_t l, size_t count) { return l.blksz ? l.blksz : count; }
static size_t goff(layout_t l, size_t count) { return l.blksz ? l.off : l.off * count; }
static gasnet_node_t owner(layout_t l, size_t count, size_t i) {
  return (gasnet_node_t)(((goff(l, count) + i) / blk(l, count)) % N);
}
static size_t local_index(layout_t l, size_t count, size_t i) {
  size_t g = goff(l, count) + i, b = blk(l, count);
  return (g / b / N) * b + g % b;
}
/* Elements this node's buffer must have room for. */
static size_t local_extent(layout_t l, size_t count) {
  size_t ext = 0;
  for (size_t i = 0; i < count; i++)
    if (owner(l, count, i) == ME && local_index(l, count, i) + 1 > ext)
      ext = local_index(l, count, i) + 1;
  return ext;
}

static int same_value(const elem_ops_t *t, const void *got, const void *want) {
  if (t->exact) return !memcmp(got, want, t->es);
  double g = *(const double *)got, w = *(const double *)want;
  return fabs(g - w) <= 1e-9 * (fabs(w) + 1);
}

static const int sync_modes[][2] = {
    {GASNET_COLL_IN_MYSYNC, GASNET_COLL_OUT_MYSYNC},
    {GASNET_COLL_IN_NOSYNC, GASNET_COLL_OUT_NOSYNC},
    {GASNET_COLL_IN_ALLSYNC, GASNET_COLL_OUT_ALLSYNC},
    {GASNET_COLL_IN_NOSYNC, GASNET_COLL_OUT_ALLSYNC},
    {GASNET_COLL_IN_ALLSYNC, GASNET_COLL_OUT_MYSYNC},
};
static unsigned case_no;

static int next_flags(void) {
  const int *m = sync_modes[case_no % (sizeof sync_modes / sizeof sync_modes[0])];
  return m[0] | m[1] | ((case_no / 5) % 2 ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL);
}

/* The reference: all elements and their inclusive prefixes. */
static unsigned char *reference(const elem_ops_t *t, size_t count, unsigned char **prefix_p) {
  unsigned char *all = malloc(count * t->es), *pre = malloc(count * t->es);
  TEST_CHECK(all && pre, "out of memory");
  for (size_t i = 0; i < count; i++) t->gen(all + i * t->es, i);
  memcpy(pre, all, t->es);
  for (size_t i = 1; i < count; i++) {
    memcpy(pre + i * t->es, pre + (i - 1) * t->es, t->es);
    t->comb(pre + i * t->es, all + i * t->es);
  }
  *prefix_p = pre;
  return all;
}

static unsigned char *make_src(const elem_ops_t *t, layout_t l, size_t count,
                               const unsigned char *all) {
  size_t ext = local_extent(l, count);
  unsigned char *src = malloc((ext ? ext : 1) * t->es);
  TEST_CHECK(src, "out of memory");
  for (size_t i = 0; i < count; i++)
    if (owner(l, count, i) == ME) memcpy(src + local_index(l, count, i) * t->es, all + i * t->es, t->es);
  return src;
}

static void run_reduce(int fn, layout_t l, size_t count, gasnet_node_t root) {
  const elem_ops_t *t = fn_ops[fn];
  unsigned char *pre, *all = reference(t, count, &pre);
  unsigned char *src = make_src(t, l, count, all);
  unsigned char dst[32], again[32];
  int flags = next_flags() | (l.blksz ? 0 : GASNET_COLL_INDEFINITE_LAYOUT);
  for (int rep = 0; rep < (t->exact ? 1 : 2); rep++) {
    unsigned char *out = rep ? again : dst;
    memset(out, 0xa5, sizeof dst);
    if (case_no % 2)
      gasnet_coll_reduce(GASNET_TEAM_ALL, root, out, src, l.blksz, l.off, t->es, count, fn,
                         fn_arg[fn], flags);
    else
      gasnet_coll_wait_sync(gasnet_coll_reduce_nb(GASNET_TEAM_ALL, root, out, src, l.blksz,
                                                  l.off, t->es, count, fn, fn_arg[fn], flags));
  }
  if (ME == root) {
    TEST_CHECK(same_value(t, dst, pre + (count - 1) * t->es),
               "reduce %s: blksz %zu offset %zu count %zu root %u: wrong result", t->name, l.blksz,
               l.off, count, (unsigned)root);
    if (!t->exact)
      TEST_CHECK(!memcmp(dst, again, t->es), "reduce %s: count %zu: two runs differ in bits",
                 t->name, count);
  }
  free(src);
  free(all);
  free(pre);
  case_no++;
}

static void run_scan(int fn, layout_t sl, layout_t dl, size_t count, int kind) {
  const elem_ops_t *t = fn_ops[fn];
  unsigned char *pre, *all = reference(t, count, &pre);
  unsigned char *src = make_src(t, sl, count, all);
  size_t ext = local_extent(dl, count);
  unsigned char *dst = malloc((ext ? ext : 1) * t->es);
  TEST_CHECK(dst, "out of memory");
  int flags = next_flags() | kind | (sl.blksz && dl.blksz ? 0 : GASNET_COLL_INDEFINITE_LAYOUT);
  if (case_no % 2)
    gasnet_coll_scan(GASNET_TEAM_ALL, dst, dl.blksz, dl.off, src, sl.blksz, sl.off, t->es, count,
                     fn, fn_arg[fn], flags);
  else
    gasnet_coll_wait_sync(gasnet_coll_scan_nb(GASNET_TEAM_ALL, dst, dl.blksz, dl.off, src,
                                              sl.blksz, sl.off, t->es, count, fn, fn_arg[fn],
                                              flags));
  int exclusive = kind == GASNET_COLL_EXCLUSIVE_SCAN;
  for (size_t i = exclusive; i < count; i++) {
    if (owner(dl, count, i) != ME) continue;
    const unsigned char *want = pre + (i - (size_t)exclusive) * t->es;
    TEST_CHECK(same_value(t, dst + local_index(dl, count, i) * t->es, want),
               "%s scan %s: src (%zu,%zu) dst (%zu,%zu) count %zu: element %zu wrong",
               exclusive ? "exclusive" : "inclusive", t->name, sl.blksz, sl.off, dl.blksz, dl.off,
               count, i);
  }
  free(dst);
  free(src);
  free(all);
  free(pre);
  case_no++;
}

/* ------------------------------------------------------------ element-wise
 * blksz 0 as GASNet 1.x clients mean it: every node gives count elements
 * (node n's element i is a function of n * count + i), element i of the
 * result combines every node's element i in node order. */
static void ew_contribution(const elem_ops_t *t, gasnet_node_t n, size_t count, unsigned char *out) {
  for (size_t i = 0; i < count; i++) t->gen(out + i * t->es, (uint64_t)n * count + i);
}

/* Element i of nodes first..last-1 combined in order, for every i. */
static void ew_reference(const elem_ops_t *t, gasnet_node_t first, gasnet_node_t last, size_t count,
                         unsigned char *want) {
  unsigned char *next = malloc(count * t->es);
  TEST_CHECK(next, "out of memory");
  ew_contribution(t, first, count, want);
  for (gasnet_node_t n = first + 1; n < last; n++) {
    ew_contribution(t, n, count, next);
    for (size_t i = 0; i < count; i++) t->comb(want + i * t->es, next + i * t->es);
  }
  free(next);
}

static void ew_check(const elem_ops_t *t, const unsigned char *got, const unsigned char *want,
                     size_t count, const char *what) {
  for (size_t i = 0; i < count; i++)
    TEST_CHECK(same_value(t, got + i * t->es, want + i * t->es),
               "element-wise %s %s: count %zu: element %zu wrong", what, t->name, count, i);
}

static void run_ew_reduce(int fn, size_t count, gasnet_node_t root) {
  const elem_ops_t *t = fn_ops[fn];
  unsigned char *src = malloc(count * t->es), *dst = malloc(count * t->es);
  TEST_CHECK(src && dst, "out of memory");
  ew_contribution(t, ME, count, src);
  int flags = next_flags();
  if (case_no % 2)
    gasnet_coll_reduce(GASNET_TEAM_ALL, root, dst, src, 0, 0, t->es, count, fn, fn_arg[fn], flags);
  else
    gasnet_coll_wait_sync(gasnet_coll_reduce_nb(GASNET_TEAM_ALL, root, dst, src, 0, 0, t->es, count,
                                                fn, fn_arg[fn], flags));
  if (ME == root) {
    unsigned char *want = malloc(count * t->es);
    TEST_CHECK(want, "out of memory");
    ew_reference(t, 0, N, count, want);
    ew_check(t, dst, want, count, "reduce");
    free(want);
  }
  free(src);
  free(dst);
  case_no++;
}

static void run_ew_scan(int fn, size_t count, int kind) {
  const elem_ops_t *t = fn_ops[fn];
  unsigned char *src = malloc(count * t->es), *dst = malloc(count * t->es);
  unsigned char *want = malloc(count * t->es);
  TEST_CHECK(src && dst && want, "out of memory");
  ew_contribution(t, ME, count, src);
  memset(dst, 0x5a, count * t->es);
  int flags = next_flags() | kind;
  if (case_no % 2)
    gasnet_coll_scan(GASNET_TEAM_ALL, dst, 0, 0, src, 0, 0, t->es, count, fn, fn_arg[fn], flags);
  else
    gasnet_coll_wait_sync(gasnet_coll_scan_nb(GASNET_TEAM_ALL, dst, 0, 0, src, 0, 0, t->es, count,
                                              fn, fn_arg[fn], flags));
  int exclusive = kind == GASNET_COLL_EXCLUSIVE_SCAN;
  if (exclusive && ME == 0) { /* untouched */
    memset(want, 0x5a, count * t->es);
    TEST_CHECK(!memcmp(dst, want, count * t->es), "element-wise exclusive scan wrote image 0");
  } else {
    ew_reference(t, 0, exclusive ? ME : ME + 1, count, want);
    ew_check(t, dst, want, count, exclusive ? "exclusive scan" : "inclusive scan");
  }
  free(src);
  free(dst);
  free(want);
  case_no++;
}

static void run_elementwise(int quick) {
  const size_t counts_full[] = {1, 3, 64, 5000}, counts_quick[] = {1, 64};
  const size_t *counts = quick ? counts_quick : counts_full;
  size_t ncounts = quick ? 2 : 4;
  for (size_t ci = 0; ci < ncounts; ci++)
    for (size_t f = 0; f < sizeof ew_fns / sizeof ew_fns[0]; f++) {
      int fn = ew_fns[f];
      run_ew_reduce(fn, counts[ci], (gasnet_node_t)(case_no % N));
      run_ew_scan(fn, counts[ci], (f + ci) % 2 ? GASNET_COLL_EXCLUSIVE_SCAN : GASNET_COLL_INCLUSIVE_SCAN);
    }
  test_print0("testreduce: element-wise done (%u cases)\n", case_no);
}

int main(int argc, char **argv) {
  int quick = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-q")) quick = 1;
    else if (i + 1 < argc && !strcmp(argv[i], "-r")) setenv("GASNET_COLL_REDUCE_ALG", argv[++i], 1);
    else if (i + 1 < argc && !strcmp(argv[i], "-s")) setenv("GASNET_COLL_SCAN_ALG", argv[++i], 1);
    else if (i + 1 < argc && !strcmp(argv[i], "-R")) setenv("GASNET_COLL_TREE_RADIX", argv[++i], 1);
    else {
      fprintf(stderr, "usage: testreduce [-r REDUCE_ALG] [-s SCAN_ALG] [-R RADIX] [-q]\n");
      return 2;
    }
  }
  gasnet_handlerentry_t handlers[] = {{H_PING, (void (*)())ping_handler}};
  test_init_handlers(&argc, &argv, GASNET_PAGESIZE, handlers, 1);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  gasnet_coll_init(NULL, 0, fn_table, FN_COUNT, 0);

  /* The indefinite layout (GASNET_COLL_INDEFINITE_LAYOUT) on image 0 and
   * on the last image, cyclic, odd blocks and offsets, blocks
   * larger than the count, and a blocked layout (one block per image). */
  const layout_t layouts[] = {{0, 0}, {0, N - 1}, {1, 0}, {3, 1}, {3, 5}, {4, 0}, {64, 7}, {1, 3}};
  const size_t counts_full[] = {1, 7, 2 * (size_t)N + 1, 100, 1000};
  const size_t counts_quick[] = {1, 2 * (size_t)N + 1, 100};
  const size_t *counts = quick ? counts_quick : counts_full;
  size_t ncounts = quick ? 3 : 5, nlayouts = sizeof layouts / sizeof layouts[0];

  for (size_t li = 0; li < nlayouts; li++)
    for (size_t ci = 0; ci < ncounts; ci++)
      for (int fn = 0; fn < FN_LAYOUT_COUNT; fn++)
        run_reduce(fn, layouts[li], counts[ci], (gasnet_node_t)(case_no % N));
  /* Blocked layouts with a block per node, and data past one AM Medium. */
  run_reduce(FN_MAT, (layout_t){20000, 0}, 20000 * (size_t)N - 3, 0);
  run_reduce(FN_REC, (layout_t){1, 0}, 30000, N - 1);
  test_print0("testreduce: reduce done (%u cases)\n", case_no);

  for (size_t li = 0; li < nlayouts; li++)
    for (size_t ci = 0; ci < ncounts; ci++)
      for (int fn = 0; fn < FN_LAYOUT_COUNT; fn++) {
        int kind = (fn + ci) % 2 ? GASNET_COLL_EXCLUSIVE_SCAN : GASNET_COLL_INCLUSIVE_SCAN;
        run_scan(fn, layouts[li], layouts[li], counts[ci], kind);
        run_scan(fn, layouts[li], layouts[(li + 3) % nlayouts], counts[ci], kind ^
                 (GASNET_COLL_EXCLUSIVE_SCAN | GASNET_COLL_INCLUSIVE_SCAN));
      }
  run_scan(FN_REC, (layout_t){1, 0}, (layout_t){1, 0}, 30000, GASNET_COLL_INCLUSIVE_SCAN);
  run_scan(FN_MAT, (layout_t){9000, 0}, (layout_t){0, 0}, 9000 * (size_t)N, GASNET_COLL_EXCLUSIVE_SCAN);
  /* Blocked layouts, one block per image (the chain's arrays), the last
   * block short. */
  run_scan(FN_MAT, (layout_t){9000, 0}, (layout_t){9000, 0}, 9000 * (size_t)N - 5,
           GASNET_COLL_INCLUSIVE_SCAN);
  run_scan(FN_REC, (layout_t){700, 0}, (layout_t){700, 0}, 700 * (size_t)N, GASNET_COLL_EXCLUSIVE_SCAN);
  test_print0("testreduce: scan done (%u cases)\n", case_no);
  run_elementwise(quick);

  TEST_CHECK(strict_calls == 0 || pings > 0 || N == 0, "pings never arrived");
  gasnet_coll_barrier(GASNET_TEAM_ALL, 0, GASNET_BARRIERFLAG_ANONYMOUS);
  test_finish("testreduce");
}
