/* amflood: active-message throughput as AM-heavy clients use it: floods
 * of Short, Medium and Long requests with a window, one way and both ways,
 * and the frontier pattern of graph codes, one small Medium per update or
 * updates packed per owner. Its twin through MPI point-to-point is
 * tests/perf/mpiamflood.c; tests/perf/compare_am_mpi.sh runs both and
 * prints the ratios. The workload, options and output are described in
 * amflood_common.h.
 *
 * Usage: amflood [-i iters] [-r reps] [-w window] [-m maxsize] [-R rounds]
 *                [-u updates] [-t words] [-T tests] [-v] [-c]
 *
 * Every message is counted, every payload checked (its ends, or every
 * byte with -v) and every node's table compared with a replay of all the
 * updates; any difference fails the run (exit 3, AMF_EXIT_BAD). Rounds end with a
 * barrier, which in this library also completes the AMs sent before it
 * (docs/extended.md). Results print on node 0. -X damages one byte of
 * one message per flood size and one update per frontier, on purpose:
 * the run must then fail (the self-test of these checks). */
#define _POSIX_C_SOURCE 200809L
#include <gasnet.h>
#include <gasnet_tools.h>

#include "amflood_common.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    int check_rc_ = (call);                                                    \
    if (check_rc_ != GASNET_OK) {                                              \
      fprintf(stderr, "amflood: %s failed (%d) at line %d\n", #call, check_rc_, \
              __LINE__);                                                       \
      gasnet_exit(1);                                                          \
    }                                                                          \
  } while (0)

enum { H_SHORT = 200, H_MEDIUM, H_LONG, H_ACK, H_UPDATE };

static amf_opts_t opt;
static gasnet_seginfo_t *segs;
static unsigned char *sendbuf;     /* Medium and Long payloads */
static amf_update_t **aggbuf;      /* frontier_b: one buffer per owner */
static int *aggcount;              /* updates in each */
static uint64_t *table;            /* this node's frontier table */
static size_t slot_bytes;          /* Long receive area in the segment */
static volatile long arrivals, acks;
static volatile long errors;
static size_t flood_bytes;         /* the payload size being flooded */

/* ------------------------------------------------------------ handlers */
static void short_handler(gasnet_token_t token) {
  (void)token;
  arrivals++;
}

static void payload_arrived(gasnet_token_t token, const void *buf, size_t nbytes) {
  gasnet_node_t src;
  CHECK(gasnet_AMGetMsgSource(token, &src));
  if (nbytes != flood_bytes || !amf_payload_ok(buf, src, nbytes, opt.verify)) errors++;
  arrivals++;
}
static void medium_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  payload_arrived(token, buf, nbytes);
}
static void long_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  payload_arrived(token, buf, nbytes);
}

static void ack_handler(gasnet_token_t token) {
  (void)token;
  acks++;
}

static void apply_updates(const amf_update_t *u, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (u[i].word >= opt.words) {
      errors++;
      continue;
    }
    table[u[i].word] += u[i].value;
  }
}
static void update_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token;
  if (nbytes == 0 || nbytes % sizeof(amf_update_t)) errors++;
  amf_update_t u[1024]; /* aligned copy: a Medium payload need not be */
  const unsigned char *p = buf;
  while (nbytes >= sizeof(amf_update_t)) {
    size_t n = nbytes / sizeof(amf_update_t);
    if (n > 1024) n = 1024;
    memcpy(u, p, n * sizeof(amf_update_t));
    apply_updates(u, n);
    p += n * sizeof(amf_update_t);
    nbytes -= n * sizeof(amf_update_t);
  }
}

static gasnet_handlerentry_t handlers[] = {
    {H_SHORT, (void (*)())short_handler},   {H_MEDIUM, (void (*)())medium_handler},
    {H_LONG, (void (*)())long_handler},     {H_ACK, (void (*)())ack_handler},
    {H_UPDATE, (void (*)())update_handler},
};

/* ------------------------------------------------------------ helpers */
static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  CHECK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

static double now_us(void) { return (double)gasnett_ticks_to_ns(gasnett_ticks_now()) / 1e3; }

/* A node that found a lost or damaged message or update ends the job
 * itself, naming what; the others wait in the barrier until it does. */
static void check_errors(const char *what) {
  barrier();
  if (errors) {
    fprintf(stderr, "amflood: FAILED on node %u: %ld bad messages or updates in %s\n",
            (unsigned)gasnet_mynode(), (long)errors, what);
    gasnet_exit(AMF_EXIT_BAD);
  }
  barrier();
}

/* ------------------------------------------------------------ floods */
typedef enum { KIND_SHORT, KIND_MEDIUM, KIND_LONG } kind_t;
static const char *const kind_names[] = {"Short", "Medium", "Long"};

static void send_one(kind_t kind, gasnet_node_t peer, size_t bytes, int slot) {
  int damaged = opt.damage && slot == 1 && bytes > 0;
  if (damaged) sendbuf[bytes / 2] ^= 0x40; /* -X: one byte the checks must catch */
  switch (kind) {
    case KIND_SHORT: CHECK(gasnet_AMRequestShort0(peer, H_SHORT)); break;
    case KIND_MEDIUM: CHECK(gasnet_AMRequestMedium0(peer, H_MEDIUM, sendbuf, bytes)); break;
    case KIND_LONG: {
      unsigned char *dst = (unsigned char *)segs[peer].addr + (size_t)slot * bytes;
      CHECK(gasnet_AMRequestLong0(peer, H_LONG, sendbuf, bytes, dst));
      break;
    }
  }
  if (damaged) sendbuf[bytes / 2] ^= 0x40;
}

/* One repetition: node 0's time in microseconds from barrier to barrier. */
static double flood_once(kind_t kind, size_t bytes, int window, int iters, int both) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes(), half = n / 2;
  int paired = n == 1 || me < 2 * half;
  gasnet_node_t peer = n == 1 ? 0 : (me < half ? me + half : me - half);
  int sends = paired && (both || n == 1 || me < half);
  int receives = paired && (both || n == 1 || me >= half);
  arrivals = acks = 0;
  barrier();
  double t0 = now_us();
  for (int w = 0; w < iters / window; w++) {
    if (sends)
      for (int i = 0; i < window; i++) send_one(kind, peer, bytes, i);
    if (receives) {
      GASNET_BLOCKUNTIL(arrivals >= (long)(w + 1) * window);
      CHECK(gasnet_AMRequestShort0(peer, H_ACK));
    }
    if (sends) GASNET_BLOCKUNTIL(acks >= w + 1);
  }
  barrier();
  double t = now_us() - t0;
  if (receives && arrivals != iters) errors++;
  return t;
}

static void flood(kind_t kind, size_t bytes, int both) {
  gasnet_node_t n = gasnet_nodes();
  int window = amf_window(&opt, bytes);
  if (kind == KIND_LONG && (size_t)window * bytes > slot_bytes) window = (int)(slot_bytes / bytes);
  int iters = amf_iters(&opt, bytes, window);
  double t[64];
  flood_bytes = bytes;
  amf_fill(sendbuf, gasnet_mynode(), bytes);
  flood_once(kind, bytes, window, iters, both); /* warm-up */
  for (int r = 0; r < opt.reps; r++) t[r] = flood_once(kind, bytes, window, iters, both);
  check_errors(both ? "flood_bi" : "flood");
  long senders = n == 1 ? 1 : (long)(n / 2) * (both ? 2 : 1);
  if (gasnet_mynode() == 0)
    amf_row(&opt, both ? "flood_bi" : "flood", kind_names[kind], bytes, bytes, n, window,
            senders * iters, amf_median(t, opt.reps));
}

static void floods(int both) {
  size_t sizes[32];
  flood(KIND_SHORT, 0, both);
  int nm = amf_sizes(gasnet_AMMaxMedium(), opt.maxsize, 0, sizes, 32);
  for (int i = 0; i < nm; i++) flood(KIND_MEDIUM, sizes[i], both);
  size_t long_limit = gasnet_AMMaxLongRequest();
  if (long_limit > slot_bytes / 2) long_limit = slot_bytes / 2;
  int nl = amf_sizes(long_limit, opt.maxsize, 0, sizes, 32);
  for (int i = 0; i < nl; i++) flood(KIND_LONG, sizes[i], both);
}

/* ------------------------------------------------------------ frontier */
static void send_packed(gasnet_node_t owner) {
  if (aggcount[owner] == 0) return;
  gasnet_AMPoll();
  CHECK(gasnet_AMRequestMedium0(owner, H_UPDATE, aggbuf[owner],
                                (size_t)aggcount[owner] * sizeof(amf_update_t)));
  aggcount[owner] = 0;
}

/* One round of the frontier: agg 0 sends each update alone. */
static void frontier_round(uint64_t round, size_t agg) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  int per = (int)(agg / sizeof(amf_update_t)), damaged = 0;
  for (int k = 0; k < opt.updates; k++) {
    unsigned owner;
    amf_update_t u;
    amf_update(me, n, opt.words, round, (uint64_t)k, &owner, &u);
    if (owner != me) amf_damage_update(&opt, round, &damaged, &u);
    if (owner == me) {
      apply_updates(&u, 1);
    } else if (agg == 0) {
      gasnet_AMPoll();
      CHECK(gasnet_AMRequestMedium0((gasnet_node_t)owner, H_UPDATE, &u, sizeof u));
    } else {
      aggbuf[owner][aggcount[owner]++] = u;
      if (aggcount[owner] == per) send_packed((gasnet_node_t)owner);
    }
  }
  for (gasnet_node_t p = 0; agg && p < n; p++) send_packed(p);
  barrier(); /* the round's AMs have all run (the barrier is an AM fence) */
}

static void frontier(size_t agg) {
  gasnet_node_t n = gasnet_nodes();
  double t[64];
  uint64_t round = 0;
  memset(table, 0, opt.words * sizeof *table);
  barrier();
  for (int r = -1; r < opt.reps; r++) { /* r = -1: warm-up */
    double t0 = now_us();
    for (int d = 0; d < opt.rounds; d++) frontier_round(round++, agg);
    if (r >= 0) t[r] = now_us() - t0;
  }
  size_t bad = amf_table_errors(table, gasnet_mynode(), n, opt.words, round, opt.updates);
  errors += (long)bad;
  check_errors(agg ? "frontier_b" : "frontier_a");
  if (gasnet_mynode() == 0)
    amf_row(&opt, agg ? "frontier_b" : "frontier_a", agg ? "agg" : "poll1",
            agg ? agg : sizeof(amf_update_t), sizeof(amf_update_t), n, 0,
            (long)n * opt.updates * opt.rounds,
            amf_median(t, opt.reps));
}

static void frontiers(void) {
  if (amf_wants(&opt, "frontier_a")) frontier(0);
  if (!amf_wants(&opt, "frontier_b")) return;
  size_t aggs[3];
  int na = amf_agg_sizes(gasnet_AMMaxMedium(), aggs);
  for (int i = 0; i < na; i++) frontier(aggs[i]);
}

/* ------------------------------------------------------------ set-up */
/* The segment receives a window of Longs, each in its own slot: at most
 * 32 MiB (amf_window), less when the sizes or the conduit ask less. */
static uintptr_t plan_segment(void) {
  uintptr_t page = GASNET_PAGESIZE, avail = gasnet_getMaxLocalSegmentSize();
  size_t want = (size_t)32 << 20;
  if ((size_t)opt.window * opt.maxsize < want) want = (size_t)opt.window * opt.maxsize;
  if (want < 2 * opt.maxsize) want = 2 * opt.maxsize;
  slot_bytes = want;
  while (slot_bytes > 4096 && slot_bytes > avail) slot_bytes /= 2;
  return (slot_bytes + page - 1) / page * page;
}

static void setup(void) {
  gasnet_node_t n = gasnet_nodes();
  size_t maxmsg = opt.maxsize > gasnet_AMMaxMedium() ? opt.maxsize : gasnet_AMMaxMedium();
  segs = malloc(n * sizeof *segs);
  sendbuf = malloc(maxmsg);
  table = calloc(opt.words, sizeof *table);
  aggbuf = calloc(n, sizeof *aggbuf);
  aggcount = calloc(n, sizeof *aggcount);
  if (!segs || !sendbuf || !table || !aggbuf || !aggcount) {
    fprintf(stderr, "amflood: out of memory\n");
    gasnet_exit(1);
  }
  for (gasnet_node_t p = 0; p < n; p++)
    if (!(aggbuf[p] = malloc(gasnet_AMMaxMedium()))) {
      fprintf(stderr, "amflood: out of memory\n");
      gasnet_exit(1);
    }
  CHECK(gasnet_getSegmentInfo(segs, (int)n));
}

int main(int argc, char **argv) {
  CHECK(gasnet_init(&argc, &argv));
  if (amf_parse(argc, argv, &opt, gasnet_mynode() == 0)) gasnet_exit(2);
  uintptr_t segsize = plan_segment();
  CHECK(gasnet_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]), segsize, 0));
  setup();
  if (gasnet_mynode() == 0) amf_header(&opt);
  barrier();
  if (amf_wants(&opt, "flood")) floods(0);
  if (amf_wants(&opt, "flood_bi")) floods(1);
  frontiers();
  barrier();
  gasnet_exit(0);
}
