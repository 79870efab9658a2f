/* testmpi_flood: flow-control stress. Every node floods every other node
 * (and itself) with Medium and Long requests, all at once and without
 * waiting, and every request handler answers with a reply of the same
 * category carrying its own payload. Payload sizes cover the small, the
 * one-packet, the just-too-big-for-a-packet and the maximal cases, so both
 * the inline and the separate-payload paths run under pressure. Every
 * payload is checked where it lands, and at the end every node checks it
 * handled exactly what was sent to it.
 *
 * Written on the public API only: it runs on any conduit, but it was made
 * to push the mpi conduit's credits and pre-posted buffers to their limits.
 *
 * A second phase turns the flow around, as gets do: every node sends Short
 * requests to every node, asking for Medium or Long replies of the largest
 * sizes, so request handlers wait for reply credits while requests keep
 * arriving (a reply waiter must not depend on credits that ride on
 * requests: that deadlocked the first version of the mpi conduit).
 *
 * Usage: testmpi_flood [ROUNDS [BURST [MAXLONG]]]
 *   ROUNDS   rounds of flooding (default 60)
 *   BURST    requests per peer per round, Medium and Long alternating (32)
 *   MAXLONG  largest Long payload (default 256 KiB, capped by the limits) */
#include "test.h"

enum {
  H_MEDIUM_REQ = TEST_HIDX_FIRST,
  H_MEDIUM_REP,
  H_LONG_REQ,
  H_LONG_REP,
  H_GET_REQ
};

static unsigned rounds = 60, burst = 32;
static size_t max_medium, max_long, region;
static uint8_t *medium_src; /* request and reply payloads are built here... */
static uint8_t *long_src;   /* ...and here (outside the segment) */
static uint64_t *sent_to, *recv_from;
static volatile unsigned replies;
static gasnet_hsl_t lock = GASNET_HSL_INITIALIZER;

/* Sizes around the boundaries of the mpi conduit's packets, with their
 * 32-byte header and here 16 bytes of arguments: 512 bytes (the tight
 * test shapes), 4 KiB (an earlier default) and 64 KiB + 128 (the default;
 * 65616 is the largest payload it holds). */
static size_t pick_size(uint32_t h, size_t max) {
  static const size_t fixed[] = {0,    1,    8,    100,  464,   465,   1024,  3999,  4000, 4032,
                                 4033, 4064, 4096, 4097, 8192, 65280, 65536, 65616, 65617};
  size_t n = sizeof(fixed) / sizeof(fixed[0]);
  size_t choice = h % (n + 3);
  size_t size = choice < n ? fixed[choice] : choice == n ? max : (h >> 8) % (max + 1);
  return size > max ? max : size;
}

/* Everything about message SEQ of ROUND from SRC to DST is a function of
 * these, so the receiver can recompute the expected payload. */
static uint32_t msg_seed(unsigned round, gasnet_node_t src, gasnet_node_t dst, unsigned seq,
                         int reply) {
  uint32_t h = test_mix(0x51a7u, round);
  h = test_mix(h, src);
  h = test_mix(h, dst);
  h = test_mix(h, seq);
  return test_mix(h, (uint32_t)reply);
}

/* Long landing regions: requests land in the target's segment at
 * [src][seq], replies in the requester's segment at [replier][seq] of the
 * second half. Nothing in flight ever shares bytes. */
static uint8_t *long_slot(gasnet_node_t owner, gasnet_node_t peer, unsigned seq, int reply) {
  size_t per_peer = (size_t)burst * region;
  size_t half = (size_t)TEST_NODES * per_peer;
  return (uint8_t *)test_seg(owner) + (reply ? half : 0) + peer * per_peer + seq * region;
}

static void count_recv(gasnet_node_t src) {
  gasnet_hsl_lock(&lock);
  recv_from[src]++;
  gasnet_hsl_unlock(&lock);
}

static void check_payload(const void *buf, size_t nbytes, size_t want, uint32_t seed,
                          const char *what) {
  TEST_CHECK(nbytes == want, "%s: %zu bytes arrived, %zu were sent", what, nbytes, want);
  TEST_CHECK_PATTERN(buf, nbytes, seed, what);
}

/* ------------------------------------------------------------ handlers */
static void medium_req(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t round,
                       gasnet_handlerarg_t seq) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  uint32_t seed = msg_seed((unsigned)round, src, TEST_MYNODE, (unsigned)seq, 0);
  check_payload(buf, nbytes, pick_size(seed, max_medium), seed, "Medium request");
  count_recv(src);
  uint32_t rseed = msg_seed((unsigned)round, TEST_MYNODE, src, (unsigned)seq, 1);
  size_t rsize = pick_size(rseed, max_medium);
  /* Handlers on one node may run concurrently (PAR): build the reply in a
   * per-call buffer. */
  uint8_t *reply = malloc(rsize ? rsize : 1);
  TEST_CHECK(reply != NULL, "out of memory");
  test_fill(reply, rsize, rseed);
  GASNET_Safe(gasnet_AMReplyMedium2(token, H_MEDIUM_REP, reply, rsize, round, seq));
  free(reply);
}

static void medium_rep(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t round,
                       gasnet_handlerarg_t seq) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  uint32_t seed = msg_seed((unsigned)round, src, TEST_MYNODE, (unsigned)seq, 1);
  check_payload(buf, nbytes, pick_size(seed, max_medium), seed, "Medium reply");
  __atomic_fetch_add(&replies, 1, __ATOMIC_ACQ_REL);
}

static void long_req(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t round,
                     gasnet_handlerarg_t seq) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  uint32_t seed = msg_seed((unsigned)round, src, TEST_MYNODE, (unsigned)seq, 0);
  TEST_CHECK(buf == long_slot(TEST_MYNODE, src, (unsigned)seq, 0),
             "Long request from %u landed at %p", (unsigned)src, buf);
  check_payload(buf, nbytes, pick_size(seed, max_long), seed, "Long request");
  count_recv(src);
  uint32_t rseed = msg_seed((unsigned)round, TEST_MYNODE, src, (unsigned)seq, 1);
  size_t rsize = pick_size(rseed, max_long);
  uint8_t *reply = malloc(rsize ? rsize : 1);
  TEST_CHECK(reply != NULL, "out of memory");
  test_fill(reply, rsize, rseed);
  GASNET_Safe(gasnet_AMReplyLong2(token, H_LONG_REP, reply, rsize,
                                  long_slot(src, TEST_MYNODE, (unsigned)seq, 1), round, seq));
  free(reply);
}

static void long_rep(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t round,
                     gasnet_handlerarg_t seq) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  uint32_t seed = msg_seed((unsigned)round, src, TEST_MYNODE, (unsigned)seq, 1);
  TEST_CHECK(buf == long_slot(TEST_MYNODE, src, (unsigned)seq, 1),
             "Long reply from %u landed at %p", (unsigned)src, buf);
  check_payload(buf, nbytes, pick_size(seed, max_long), seed, "Long reply");
  __atomic_fetch_add(&replies, 1, __ATOMIC_ACQ_REL);
}

/* A Short request asking for a reply of the largest size: Medium (seq
 * even) or Long (odd), checked by the reply handlers above with the sizes
 * pick_size gives for these seeds. */
static void get_req(gasnet_token_t token, gasnet_handlerarg_t round, gasnet_handlerarg_t seq) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  count_recv(src);
  uint32_t rseed = msg_seed((unsigned)round, TEST_MYNODE, src, (unsigned)seq, 1);
  size_t rsize = pick_size(rseed, (seq & 1) ? max_long : max_medium);
  uint8_t *reply = malloc(rsize ? rsize : 1);
  TEST_CHECK(reply != NULL, "out of memory");
  test_fill(reply, rsize, rseed);
  if (seq & 1)
    GASNET_Safe(gasnet_AMReplyLong2(token, H_LONG_REP, reply, rsize,
                                    long_slot(src, TEST_MYNODE, (unsigned)seq, 1), round, seq));
  else
    GASNET_Safe(gasnet_AMReplyMedium2(token, H_MEDIUM_REP, reply, rsize, round, seq));
  free(reply);
}

/* ------------------------------------------------------------ the flood */
static void flood_round(unsigned round) {
  unsigned expect = __atomic_load_n(&replies, __ATOMIC_ACQUIRE);
  for (unsigned seq = 0; seq < burst; seq++) {
    /* Start with a different peer on each node, so the traffic is all-to-all. */
    for (gasnet_node_t k = 0; k < TEST_NODES; k++) {
      gasnet_node_t dst = (gasnet_node_t)((TEST_MYNODE + k + seq) % TEST_NODES);
      uint32_t seed = msg_seed(round, TEST_MYNODE, dst, seq, 0);
      if (seq % 2 == 0) {
        size_t size = pick_size(seed, max_medium);
        test_fill(medium_src, size, seed);
        GASNET_Safe(gasnet_AMRequestMedium2(dst, H_MEDIUM_REQ, medium_src, size,
                                            (gasnet_handlerarg_t)round, (gasnet_handlerarg_t)seq));
      } else {
        size_t size = pick_size(seed, max_long);
        test_fill(long_src, size, seed);
        GASNET_Safe(gasnet_AMRequestLong2(dst, H_LONG_REQ, long_src, size,
                                          long_slot(dst, TEST_MYNODE, seq, 0),
                                          (gasnet_handlerarg_t)round, (gasnet_handlerarg_t)seq));
      }
      sent_to[dst]++;
      expect++;
    }
  }
  GASNET_BLOCKUNTIL(__atomic_load_n(&replies, __ATOMIC_ACQUIRE) == expect);
}

/* Rounds of the second phase use round numbers past the first phase's;
 * reply sizes are picked as in the flood. */
static void get_round(unsigned round) {
  unsigned expect = __atomic_load_n(&replies, __ATOMIC_ACQUIRE);
  /* A whole burst to one node after the other, in a ring, as a large get
   * split into pieces does: long runs of requests in both directions. */
  for (gasnet_node_t k = 1; k <= TEST_NODES; k++) {
    gasnet_node_t dst = (gasnet_node_t)((TEST_MYNODE + k) % TEST_NODES);
    for (unsigned seq = 0; seq < burst; seq++) {
      GASNET_Safe(gasnet_AMRequestShort2(dst, H_GET_REQ, (gasnet_handlerarg_t)round,
                                         (gasnet_handlerarg_t)seq));
      sent_to[dst]++;
      expect++;
    }
  }
  GASNET_BLOCKUNTIL(__atomic_load_n(&replies, __ATOMIC_ACQUIRE) == expect);
}

int main(int argc, char **argv) {
  gasnet_handlerentry_t table[] = {
      {H_MEDIUM_REQ, (void (*)())medium_req},
      {H_MEDIUM_REP, (void (*)())medium_rep},
      {H_LONG_REQ, (void (*)())long_req},
      {H_LONG_REP, (void (*)())long_rep},
      {H_GET_REQ, (void (*)())get_req},
  };
  test_init_only(&argc, &argv);
  if (argc > 1) rounds = (unsigned)atoi(argv[1]);
  if (argc > 2) burst = (unsigned)atoi(argv[2]);
  size_t want_long = argc > 3 ? (size_t)atol(argv[3]) : (size_t)256 << 10;
  TEST_CHECK(rounds > 0 && burst > 0 && burst < 10000, "bad ROUNDS %u or BURST %u", rounds, burst);
  max_medium = gasnet_AMMaxMedium();
  max_long = gasnet_AMMaxLongRequest() < gasnet_AMMaxLongReply() ? gasnet_AMMaxLongRequest()
                                                                  : gasnet_AMMaxLongReply();
  if (want_long < max_long) max_long = want_long;
  region = (max_long + 63) & ~(size_t)63;
  uintptr_t segsize = 2 * (uintptr_t)TEST_NODES * burst * region;
  segsize = (segsize + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  if (segsize > gasnet_getMaxGlobalSegmentSize())
    test_fail("a %u-node flood with BURST %u and MAXLONG %zu needs %zu bytes of segment",
              (unsigned)TEST_NODES, burst, max_long, (size_t)segsize);
  GASNET_Safe(test_attach(table, 5, segsize));
  medium_src = malloc(max_medium + 1);
  long_src = malloc(max_long + 1);
  sent_to = calloc(TEST_NODES, sizeof(uint64_t));
  recv_from = calloc(TEST_NODES, sizeof(uint64_t));
  TEST_CHECK(medium_src && long_src && sent_to && recv_from, "out of memory");
  test_print0("testmpi_flood: %u nodes, %u rounds of %u requests per peer, Medium up to %zu, "
              "Long up to %zu\n", (unsigned)TEST_NODES, rounds, burst, max_medium, max_long);

  double t0 = test_now();
  for (unsigned round = 0; round < rounds; round++) flood_round(round);
  for (unsigned round = rounds; round < 2 * rounds; round++) get_round(round);
  double secs = test_now() - t0;
  test_check_counts(sent_to, recv_from, "flood requests");
  test_print0("testmpi_flood: %llu requests and replies per node in %.2f s\n",
              2ull * rounds * burst * TEST_NODES, secs);
  test_finish("testmpi_flood");
}
