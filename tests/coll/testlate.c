/* testlate: blocking collectives whose receivers are already inside the
 * call, waiting, when the data comes.
 *
 * Usage: testlate [-m MS] [-a OP=ALG]... [-r REDUCE_ALG] [-s SCAN_ALG]
 *   -m MS      how long the late node sleeps before its call (default 1)
 *   -a OP=ALG  force a data-movement algorithm (as testcollnb)
 *   -r, -s     force the reduce / scan algorithm
 *
 * Before each call every node meets the others in a barrier; then one node
 * (each node in turn) sleeps MS milliseconds without entering GASNet while
 * the others make the call at once. So leaves of a broadcast or scatter
 * whose root is late, the root of a gather or reduce whose leaf is late,
 * and the ranks of a scan after a late one all wait in their calls with
 * nothing of the op arrived; a small call may wait there without an op,
 * taking what arrives from the early-arrival store. Every op runs: the
 * five data-movement ones at sizes around the largest such wait (1 KiB),
 * and reduce and scan with an int64 sum (registered once AMSAFE, once
 * not) and a non-commutative 2x2 matrix product, one and eight elements
 * per node. The late node is the root and the rank after the root, in two
 * sync modes (IN_NOSYNC and IN_MYSYNC, both OUT_MYSYNC). Each node checks
 * its result byte for byte as soon as its call returns, and that its src
 * and the guard bytes after dst are untouched.
 *
 * The -par build runs the same with a second thread polling throughout,
 * so the data often arrives on a thread other than the waiting one. */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <stdlib.h>
#include <time.h>

#if defined(GASNET_PAR)
#include <pthread.h>
#include <sched.h>
#endif

#define GUARD 16
#define MAX_NODES 64
#define MAX_BYTES 4096

static gasnet_node_t N, ME;
static long late_ms = 1;
static uint32_t case_no;

/* Sleep without entering GASNet (nanosleep resumes after signals). */
static void sleep_without_polling(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

/* The barrier, then the late node's delay. */
static void line_up(gasnet_node_t late) {
  coll_barrier();
  if (ME == late) sleep_without_polling(late_ms);
}

static int flags_of(uint32_t c) {
  int in = c % 2 ? GASNET_COLL_IN_MYSYNC : GASNET_COLL_IN_NOSYNC;
  return in | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL;
}

/* ------------------------------------------------------------ data movement */
static unsigned char dst_buf[MAX_NODES * MAX_BYTES + GUARD], src_buf[MAX_NODES * MAX_BYTES + GUARD];

static void check_move(int op, size_t nbytes, gasnet_node_t root, gasnet_node_t late, uint32_t it) {
  size_t dlen = op_dst_len(op, nbytes, N), slen = op_src_len(op, nbytes, N);
  const char *name = op_names[op];
  unsigned r = (unsigned)root, l = (unsigned)late;
  long bad = op_uses_dst(op, root, ME)
                 ? coll_dst_mismatch(op, it, nbytes, root, N, ME, dst_buf, NULL)
                 : coll_mismatch(dst_buf, dlen, coll_garbage_seed(it, ME, 0));
  TEST_CHECK(bad < 0, "%s of %zu bytes, root %u, node %u late: dst byte %ld wrong on return", name,
             nbytes, r, l, bad);
  TEST_CHECK(coll_mismatch(dst_buf + dlen, GUARD, coll_garbage_seed(it, ME, 2)) < 0,
             "%s of %zu bytes, root %u: guard after dst written", name, nbytes, r);
  for (size_t b = 0; b < slen / nbytes; b++)
    TEST_CHECK(coll_mismatch(src_buf + b * nbytes, nbytes, coll_block_seed(it, ME, (uint32_t)b)) < 0,
               "%s of %zu bytes, root %u: src block %zu modified", name, nbytes, r, b);
  TEST_CHECK(coll_mismatch(src_buf + slen, GUARD, coll_garbage_seed(it, ME, 1)) < 0,
             "%s of %zu bytes, root %u: guard after src written", name, nbytes, r);
}

static void run_move(int op, size_t nbytes, gasnet_node_t root, gasnet_node_t late) {
  uint32_t it = case_no++;
  size_t dlen = op_dst_len(op, nbytes, N), slen = op_src_len(op, nbytes, N);
  coll_fill(dst_buf, dlen, coll_garbage_seed(it, ME, 0));
  coll_fill(dst_buf + dlen, GUARD, coll_garbage_seed(it, ME, 2));
  coll_fill(src_buf + slen, GUARD, coll_garbage_seed(it, ME, 1));
  coll_fill_src(op, it, nbytes, N, ME, src_buf);
  line_up(late);
  coll_initiate(op, 1, dst_buf, src_buf, root, nbytes, flags_of(it));
  check_move(op, nbytes, root, late, it);
}

/* ------------------------------------------------------------ reduce and scan */
typedef struct { uint32_t m[4]; } mat_t; /* row-major 2x2, arithmetic mod 2^32 */
enum { FN_SUM, FN_SUM_STRICT, FN_MAT, FN_COUNT };
static const char *const fn_names[FN_COUNT] = {"int64 sum", "int64 sum (not AMSAFE)",
                                               "2x2 matrix product"};
static const size_t fn_size[FN_COUNT] = {8, 8, sizeof(mat_t)};

static void combine(int fn, void *acc, const void *b) {
  if (fn != FN_MAT) {
    int64_t x, y;
    memcpy(&x, acc, 8);
    memcpy(&y, b, 8);
    x += y;
    memcpy(acc, &x, 8);
    return;
  }
  mat_t x, y, r;
  memcpy(&x, acc, sizeof x);
  memcpy(&y, b, sizeof y);
  r.m[0] = x.m[0] * y.m[0] + x.m[1] * y.m[2];
  r.m[1] = x.m[0] * y.m[1] + x.m[1] * y.m[3];
  r.m[2] = x.m[2] * y.m[0] + x.m[3] * y.m[2];
  r.m[3] = x.m[2] * y.m[1] + x.m[3] * y.m[3];
  memcpy(acc, &r, sizeof r);
}

/* results[i] = left[0] op .. op left[nleft-1] op right[0] op .. op right[i]. */
static void fold(int fn, void *results, size_t n, const void *left, size_t nleft,
                 const void *right) {
  size_t es = fn_size[fn];
  unsigned char acc[sizeof(mat_t)];
  const unsigned char *l = left, *r = right;
  unsigned char *out = results;
  size_t i = 0;
  memcpy(acc, nleft ? l : r, es);
  if (!nleft) i = 1;
  for (size_t j = 1; j < nleft; j++) combine(fn, acc, l + j * es);
  if (i) memcpy(out, acc, es);
  for (; i < n; i++) {
    combine(fn, acc, r + i * es);
    memcpy(out + i * es, acc, es);
  }
}

static void fn_sum(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                   int flags, int arg) {
  (void)es, (void)flags, (void)arg;
  fold(FN_SUM, res, n, l, nl, r);
}
static void fn_mat(void *res, size_t n, const void *l, size_t nl, const void *r, size_t es,
                   int flags, int arg) {
  (void)es, (void)flags, (void)arg;
  fold(FN_MAT, res, n, l, nl, r);
}
static const gasnet_coll_fn_entry_t fn_table[FN_COUNT] = {
    {fn_sum, GASNET_COLL_AMSAFE}, {fn_sum, 0}, {fn_mat, GASNET_COLL_NONCOMM | GASNET_COLL_AMSAFE}};

/* Global element i of case it (the same on every node). */
static void element(int fn, uint32_t it, size_t i, void *out) {
  if (fn != FN_MAT) {
    int64_t v = (int64_t)(test_mix(it, (uint32_t)i) % 2001) - 1000;
    memcpy(out, &v, 8);
    return;
  }
  mat_t m;
  for (uint32_t k = 0; k < 4; k++) m.m[k] = test_mix(test_mix(it, (uint32_t)i), k) % 7;
  memcpy(out, &m, sizeof m);
}

/* Inclusive prefixes of the count elements of case it. */
static void prefixes(int fn, uint32_t it, size_t count, unsigned char *pre) {
  size_t es = fn_size[fn];
  for (size_t i = 0; i < count; i++) {
    element(fn, it, i, pre + i * es);
    if (i) {
      unsigned char e[sizeof(mat_t)];
      memcpy(e, pre + i * es, es);
      memcpy(pre + i * es, pre + (i - 1) * es, es);
      combine(fn, pre + i * es, e);
    }
  }
}

#define MAX_PER_NODE 8
static unsigned char red_src[MAX_PER_NODE * sizeof(mat_t)];
static unsigned char red_dst[MAX_PER_NODE * sizeof(mat_t) + GUARD];
static unsigned char red_pre[MAX_NODES * MAX_PER_NODE * sizeof(mat_t)];

/* per elements on every node, node n's being elements n*per .. n*per+per-1
 * (a blocked layout of one block per node). */
static void run_reduction(int fn, size_t per, int scan, gasnet_node_t root, gasnet_node_t late) {
  uint32_t it = case_no++;
  size_t es = fn_size[fn], count = per * N;
  for (size_t j = 0; j < per; j++) element(fn, it, ME * per + j, red_src + j * es);
  memset(red_dst, 0xa5, sizeof red_dst);
  prefixes(fn, it, count, red_pre);
  int flags = flags_of(it);
  int exclusive = scan && it % 4 >= 2;
  line_up(late);
  if (scan)
    gasnet_coll_scan(GASNET_TEAM_ALL, red_dst, per, 0, red_src, per, 0, es, count, fn, 0,
                     flags | (exclusive ? GASNET_COLL_EXCLUSIVE_SCAN : GASNET_COLL_INCLUSIVE_SCAN));
  else
    gasnet_coll_reduce(GASNET_TEAM_ALL, root, red_dst, red_src, per, 0, es, count, fn, 0, flags);
  const char *what = scan ? (exclusive ? "exclusive scan" : "inclusive scan") : "reduce";
  size_t wrote = scan ? per : (ME == root ? 1 : 0);
  for (size_t j = 0; j < wrote; j++) {
    size_t i = scan ? ME * per + j : count - 1;
    if (exclusive && i == 0) continue; /* undefined: nothing before it */
    const unsigned char *want = red_pre + (i - (size_t)exclusive) * es;
    TEST_CHECK(!memcmp(red_dst + j * es, want, es),
               "%s, %s, %zu per node, root %u, node %u late: element %zu wrong on return", what,
               fn_names[fn], per, (unsigned)root, (unsigned)late, i);
  }
  for (size_t b = wrote * es; b < sizeof red_dst; b++)
    TEST_CHECK(red_dst[b] == 0xa5, "%s, %s, %zu per node: dst byte %zu written past the result",
               what, fn_names[fn], per, b);
}

/* ------------------------------------------------------------ progress thread */
#if defined(GASNET_PAR)
static volatile int stop_polling;
static void *poll_thread(void *arg) {
  (void)arg;
  unsigned long polls = 0;
  while (!__atomic_load_n(&stop_polling, __ATOMIC_ACQUIRE)) {
    gasnet_AMPoll();
    if (++polls % 64 == 0) sched_yield();
  }
  return NULL;
}
#endif

static void usage(void) {
  fprintf(stderr, "usage: testlate [-m MS] [-a OP=ALG]... [-r REDUCE_ALG] [-s SCAN_ALG]\n");
  exit(2);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) usage();
    const char *a = argv[i], *v = argv[++i];
    if (!strcmp(a, "-m")) late_ms = atol(v);
    else if (!strcmp(a, "-a")) { if (!coll_force_alg(v)) usage(); }
    else if (!strcmp(a, "-r")) setenv("GASNET_COLL_REDUCE_ALG", v, 1);
    else if (!strcmp(a, "-s")) setenv("GASNET_COLL_SCAN_ALG", v, 1);
    else usage();
  }
  if (late_ms < 0) usage();
  test_init_handlers(&argc, &argv, GASNET_PAGESIZE, NULL, 0);
  N = gasnet_nodes();
  ME = gasnet_mynode();
  TEST_CHECK(N <= MAX_NODES, "testlate runs on at most %d nodes, not %u", MAX_NODES, (unsigned)N);
  gasnet_coll_init(NULL, 0, fn_table, FN_COUNT, 0);
#if defined(GASNET_PAR)
  pthread_t poller;
  TEST_CHECK(pthread_create(&poller, NULL, poll_thread, NULL) == 0, "pthread_create");
#endif
  static const size_t sizes[] = {1, 8, 100, 1024 / MAX_NODES, 1024, 1025, 4096};
  double t0 = test_now();
  for (gasnet_node_t late = 0; late < N; late++) {
    gasnet_node_t roots[2] = {late, (gasnet_node_t)((late + N - 1) % N)}; /* late: root, next rank */
    for (int k = 0; k < (N > 1 ? 2 : 1); k++) {
      for (int op = 0; op < OP_COUNT; op++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
          run_move(op, sizes[s], roots[k], late);
      for (int fn = 0; fn < FN_COUNT; fn++)
        for (size_t per = 1; per <= MAX_PER_NODE; per += MAX_PER_NODE - 1) {
          run_reduction(fn, per, 0, roots[k], late);
          if (k == 0) run_reduction(fn, per, 1, 0, late);
        }
    }
  }
#if defined(GASNET_PAR)
  __atomic_store_n(&stop_polling, 1, __ATOMIC_RELEASE);
  pthread_join(poller, NULL);
#endif
  test_print0("testlate: %u blocking collectives with a late node checked on %u nodes (%.2fs)\n",
              (unsigned)case_no, (unsigned)N, test_now() - t0);
  test_finish("testlate");
}
