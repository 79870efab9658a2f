/* amperf: active message latency and throughput.
 *
 * Usage: amperf [-i iters] [-r reps] [-m maxsize] [-w window] [-n polls] [-P] [-p] [-c]
 *
 *   -i iters    timed operations per repetition (default 1000; sizes above
 *               64 KiB use fewer so one repetition moves at most 64 MiB)
 *   -r reps     repetitions per test; the median is reported (default 5)
 *   -m maxsize  largest Medium and Long payload (default 1 MiB; Medium is
 *               also capped by gasnet_AMMaxMedium())
 *   -w window   throughput: requests in flight before waiting (default 64)
 *   -n polls    idle poll: calls of gasnet_AMPoll per repetition (default 100000)
 *   -P          measure the idle poll only
 *   -p          measure the pairs (i, i+N/2) at the same time instead of
 *               node 0 with each other node in turn
 *   -c          CSV output instead of tables
 *
 * Tests: round-trip latency of Short (0 and 16 args), Medium and Long (the
 * reply carries the same payload back; Long payloads land in the peer's
 * segment), and one-way throughput: the initiator keeps up to `window`
 * requests in flight and the target acknowledges every window/4 requests
 * with one small reply. At one node the peer is node 0 itself (loopback).
 * First of all, the idle poll: every node at once calls gasnet_AMPoll while
 * no messages move, and reports the CPU time of one call (the calling
 * thread's CPU time, so a node sharing a core with others is charged only
 * for its own polls); node 0 prints the mean and the maximum over the nodes
 * of each node's median.
 * Every reply's size and payload ends are checked; a mismatch fails the run.
 * Results print on node 0. MB is 10^6 bytes. */
#define _POSIX_C_SOURCE 200809L
#include <gasnet.h>
#include <gasnet_tools.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    int check_rc_ = (call);                                                      \
    if (check_rc_ != GASNET_OK) fail_call(__LINE__, #call, check_rc_);           \
  } while (0)

enum {
  H_SHORT0 = 128, H_SHORT0_REP, H_SHORT16, H_SHORT16_REP, H_MEDIUM, H_MEDIUM_REP, H_LONG,
  H_LONG_REP, H_TPUT_SHORT, H_TPUT_MEDIUM, H_TPUT_LONG, H_ACK, H_ARRIVE, H_RELEASE
};

typedef enum { KIND_SHORT0, KIND_SHORT16, KIND_MEDIUM, KIND_LONG } kind_t;
typedef enum { METRIC_LATENCY, METRIC_THROUGHPUT } metric_t;
static const char *const kind_names[] = {"Short 0 args", "Short 16 args", "Medium", "Long"};

typedef struct {
  metric_t metric;
  kind_t kind;
  size_t bytes;
} test_t;

/* ------------------------------------------------------------ options and state */
static struct {
  int iters, reps, window, pairs, csv, polls, poll_only;
  size_t maxsize;
} opt = {1000, 5, 64, 0, 0, 100000, 0, (size_t)1 << 20};

static size_t medium_max, long_max; /* effective limits */
static gasnet_seginfo_t *segs;      /* every node's segment */
static unsigned char *medium_buf;   /* Medium request payloads */

/* Counters written by handlers, read by the waiting loops. */
static volatile int replies, acked, errors;
static volatile size_t expect_bytes; /* payload size the next replies carry */

/* Reduction barrier state (node 0). */
static volatile int arrivals, released;
static double red_sum, red_max;
static int red_count;

static void fail_call(int line, const char *what, int rc) {
  fprintf(stderr, "amperf: node %u: line %d: %s failed: %s (%s)\n", (unsigned)gasnet_mynode(),
          line, what, gasnet_ErrorName(rc), gasnet_ErrorDesc(rc));
  gasnet_exit(1);
}

/* Byte j of every payload; the same on every node, so replies can be checked. */
static unsigned char pattern(size_t j) { return (unsigned char)(j * 131u + 7u); }

static void fill_pattern(unsigned char *p, size_t n) {
  for (size_t j = 0; j < n; j++) p[j] = pattern(j);
}

/* Checking both ends catches short copies and misplaced payloads while
 * costing nothing measurable. */
static void check_payload(const void *buf, size_t n) {
  const unsigned char *p = buf;
  if (n != expect_bytes || (n > 0 && (p[0] != pattern(0) || p[n - 1] != pattern(n - 1)))) {
    if (errors++ < 5)
      fprintf(stderr, "amperf: node %u: bad reply payload: %zu bytes (expected %zu)\n",
              (unsigned)gasnet_mynode(), n, (size_t)expect_bytes);
  }
}

/* ------------------------------------------------------------ latency handlers */
static void short0_handler(gasnet_token_t token) {
  CHECK(gasnet_AMReplyShort0(token, H_SHORT0_REP));
}
static void short0_rep_handler(gasnet_token_t token) {
  (void)token;
  replies++;
}

/* Short 16 args: the reply echoes all 16 arguments. */
static void short16_handler(gasnet_token_t token, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1,
                            gasnet_handlerarg_t a2, gasnet_handlerarg_t a3, gasnet_handlerarg_t a4,
                            gasnet_handlerarg_t a5, gasnet_handlerarg_t a6, gasnet_handlerarg_t a7,
                            gasnet_handlerarg_t a8, gasnet_handlerarg_t a9, gasnet_handlerarg_t a10,
                            gasnet_handlerarg_t a11, gasnet_handlerarg_t a12,
                            gasnet_handlerarg_t a13, gasnet_handlerarg_t a14,
                            gasnet_handlerarg_t a15) {
  CHECK(gasnet_AMReplyShort16(token, H_SHORT16_REP, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10,
                              a11, a12, a13, a14, a15));
}
/* The request sends k in argument k; the echo must bring every one back. */
static void short16_rep_handler(gasnet_token_t token, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1,
                                gasnet_handlerarg_t a2, gasnet_handlerarg_t a3, gasnet_handlerarg_t a4,
                                gasnet_handlerarg_t a5, gasnet_handlerarg_t a6, gasnet_handlerarg_t a7,
                                gasnet_handlerarg_t a8, gasnet_handlerarg_t a9, gasnet_handlerarg_t a10,
                                gasnet_handlerarg_t a11, gasnet_handlerarg_t a12,
                                gasnet_handlerarg_t a13, gasnet_handlerarg_t a14,
                                gasnet_handlerarg_t a15) {
  const gasnet_handlerarg_t got[16] = {a0, a1, a2,  a3,  a4,  a5,  a6,  a7,
                                       a8, a9, a10, a11, a12, a13, a14, a15};
  (void)token;
  for (int k = 0; k < 16; k++)
    if (got[k] != k && errors++ < 5)
      fprintf(stderr, "amperf: Short16 reply argument %d is %d\n", k, (int)got[k]);
  replies++;
}

static void medium_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  CHECK(gasnet_AMReplyMedium0(token, H_MEDIUM_REP, buf, nbytes));
}
static void medium_rep_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token;
  check_payload(buf, nbytes);
  replies++;
}

/* A Long reply goes back into the requester's segment, sent from this node's
 * second half of the segment (never overlapping the first, even at loopback). */
static void long_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  gasnet_node_t src;
  (void)buf;
  CHECK(gasnet_AMGetMsgSource(token, &src));
  unsigned char *mine = segs[gasnet_mynode()].addr;
  CHECK(gasnet_AMReplyLong0(token, H_LONG_REP, mine + long_max, nbytes, segs[src].addr));
}
static void long_rep_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token;
  if (buf != segs[gasnet_mynode()].addr && errors++ < 5)
    fprintf(stderr, "amperf: Long reply landed at %p, not %p\n", buf, segs[gasnet_mynode()].addr);
  check_payload(buf, nbytes);
  replies++;
}

/* ------------------------------------------------------------ throughput handlers */
/* `ack` > 0 asks for one reply acknowledging that many requests. */
static void reply_ack(gasnet_token_t token, gasnet_handlerarg_t ack) {
  if (ack > 0) CHECK(gasnet_AMReplyShort1(token, H_ACK, ack));
}
static void tput_short_handler(gasnet_token_t token, gasnet_handlerarg_t ack) {
  reply_ack(token, ack);
}
static void tput_medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                gasnet_handlerarg_t ack) {
  (void)buf;
  (void)nbytes;
  reply_ack(token, ack);
}
static void tput_long_handler(gasnet_token_t token, void *buf, size_t nbytes,
                              gasnet_handlerarg_t ack) {
  (void)buf;
  (void)nbytes;
  reply_ack(token, ack);
}
static void ack_handler(gasnet_token_t token, gasnet_handlerarg_t count) {
  (void)token;
  acked += count;
}

/* ------------------------------------------------------------ reduction barrier */
static void arrive_handler(gasnet_token_t token, gasnet_handlerarg_t hi, gasnet_handlerarg_t lo,
                           gasnet_handlerarg_t contributes) {
  (void)token;
  if (contributes) {
    uint64_t bits = ((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo;
    double v;
    memcpy(&v, &bits, sizeof v);
    red_sum += v;
    if (red_count == 0 || v > red_max) red_max = v;
    red_count++;
  }
  arrivals++;
}
static void release_handler(gasnet_token_t token) {
  (void)token;
  released++;
}

/* Every node calls it; node 0 returns the sum, max and count of the values
 * of the nodes that contribute (the others pass contributes = 0). */
static void reduce_barrier(double v, int contributes, double *sum, double *max, int *count) {
  uint64_t bits;
  int target = released + 1;
  memcpy(&bits, &v, sizeof bits);
  CHECK(gasnet_AMRequestShort3(0, H_ARRIVE, (gasnet_handlerarg_t)(uint32_t)(bits >> 32),
                               (gasnet_handlerarg_t)(uint32_t)bits, contributes));
  if (gasnet_mynode() == 0) {
    GASNET_BLOCKUNTIL(arrivals == (int)gasnet_nodes());
    *sum = red_sum;
    *max = red_max;
    *count = red_count;
    arrivals = 0;
    red_sum = red_max = 0;
    red_count = 0;
    for (gasnet_node_t i = 0; i < gasnet_nodes(); i++) CHECK(gasnet_AMRequestShort0(i, H_RELEASE));
  }
  GASNET_BLOCKUNTIL(released == target);
}

static gasnet_handlerentry_t handlers[] = {
    {H_SHORT0, (void (*)())short0_handler},       {H_SHORT0_REP, (void (*)())short0_rep_handler},
    {H_SHORT16, (void (*)())short16_handler},     {H_SHORT16_REP, (void (*)())short16_rep_handler},
    {H_MEDIUM, (void (*)())medium_handler},       {H_MEDIUM_REP, (void (*)())medium_rep_handler},
    {H_LONG, (void (*)())long_handler},           {H_LONG_REP, (void (*)())long_rep_handler},
    {H_TPUT_SHORT, (void (*)())tput_short_handler},
    {H_TPUT_MEDIUM, (void (*)())tput_medium_handler},
    {H_TPUT_LONG, (void (*)())tput_long_handler}, {H_ACK, (void (*)())ack_handler},
    {H_ARRIVE, (void (*)())arrive_handler},       {H_RELEASE, (void (*)())release_handler},
};

/* ------------------------------------------------------------ one operation */
static void send_latency(const test_t *t, gasnet_node_t peer) {
  unsigned char *mine = segs[gasnet_mynode()].addr;
  switch (t->kind) {
    case KIND_SHORT0:
      CHECK(gasnet_AMRequestShort0(peer, H_SHORT0));
      break;
    case KIND_SHORT16:
      CHECK(gasnet_AMRequestShort16(peer, H_SHORT16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                    13, 14, 15));
      break;
    case KIND_MEDIUM:
      CHECK(gasnet_AMRequestMedium0(peer, H_MEDIUM, medium_buf, t->bytes));
      break;
    case KIND_LONG:
      CHECK(gasnet_AMRequestLong0(peer, H_LONG, mine + long_max, t->bytes, segs[peer].addr));
      break;
  }
}

static void send_oneway(const test_t *t, gasnet_node_t peer, gasnet_handlerarg_t ack) {
  unsigned char *mine = segs[gasnet_mynode()].addr;
  switch (t->kind) {
    case KIND_SHORT0:
    case KIND_SHORT16:
      CHECK(gasnet_AMRequestShort1(peer, H_TPUT_SHORT, ack));
      break;
    case KIND_MEDIUM:
      CHECK(gasnet_AMRequestMedium1(peer, H_TPUT_MEDIUM, medium_buf, t->bytes, ack));
      break;
    case KIND_LONG:
      CHECK(gasnet_AMRequestLong1(peer, H_TPUT_LONG, mine + long_max, t->bytes, segs[peer].addr,
                                  ack));
      break;
  }
}

/* n round trips, one at a time. */
static void run_latency(const test_t *t, gasnet_node_t peer, int n) {
  expect_bytes = t->bytes;
  for (int i = 0; i < n; i++) {
    int target = replies + 1;
    send_latency(t, peer);
    GASNET_BLOCKUNTIL(replies == target);
  }
}

/* n requests with at most `window` unacknowledged; every batch-th request
 * (and the last) asks for an acknowledgement of all requests since the
 * previous one. */
static void run_throughput(const test_t *t, gasnet_node_t peer, int n) {
  const int window = opt.window, batch = opt.window / 4 > 0 ? opt.window / 4 : 1;
  int flagged = 0; /* requests covered by an acknowledgement request so far */
  acked = 0;
  for (int i = 0; i < n; i++) {
    GASNET_BLOCKUNTIL(i - acked < window);
    int ack = (i + 1 - flagged == batch || i == n - 1) ? i + 1 - flagged : 0;
    flagged += ack;
    send_oneway(t, peer, ack);
  }
  GASNET_BLOCKUNTIL(acked == n);
}

/* ------------------------------------------------------------ one test */
static int iters_for(size_t bytes) {
  const size_t cap = (size_t)64 << 20;
  if (bytes == 0 || (size_t)opt.iters * bytes <= cap) return opt.iters;
  size_t n = cap / bytes;
  return n < 4 ? 4 : (int)n;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One repetition's result: microseconds per round trip, or messages/s. */
static double run_once(const test_t *t, gasnet_node_t peer, int n) {
  gasnett_tick_t t0 = gasnett_ticks_now(); /* the tools timer: the platform's cheapest clock */
  if (t->metric == METRIC_LATENCY)
    run_latency(t, peer, n);
  else
    run_throughput(t, peer, n);
  double secs = (double)gasnett_ticks_to_ns(gasnett_ticks_now() - t0) * 1e-9;
  if (t->metric == METRIC_LATENCY) return secs * 1e6 / n;
  return n / secs;
}

/* Median over the repetitions, after a warm-up that is not timed (it also
 * wakes a peer that may have backed off to sleeping while it waited). */
static double measure(const test_t *t, gasnet_node_t peer) {
  int n = iters_for(t->bytes);
  double vals[64];
  int reps = opt.reps < 64 ? opt.reps : 64;
  run_once(t, peer, n / 10 > 10 ? n / 10 : 10);
  for (int r = 0; r < reps; r++) vals[r] = run_once(t, peer, n);
  qsort(vals, (size_t)reps, sizeof vals[0], cmp_double);
  return reps % 2 ? vals[reps / 2] : 0.5 * (vals[reps / 2 - 1] + vals[reps / 2]);
}

/* ------------------------------------------------------------ the test list */
static int add_sizes(test_t *list, int k, metric_t m, kind_t kind, size_t max) {
  size_t s = 8;
  if (max < s) s = max;
  for (;; s *= 2) {
    if (s > max) s = max;
    list[k++] = (test_t){m, kind, s};
    if (s == max) break;
  }
  return k;
}

/* Fills list (room for 256) and returns the count: latency tests first. */
static int make_tests(test_t *list) {
  int k = 0;
  list[k++] = (test_t){METRIC_LATENCY, KIND_SHORT0, 0};
  list[k++] = (test_t){METRIC_LATENCY, KIND_SHORT16, 0};
  k = add_sizes(list, k, METRIC_LATENCY, KIND_MEDIUM, medium_max);
  k = add_sizes(list, k, METRIC_LATENCY, KIND_LONG, long_max);
  list[k++] = (test_t){METRIC_THROUGHPUT, KIND_SHORT0, 0};
  k = add_sizes(list, k, METRIC_THROUGHPUT, KIND_MEDIUM, medium_max);
  k = add_sizes(list, k, METRIC_THROUGHPUT, KIND_LONG, long_max);
  return k;
}

/* ------------------------------------------------------------ output (node 0) */
static void print_header(const char *who) {
  if (opt.csv) {
    static int done;
    if (!done++)
      puts("pairs,peer,metric,kind,bytes,rtt_us,rtt_max_us,msg_per_s,mb_per_s,poll_ns,poll_max_ns");
    return;
  }
  printf("\n# amperf: %s %u nodes, %s\n", GASNET_CONDUIT_NAME_STR, (unsigned)gasnet_nodes(), who);
  printf("# %d iterations per repetition (fewer above 64 KiB), median of %d, window %d,"
         " ack every %d; MB = 1e6 bytes\n",
         opt.iters, opt.reps, opt.window, opt.window / 4 > 0 ? opt.window / 4 : 1);
}

static void print_section(const test_t *t, int pairs) {
  if (opt.csv) return;
  if (t->metric == METRIC_LATENCY)
    printf("%-22s %9s %12s%s\n", "round-trip latency", "bytes", "usec", pairs > 1 ? "     max usec" : "");
  else
    printf("%-22s %9s %12s %12s%s\n", "one-way throughput", "bytes", "msg/s", "MB/s",
           pairs > 1 ? "   (sum over pairs)" : "");
}

/* sum/max/pairs: the value over every measuring pair (one pair: value). */
static void print_row(const test_t *t, const char *peer, double sum, double max, int pairs) {
  const char *metric = t->metric == METRIC_LATENCY ? "latency" : "throughput";
  double mb = sum * (double)t->bytes / 1e6;
  if (opt.csv) {
    if (t->metric == METRIC_LATENCY)
      printf("%d,%s,%s,%s,%zu,%.3f,%.3f,,,,\n", pairs, peer, metric, kind_names[t->kind],
             t->bytes, sum / pairs, max);
    else
      printf("%d,%s,%s,%s,%zu,,,%.0f,%.3f,,\n", pairs, peer, metric, kind_names[t->kind],
             t->bytes, sum, mb);
  } else if (t->metric == METRIC_LATENCY) {
    printf("  %-20s %9zu %12.3f", kind_names[t->kind], t->bytes, sum / pairs);
    if (pairs > 1) printf(" %12.3f", max);
    printf("\n");
  } else {
    printf("  %-20s %9zu %12.0f %12.2f\n", kind_names[t->kind], t->bytes, sum,
           t->bytes ? mb : 0.0);
  }
  fflush(stdout);
}

/* ------------------------------------------------------------ the idle poll */
/* The calling thread's CPU time: with more processes than cores, a node is
 * charged for its own polls, not for the time others ran on its core. */
static double thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* This node's median CPU ns per gasnet_AMPoll over the repetitions, after
 * an untimed warm-up (which also retires the last sends of the barrier). */
static double measure_idle_poll(void) {
  double vals[64];
  int reps = opt.reps < 64 ? opt.reps : 64;
  for (int i = 0; i < opt.polls / 10 + 1; i++) gasnet_AMPoll();
  for (int r = 0; r < reps; r++) {
    double t0 = thread_cpu_ns();
    for (int i = 0; i < opt.polls; i++) gasnet_AMPoll();
    vals[r] = (thread_cpu_ns() - t0) / opt.polls;
  }
  qsort(vals, (size_t)reps, sizeof vals[0], cmp_double);
  return reps % 2 ? vals[reps / 2] : 0.5 * (vals[reps / 2 - 1] + vals[reps / 2]);
}

/* Every node polls at once, nobody sends; node 0 prints the mean and the
 * maximum over the nodes. */
static void run_idle_poll(void) {
  double v = measure_idle_poll(), sum = 0, max = 0;
  int count = 0;
  reduce_barrier(v, 1, &sum, &max, &count);
  if (gasnet_mynode() != 0) return;
  if (opt.csv) {
    print_header("");
    printf("%d,all,idle_poll,AMPoll,0,,,,,%.1f,%.1f\n", count, sum / count, max);
  } else {
    printf("\n# amperf: %s %u nodes, idle poll: every node calls gasnet_AMPoll %d times per"
           " repetition, nothing in flight; CPU time of the calling thread, median of %d\n",
           GASNET_CONDUIT_NAME_STR, (unsigned)gasnet_nodes(), opt.polls, opt.reps);
    printf("%-22s %12s %12s\n", "idle poll", "ns (mean)", "ns (max)");
    printf("  %-20s %12.1f %12.1f\n", "gasnet_AMPoll", sum / count, max);
  }
  fflush(stdout);
}

/* ------------------------------------------------------------ the two modes */
/* Node 0 measures every peer in turn; the others only serve requests, inside
 * the final barrier's wait. */
static void run_sequential(const test_t *tests, int ntests) {
  gasnet_node_t n = gasnet_nodes();
  if (gasnet_mynode() != 0) return;
  for (gasnet_node_t peer = n > 1 ? 1 : 0; peer < n; peer++) {
    char who[64], peername[16];
    snprintf(who, sizeof who, "node 0 <-> node %u%s", (unsigned)peer,
             peer == 0 ? " (loopback)" : "");
    snprintf(peername, sizeof peername, "%u", (unsigned)peer);
    print_header(who);
    for (int k = 0; k < ntests; k++) {
      if (k == 0 || tests[k].metric != tests[k - 1].metric) print_section(&tests[k], 1);
      double v = measure(&tests[k], peer);
      print_row(&tests[k], peername, v, v, 1);
    }
  }
}

/* Pairs (i, i+N/2) run each test at the same time; a barrier separates the
 * tests and carries every initiator's result to node 0. */
static void run_pairs(const test_t *tests, int ntests) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes(), half = n / 2;
  int initiator = n == 1 || me < half;
  gasnet_node_t peer = n == 1 ? 0 : me + half;
  if (me == 0) {
    char who[64];
    snprintf(who, sizeof who, "%u pairs (i, i+%u) at once", n == 1 ? 1u : (unsigned)half,
             (unsigned)half);
    print_header(who);
  }
  for (int k = 0; k < ntests; k++) {
    double v = initiator ? measure(&tests[k], peer) : 0, sum = 0, max = 0;
    int count = 0;
    reduce_barrier(v, initiator, &sum, &max, &count);
    if (me != 0) continue;
    if (k == 0 || tests[k].metric != tests[k - 1].metric) print_section(&tests[k], count);
    print_row(&tests[k], "all", sum, max, count);
  }
}

/* ------------------------------------------------------------ set-up */
static size_t parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'k' || *end == 'K') {
    v <<= 10;
    end++;
  } else if (*end == 'm' || *end == 'M') {
    v <<= 20;
    end++;
  }
  if (*s == '\0' || *end != '\0' || v == 0) {
    if (gasnet_mynode() == 0) fprintf(stderr, "amperf: bad size '%s'\n", s);
    gasnet_exit(2);
  }
  return (size_t)v;
}

static int parse_count(const char *s, const char *what) {
  char *end;
  long v = strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > 100000000) {
    if (gasnet_mynode() == 0) fprintf(stderr, "amperf: bad %s '%s'\n", what, s);
    gasnet_exit(2);
  }
  return (int)v;
}

/* Every node parses the same arguments; only node 0 complains. */
static void parse_options(int argc, char **argv) {
  int c;
  opterr = gasnet_mynode() == 0;
  while ((c = getopt(argc, argv, "i:r:m:w:n:Ppch")) != -1) {
    switch (c) {
      case 'i': opt.iters = parse_count(optarg, "iteration count"); break;
      case 'r': opt.reps = parse_count(optarg, "repetition count"); break;
      case 'm': opt.maxsize = parse_size(optarg); break;
      case 'w': opt.window = parse_count(optarg, "window"); break;
      case 'n': opt.polls = parse_count(optarg, "poll count"); break;
      case 'P': opt.poll_only = 1; break;
      case 'p': opt.pairs = 1; break;
      case 'c': opt.csv = 1; break;
      default:
        if (gasnet_mynode() == 0)
          fprintf(stderr, "usage: amperf [-i iters] [-r reps] [-m maxsize] [-w window] [-n polls]"
                          " [-P] [-p] [-c]\n");
        gasnet_exit(c == 'h' ? 0 : 2);
    }
  }
  if (opt.reps > 64) opt.reps = 64; /* measure() keeps 64 samples */
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* The segment holds a Long receive area and a Long send area of long_max
 * bytes each; shrink long_max when the conduit offers less. */
static uintptr_t plan_segment(void) {
  size_t page = GASNET_PAGESIZE, avail = gasnet_getMaxLocalSegmentSize();
  medium_max = min_size(opt.maxsize, gasnet_AMMaxMedium());
  long_max = min_size(opt.maxsize, min_size(gasnet_AMMaxLongRequest(), gasnet_AMMaxLongReply()));
  while (long_max > 8 && 2 * long_max > avail) long_max /= 2;
  return (uintptr_t)((2 * long_max + page - 1) / page * page);
}

static void setup(uintptr_t segsize) {
  gasnet_node_t n = gasnet_nodes();
  segs = malloc(n * sizeof *segs);
  medium_buf = malloc(medium_max);
  if (!segs || !medium_buf) {
    fprintf(stderr, "amperf: out of memory\n");
    gasnet_exit(1);
  }
  CHECK(gasnet_getSegmentInfo(segs, (int)n));
  if (segs[gasnet_mynode()].size < segsize) {
    fprintf(stderr, "amperf: segment of %lu bytes, asked for %lu\n",
            (unsigned long)segs[gasnet_mynode()].size, (unsigned long)segsize);
    gasnet_exit(1);
  }
  fill_pattern(medium_buf, medium_max);
  fill_pattern((unsigned char *)segs[gasnet_mynode()].addr + long_max, long_max);
}

int main(int argc, char **argv) {
  static test_t tests[256];
  CHECK(gasnet_init(&argc, &argv));
  parse_options(argc, argv);
  uintptr_t segsize = plan_segment();
  CHECK(gasnet_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]), segsize, 0));
  setup(segsize);
  int ntests = make_tests(tests);
  double dummy = 0, nerr = 0;
  int count = 0;
  reduce_barrier(0, 0, &dummy, &dummy, &count); /* every node is set up */
  run_idle_poll();
  if (opt.pairs && !opt.poll_only)
    run_pairs(tests, ntests);
  else if (!opt.poll_only)
    run_sequential(tests, ntests);
  reduce_barrier((double)errors, 1, &nerr, &dummy, &count);
  if (gasnet_mynode() == 0 && nerr > 0) {
    fprintf(stderr, "amperf: FAILED: %.0f bad replies\n", nerr);
    gasnet_exit(1);
  }
  gasnet_exit(0);
}
