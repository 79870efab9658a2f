/* testcollnb: many collectives outstanding at once, synced in every order.
 *
 * Usage: testcollnb [-n COUNT] [-e EARLY] [-t TESTS] [-a OP=ALG]... [-P PUTTHRESH] [-s SEED]
 *                   [-w SECONDS]
 *
 *   -n COUNT   collectives outstanding in each round (default 600)
 *   -e EARLY   collectives the node that runs ahead issues before the
 *              others start (default 200)
 *   (a round of more than 1500 collectives keeps every block under 65
 *   bytes, so all their buffers fit the pools)
 *   -t TESTS   comma list of: handles, reverse, random, all, aggregate,
 *              early (default: all of them)
 *   -a OP=ALG  force an algorithm (sets GASNET_COLL_<OP>_ALG before
 *              gasnet_init); repeatable
 *   -P BYTES   GASNET_COLL_PUT_THRESHOLD (default: the library's)
 *   -s SEED    seed of the random choices (same on every node)
 *   -w SECONDS watchdog: a node still running after SECONDS prints what it
 *              was doing and kills itself (ending the job non-zero), so a
 *              deadlock fails fast (default 240; 0: none)
 *
 * Every round issues COUNT _nb collectives of random op, size (mostly
 * small, some above the put threshold, a few above one AM Medium), root,
 * sync mode, SINGLE/LOCAL and placement (static pool / segment with the
 * IN_SEGMENT flags), each with its own buffers, all filled before a
 * barrier so that IN_NOSYNC is legal. Then:
 *   handles    GASNET_COLL_INVALID_HANDLE is all zero bits, and every sync
 *              call accepts it (or a list of it) as complete;
 *   reverse    wait_sync / try_sync on the handles in reverse order;
 *   random     a node-dependent random order: try_sync_some and
 *              wait_sync_some on the whole list until it is empty;
 *   all        wait_sync_all, then (next round) a try_sync_all loop;
 *   aggregate  runs of 1-20 calls flagged GASNET_COLL_AGGREGATE closed by
 *              an _nb call (one handle per run, many runs outstanding,
 *              synced in random order) or by a blocking call (every
 *              member complete on return);
 *   (always, first) node 0 calls gasnet_coll_init and starts an IN_NOSYNC
 *              broadcast while the other nodes have not called
 *              gasnet_coll_init yet;
 *   early      one node (node 0, then the last node) issues EARLY
 *              IN_NOSYNC collectives while the others poll without
 *              starting theirs, so the messages reach them before their
 *              ops exist (the early-arrival store), then the others issue
 *              and everyone syncs.
 * A collective synced with OUT_MYSYNC or OUT_ALLSYNC is checked as soon as
 * its handle completes (the handle's promise), OUT_NOSYNC ones after a
 * barrier at the end of the round (every node has synced). Every
 * destination is compared byte for byte with the reference, with guard
 * bytes after it, and every source must be unchanged.
 *
 * The -par build runs the same with a progress thread calling
 * gasnet_AMPoll() throughout, concurrently with the main thread's
 * initiations and syncs. */
#define _POSIX_C_SOURCE 200809L
#include "coll_test.h"

#include <signal.h>
#include <unistd.h>

#if defined(GASNET_PAR)
#include <pthread.h>
#include <sched.h>
#endif

#define GUARD 16
#define POOL_BYTES ((size_t)24 << 20)

/* SINGLE buffers come from a static pool carved identically on every node
 * (static storage has the same address in every forked process). */
static unsigned char static_pool[POOL_BYTES];

typedef struct {
  int op;
  size_t nbytes;
  gasnet_node_t root;
  int flags;
  uint32_t it;
  unsigned char *dst, *src; /* each followed by GUARD bytes */
  size_t dlen, slen;
  gasnet_coll_handle_t h;
  int checked;
} slot_t;

static gasnet_node_t N, ME;
static slot_t *slots;
static uint32_t next_it;
static uint64_t shared_rng; /* same sequence on every node */
static uint64_t local_rng;  /* node-dependent */
static size_t pool_used, seg_used;
static size_t seg_bytes;
static unsigned long checked_total;
static int count = 600, early_count = 200;
static int single_ok; /* the static pool is at the same address everywhere */
static const char *volatile current_test = "start-up";

static void watchdog(int sig) {
  char msg[200];
  int n = snprintf(msg, sizeof msg,
                   "testcollnb: node %u: watchdog: still in test '%s' after the -w limit "
                   "(deadlock?); killing this node\n",
                   (unsigned)ME, current_test);
  if (n > 0) (void)!write(2, msg, (size_t)n);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void *carve(int in_seg, size_t len) {
  size_t *used = in_seg ? &seg_used : &pool_used;
  size_t cap = in_seg ? seg_bytes : POOL_BYTES;
  size_t off = (*used + 15) & ~(size_t)15;
  off += (size_t)(test_rand(&shared_rng) % 8); /* unaligned starts too */
  if (off + len + GUARD > cap) return NULL;
  *used = off + len + GUARD;
  return (in_seg ? (unsigned char *)test_seg(ME) : static_pool) + off;
}

static int round_count; /* collectives in the round being set up */

static size_t random_size(void) {
  /* Thousands outstanding: small blocks, so every buffer fits the pools. */
  if (round_count > 1500) return 1 + (size_t)(test_rand(&shared_rng) % 64);
  uint64_t r = test_rand(&shared_rng) % 100;
  if (r < 70) return 1 + (size_t)(test_rand(&shared_rng) % 200);
  if (r < 90) return 1 + (size_t)(test_rand(&shared_rng) % 4096);
  if (r < 98) return 8192 + (size_t)(test_rand(&shared_rng) % 20000);
  return 65536 + 1 + (size_t)(test_rand(&shared_rng) % 8192);
}

/* Choose a collective's parameters (the same on every node) and buffers. */
static void setup_slot(slot_t *s, int force_in_nosync) {
  memset(s, 0, sizeof *s);
  s->op = (int)(test_rand(&shared_rng) % OP_COUNT);
  s->nbytes = random_size();
  s->root = (gasnet_node_t)(test_rand(&shared_rng) % N);
  s->it = next_it++;
  int in = force_in_nosync ? 0 : (int)(test_rand(&shared_rng) % 3);
  int out = (int)(test_rand(&shared_rng) % 3);
  int single = test_rand(&shared_rng) % 2 && single_ok;
  s->flags = in_modes[in] | out_modes[out] | (single ? GASNET_COLL_SINGLE : GASNET_COLL_LOCAL);
  s->dlen = op_dst_len(s->op, s->nbytes, N);
  s->slen = op_src_len(s->op, s->nbytes, N);
  int in_seg = !single && test_rand(&shared_rng) % 2;
  s->dst = carve(in_seg, s->dlen);
  s->src = carve(in_seg, s->slen);
  if (!s->dst || !s->src) { /* out of room: fall back to tiny */
    s->nbytes = 1;
    s->dlen = op_dst_len(s->op, 1, N);
    s->slen = op_src_len(s->op, 1, N);
    in_seg = 0;
    s->dst = carve(0, s->dlen);
    s->src = carve(0, s->slen);
    TEST_CHECK(s->dst && s->src, "static pool exhausted (%zu bytes used)", pool_used);
  }
  if (in_seg) s->flags |= GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT;
  coll_fill(s->dst, s->dlen, coll_garbage_seed(s->it, ME, 0));
  coll_fill(s->dst + s->dlen, GUARD, coll_garbage_seed(s->it, ME, 2));
  coll_fill(s->src + s->slen, GUARD, coll_garbage_seed(s->it, ME, 1));
  coll_fill_src(s->op, s->it, s->nbytes, N, ME, s->src);
}

static void describe(const slot_t *s, char *buf, size_t len) {
  snprintf(buf, len, "collective #%u (%s, nbytes %zu, root %u, flags 0x%x)", (unsigned)s->it,
           op_names[s->op], s->nbytes, (unsigned)s->root, (unsigned)s->flags);
}

/* What a wrong destination block holds, for the failure message: how many
 * of its bytes are wrong, where the wrong run ends, and whether they are
 * still the garbage the round filled dst with (never written) or data of
 * the right pattern at the wrong place. */
static void explain_bad_block(const slot_t *s, long bad, uint32_t seed, char *buf, size_t len) {
  size_t nb = s->nbytes, block = (size_t)bad / nb, first = (size_t)bad % nb;
  const unsigned char *b = s->dst + block * nb;
  uint32_t garbage = coll_garbage_seed(s->it, ME, 0);
  size_t wrong = 0, unwritten = 0, last = first;
  for (size_t j = first; j < nb; j++) {
    if (b[j] == coll_byte(seed, j)) continue;
    wrong++;
    last = j;
    if (b[j] == coll_byte(garbage, block * nb + j)) unwritten++;
  }
  snprintf(buf, len, "%zu of the block's %zu bytes wrong, the last at %zu; %zu of them unwritten",
           wrong, nb, last, unwritten);
}

static void check_slot(slot_t *s, const char *when) {
  char what[200];
  if (s->checked) return;
  describe(s, what, sizeof what);
  if (op_uses_dst(s->op, s->root, ME)) {
    uint32_t seed = 0;
    long bad = coll_dst_mismatch(s->op, s->it, s->nbytes, s->root, N, ME, s->dst, &seed);
    if (bad >= 0) {
      char why[160];
      explain_bad_block(s, bad, seed, why, sizeof why);
      test_fail("%s: %s: dst byte %ld (block %ld) is 0x%02x, expected 0x%02x (%s)", what, when,
                bad, bad / (long)s->nbytes, s->dst[bad], coll_byte(seed, (size_t)bad % s->nbytes),
                why);
    }
  } else {
    long bad = coll_mismatch(s->dst, s->dlen, coll_garbage_seed(s->it, ME, 0));
    TEST_CHECK(bad < 0, "%s: %s: unused dst written at byte %ld", what, when, bad);
  }
  long bad = coll_mismatch(s->dst + s->dlen, GUARD, coll_garbage_seed(s->it, ME, 2));
  TEST_CHECK(bad < 0, "%s: %s: guard byte %ld after dst overwritten", what, when, bad);
  size_t nb = s->nbytes;
  for (size_t b = 0; b < s->slen / nb; b++) {
    bad = coll_mismatch(s->src + b * nb, nb, coll_block_seed(s->it, ME, (uint32_t)b));
    TEST_CHECK(bad < 0, "%s: %s: src block %zu modified at byte %ld", what, when, b, bad);
  }
  bad = coll_mismatch(s->src + s->slen, GUARD, coll_garbage_seed(s->it, ME, 1));
  TEST_CHECK(bad < 0, "%s: %s: guard byte %ld after src overwritten", what, when, bad);
  s->checked = 1;
  checked_total++;
}

/* The handle completed: check what its sync mode promises now. */
static void completed(slot_t *s, const char *when) {
  if (!(s->flags & GASNET_COLL_OUT_NOSYNC)) check_slot(s, when);
}

static void begin_round(int n, int force_in_nosync) {
  pool_used = seg_used = 0;
  round_count = n;
  for (int i = 0; i < n; i++) setup_slot(&slots[i], force_in_nosync);
  coll_barrier(); /* every buffer everywhere is ready: IN_NOSYNC is legal */
}

static void end_round(int n) {
  coll_barrier(); /* every node has synced everything: OUT_NOSYNC memory is final */
  for (int i = 0; i < n; i++) check_slot(&slots[i], "end of round");
  coll_barrier(); /* nobody refills buffers a peer may still check */
}

/* A call whose part finished at once returns GASNET_COLL_INVALID_HANDLE
 * (a root whose sends have left, a receiver whose data was all there):
 * its buffers must then be final already. */
static void issue(slot_t *s) {
  s->h = coll_initiate(s->op, 0, s->dst, s->src, s->root, s->nbytes, s->flags);
  if (s->h == GASNET_COLL_INVALID_HANDLE) completed(s, "complete at initiation");
}

static void shuffle(int *order, int n, uint64_t *rng) {
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(test_rand(rng) % (uint64_t)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/* ------------------------------------------------------------ tests */
static void test_handles(void) {
  gasnet_coll_handle_t h = GASNET_COLL_INVALID_HANDLE, zero;
  memset(&zero, 0, sizeof zero);
  TEST_CHECK(!memcmp(&h, &zero, sizeof h), "GASNET_COLL_INVALID_HANDLE is not all zero bits");
  TEST_CHECK(gasnet_coll_try_sync(h) == GASNET_OK, "try_sync(INVALID) is not GASNET_OK");
  gasnet_coll_wait_sync(h);
  gasnet_coll_handle_t list[4] = {h, h, h, h};
  TEST_CHECK(gasnet_coll_try_sync_all(list, 4) == GASNET_OK, "try_sync_all(INVALID x4)");
  gasnet_coll_wait_sync_all(list, 4);
  TEST_CHECK(gasnet_coll_try_sync_some(list, 4) == GASNET_OK, "try_sync_some(INVALID x4)");
  gasnet_coll_wait_sync_some(list, 4);
  TEST_CHECK(gasnet_coll_try_sync_all(NULL, 0) == GASNET_OK, "try_sync_all(NULL, 0)");
  gasnet_coll_wait_sync_all(NULL, 0);
  /* A handle list mixing INVALID with live handles. */
  begin_round(8, 0);
  gasnet_coll_handle_t mixed[16];
  for (int i = 0; i < 8; i++) {
    issue(&slots[i]);
    mixed[2 * i] = GASNET_COLL_INVALID_HANDLE;
    mixed[2 * i + 1] = slots[i].h;
  }
  gasnet_coll_wait_sync_all(mixed, 16);
  for (int i = 0; i < 16; i++)
    TEST_CHECK(mixed[i] == GASNET_COLL_INVALID_HANDLE, "wait_sync_all left entry %d live", i);
  for (int i = 0; i < 8; i++) completed(&slots[i], "after wait_sync_all");
  end_round(8);
  test_print0("  handles: ok\n");
}

static void test_reverse(void) {
  begin_round(count, 0);
  for (int i = 0; i < count; i++) issue(&slots[i]);
  for (int i = count - 1; i >= 0; i--) {
    if (i % 2) {
      gasnet_coll_wait_sync(slots[i].h);
    } else {
      while (gasnet_coll_try_sync(slots[i].h) != GASNET_OK) {}
    }
    completed(&slots[i], "synced in reverse order");
  }
  end_round(count);
  test_print0("  reverse: %d outstanding, synced last to first: ok\n", count);
}

static void sync_random(int n, const char *what) {
  gasnet_coll_handle_t *hs = malloc((size_t)n * sizeof *hs);
  int *order = malloc((size_t)n * sizeof *order);
  TEST_CHECK(hs && order, "out of memory");
  shuffle(order, n, &local_rng);
  int live = 0, calls = 0;
  for (int i = 0; i < n; i++) {
    hs[i] = slots[order[i]].h;
    live += hs[i] != GASNET_COLL_INVALID_HANDLE;
  }
  while (live > 0) {
    int rc = GASNET_OK;
    if (calls++ % 3 == 2) {
      gasnet_coll_wait_sync_some(hs, (size_t)n);
    } else {
      rc = gasnet_coll_try_sync_some(hs, (size_t)n);
      TEST_CHECK(rc == GASNET_OK || rc == GASNET_ERR_NOT_READY, "try_sync_some returned %d", rc);
    }
    int done_now = 0;
    for (int i = 0; i < n; i++)
      if (hs[i] == GASNET_COLL_INVALID_HANDLE && slots[order[i]].h != GASNET_COLL_INVALID_HANDLE) {
        slots[order[i]].h = GASNET_COLL_INVALID_HANDLE;
        completed(&slots[order[i]], what);
        done_now++;
      }
    live -= done_now;
    if (rc == GASNET_OK && live > 0 && calls % 3 != 0)
      TEST_CHECK(done_now > 0, "try_sync_some returned GASNET_OK with no handle completed");
    if (rc == GASNET_ERR_NOT_READY)
      TEST_CHECK(done_now == 0, "try_sync_some completed %d handles but said NOT_READY", done_now);
  }
  free(hs);
  free(order);
}

static void test_random(void) {
  begin_round(count, 0);
  for (int i = 0; i < count; i++) issue(&slots[i]);
  sync_random(count, "synced by try/wait_sync_some in random order");
  end_round(count);
  test_print0("  random: %d outstanding, try_sync_some / wait_sync_some: ok\n", count);
}

static void test_all(void) {
  for (int round = 0; round < 2; round++) {
    begin_round(count, 0);
    gasnet_coll_handle_t *hs = malloc((size_t)count * sizeof *hs);
    TEST_CHECK(hs != NULL, "out of memory");
    for (int i = 0; i < count; i++) {
      issue(&slots[i]);
      hs[i] = slots[i].h;
    }
    if (round == 0) {
      gasnet_coll_wait_sync_all(hs, (size_t)count);
    } else {
      int rc;
      while ((rc = gasnet_coll_try_sync_all(hs, (size_t)count)) != GASNET_OK)
        TEST_CHECK(rc == GASNET_ERR_NOT_READY, "try_sync_all returned %d", rc);
    }
    for (int i = 0; i < count; i++) {
      TEST_CHECK(hs[i] == GASNET_COLL_INVALID_HANDLE, "sync_all left handle %d live", i);
      completed(&slots[i], round ? "after try_sync_all" : "after wait_sync_all");
    }
    free(hs);
    end_round(count);
  }
  test_print0("  all: %d outstanding, wait_sync_all and try_sync_all: ok\n", count);
}

static void test_aggregate(void) {
  for (int round = 0; round < 2; round++) {
    begin_round(count, 0);
    /* Runs of members; run r covers slots [start[r], start[r+1]). */
    int *start = malloc((size_t)(count + 1) * sizeof *start);
    gasnet_coll_handle_t *hs = malloc((size_t)count * sizeof *hs);
    TEST_CHECK(start && hs, "out of memory");
    int runs = 0;
    for (int i = 0; i < count;) {
      int len = 1 + (int)(test_rand(&shared_rng) % 20);
      if (i + len > count) len = count - i;
      /* Round 1: every fourth run ends with a blocking call. */
      int blocking_last = round == 1 && runs % 4 == 3;
      start[runs] = i;
      for (int k = 0; k < len; k++) {
        slot_t *s = &slots[i + k];
        int last = k == len - 1;
        if (last && blocking_last) {
          coll_initiate(s->op, 1, s->dst, s->src, s->root, s->nbytes, s->flags);
          s->h = GASNET_COLL_INVALID_HANDLE;
        } else {
          s->h = coll_initiate(s->op, 0, s->dst, s->src, s->root, s->nbytes,
                               s->flags | (last ? 0 : GASNET_COLL_AGGREGATE));
        }
      }
      hs[runs] = slots[i + len - 1].h;
      if (blocking_last) /* the blocking Last member returns when all are complete */
        for (int k = 0; k < len; k++) completed(&slots[i + k], "after a blocking Last member");
      i += len;
      runs++;
    }
    start[runs] = count;
    /* Sync the runs' handles in random order. */
    int *order = malloc((size_t)runs * sizeof *order);
    TEST_CHECK(order != NULL, "out of memory");
    shuffle(order, runs, &local_rng);
    for (int j = 0; j < runs; j++) {
      int r = order[j];
      if (hs[r] == GASNET_COLL_INVALID_HANDLE) continue;
      if (j % 2)
        gasnet_coll_wait_sync(hs[r]);
      else
        while (gasnet_coll_try_sync(hs[r]) != GASNET_OK) {}
      for (int k = start[r]; k < start[r + 1]; k++)
        completed(&slots[k], "after the aggregate's handle synced");
    }
    free(order);
    free(start);
    free(hs);
    end_round(count);
    test_print0("  aggregate: %d runs over %d collectives%s: ok\n", runs, count,
                round ? " (some closed by blocking calls)" : "");
  }
}

/* ------------------------------------------------------------ early arrivals */
#define H_GO TEST_HIDX_FIRST
static volatile int go_received;
static void go_handler(gasnet_token_t token) {
  (void)token;
  __atomic_store_n(&go_received, 1, __ATOMIC_RELEASE);
}

static void test_early(void) {
  gasnet_node_t ahead_nodes[2] = {0, (gasnet_node_t)(N - 1)};
  for (int round = 0; round < (N > 1 ? 2 : 1); round++) {
    gasnet_node_t ahead = ahead_nodes[round];
    int n = early_count;
    begin_round(n, 1); /* every collective IN_NOSYNC */
    __atomic_store_n(&go_received, 0, __ATOMIC_RELEASE);
    coll_barrier();
    if (ME == ahead) {
      for (int i = 0; i < n; i++) issue(&slots[i]);
      for (gasnet_node_t p = 0; p < N; p++)
        if (p != ME) GASNET_Safe(gasnet_AMRequestShort0(p, H_GO));
    } else {
      /* Poll until the ahead node has issued everything, and a while
       * longer: its messages arrive before our ops exist. */
      GASNET_BLOCKUNTIL(__atomic_load_n(&go_received, __ATOMIC_ACQUIRE));
      double end = test_now() + 0.02;
      while (test_now() < end) gasnet_AMPoll();
      for (int i = 0; i < n; i++) issue(&slots[i]);
    }
    if (round == 0) {
      sync_random(n, "early arrivals, synced in random order");
    } else {
      for (int i = n - 1; i >= 0; i--) {
        gasnet_coll_wait_sync(slots[i].h);
        completed(&slots[i], "early arrivals, synced in reverse order");
      }
    }
    end_round(n);
    test_print0("  early: node %u issued %d IN_NOSYNC collectives before the others: ok\n",
                (unsigned)ahead, n);
  }
}

/* ------------------------------------------------------------ before init */
/* gasnet_coll_init does not synchronize: under IN_NOSYNC node 0 may start
 * a broadcast while the others have not called gasnet_coll_init yet, so
 * its messages reach nodes whose collectives library is not initialized. */
static void test_preinit(void) {
  static unsigned char dst[1000], src[1000];
  const uint32_t it = 0xfffffff0u;
  const size_t nb = sizeof dst;
  coll_fill(dst, nb, coll_garbage_seed(it, ME, 0));
  coll_fill_src(OP_BCAST, it, nb, N, ME, src);
  coll_barrier(); /* buffers ready everywhere */
  if (ME != 0) {
    double end = test_now() + 0.03;
    while (test_now() < end) gasnet_AMPoll();
  }
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  gasnet_coll_handle_t h = gasnet_coll_broadcast_nb(
      GASNET_TEAM_ALL, dst, 0, src, nb,
      GASNET_COLL_IN_NOSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
  gasnet_coll_wait_sync(h);
  uint32_t seed = 0;
  long bad = coll_dst_mismatch(OP_BCAST, it, nb, 0, N, ME, dst, &seed);
  TEST_CHECK(bad < 0, "broadcast started before this node's gasnet_coll_init: dst byte %ld is "
             "0x%02x, expected 0x%02x", bad, bad >= 0 ? dst[bad] : 0,
             bad >= 0 ? coll_byte(seed, (size_t)bad) : 0);
  coll_barrier();
  test_print0("  preinit: a broadcast from node 0 before the others' gasnet_coll_init: ok\n");
}

/* ------------------------------------------------------------ progress thread */
#if defined(GASNET_PAR)
static volatile int stop_progress;
static unsigned long progress_polls;
static void *progress_thread(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&stop_progress, __ATOMIC_ACQUIRE)) {
    gasnet_AMPoll();
    progress_polls++;
    if (progress_polls % 64 == 0) sched_yield();
  }
  return NULL;
}
#endif

static void usage(void) {
  fprintf(stderr, "usage: testcollnb [-n COUNT] [-e EARLY] [-t TESTS] [-a OP=ALG]... "
                  "[-P PUTTHRESH] [-s SEED] [-T 0|1] [-E VAR=VALUE]\n"
                  "  -T 1: run the library's progress thread (GASNET_COLL_PROGRESS_THREAD)\n"
                  "  -E VAR=VALUE: set an environment variable before gasnet_init\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *tests = "handles,reverse,random,all,aggregate,early";
  uint64_t seed = 12345;
  int watchdog_secs = 240;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) usage();
    const char *a = argv[i], *v = argv[++i];
    if (!strcmp(a, "-n")) count = atoi(v);
    else if (!strcmp(a, "-e")) early_count = atoi(v);
    else if (!strcmp(a, "-t")) tests = v;
    else if (!strcmp(a, "-a")) { if (!coll_force_alg(v)) usage(); }
    else if (!strcmp(a, "-P")) setenv("GASNET_COLL_PUT_THRESHOLD", v, 1);
    else if (!strcmp(a, "-s")) seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "-w")) watchdog_secs = atoi(v);
    else if (!strcmp(a, "-T")) setenv("GASNET_COLL_PROGRESS_THREAD", v, 1); /* before init */
    else if (!strcmp(a, "-E")) test_setenv_pair("testcollnb", v);
    else usage();
  }
  if (count < 8 || early_count < 1) usage();

  gasnet_handlerentry_t handlers[] = {{H_GO, (void (*)())go_handler},
                                      {COLL_TEST_H_ADDR, (void (*)())coll_addr_handler}};
  test_init_only(&argc, &argv);
  if (watchdog_secs > 0) {
    signal(SIGALRM, watchdog);
    alarm((unsigned)watchdog_secs);
  }
  N = gasnet_nodes();
  ME = gasnet_mynode();
  seg_bytes = (size_t)24 << 20;
  GASNET_Safe(test_attach(handlers, 2, seg_bytes));
  single_ok = coll_same_address_everywhere(static_pool);
  if (!single_ok)
    test_print0("testcollnb: the static pool is not at the same address on every node: "
                "LOCAL addressing only\n");
  test_preinit();
  slots = calloc((size_t)(count > early_count ? count : early_count), sizeof *slots);
  TEST_CHECK(slots != NULL, "out of memory");
  shared_rng = seed;
  local_rng = test_mix((uint32_t)seed, ME) | 1;

#if defined(GASNET_PAR)
  pthread_t progress;
  TEST_CHECK(pthread_create(&progress, NULL, progress_thread, NULL) == 0, "pthread_create");
  test_print0("testcollnb (PAR, progress thread polling): %u nodes, %d outstanding\n",
              (unsigned)N, count);
#else
  test_print0("testcollnb: %u nodes, %d outstanding\n", (unsigned)N, count);
#endif
  for (int o = 0; o < OP_COUNT; o++)
    if (getenv(op_env[o])) test_print0("  %s=%s\n", op_env[o], getenv(op_env[o]));

  double t0 = test_now();
  for (const char *p = tests; *p;) {
    size_t len = strcspn(p, ",");
    static char name[32];
    snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), p);
    current_test = name;
    if (len == 7 && !strncmp(p, "handles", len)) test_handles();
    else if (len == 7 && !strncmp(p, "reverse", len)) test_reverse();
    else if (len == 6 && !strncmp(p, "random", len)) test_random();
    else if (len == 3 && !strncmp(p, "all", len)) test_all();
    else if (len == 9 && !strncmp(p, "aggregate", len)) test_aggregate();
    else if (len == 5 && !strncmp(p, "early", len)) test_early();
    else {
      fprintf(stderr, "testcollnb: unknown test '%.*s'\n", (int)len, p);
      test_fail("bad -t argument");
    }
    p += len + (p[len] == ',');
  }
#if defined(GASNET_PAR)
  __atomic_store_n(&stop_progress, 1, __ATOMIC_RELEASE);
  pthread_join(progress, NULL);
  test_print0("  progress thread polled %lu times\n", progress_polls);
#endif
  test_print0("testcollnb: %lu collectives checked on node 0 (%.2fs)\n", checked_total,
              test_now() - t0);
  test_finish("testcollnb");
}
