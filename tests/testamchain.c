/* testamchain.c: long request/reply chains and flow control.
 *
 * 1. Pairs (0-1, 2-3, ...; an odd node out plays with itself) ping-pong
 *    thousands of rounds, both partners at once, cycling through
 *    Short->Short, Medium->Long and Long->Medium request->reply.
 * 2. A token goes round the ring of all nodes many times as a Medium
 *    request; every hop checks the token's value and payload.
 * 3. Every node floods node 0 with Short, Medium and Long requests without
 *    waiting for replies, so node 0's queues fill and senders must be held
 *    back (and keep polling) without deadlock. Node 0 checks that each
 *    message arrives exactly once. */
#include "test.h"

enum {
  H_PING_SHORT = TEST_HIDX_FIRST,
  H_PONG_SHORT,
  H_PING_MEDIUM,
  H_PONG_LONG,
  H_PING_LONG,
  H_PONG_MEDIUM,
  H_TOKEN,
  H_TOKEN_ACK,
  H_FLOOD_SHORT,
  H_FLOOD_MEDIUM,
  H_FLOOD_LONG,
  H_FLOOD_ACK,
};

#define PING_ROUNDS 3000 /* per pair, each a full request/reply */
#define PING_MAX 8192    /* largest ping payload */
#define RING_HOPS 2000   /* token hops in total, rounded up to whole laps */
#define FLOOD_SHORT 12000
#define FLOOD_MEDIUM 4000
#define FLOOD_LONG 3000
#define FLOOD_WINDOW 64 /* Long requests in flight per sender */
#define FLOOD_SLOT 512  /* bytes per Long flood slot; payloads 1..FLOOD_SLOT */

/* Segment layout (every node): ping Long requests land in [0, PING_MAX),
 * ping Long replies in [PING_MAX, 2*PING_MAX); on node 0 the flood slots
 * follow, FLOOD_WINDOW per sender. */
#define SEG_PING_REQ 0
#define SEG_PING_REP PING_MAX
#define SEG_FLOOD (2 * PING_MAX)

static uint64_t sent_to[GASNET_MAXNODES], recv_from[GASNET_MAXNODES];

static gasnet_node_t msg_source(gasnet_token_t token) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src < TEST_NODES, "message from node %u", (unsigned)src);
  return src;
}

static void count_request(gasnet_node_t src) {
  __atomic_fetch_add(&recv_from[src], 1, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------ ping-pong */

static gasnet_node_t partner;
static int pong_round = -1; /* last round whose reply arrived */

static uint32_t ping_seed(gasnet_node_t from, gasnet_node_t to, int round) {
  return test_mix(test_mix(test_mix(0x9179u, from), to), (uint32_t)round);
}

/* Payload sizes vary with the round: 0 .. PING_MAX, odd ones included. */
static size_t ping_size(int round) {
  return (size_t)((uint32_t)round * 2654435761u >> 7) % (PING_MAX + 1);
}

/* The reply handlers all end here: the round must be the one in flight. */
static void pong_arrived(gasnet_token_t token, int round) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK(src == partner, "pong from %u, partner is %u", (unsigned)src, (unsigned)partner);
  int want = __atomic_load_n(&pong_round, __ATOMIC_ACQUIRE) + 1;
  TEST_CHECK(round == want, "pong for round %d while round %d is in flight", round, want);
  __atomic_store_n(&pong_round, round, __ATOMIC_RELEASE);
}

static void ping_short_handler(gasnet_token_t token, gasnet_handlerarg_t round,
                               gasnet_handlerarg_t check) {
  gasnet_node_t src = msg_source(token);
  count_request(src);
  TEST_CHECK((uint32_t)check == ping_seed(src, TEST_MYNODE, round), "ping %d from %u: bad arg",
             (int)round, (unsigned)src);
  GASNET_Safe(gasnet_AMReplyShort2(token, H_PONG_SHORT, round,
                                   (gasnet_handlerarg_t)ping_seed(TEST_MYNODE, src, round)));
}

static void pong_short_handler(gasnet_token_t token, gasnet_handlerarg_t round,
                               gasnet_handlerarg_t check) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK((uint32_t)check == ping_seed(src, TEST_MYNODE, round), "pong %d from %u: bad arg",
             (int)round, (unsigned)src);
  pong_arrived(token, round);
}

/* Medium ping: the reply is a Long of the same size into the pinger's
 * segment, filled from a buffer in this node's private memory. */
static void ping_medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                gasnet_handlerarg_t round) {
  gasnet_node_t src = msg_source(token), me = TEST_MYNODE;
  count_request(src);
  TEST_CHECK(nbytes == ping_size(round), "Medium ping %d: %zu bytes", (int)round, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, ping_seed(src, me, round), "Medium ping payload");
  static uint8_t out[PING_MAX]; /* one handler at a time: single-threaded test */
  test_fill(out, nbytes, ping_seed(me, src, round));
  GASNET_Safe(gasnet_AMReplyLong1(token, H_PONG_LONG, out, nbytes,
                                  (uint8_t *)test_seg(src) + SEG_PING_REP, round));
}

static void pong_long_handler(gasnet_token_t token, void *buf, size_t nbytes,
                              gasnet_handlerarg_t round) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK(nbytes == ping_size(round), "Long pong %d: %zu bytes", (int)round, nbytes);
  TEST_CHECK(nbytes == 0 || buf == (uint8_t *)test_seg(TEST_MYNODE) + SEG_PING_REP,
             "Long pong %d landed at %p", (int)round, buf);
  TEST_CHECK_PATTERN(buf, nbytes, ping_seed(src, TEST_MYNODE, round), "Long pong payload");
  pong_arrived(token, round);
}

/* Long ping: the reply is a Medium echo with the replier's pattern. */
static void ping_long_handler(gasnet_token_t token, void *buf, size_t nbytes,
                              gasnet_handlerarg_t round) {
  gasnet_node_t src = msg_source(token), me = TEST_MYNODE;
  count_request(src);
  TEST_CHECK(nbytes == ping_size(round), "Long ping %d: %zu bytes", (int)round, nbytes);
  TEST_CHECK(nbytes == 0 || buf == (uint8_t *)test_seg(me) + SEG_PING_REQ,
             "Long ping %d landed at %p", (int)round, buf);
  TEST_CHECK_PATTERN(buf, nbytes, ping_seed(src, me, round), "Long ping payload");
  static uint8_t out[PING_MAX];
  test_fill(out, nbytes, ping_seed(me, src, round));
  GASNET_Safe(gasnet_AMReplyMedium1(token, H_PONG_MEDIUM, out, nbytes, round));
}

static void pong_medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                gasnet_handlerarg_t round) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK(nbytes == ping_size(round), "Medium pong %d: %zu bytes", (int)round, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, ping_seed(src, TEST_MYNODE, round), "Medium pong payload");
  pong_arrived(token, round);
}

static void ping_pong(void) {
  gasnet_node_t me = TEST_MYNODE;
  static uint8_t out[PING_MAX];
  partner = (me ^ 1) < TEST_NODES ? (me ^ 1) : me;
  for (int round = 0; round < PING_ROUNDS; round++) {
    size_t nbytes = ping_size(round);
    uint32_t seed = ping_seed(me, partner, round);
    switch (round % 3) {
    case 0:
      GASNET_Safe(gasnet_AMRequestShort2(partner, H_PING_SHORT, round, (gasnet_handlerarg_t)seed));
      break;
    case 1:
      test_fill(out, nbytes, seed);
      GASNET_Safe(gasnet_AMRequestMedium1(partner, H_PING_MEDIUM, out, nbytes, round));
      break;
    default:
      test_fill(out, nbytes, seed);
      GASNET_Safe(gasnet_AMRequestLong1(partner, H_PING_LONG, out, nbytes,
                                        (uint8_t *)test_seg(partner) + SEG_PING_REQ, round));
      break;
    }
    sent_to[partner]++;
    GASNET_BLOCKUNTIL(__atomic_load_n(&pong_round, __ATOMIC_ACQUIRE) == round);
  }
}

/* ------------------------------------------------------------ ring */

static int token_value = -1; /* the last token this node received */

static uint32_t token_seed(int value) { return test_mix(0x70c3u, (uint32_t)value); }
static size_t token_size(int value) { return (size_t)(value * 97) % 3001; }

static void token_handler(gasnet_token_t token, void *buf, size_t nbytes,
                          gasnet_handlerarg_t value) {
  gasnet_node_t src = msg_source(token), me = TEST_MYNODE;
  count_request(src);
  TEST_CHECK(src == (me + TEST_NODES - 1) % TEST_NODES, "token from %u", (unsigned)src);
  TEST_CHECK((gasnet_node_t)value % TEST_NODES == me, "token value %d at node %u", (int)value,
             (unsigned)me);
  TEST_CHECK(nbytes == token_size(value), "token %d: %zu bytes", (int)value, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, token_seed(value), "token payload");
  __atomic_store_n(&token_value, (int)value, __ATOMIC_RELEASE);
  GASNET_Safe(gasnet_AMReplyShort1(token, H_TOKEN_ACK, value));
}

static int token_acked = -1;
static void token_ack_handler(gasnet_token_t token, gasnet_handlerarg_t value) {
  (void)msg_source(token);
  __atomic_store_n(&token_acked, (int)value, __ATOMIC_RELEASE);
}

static void send_token(int value) {
  static uint8_t out[3001];
  gasnet_node_t next = (TEST_MYNODE + 1) % TEST_NODES;
  test_fill(out, token_size(value), token_seed(value));
  GASNET_Safe(gasnet_AMRequestMedium1(next, H_TOKEN, out, token_size(value), value));
  sent_to[next]++;
  GASNET_BLOCKUNTIL(__atomic_load_n(&token_acked, __ATOMIC_ACQUIRE) == value);
}

/* Token value v is sent by node v % nodes to the next node; node 0 sends
 * value 0 and each receiver of value v sends v + 1 until the last lap. */
static void ring(void) {
  int n = (int)TEST_NODES, me = (int)TEST_MYNODE;
  int laps = (RING_HOPS + n - 1) / n;
  int last = laps * n; /* node 0 receives this one and stops */
  if (me == 0) send_token(1);
  for (int v = me == 0 ? n : me; v <= last; v += n) {
    GASNET_BLOCKUNTIL(__atomic_load_n(&token_value, __ATOMIC_ACQUIRE) >= v);
    int got = __atomic_load_n(&token_value, __ATOMIC_ACQUIRE);
    TEST_CHECK(got == v, "token %d arrived while waiting for %d", got, v);
    if (v < last) send_token(v + 1);
  }
}

/* ------------------------------------------------------------ flood */

static uint8_t *flood_seen;               /* node 0: [src][seq] delivered */
static int flood_acks;                    /* replies this node has seen */
static int flood_slot_busy[FLOOD_WINDOW]; /* Long slot still unacknowledged */

static uint32_t flood_seed(gasnet_node_t src, int seq) {
  return test_mix(test_mix(0xf100du, src), (uint32_t)seq);
}
static size_t flood_medium_size(int seq) { return 1 + (size_t)seq * 7 % 1024; }
static size_t flood_long_size(int seq) { return 1 + (size_t)seq * 13 % FLOOD_SLOT; }
static uint8_t *flood_slot(gasnet_node_t src, int seq) {
  return (uint8_t *)test_seg(0) + SEG_FLOOD +
         ((uintptr_t)src * FLOOD_WINDOW + (uintptr_t)(seq % FLOOD_WINDOW)) * FLOOD_SLOT;
}

#define FLOOD_TOTAL (FLOOD_SHORT + FLOOD_MEDIUM + FLOOD_LONG)

/* Marks SEQ from SRC delivered (exactly once) and acknowledges it. */
static void flood_arrived(gasnet_token_t token, gasnet_node_t src, int seq) {
  count_request(src);
  TEST_CHECK(TEST_MYNODE == 0, "flood message at node %u", (unsigned)TEST_MYNODE);
  TEST_CHECK(seq >= 0 && seq < FLOOD_TOTAL, "flood seq %d from %u", seq, (unsigned)src);
  uint8_t *seen = &flood_seen[(size_t)src * FLOOD_TOTAL + (size_t)seq];
  TEST_CHECK(*seen == 0, "flood message %d from %u delivered twice", seq, (unsigned)src);
  *seen = 1;
  GASNET_Safe(gasnet_AMReplyShort1(token, H_FLOOD_ACK, seq));
}

static void flood_short_handler(gasnet_token_t token, gasnet_handlerarg_t seq,
                                gasnet_handlerarg_t check) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK((uint32_t)check == flood_seed(src, seq), "flood Short %d from %u: bad arg", (int)seq,
             (unsigned)src);
  flood_arrived(token, src, seq);
}

static void flood_medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                 gasnet_handlerarg_t seq) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK(nbytes == flood_medium_size(seq), "flood Medium %d: %zu bytes", (int)seq, nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, flood_seed(src, seq), "flood Medium payload");
  flood_arrived(token, src, seq);
}

static void flood_long_handler(gasnet_token_t token, void *buf, size_t nbytes,
                               gasnet_handlerarg_t seq) {
  gasnet_node_t src = msg_source(token);
  TEST_CHECK(nbytes == flood_long_size(seq), "flood Long %d: %zu bytes", (int)seq, nbytes);
  TEST_CHECK(buf == flood_slot(src, seq), "flood Long %d from %u landed at %p", (int)seq,
             (unsigned)src, buf);
  TEST_CHECK_PATTERN(buf, nbytes, flood_seed(src, seq), "flood Long payload");
  flood_arrived(token, src, seq);
}

static void flood_ack_handler(gasnet_token_t token, gasnet_handlerarg_t seq) {
  TEST_CHECK(msg_source(token) == 0, "flood ack from a node other than 0");
  if (seq >= FLOOD_SHORT + FLOOD_MEDIUM)
    __atomic_store_n(&flood_slot_busy[seq % FLOOD_WINDOW], 0, __ATOMIC_RELEASE);
  __atomic_fetch_add(&flood_acks, 1, __ATOMIC_ACQ_REL);
}

static int acks(void) { return __atomic_load_n(&flood_acks, __ATOMIC_ACQUIRE); }

/* Short and Medium requests go out back to back: nothing waits for a reply
 * until all are sent. Long requests reuse FLOOD_WINDOW slots in node 0's
 * segment; a slot is rewritten only after its previous message was acked
 * (replies may come back in any order). */
static void flood(void) {
  gasnet_node_t me = TEST_MYNODE;
  static uint8_t out[1024];
  int seq = 0;
  for (; seq < FLOOD_SHORT; seq++)
    GASNET_Safe(
        gasnet_AMRequestShort2(0, H_FLOOD_SHORT, seq, (gasnet_handlerarg_t)flood_seed(me, seq)));
  for (; seq < FLOOD_SHORT + FLOOD_MEDIUM; seq++) {
    test_fill(out, flood_medium_size(seq), flood_seed(me, seq));
    GASNET_Safe(gasnet_AMRequestMedium1(0, H_FLOOD_MEDIUM, out, flood_medium_size(seq), seq));
  }
  GASNET_BLOCKUNTIL(acks() >= seq); /* the Long slots' earlier users are done */
  for (; seq < FLOOD_TOTAL; seq++) {
    int *busy = &flood_slot_busy[seq % FLOOD_WINDOW];
    GASNET_BLOCKUNTIL(!__atomic_load_n(busy, __ATOMIC_ACQUIRE));
    __atomic_store_n(busy, 1, __ATOMIC_RELEASE);
    test_fill(out, flood_long_size(seq), flood_seed(me, seq));
    GASNET_Safe(gasnet_AMRequestLong1(0, H_FLOOD_LONG, out, flood_long_size(seq),
                                      flood_slot(me, seq), seq));
  }
  sent_to[0] += FLOOD_TOTAL;
  GASNET_BLOCKUNTIL(acks() >= FLOOD_TOTAL); /* more fails below rather than hangs */
  TEST_CHECK(acks() == FLOOD_TOTAL, "%d flood replies for %d requests", acks(), FLOOD_TOTAL);
}

static void check_flood(void) {
  if (TEST_MYNODE != 0) return;
  for (gasnet_node_t src = 0; src < TEST_NODES; src++)
    for (int seq = 0; seq < FLOOD_TOTAL; seq++)
      TEST_CHECK(flood_seen[(size_t)src * FLOOD_TOTAL + (size_t)seq],
                 "flood message %d from %u never arrived", seq, (unsigned)src);
}

/* ------------------------------------------------------------ main */

static gasnet_handlerentry_t handlers[] = {
    {H_PING_SHORT, (void (*)())ping_short_handler},
    {H_PONG_SHORT, (void (*)())pong_short_handler},
    {H_PING_MEDIUM, (void (*)())ping_medium_handler},
    {H_PONG_LONG, (void (*)())pong_long_handler},
    {H_PING_LONG, (void (*)())ping_long_handler},
    {H_PONG_MEDIUM, (void (*)())pong_medium_handler},
    {H_TOKEN, (void (*)())token_handler},
    {H_TOKEN_ACK, (void (*)())token_ack_handler},
    {H_FLOOD_SHORT, (void (*)())flood_short_handler},
    {H_FLOOD_MEDIUM, (void (*)())flood_medium_handler},
    {H_FLOOD_LONG, (void (*)())flood_long_handler},
    {H_FLOOD_ACK, (void (*)())flood_ack_handler},
};

int main(int argc, char **argv) {
  test_init_only(&argc, &argv);
  uintptr_t seg = SEG_FLOOD + (uintptr_t)TEST_NODES * FLOOD_WINDOW * FLOOD_SLOT;
  GASNET_Safe(test_attach(handlers, (int)(sizeof handlers / sizeof handlers[0]), seg));
  flood_seen = (uint8_t *)calloc((size_t)TEST_NODES * FLOOD_TOTAL, 1);
  TEST_CHECK(flood_seen != NULL, "out of memory");
  test_barrier();

  double t0 = test_now();
  ping_pong();
  test_barrier();
  double t1 = test_now();
  ring();
  test_barrier();
  double t2 = test_now();
  flood();
  test_barrier();
  double t3 = test_now();
  check_flood();
  test_check_counts(sent_to, recv_from, "testamchain requests");
  test_print0("testamchain: ping-pong %.2fs, ring %.2fs, flood %.2fs\n", t1 - t0, t2 - t1, t3 - t2);
  test_finish("testamchain");
}
