/* testsoak: a soak of mixed outstanding collectives, checked.
 *
 * Usage: testsoak [-r ROUNDS] [-k INFLIGHT] [-m MAXBYTES] [-b BUDGET] [-s SEED]
 *                 [-a OP=ALG]... [-w SECONDS]
 *
 *   -r ROUNDS    rounds (default 6)
 *   -k INFLIGHT  collectives outstanding in each round (default 24)
 *   -m MAXBYTES  largest buffer of any collective (K and M suffixes;
 *                default 4M)
 *   -b BUDGET    bytes of buffers per node per round at most (default
 *                48M): draws past it are made smaller
 *   -s SEED      seed of every random choice (the same on every node)
 *   -a OP=ALG    force an algorithm for one of the five data ops
 *                (GASNET_COLL_<OP>_ALG, before gasnet_init); repeatable
 *   -w SECONDS   watchdog: a node still running after SECONDS says where
 *                it was and kills itself, so a hang fails fast (default
 *                240; 0: none)
 *
 * Each round every node draws the same INFLIGHT collectives from the
 * shared seed: the op (broadcast, scatter, gather, gather_all, exchange,
 * reduce, scan), the size of its largest buffer (log-uniform from 1 byte
 * to MAXBYTES), the root, the IN and OUT sync modes (all nine pairs), the
 * reduction function (the built-in int64 sum registered commutative or
 * not) and the scan kind, and where the buffers live (malloc'd, or in the
 * segment with the IN_SEGMENT flags, where the put algorithms may run).
 * Every buffer is filled and a barrier passed (so IN_NOSYNC is legal),
 * then all are initiated with the _nb calls and synced in a random order
 * of this node's (wait_sync, try_sync loops, wait_sync_some, and
 * wait_sync_all on what is left), a barrier passed (OUT_NOSYNC memory is
 * final), and every byte checked: the destinations against the reference,
 * sources and guard bytes unchanged. So the engine carries many ops of
 * every kind and size at once: eager and flow-controlled algorithms,
 * early arrivals, quick paths and recycled op records side by side. */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <signal.h>
#include <unistd.h>

#define GUARD 32
#define OP_REDUCE OP_COUNT
#define OP_SCAN (OP_COUNT + 1)
#define SOAK_OPS (OP_COUNT + 2)
static const char *const soak_names[SOAK_OPS] = {"broadcast", "scatter", "gather", "gather_all",
                                                 "exchange",  "reduce",  "scan"};
enum { FN_SUM, FN_SUM_NONCOMM, FN_COUNT };
static const gasnet_coll_fn_entry_t fn_table[FN_COUNT] = {
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE},
    {gasnet_coll_fn_sum, GASNET_COLL_AMSAFE | GASNET_COLL_NONCOMM}};

typedef struct {
  int op, flags, fn, in_seg; /* in_seg: both buffers in the segment, on every node */
  uint32_t id; /* unique over the run: seeds its data */
  gasnet_node_t root;
  size_t nbytes;           /* block bytes; reduce and scan: int64 per node x 8 */
  size_t src_len, dst_len; /* this node's, 0 when unused */
  unsigned char *src_mem, *dst_mem; /* with GUARD bytes either side */
  gasnet_coll_handle_t h;
} soak_t;

static gasnet_node_t N, ME;
static uint64_t shared_rng, local_rng;
static struct {
  int rounds, inflight;
  size_t max, budget;
  unsigned watchdog;
} opt = {6, 24, (size_t)4 << 20, (size_t)48 << 20, 240};
static size_t seg_bytes, seg_used, seg_planned;
static unsigned char *seg_base;
static const char *volatile where = "start-up";

static void watchdog(int sig) {
  char msg[200];
  int n = snprintf(msg, sizeof msg,
                   "testsoak: node %u: watchdog: still at '%s' after the -w limit (deadlock?); "
                   "killing this node\n",
                   (unsigned)ME, where);
  if (n > 0) (void)!write(2, msg, (size_t)n);
  signal(sig, SIG_DFL);
  raise(sig);
}

static size_t parse_bytes(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'K' || *end == 'k') v <<= 10, end++;
  else if (*end == 'M' || *end == 'm') v <<= 20, end++;
  return (end == s || *end) ? 0 : (size_t)v;
}

/* ------------------------------------------------------------ reduce and scan data */
/* Element i of node's block in collective id (int64, small so sums stay exact). */
static int64_t elem(uint32_t id, gasnet_node_t node, size_t i) {
  return (int64_t)(test_mix(test_mix(id, node), (uint32_t)i) % 2001) - 1000;
}
static int64_t block_sum(uint32_t id, gasnet_node_t node, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s += elem(id, node, i);
  return s;
}

/* ------------------------------------------------------------ drawing */
static int is_reduction(int op) { return op >= OP_REDUCE; }
static size_t blocks_src(int op) { return op == OP_SCATTER || op == OP_EXCHANGE ? N : 1; }
static size_t blocks_dst(int op) {
  return op == OP_GATHER || op == OP_GATHER_ALL || op == OP_EXCHANGE ? N : 1;
}

/* Log-uniform in [1, max]: a power of two, then a value below the next. */
static size_t draw_size(size_t max) {
  unsigned bits = 0;
  while (((size_t)2 << bits) <= max) bits++;
  unsigned e = (unsigned)(test_rand(&shared_rng) % (bits + 1));
  size_t lo = (size_t)1 << e;
  size_t v = lo + (size_t)(test_rand(&shared_rng) % lo);
  return v > max ? max : v;
}

static void draw(soak_t *c, uint32_t id) {
  memset(c, 0, sizeof *c);
  c->id = id;
  c->op = (int)(test_rand(&shared_rng) % SOAK_OPS);
  c->root = (gasnet_node_t)(test_rand(&shared_rng) % N);
  c->flags = in_modes[test_rand(&shared_rng) % 3] | out_modes[test_rand(&shared_rng) % 3] |
             GASNET_COLL_LOCAL;
  c->fn = (int)(test_rand(&shared_rng) % FN_COUNT);
  if (c->op == OP_SCAN)
    c->flags |= test_rand(&shared_rng) % 2 ? GASNET_COLL_INCLUSIVE_SCAN : GASNET_COLL_EXCLUSIVE_SCAN;
  size_t largest = draw_size(opt.max);
  if (is_reduction(c->op)) {
    c->nbytes = largest / 8 ? largest / 8 * 8 : 8;
    return;
  }
  size_t blocks = blocks_src(c->op) > blocks_dst(c->op) ? blocks_src(c->op) : blocks_dst(c->op);
  c->nbytes = largest / blocks ? largest / blocks : 1;
}

static size_t footprint(const soak_t *c) {
  if (is_reduction(c->op)) return 2 * c->nbytes + 4 * GUARD;
  return c->nbytes * (blocks_src(c->op) + blocks_dst(c->op)) + 4 * GUARD;
}

/* ------------------------------------------------------------ buffers */
/* Whether a collective's buffers go in the segment is the same on every
 * node (the IN_SEGMENT flags are single-valued): it is drawn from the
 * shared seed and granted while the most any node needs still fits. */
static void plan_segment(soak_t *c, int wanted) {
  size_t most = footprint(c);
  c->in_seg = wanted && seg_planned + most + 32 <= seg_bytes;
  if (c->in_seg) {
    seg_planned += most + 32;
    c->flags |= GASNET_COLL_SRC_IN_SEGMENT | GASNET_COLL_DST_IN_SEGMENT;
  }
}

static unsigned char *carve(const soak_t *c, size_t len) {
  size_t need = len + 2 * GUARD;
  if (c->in_seg) {
    size_t off = (seg_used + 15) & ~(size_t)15;
    TEST_CHECK(off + need <= seg_bytes, "the segment plan overflowed");
    seg_used = off + need;
    return seg_base + off;
  }
  unsigned char *p = malloc(need);
  TEST_CHECK(p != NULL, "out of memory (%zu bytes)", need);
  return p;
}

static void place(soak_t *c) {
  int red = is_reduction(c->op);
  c->src_len = red ? c->nbytes : op_uses_src(c->op, c->root, ME) ? c->nbytes * blocks_src(c->op) : 0;
  int uses_dst = red ? (c->op == OP_SCAN || ME == c->root) : op_uses_dst(c->op, c->root, ME);
  c->dst_len = uses_dst ? (red ? c->nbytes : c->nbytes * blocks_dst(c->op)) : 0;
  if (c->src_len) c->src_mem = carve(c, c->src_len);
  if (c->dst_len) c->dst_mem = carve(c, c->dst_len);
}

static void fill(soak_t *c) {
  if (c->src_mem) {
    coll_fill(c->src_mem, GUARD, coll_garbage_seed(c->id, ME, 1));
    coll_fill(c->src_mem + GUARD + c->src_len, GUARD, coll_garbage_seed(c->id, ME, 2));
    unsigned char *src = c->src_mem + GUARD;
    if (!is_reduction(c->op)) {
      coll_fill_src(c->op, c->id, c->nbytes, N, ME, src);
    } else {
      for (size_t i = 0; i < c->nbytes / 8; i++) {
        int64_t v = elem(c->id, ME, i);
        memcpy(src + i * 8, &v, 8);
      }
    }
  }
  if (c->dst_mem) coll_fill(c->dst_mem, c->dst_len + 2 * GUARD, coll_garbage_seed(c->id, ME, 3));
}

static void release(soak_t *c) {
  if (!c->in_seg) {
    free(c->src_mem);
    free(c->dst_mem);
  }
}

/* ------------------------------------------------------------ running */
static gasnet_coll_handle_t initiate(soak_t *c) {
  void *src = c->src_mem ? c->src_mem + GUARD : NULL;
  void *dst = c->dst_mem ? c->dst_mem + GUARD : NULL;
  if (!is_reduction(c->op)) return coll_initiate(c->op, 0, dst, src, c->root, c->nbytes, c->flags);
  size_t per = c->nbytes / 8;
  if (c->op == OP_REDUCE)
    return gasnet_coll_reduce_nb(GASNET_TEAM_ALL, c->root, dst, src, per, 0, 8, per * N, c->fn,
                                 GASNET_COLL_TYPE_INT64, c->flags);
  return gasnet_coll_scan_nb(GASNET_TEAM_ALL, dst, per, 0, src, per, 0, 8, per * N, c->fn,
                             GASNET_COLL_TYPE_INT64, c->flags);
}

/* Sync every handle, in a random order of this node's, by every call. */
static void sync_all(soak_t *cs, int k) {
  gasnet_coll_handle_t *hs = malloc((size_t)k * sizeof *hs);
  TEST_CHECK(hs != NULL, "out of memory");
  for (int i = 0; i < k; i++) hs[i] = cs[i].h;
  for (int i = k - 1; i > 0; i--) {
    int j = (int)(test_rand(&local_rng) % (uint64_t)(i + 1));
    gasnet_coll_handle_t t = hs[i];
    hs[i] = hs[j];
    hs[j] = t;
  }
  int half = k / 2;
  for (int i = 0; i < half; i++) {
    switch (test_rand(&local_rng) % 3) {
      case 0: gasnet_coll_wait_sync(hs[i]); break;
      case 1:
        while (gasnet_coll_try_sync(hs[i]) != GASNET_OK) {}
        break;
      default:
        while (hs[i] != GASNET_COLL_INVALID_HANDLE) gasnet_coll_wait_sync_some(&hs[i], 1);
    }
    hs[i] = GASNET_COLL_INVALID_HANDLE;
  }
  gasnet_coll_wait_sync_all(hs + half, (size_t)(k - half));
  free(hs);
}

static void check_reduction(const soak_t *c) {
  size_t per = c->nbytes / 8;
  const unsigned char *dst = c->dst_mem + GUARD;
  if (c->op == OP_REDUCE) {
    int64_t want = 0, got;
    for (gasnet_node_t n = 0; n < N; n++) want += block_sum(c->id, n, per);
    memcpy(&got, dst, 8);
    TEST_CHECK(got == want, "reduce #%u (%zu int64 per node, root %u, flags 0x%x): %lld, not %lld",
               (unsigned)c->id, per, (unsigned)c->root, (unsigned)c->flags, (long long)got,
               (long long)want);
    /* Past the one result, the destination is untouched. */
    size_t tail = c->dst_len - 8;
    unsigned char *want_tail = malloc(c->dst_len + 2 * GUARD);
    TEST_CHECK(want_tail != NULL, "out of memory");
    coll_fill(want_tail, c->dst_len + 2 * GUARD, coll_garbage_seed(c->id, ME, 3));
    TEST_CHECK(!memcmp(dst + 8, want_tail + GUARD + 8, tail), "reduce #%u wrote past its result",
               (unsigned)c->id);
    free(want_tail);
    return;
  }
  int64_t carry = 0;
  for (gasnet_node_t n = 0; n < ME; n++) carry += block_sum(c->id, n, per);
  int exclusive = (c->flags & GASNET_COLL_EXCLUSIVE_SCAN) != 0;
  for (size_t i = 0; i < per; i++) {
    int64_t before = carry;
    carry += elem(c->id, ME, i);
    if (exclusive && ME == 0 && i == 0) continue; /* undefined */
    int64_t want = exclusive ? before : carry, got;
    memcpy(&got, dst + i * 8, 8);
    TEST_CHECK(got == want, "scan #%u (%s, %zu int64 per node, flags 0x%x): element %zu is %lld, "
               "not %lld", (unsigned)c->id, exclusive ? "exclusive" : "inclusive", per,
               (unsigned)c->flags, i, (long long)got, (long long)want);
  }
}

static void check(const soak_t *c) {
  const char *what = soak_names[c->op];
  if (c->src_mem) {
    TEST_CHECK(coll_mismatch(c->src_mem, GUARD, coll_garbage_seed(c->id, ME, 1)) < 0,
               "%s #%u: the guard before src changed", what, (unsigned)c->id);
    TEST_CHECK(coll_mismatch(c->src_mem + GUARD + c->src_len, GUARD,
                             coll_garbage_seed(c->id, ME, 2)) < 0,
               "%s #%u: the guard after src changed", what, (unsigned)c->id);
    if (!is_reduction(c->op)) {
      unsigned char *want = malloc(c->src_len);
      TEST_CHECK(want != NULL, "out of memory");
      coll_fill_src(c->op, c->id, c->nbytes, N, ME, want);
      TEST_CHECK(!memcmp(want, c->src_mem + GUARD, c->src_len), "%s #%u: src changed", what,
                 (unsigned)c->id);
      free(want);
    }
  }
  if (!c->dst_mem) return;
  uint32_t seed = coll_garbage_seed(c->id, ME, 3);
  TEST_CHECK(coll_mismatch(c->dst_mem, GUARD, seed) < 0, "%s #%u: the guard before dst changed",
             what, (unsigned)c->id);
  unsigned char *after = malloc(c->dst_len + 2 * GUARD);
  TEST_CHECK(after != NULL, "out of memory");
  coll_fill(after, c->dst_len + 2 * GUARD, seed);
  TEST_CHECK(!memcmp(after + GUARD + c->dst_len, c->dst_mem + GUARD + c->dst_len, GUARD),
             "%s #%u: the guard after dst changed", what, (unsigned)c->id);
  free(after);
  if (is_reduction(c->op)) {
    check_reduction(c);
    return;
  }
  uint32_t bad_seed = 0;
  long bad = coll_dst_mismatch(c->op, c->id, c->nbytes, c->root, N, ME, c->dst_mem + GUARD,
                               &bad_seed);
  TEST_CHECK(bad < 0, "%s #%u (%zu bytes, root %u, flags 0x%x%s): dst byte %ld wrong", what,
             (unsigned)c->id, c->nbytes, (unsigned)c->root, (unsigned)c->flags,
             c->in_seg ? ", in the segment" : "", bad);
}

static void round_run(int r, soak_t *cs) {
  seg_used = seg_planned = 0;
  size_t used = 0;
  for (int i = 0; i < opt.inflight; i++) {
    soak_t *c = &cs[i];
    draw(c, (uint32_t)(r * opt.inflight + i));
    int wanted = test_rand(&shared_rng) % 4 == 0;
    while (used + footprint(c) > opt.budget && c->nbytes > 8) c->nbytes /= 2;
    if (is_reduction(c->op)) c->nbytes = c->nbytes / 8 ? c->nbytes / 8 * 8 : 8;
    used += footprint(c);
    plan_segment(c, wanted);
    place(c);
    fill(c);
  }
  where = "the barrier before initiating";
  coll_barrier();
  where = "initiating";
  for (int i = 0; i < opt.inflight; i++) cs[i].h = initiate(&cs[i]);
  where = "syncing";
  sync_all(cs, opt.inflight);
  where = "the barrier after syncing";
  coll_barrier();
  where = "checking";
  for (int i = 0; i < opt.inflight; i++) check(&cs[i]);
  coll_barrier(); /* nobody frees what a peer may still read */
  for (int i = 0; i < opt.inflight; i++) release(&cs[i]);
  int counts[SOAK_OPS] = {0};
  size_t largest = 0;
  for (int i = 0; i < opt.inflight; i++) {
    counts[cs[i].op]++;
    size_t l = footprint(&cs[i]);
    if (l > largest) largest = l;
  }
  test_print0("  round %d: %d collectives (bcast %d, scatter %d, gather %d, gather_all %d, "
              "exchange %d, reduce %d, scan %d), largest %zu bytes: ok\n",
              r, opt.inflight, counts[0], counts[1], counts[2], counts[3], counts[4], counts[5],
              counts[6], largest);
}

static void usage(void) {
  fprintf(stderr, "usage: testsoak [-r ROUNDS] [-k INFLIGHT] [-m MAXBYTES] [-b BUDGET] [-s SEED] "
                  "[-a OP=ALG]... [-w SECONDS]\n");
  exit(2);
}

int main(int argc, char **argv) {
  uint64_t seed = 2024;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) usage();
    const char *a = argv[i], *v = argv[++i];
    if (!strcmp(a, "-r")) opt.rounds = atoi(v);
    else if (!strcmp(a, "-k")) opt.inflight = atoi(v);
    else if (!strcmp(a, "-m")) opt.max = parse_bytes(v);
    else if (!strcmp(a, "-b")) opt.budget = parse_bytes(v);
    else if (!strcmp(a, "-s")) seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "-a")) { if (!coll_force_alg(v)) usage(); }
    else if (!strcmp(a, "-w")) opt.watchdog = (unsigned)atoi(v);
    else usage();
  }
  if (opt.rounds < 1 || opt.inflight < 1 || opt.max < 8 || opt.budget < opt.max) usage();
  test_init_only(&argc, &argv);
  if (opt.watchdog) {
    signal(SIGALRM, watchdog);
    alarm(opt.watchdog);
  }
  N = gasnet_nodes();
  ME = gasnet_mynode();
  seg_bytes = (size_t)32 << 20;
  GASNET_Safe(test_attach(NULL, 0, seg_bytes));
  gasnet_seginfo_t *si = calloc(N, sizeof *si);
  TEST_CHECK(si && gasnet_getSegmentInfo(si, (int)N) == GASNET_OK, "no segment info");
  seg_base = si[ME].addr;
  seg_bytes = si[ME].size < seg_bytes ? si[ME].size : seg_bytes;
  free(si);
  gasnet_coll_init(NULL, 0, fn_table, FN_COUNT, 0);
  shared_rng = seed;
  local_rng = test_mix((uint32_t)seed, ME) | 1;
  test_print0("testsoak: %u nodes, %d rounds of %d collectives, up to %zu bytes, seed %llu\n",
              (unsigned)N, opt.rounds, opt.inflight, opt.max, (unsigned long long)seed);
  soak_t *cs = calloc((size_t)opt.inflight, sizeof *cs);
  TEST_CHECK(cs != NULL, "out of memory");
  for (int r = 0; r < opt.rounds; r++) round_run(r, cs);
  free(cs);
  where = "the end";
  test_finish("testsoak");
}
