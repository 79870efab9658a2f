/* testamorder.c: active messages are delivered in the order they were sent,
 * per pair of nodes and per direction, requests and replies each.
 *
 * Every node sends COUNT requests to every node, itself included, the
 * destinations interleaved and no request waiting for an earlier one
 * (beyond a window that keeps Long landing regions from being reused too
 * early). Request i from S to R carries i, its number in the stream
 * (S, R): a mix of Shorts, Mediums and Longs, with Medium and Long payloads
 * from a few bytes to beyond 4 KiB (the mpi conduit's default packet size,
 * above which a payload travels as a second message), and some Mediums of
 * gasnet_AMMaxMedium() bytes (Longs are cut to the Long limits, which may
 * be smaller). R's request handler checks that i is exactly
 * the next number from S and replies (Short, Medium or Long) with the
 * number of that reply in the stream of replies (R, S), which S's reply
 * handler checks the same way. The category, size and payload of every
 * message follow from (sender, receiver, number, request or reply), so each
 * handler also checks that it got the message that number names, payload
 * included: a payload handed to the wrong header shows.
 *
 * Usage: testamorder [COUNT]
 *   COUNT: requests per ordered pair of nodes; default 40000 up to 2
 *   nodes, 40000 / (nodes - 1) above (each node sends 40000 requests to
 *   other nodes, whatever their number): hundreds of times round any
 *   conduit's rings and credits, and seconds, not tens of seconds, in the
 *   shapes that make every message slow (rendezvous over TCP). */
#include "test.h"

enum {
  H_REQ_SHORT = TEST_HIDX_FIRST,
  H_REQ_MEDIUM,
  H_REQ_LONG,
  H_REP_SHORT,
  H_REP_MEDIUM,
  H_REP_LONG,
};

/* The default COUNT: requests each node sends to the other nodes in all. */
enum { REQUESTS_PER_NODE = 40000 };

enum msg_cat { CAT_SHORT, CAT_MEDIUM, CAT_LONG };
static const char *const cat_name[] = {"Short", "Medium", "Long"};

/* Requests in flight to one destination (sent, reply not yet handled), and
 * Long landing regions per (sender, receiver) in each direction. A Long
 * numbered i reuses the region of Long i - WINDOW, whose reply (or, for a
 * Long reply, whose request's reply) has been handled before i is sent. */
#define WINDOW 64
#define LONG_MAX_BYTES 12000
#define REGION 12288
#define PATTERN_OFFSETS 4096

static unsigned count;
static size_t medium_max, long_max;
static uint8_t *pattern; /* every payload is a piece of this */

/* Per peer: requests sent to it and replies handled from it (this node as
 * requester), requests handled from it and replies sent to it (this node
 * as target). */
static unsigned sent_to[GASNET_MAXNODES], replies_from[GASNET_MAXNODES];
static unsigned requests_from[GASNET_MAXNODES], replies_to[GASNET_MAXNODES];
static unsigned requests_handled, replies_handled; /* totals, for the waits */

/* ------------------------------------------------------------ the messages */

typedef struct {
  int cat;
  size_t nbytes;
  size_t offset; /* the payload is pattern[offset .. offset + nbytes) */
  uint32_t key;  /* the second argument */
} msg_t;

/* Message NUMBER of the stream FROM -> TO (requests or replies). */
static msg_t msg_of(gasnet_node_t from, gasnet_node_t to, unsigned number, int is_reply) {
  uint32_t h = test_mix(test_mix(test_mix(test_mix(0x0dde4u, from), to), number),
                        (uint32_t)is_reply);
  uint32_t r = h & 255, x = h >> 8;
  msg_t m = {CAT_SHORT, 0, (size_t)(test_mix(h, 1) % PATTERN_OFFSETS), test_mix(h, 2)};
  /* Requests: 44% Short, 34% small Medium, 12.5% Medium of 3000-17000 bytes,
   * 0.8% of gasnet_AMMaxMedium(), 4% small Long, 4.7% Long of 3000-12000.
   * Replies: more Shorts, no maximal Mediums. */
  unsigned shorts = is_reply ? 160 : 112, small_med = is_reply ? 208 : 200;
  unsigned big_med = 232, max_med = is_reply ? 232 : 234, small_long = 244;
  if (r < shorts) {
    m.cat = CAT_SHORT;
  } else if (r < small_med) {
    m.cat = CAT_MEDIUM;
    m.nbytes = x % 2048;
  } else if (r < big_med) {
    m.cat = CAT_MEDIUM;
    m.nbytes = 3000 + x % 14001;
  } else if (r < max_med) {
    m.cat = CAT_MEDIUM;
    m.nbytes = medium_max;
  } else if (r < small_long) {
    m.cat = CAT_LONG;
    m.nbytes = x % 2048;
  } else {
    m.cat = CAT_LONG;
    m.nbytes = 3000 + x % (LONG_MAX_BYTES - 3000 + 1);
  }
  if (m.cat == CAT_MEDIUM && m.nbytes > medium_max) m.nbytes = medium_max;
  if (m.cat == CAT_LONG && m.nbytes > long_max) m.nbytes = long_max;
  return m;
}

/* Where Long NUMBER of the stream FROM -> TO lands in TO's segment:
 * requests in the first half, replies in the second. */
static uint8_t *long_addr(gasnet_node_t from, gasnet_node_t to, unsigned number, int is_reply) {
  uintptr_t region = ((uintptr_t)is_reply * TEST_NODES + from) * WINDOW + number % WINDOW;
  return (uint8_t *)test_seg(to) + region * REGION;
}

static void send_msg(gasnet_token_t token, gasnet_node_t from, gasnet_node_t to, unsigned number,
                     int is_reply) {
  msg_t m = msg_of(from, to, number, is_reply);
  gasnet_handlerarg_t a0 = (gasnet_handlerarg_t)number, a1 = (gasnet_handlerarg_t)m.key;
  void *src = pattern + m.offset;
  int h = (is_reply ? H_REP_SHORT : H_REQ_SHORT) + m.cat;
  if (!is_reply) {
    switch (m.cat) {
      case CAT_SHORT: GASNET_Safe(gasnet_AMRequestShort2(to, h, a0, a1)); break;
      case CAT_MEDIUM: GASNET_Safe(gasnet_AMRequestMedium2(to, h, src, m.nbytes, a0, a1)); break;
      default:
        GASNET_Safe(gasnet_AMRequestLong2(to, h, src, m.nbytes,
                                          long_addr(from, to, number, 0), a0, a1));
    }
  } else {
    switch (m.cat) {
      case CAT_SHORT: GASNET_Safe(gasnet_AMReplyShort2(token, h, a0, a1)); break;
      case CAT_MEDIUM: GASNET_Safe(gasnet_AMReplyMedium2(token, h, src, m.nbytes, a0, a1)); break;
      default:
        GASNET_Safe(gasnet_AMReplyLong2(token, h, src, m.nbytes, long_addr(from, to, number, 1),
                                        a0, a1));
    }
  }
}

/* ------------------------------------------------------------ checking */

/* Checks one arrival against the next number of its stream, then against
 * the message that number names. Returns the sender. */
static gasnet_node_t check_arrival(gasnet_token_t token, int cat, int is_reply,
                                   gasnet_handlerarg_t a0, gasnet_handlerarg_t a1, void *buf,
                                   size_t nbytes) {
  gasnet_node_t src, me = TEST_MYNODE;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src < TEST_NODES, "message from node %u", (unsigned)src);
  const char *what = is_reply ? "reply" : "request";
  unsigned expected = is_reply ? replies_from[src] : requests_from[src];
  unsigned got = (unsigned)a0;
  if (got != expected)
    test_fail("%s from node %u to node %u out of order: expected number %u, got %u (a %s of %zu "
              "bytes)",
              what, (unsigned)src, (unsigned)me, expected, got, cat_name[cat], nbytes);
  msg_t m = msg_of(src, me, got, is_reply);
  TEST_CHECK(cat == m.cat && nbytes == m.nbytes && (uint32_t)a1 == m.key,
             "%s %u from node %u: got a %s of %zu bytes with key 0x%08x, sent a %s of %zu bytes "
             "with key 0x%08x",
             what, got, (unsigned)src, cat_name[cat], nbytes, (unsigned)a1, cat_name[m.cat],
             m.nbytes, (unsigned)m.key);
  if (cat == CAT_LONG)
    TEST_CHECK(buf == (void *)long_addr(src, me, got, is_reply),
               "%s %u from node %u: Long payload at %p, sent to %p", what, got, (unsigned)src, buf,
               (void *)long_addr(src, me, got, is_reply));
  if (nbytes && memcmp(buf, pattern + m.offset, nbytes)) {
    size_t bad = 0;
    while (((uint8_t *)buf)[bad] == pattern[m.offset + bad]) bad++;
    test_fail("%s %u from node %u (a %s of %zu bytes): payload byte %zu is 0x%02x, sent 0x%02x",
              what, got, (unsigned)src, cat_name[cat], nbytes, bad, ((uint8_t *)buf)[bad],
              pattern[m.offset + bad]);
  }
  return src;
}

static void on_request(gasnet_token_t token, int cat, gasnet_handlerarg_t a0,
                       gasnet_handlerarg_t a1, void *buf, size_t nbytes) {
  gasnet_node_t src = check_arrival(token, cat, 0, a0, a1, buf, nbytes);
  requests_from[src]++;
  __atomic_fetch_add(&requests_handled, 1, __ATOMIC_RELEASE);
  send_msg(token, TEST_MYNODE, src, replies_to[src]++, 1);
}

static void on_reply(gasnet_token_t token, int cat, gasnet_handlerarg_t a0,
                     gasnet_handlerarg_t a1, void *buf, size_t nbytes) {
  gasnet_node_t src = check_arrival(token, cat, 1, a0, a1, buf, nbytes);
  __atomic_store_n(&replies_from[src], replies_from[src] + 1, __ATOMIC_RELEASE);
  __atomic_fetch_add(&replies_handled, 1, __ATOMIC_RELEASE);
}

static void req_short(gasnet_token_t t, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1) {
  on_request(t, CAT_SHORT, a0, a1, NULL, 0);
}
static void req_medium(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t a0,
                       gasnet_handlerarg_t a1) {
  on_request(t, CAT_MEDIUM, a0, a1, buf, nbytes);
}
static void req_long(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t a0,
                     gasnet_handlerarg_t a1) {
  on_request(t, CAT_LONG, a0, a1, buf, nbytes);
}
static void rep_short(gasnet_token_t t, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1) {
  on_reply(t, CAT_SHORT, a0, a1, NULL, 0);
}
static void rep_medium(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t a0,
                       gasnet_handlerarg_t a1) {
  on_reply(t, CAT_MEDIUM, a0, a1, buf, nbytes);
}
static void rep_long(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t a0,
                     gasnet_handlerarg_t a1) {
  on_reply(t, CAT_LONG, a0, a1, buf, nbytes);
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv) {
  gasnet_handlerentry_t table[] = {
      {H_REQ_SHORT, (void (*)())req_short},   {H_REQ_MEDIUM, (void (*)())req_medium},
      {H_REQ_LONG, (void (*)())req_long},     {H_REP_SHORT, (void (*)())rep_short},
      {H_REP_MEDIUM, (void (*)())rep_medium}, {H_REP_LONG, (void (*)())rep_long},
  };
  test_init_only(&argc, &argv);
  uintptr_t segsize = 2 * (uintptr_t)TEST_NODES * WINDOW * REGION;
  segsize = (segsize + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
  GASNET_Safe(test_attach(table, (int)(sizeof table / sizeof table[0]), segsize));
  long_max = LONG_MAX_BYTES;
  if (gasnet_AMMaxLongRequest() < long_max) long_max = gasnet_AMMaxLongRequest();
  if (gasnet_AMMaxLongReply() < long_max) long_max = gasnet_AMMaxLongReply();

  count = TEST_NODES <= 2 ? REQUESTS_PER_NODE : REQUESTS_PER_NODE / (TEST_NODES - 1u);
  if (argc > 1) count = (unsigned)strtoul(argv[1], NULL, 10);
  TEST_CHECK(count > 0 && count < 1u << 31, "COUNT %u", count);
  medium_max = gasnet_AMMaxMedium();
  pattern = (uint8_t *)malloc(medium_max + PATTERN_OFFSETS);
  TEST_CHECK(pattern != NULL, "out of memory");
  test_fill(pattern, medium_max + PATTERN_OFFSETS, 0x5eed);
  test_print0("testamorder: %u requests from every node to every node, each answered\n", count);
  test_barrier();

  double t0 = test_now();
  gasnet_node_t me = TEST_MYNODE, n = TEST_NODES;
  for (unsigned i = 0; i < count; i++) {
    for (gasnet_node_t k = 1; k <= n; k++) {
      gasnet_node_t d = (gasnet_node_t)((me + k) % n); /* itself last */
      GASNET_BLOCKUNTIL(sent_to[d] - __atomic_load_n(&replies_from[d], __ATOMIC_ACQUIRE) < WINDOW);
      send_msg(NULL, me, d, sent_to[d]++, 0);
    }
  }
  unsigned total = count * n;
  GASNET_BLOCKUNTIL(__atomic_load_n(&replies_handled, __ATOMIC_ACQUIRE) == total &&
                    __atomic_load_n(&requests_handled, __ATOMIC_ACQUIRE) == total);
  for (gasnet_node_t s = 0; s < n; s++)
    TEST_CHECK(requests_from[s] == count && replies_from[s] == count,
               "from node %u: %u requests and %u replies handled, %u each sent", (unsigned)s,
               requests_from[s], replies_from[s], count);
  test_barrier();
  test_print0("testamorder: %u messages per node in order in %.2f s\n", 2 * total,
              test_now() - t0);
  free(pattern);
  test_finish("testamorder");
}
