/* testscale.c: more nodes than cores. Rounds of all-to-all Short and Medium
 * requests (each replied to), each round closed by an AM barrier after
 * which every node checks it got exactly one of each from every node for
 * that round. Meant for 8 and 16 nodes on a small machine: it must finish
 * in seconds, so waiting must not starve the processes that hold the
 * messages being waited for. */
#include "test.h"

#define ROUNDS 40
#define PAYLOAD 256

enum { H_SHORT = TEST_HIDX_FIRST, H_MEDIUM, H_ACK };

static int arrived[ROUNDS][2]; /* [round][Short, Medium] messages handled */
static int acks;
static uint64_t sent_to[GASNET_MAXNODES], recv_from[GASNET_MAXNODES];

static uint32_t seed(gasnet_node_t from, gasnet_node_t to, int round) {
  return test_mix(test_mix(test_mix(0x5ca1eu, from), to), (uint32_t)round);
}

static gasnet_node_t source_of(gasnet_token_t token) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(src < TEST_NODES, "message from node %u", (unsigned)src);
  return src;
}

static void arrive(gasnet_token_t token, gasnet_node_t src, int round, int kind) {
  TEST_CHECK(round >= 0 && round < ROUNDS, "round %d from node %u", round, (unsigned)src);
  __atomic_fetch_add(&arrived[round][kind], 1, __ATOMIC_ACQ_REL);
  __atomic_fetch_add(&recv_from[src], 1, __ATOMIC_RELAXED);
  GASNET_Safe(gasnet_AMReplyShort0(token, H_ACK));
}

static void short_handler(gasnet_token_t token, gasnet_handlerarg_t round,
                          gasnet_handlerarg_t check) {
  gasnet_node_t src = source_of(token);
  TEST_CHECK((uint32_t)check == seed(src, TEST_MYNODE, round), "round %d Short from %u: bad arg",
             (int)round, (unsigned)src);
  arrive(token, src, round, 0);
}

static void medium_handler(gasnet_token_t token, void *buf, size_t nbytes,
                           gasnet_handlerarg_t round) {
  gasnet_node_t src = source_of(token);
  TEST_CHECK(nbytes == PAYLOAD, "round %d Medium from %u: %zu bytes", (int)round, (unsigned)src,
             nbytes);
  TEST_CHECK_PATTERN(buf, nbytes, seed(src, TEST_MYNODE, round), "Medium payload");
  arrive(token, src, round, 1);
}

static void ack_handler(gasnet_token_t token) {
  (void)token;
  __atomic_fetch_add(&acks, 1, __ATOMIC_ACQ_REL);
}

static gasnet_handlerentry_t handlers[] = {
    {H_SHORT, (void (*)())short_handler},
    {H_MEDIUM, (void (*)())medium_handler},
    {H_ACK, (void (*)())ack_handler},
};

/* Everyone sends to everyone, starting at its right neighbour so that no
 * node is everybody's first target. */
static void all_to_all(int round) {
  gasnet_node_t me = TEST_MYNODE;
  uint8_t out[PAYLOAD];
  for (gasnet_node_t k = 1; k <= TEST_NODES; k++) {
    gasnet_node_t d = (me + k) % TEST_NODES;
    GASNET_Safe(gasnet_AMRequestShort2(d, H_SHORT, round, (gasnet_handlerarg_t)seed(me, d, round)));
    test_fill(out, PAYLOAD, seed(me, d, round));
    GASNET_Safe(gasnet_AMRequestMedium1(d, H_MEDIUM, out, PAYLOAD, round));
    sent_to[d] += 2;
  }
}

int main(int argc, char **argv) {
  test_init_handlers(&argc, &argv, 0, handlers, (int)(sizeof handlers / sizeof handlers[0]));
  test_barrier();
  double t0 = test_now();
  for (int round = 0; round < ROUNDS; round++) {
    all_to_all(round);
    /* >=: a duplicated message must fail the checks below, not hang here. */
    int want = 2 * (round + 1) * (int)TEST_NODES;
    GASNET_BLOCKUNTIL(__atomic_load_n(&acks, __ATOMIC_ACQUIRE) >= want);
    test_barrier(); /* everyone's round is complete */
    TEST_CHECK(__atomic_load_n(&acks, __ATOMIC_ACQUIRE) == want,
               "round %d: %d replies, expected %d", round, __atomic_load_n(&acks, __ATOMIC_ACQUIRE),
               want);
    for (int kind = 0; kind < 2; kind++) {
      int got = __atomic_load_n(&arrived[round][kind], __ATOMIC_ACQUIRE);
      TEST_CHECK(got == (int)TEST_NODES, "round %d: %d %s messages arrived, expected %u", round,
                 got, kind ? "Medium" : "Short", (unsigned)TEST_NODES);
    }
  }
  double t1 = test_now();
  test_check_counts(sent_to, recv_from, "testscale requests");
  test_print0("testscale: %u nodes, %d all-to-all rounds with barriers in %.2fs\n",
              (unsigned)TEST_NODES, ROUNDS, t1 - t0);
  test_finish("testscale");
}
