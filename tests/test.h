/* test.h: the one helper header every test program includes.
 *
 * Uses only public names (gasnet_*, GASNET_*) plus libc and the GCC/Clang
 * __atomic builtins, so a test built on it runs unchanged on every conduit.
 * Everything is static inline: a test pays only for what it uses and gets
 * no unused-function warnings.
 *
 * Start and end
 *   test_init(&argc, &argv, segsize)       init + attach, no client handlers
 *   test_init_handlers(&argc, &argv, segsize, table, n)
 *   test_init_only(&argc, &argv) then test_attach(table, n, segsize)
 *                                          (attach's result is returned)
 *   test_finish(name)                      barrier, "name: PASS", exit 0
 * Checking
 *   GASNET_Safe(call)                      fatal with the error name unless OK
 *   test_fail(fmt, ...)                    node, file, line, message; exit 1
 *   TEST_CHECK(cond, fmt, ...)
 *   test_fill[_at] / TEST_CHECK_PATTERN[_AT]   deterministic byte patterns,
 *                                          checked byte by byte
 *   test_check_counts(sent_to, recv_from, what)  every message delivered once
 * Communication and misc
 *   test_barrier()                         an AM barrier for core-only tests
 *   test_seg(node), test_segsize(node), TEST_MYNODE, TEST_NODES
 *   test_print0, test_now, test_rand, test_mix
 *
 * Handler indices TEST_HIDX_RESERVED_FIRST..255 belong to this header (it
 * registers TEST_HIDX_REGISTERED_FIRST..255); tests use TEST_HIDX_FIRST..
 * TEST_HIDX_LAST, or 0 to let gasnet_attach choose. */
#ifndef GASNET_TEST_H
#define GASNET_TEST_H

#include <gasnet.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TEST_HIDX_FIRST 128
#define TEST_HIDX_LAST 249
#define TEST_HIDX_RESERVED_FIRST 250
/* test_attach registers these four: 252..255. */
#define TEST_HIDX_REGISTERED_FIRST 252
#define TEST_HIDX_COUNT_ACK 252
#define TEST_HIDX_COUNT_ANNOUNCE 253
#define TEST_HIDX_BARRIER_ARRIVE 254
#define TEST_HIDX_BARRIER_RELEASE 255

/* Most handler tables are small; this bounds the copy test_attach makes. */
#define TEST_MAX_HANDLERS 240

#if defined(__GNUC__)
#define TEST_PRINTF(fmt, first) __attribute__((__format__(__printf__, fmt, first)))
#define TEST_NORETURN __attribute__((__noreturn__))
#else
#define TEST_PRINTF(fmt, first)
#define TEST_NORETURN
#endif

/* ------------------------------------------------------------ state */

/* Per-process test state. The barrier fields are touched by handlers, which
 * in a PAR build may run on any polling thread: access them atomically. */
typedef struct {
  int inited;   /* gasnet_init succeeded: gasnet_exit is usable */
  int attached; /* gasnet_attach succeeded: AMs are usable */
  gasnet_node_t mynode;
  gasnet_node_t nodes;
  gasnet_seginfo_t *seginfo;   /* every node's segment, after attach */
  unsigned barrier_phase;      /* phases this node has entered */
  unsigned barrier_arrived[2]; /* node 0: arrivals per phase parity */
  unsigned barrier_released;   /* highest phase released */
  uint64_t *announced;         /* test_check_counts: what each node says it sent */
  unsigned announce_acks;      /* test_check_counts: announcements handled */
} test_state_t;

static test_state_t test_state_;

/* ------------------------------------------------------------ failing */

static inline void test_exit_(int code) TEST_NORETURN;
static inline void test_exit_(int code) {
  fflush(stdout);
  fflush(stderr);
  if (test_state_.inited) gasnet_exit(code);
  exit(code);
}

static inline void test_vreport_(const char *file, int line, const char *cond, const char *fmt,
                                 va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (test_state_.inited)
    fprintf(stderr, "node %u/%u: FAIL at %s:%d: ", (unsigned)gasnet_mynode(),
            (unsigned)gasnet_nodes(), file, line);
  else
    fprintf(stderr, "node ?: FAIL at %s:%d: ", file, line);
  if (cond) fprintf(stderr, "check (%s) failed: ", cond);
  fprintf(stderr, "%s\n", msg);
}

/* Declared noreturn so that -Wall sees every path through a failed check
 * end here, and printf-like so that the format of each check is checked. */
static inline void test_fail_at_(const char *file, int line, const char *cond, const char *fmt,
                                 ...) TEST_NORETURN TEST_PRINTF(4, 5);
static inline void test_fail_at_(const char *file, int line, const char *cond, const char *fmt,
                                 ...) {
  va_list ap;
  va_start(ap, fmt);
  test_vreport_(file, line, cond, fmt, ap);
  va_end(ap);
  test_exit_(1);
}

#define test_fail(...) test_fail_at_(__FILE__, __LINE__, NULL, __VA_ARGS__)

#define TEST_CHECK(cond, ...)                                           \
  do {                                                                  \
    if (!(cond)) test_fail_at_(__FILE__, __LINE__, #cond, __VA_ARGS__); \
  } while (0)

/* Fatal unless the call returns GASNET_OK; prints the call and the name of
 * the error it returned. */
#define GASNET_Safe(call)                                                              \
  do {                                                                                 \
    int test_rc_ = (call);                                                             \
    if (test_rc_ != GASNET_OK)                                                         \
      test_fail_at_(__FILE__, __LINE__, NULL, "%s returned %s (%d): %s", #call,        \
                    gasnet_ErrorName(test_rc_), test_rc_, gasnet_ErrorDesc(test_rc_)); \
  } while (0)

/* ------------------------------------------------------------ printing */

/* printf on node 0 only (or before init), flushed so that output from a
 * job that fails later is not lost in a buffer. */
static inline void test_print0(const char *fmt, ...) TEST_PRINTF(1, 2);
static inline void test_print0(const char *fmt, ...) {
  va_list ap;
  if (test_state_.inited && test_state_.mynode != 0) return;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
}

/* ------------------------------------------------------------ patterns */

/* Byte OFF of the pattern named SEED. A multiplicative hash of the offset,
 * so data shifted by any amount, or taken from another seed, mismatches. */
static inline uint8_t test_pattern_byte(uint32_t seed, size_t off) {
  uint32_t x = (uint32_t)off * 2654435761u + seed * 40503u + (uint32_t)((uint64_t)off >> 32);
  return (uint8_t)((x >> 24) ^ (x >> 11) ^ seed);
}

/* Bytes BASE .. BASE+LEN-1 of pattern SEED, so that a piece of a larger
 * patterned buffer can be made or checked on its own. */
static inline void test_fill_at(void *buf, size_t len, uint32_t seed, size_t base) {
  uint8_t *p = (uint8_t *)buf;
  for (size_t i = 0; i < len; i++) p[i] = test_pattern_byte(seed, base + i);
}

static inline void test_fill(void *buf, size_t len, uint32_t seed) {
  test_fill_at(buf, len, seed, 0);
}

/* Offset (from BUF) of the first byte that differs from the pattern, or -1. */
static inline long test_pattern_mismatch_at(const void *buf, size_t len, uint32_t seed,
                                            size_t base) {
  const uint8_t *p = (const uint8_t *)buf;
  for (size_t i = 0; i < len; i++)
    if (p[i] != test_pattern_byte(seed, base + i)) return (long)i;
  return -1;
}

static inline long test_pattern_mismatch(const void *buf, size_t len, uint32_t seed) {
  return test_pattern_mismatch_at(buf, len, seed, 0);
}

static inline void test_check_pattern_at_(const char *file, int line, const void *buf, size_t len,
                                          uint32_t seed, size_t base, const char *what) {
  long bad = test_pattern_mismatch_at(buf, len, seed, base);
  if (bad >= 0)
    test_fail_at_(file, line, NULL,
                  "%s: byte %ld of %zu is 0x%02x, expected 0x%02x (seed 0x%08x, base %zu, buf %p)",
                  what, bad, len, ((const uint8_t *)buf)[bad],
                  test_pattern_byte(seed, base + (size_t)bad), (unsigned)seed, base, buf);
}

/* Fatal, naming WHAT and the first bad offset, unless BUF holds pattern SEED
 * (from byte BASE of the pattern, for the _AT form). */
#define TEST_CHECK_PATTERN(buf, len, seed, what) \
  test_check_pattern_at_(__FILE__, __LINE__, buf, len, seed, 0, what)
#define TEST_CHECK_PATTERN_AT(buf, len, seed, base, what) \
  test_check_pattern_at_(__FILE__, __LINE__, buf, len, seed, base, what)

/* Mixes small integers into one pattern seed or handler argument. */
static inline uint32_t test_mix(uint32_t h, uint32_t v) {
  h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
  h *= 0x85ebca6bu;
  return h ^ (h >> 15);
}

/* ------------------------------------------------------------ misc */

static inline double test_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "-e VAR=VALUE" from a test's command line into the environment, before
 * gasnet_init reads it, in every node (each parses its own argv). A pair
 * without a name or an '=' is a usage error: the job ends 2 naming it. */
static inline void test_setenv_pair(const char *prog, const char *pair) {
  const char *eq = strchr(pair, '=');
  char name[128];
  if (!eq || eq == pair || (size_t)(eq - pair) >= sizeof name) {
    fprintf(stderr, "%s: -e %s: expected VAR=VALUE\n", prog, pair);
    exit(2);
  }
  snprintf(name, sizeof name, "%.*s", (int)(eq - pair), pair);
  setenv(name, eq + 1, 1);
}

/* xorshift64*: a cheap, seedable generator every thread can own. */
static inline uint64_t test_rand(uint64_t *state) {
  uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545f4914f6cdd1dull;
}

/* ------------------------------------------------------------ segments */

static inline void *test_seg(gasnet_node_t node) {
  TEST_CHECK(test_state_.seginfo != NULL, "test_seg(%u) before attach", (unsigned)node);
  TEST_CHECK(node < test_state_.nodes, "test_seg(%u) of %u nodes", (unsigned)node,
             (unsigned)test_state_.nodes);
  return test_state_.seginfo[node].addr;
}

static inline uintptr_t test_segsize(gasnet_node_t node) {
  (void)test_seg(node);
  return test_state_.seginfo[node].size;
}

/* ------------------------------------------------------------ AM barrier */

/* A centralised barrier on AMs: everyone tells node 0 it arrived at phase P;
 * node 0, once all have, tells everyone P is released. Node 0 counts
 * arrivals by the parity of P: a node released from P can arrive at P+1
 * before node 0 leaves P, but none can reach P+2 before node 0 releases
 * P+1. Only one thread per node may be in test_barrier at a time. */
static inline void test_barrier_arrive_handler_(gasnet_token_t token, gasnet_handlerarg_t phase) {
  (void)token;
  __atomic_fetch_add(&test_state_.barrier_arrived[(unsigned)phase & 1], 1, __ATOMIC_ACQ_REL);
}

static inline void test_barrier_release_handler_(gasnet_token_t token, gasnet_handlerarg_t phase) {
  (void)token;
  unsigned cur = __atomic_load_n(&test_state_.barrier_released, __ATOMIC_ACQUIRE);
  TEST_CHECK((unsigned)phase == cur + 1, "barrier release of phase %u after phase %u",
             (unsigned)phase, cur);
  __atomic_store_n(&test_state_.barrier_released, (unsigned)phase, __ATOMIC_RELEASE);
}

static inline void test_barrier(void) {
  TEST_CHECK(test_state_.attached, "test_barrier before attach");
  unsigned phase = ++test_state_.barrier_phase;
  GASNET_Safe(gasnet_AMRequestShort1(0, TEST_HIDX_BARRIER_ARRIVE, (gasnet_handlerarg_t)phase));
  if (test_state_.mynode == 0) {
    unsigned *arrived = &test_state_.barrier_arrived[phase & 1];
    GASNET_BLOCKUNTIL(__atomic_load_n(arrived, __ATOMIC_ACQUIRE) == test_state_.nodes);
    __atomic_store_n(arrived, 0, __ATOMIC_RELEASE);
    for (gasnet_node_t n = 0; n < test_state_.nodes; n++)
      GASNET_Safe(gasnet_AMRequestShort1(n, TEST_HIDX_BARRIER_RELEASE, (gasnet_handlerarg_t)phase));
  }
  GASNET_BLOCKUNTIL(__atomic_load_n(&test_state_.barrier_released, __ATOMIC_ACQUIRE) == phase);
}

/* ------------------------------------------------------------ counts */

static inline void test_count_announce_handler_(gasnet_token_t token, gasnet_handlerarg_t lo,
                                                gasnet_handlerarg_t hi) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src < test_state_.nodes, "count announcement from node %u", (unsigned)src);
  uint64_t v = (uint64_t)(uint32_t)lo | ((uint64_t)(uint32_t)hi << 32);
  __atomic_fetch_add(&test_state_.announced[src], v, __ATOMIC_ACQ_REL);
  GASNET_Safe(gasnet_AMReplyShort0(token, TEST_HIDX_COUNT_ACK));
}

static inline void test_count_ack_handler_(gasnet_token_t token) {
  (void)token;
  __atomic_fetch_add(&test_state_.announce_acks, 1, __ATOMIC_ACQ_REL);
}

/* Checks that every message was delivered exactly once: SENT_TO[d] is how
 * many messages this node sent to node d, RECV_FROM[s] how many it handled
 * from node s. Call when all of them have been handled everywhere (e.g.
 * every request was replied to and the sender saw the reply). Collective. */
static inline void test_check_counts(const uint64_t *sent_to, const uint64_t *recv_from,
                                     const char *what) {
  test_barrier(); /* every node's RECV_FROM is final */
  __atomic_store_n(&test_state_.announce_acks, 0, __ATOMIC_RELEASE);
  for (gasnet_node_t d = 0; d < test_state_.nodes; d++)
    GASNET_Safe(gasnet_AMRequestShort2(d, TEST_HIDX_COUNT_ANNOUNCE,
                                       (gasnet_handlerarg_t)(uint32_t)sent_to[d],
                                       (gasnet_handlerarg_t)(uint32_t)(sent_to[d] >> 32)));
  /* AMs are not ordered, and another thread may still be running an
   * announcement's handler: wait until each was handled (replied to). */
  GASNET_BLOCKUNTIL(__atomic_load_n(&test_state_.announce_acks, __ATOMIC_ACQUIRE) ==
                    test_state_.nodes);
  test_barrier(); /* every announcement has been handled */
  for (gasnet_node_t s = 0; s < test_state_.nodes; s++) {
    uint64_t said = __atomic_load_n(&test_state_.announced[s], __ATOMIC_ACQUIRE);
    TEST_CHECK(said == recv_from[s], "%s: node %u sent %llu messages here, %llu were handled", what,
               (unsigned)s, (unsigned long long)said, (unsigned long long)recv_from[s]);
    /* No node announces again before the next call's first barrier. */
    __atomic_store_n(&test_state_.announced[s], 0, __ATOMIC_RELEASE);
  }
}

/* ------------------------------------------------------------ start-up */

/* Attach with TABLE (may be NULL) plus the barrier's handlers; indices that
 * gasnet_attach assigned are written back into TABLE. Returns attach's
 * result so tests of attach's failures can see it; fatal only when the
 * table does not fit. On success fills in the test state. */
static inline int test_attach(gasnet_handlerentry_t *table, int n, uintptr_t segsize) {
  gasnet_handlerentry_t all[TEST_MAX_HANDLERS + 4];
  TEST_CHECK(n >= 0 && n <= TEST_MAX_HANDLERS, "handler table of %d entries", n);
  if (n) memcpy(all, table, (size_t)n * sizeof *all);
  all[n].index = TEST_HIDX_BARRIER_ARRIVE;
  all[n].fnptr = (void (*)())test_barrier_arrive_handler_;
  all[n + 1].index = TEST_HIDX_BARRIER_RELEASE;
  all[n + 1].fnptr = (void (*)())test_barrier_release_handler_;
  all[n + 2].index = TEST_HIDX_COUNT_ANNOUNCE;
  all[n + 2].fnptr = (void (*)())test_count_announce_handler_;
  all[n + 3].index = TEST_HIDX_COUNT_ACK;
  all[n + 3].fnptr = (void (*)())test_count_ack_handler_;
  test_state_.inited = 1; /* attach may be called only after init */
  test_state_.mynode = gasnet_mynode();
  test_state_.nodes = gasnet_nodes();
  int rc = gasnet_attach(all, n + 4, segsize, 0);
  if (rc != GASNET_OK) return rc;
  if (n) memcpy(table, all, (size_t)n * sizeof *all);

  test_state_.seginfo = (gasnet_seginfo_t *)calloc(test_state_.nodes, sizeof(gasnet_seginfo_t));
  test_state_.announced = (uint64_t *)calloc(test_state_.nodes, sizeof(uint64_t));
  TEST_CHECK(test_state_.seginfo != NULL && test_state_.announced != NULL, "out of memory");
  GASNET_Safe(gasnet_getSegmentInfo(test_state_.seginfo, (int)test_state_.nodes));
  test_state_.attached = 1;
  return GASNET_OK;
}

/* gasnet_init, fatal on failure; afterwards test_fail uses gasnet_exit. */
static inline void test_init_only(int *argc, char ***argv) {
  GASNET_Safe(gasnet_init(argc, argv));
  test_state_.inited = 1;
  test_state_.mynode = gasnet_mynode();
  test_state_.nodes = gasnet_nodes();
}

static inline void test_init_handlers(int *argc, char ***argv, uintptr_t segsize,
                                      gasnet_handlerentry_t *table, int n) {
  test_init_only(argc, argv);
  GASNET_Safe(test_attach(table, n, segsize));
}

static inline void test_init(int *argc, char ***argv, uintptr_t segsize) {
  test_init_handlers(argc, argv, segsize, NULL, 0);
}

/* Every check of the test must be done before this: a node's gasnet_exit
 * ends the whole job, so all nodes meet in a barrier first. */
static inline void test_finish(const char *name) TEST_NORETURN;
static inline void test_finish(const char *name) {
  test_barrier();
  test_print0("%s: PASS (%u nodes)\n", name, (unsigned)test_state_.nodes);
  test_exit_(0);
}

#define TEST_MYNODE (test_state_.mynode)
#define TEST_NODES (test_state_.nodes)

#endif /* GASNET_TEST_H */
