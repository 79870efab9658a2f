/* testhandlers.c: the handler table rules of gasnet_attach, and the misuse
 * of handlers that must end the job.
 *
 *   testhandlers              index 0 entries get distinct free indices in
 *                             128..255, written back; all handlers then work
 *   testhandlers all          index 0 for every free client index: succeeds
 *   testhandlers toomany      one more than that: attach must fail
 *   testhandlers dup          two entries with index 217: exit 0 iff attach
 *                             returns GASNET_ERR_BAD_ARG
 *   testhandlers dupmsg       the same, but exit 3 on BAD_ARG, so that
 *                             expect_fail.sh can check the message names 217
 *   testhandlers core         index 5 (core range): exit 0 iff BAD_ARG
 *   testhandlers ext          index 100 (extended range): exit 0 iff BAD_ARG
 *   testhandlers reqinreq     a request handler sends a request
 *   testhandlers replyinreply a reply handler replies
 *   testhandlers tworeplies   a request handler replies twice
 *   testhandlers unregistered, unregistered_long, unregistered_reply
 *                             a Short request, a Long request, a reply for
 *                             an index nobody registered
 *   testhandlers long_outside, long_reply_outside
 *                             a Long request, a Long reply, whose 8 bytes
 *                             straddle the end of the receiver's segment
 * The last eight must make the library end the job with a non-zero status
 * and a message; if the bad call returns instead, the program exits 0 so
 * that expect_fail.sh reports the failure. */
#include "test.h"

/* ------------------------------------------------------------ assignment */

#define NAUTO 6 /* index 0 entries */
#define FIXED_A 130
#define FIXED_B 200
#define NENTRIES (NAUTO + 3)

static uint64_t hits[NENTRIES];
static int acks;
static uint64_t sent_to[GASNET_MAXNODES], recv_from[GASNET_MAXNODES];

/* Handler K must be invoked only for messages that name K. */
static void hit(gasnet_token_t token, int k, gasnet_handlerarg_t arg);

#define DEFINE_HIT(K) \
  static void hit_##K(gasnet_token_t token, gasnet_handlerarg_t arg) { hit(token, K, arg); }
DEFINE_HIT(0)
DEFINE_HIT(1)
DEFINE_HIT(2)
DEFINE_HIT(3)
DEFINE_HIT(4)
DEFINE_HIT(5)
DEFINE_HIT(6)
DEFINE_HIT(7)

static void ack_handler(gasnet_token_t token) {
  (void)token;
  __atomic_fetch_add(&acks, 1, __ATOMIC_ACQ_REL);
}

/* Entries 0..NAUTO-1 ask for any index; then two fixed ones; the ack
 * handler, also index 0, comes last. */
static gasnet_handlerentry_t table[NENTRIES] = {
    {0, (void (*)())hit_0},       {0, (void (*)())hit_1},       {0, (void (*)())hit_2},
    {0, (void (*)())hit_3},       {0, (void (*)())hit_4},       {0, (void (*)())hit_5},
    {FIXED_A, (void (*)())hit_6}, {FIXED_B, (void (*)())hit_7}, {0, (void (*)())ack_handler},
};
#define ACK_ENTRY (NENTRIES - 1)

static void hit(gasnet_token_t token, int k, gasnet_handlerarg_t arg) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  TEST_CHECK(arg == k, "handler %d (index %d) ran for a message sent to handler %d", k,
             table[k].index, (int)arg);
  __atomic_fetch_add(&hits[k], 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&recv_from[src], 1, __ATOMIC_RELAXED);
  GASNET_Safe(gasnet_AMReplyShort0(token, table[ACK_ENTRY].index));
}

static void check_assigned(void) {
  for (int i = 0; i < NENTRIES; i++) {
    int idx = table[i].index;
    TEST_CHECK(idx >= 128 && idx <= 255, "entry %d got index %d", i, idx);
    TEST_CHECK(idx < TEST_HIDX_REGISTERED_FIRST, "entry %d got index %d, which test.h registered",
               i, idx);
    for (int j = 0; j < i; j++)
      TEST_CHECK(table[j].index != idx, "entries %d and %d both have index %d", j, i, idx);
  }
  TEST_CHECK(table[NAUTO].index == FIXED_A && table[NAUTO + 1].index == FIXED_B,
             "fixed indices changed to %d and %d", table[NAUTO].index, table[NAUTO + 1].index);
}

/* Every node sends every hit handler a message to every node. */
static int assign_test(int *argc, char ***argv) {
  test_init_handlers(argc, argv, 0, table, NENTRIES);
  check_assigned();
  test_print0("testhandlers: assigned");
  for (int i = 0; i < NENTRIES; i++) test_print0(" %d", table[i].index);
  test_print0("\n");
  int sent = 0;
  for (gasnet_node_t d = 0; d < TEST_NODES; d++)
    for (int k = 0; k < NENTRIES - 1; k++, sent++) {
      GASNET_Safe(gasnet_AMRequestShort1(d, table[k].index, k));
      sent_to[d]++;
    }
  GASNET_BLOCKUNTIL(__atomic_load_n(&acks, __ATOMIC_ACQUIRE) >= sent);
  TEST_CHECK(__atomic_load_n(&acks, __ATOMIC_ACQUIRE) == sent, "%d replies for %d requests",
             __atomic_load_n(&acks, __ATOMIC_ACQUIRE), sent);
  test_check_counts(sent_to, recv_from, "testhandlers");
  for (int k = 0; k < NENTRIES - 1; k++)
    TEST_CHECK(hits[k] == TEST_NODES, "handler %d ran %llu times, expected %u", k,
               (unsigned long long)hits[k], (unsigned)TEST_NODES);
  test_finish("testhandlers");
}

/* ------------------------------------------------------------ attach failures */

/* Fills N entries asking for any index, all with one function. */
static gasnet_handlerentry_t *auto_table(int n) {
  gasnet_handlerentry_t *t = (gasnet_handlerentry_t *)calloc((size_t)n, sizeof *t);
  TEST_CHECK(t != NULL, "out of memory");
  for (int i = 0; i < n; i++) t[i].fnptr = (void (*)())hit_0;
  return t;
}

/* The client range minus the handlers test.h registers. */
static int free_indices(void) { return 128 - (256 - TEST_HIDX_REGISTERED_FIRST); }

static int all_test(int *argc, char ***argv) {
  int n = free_indices();
  gasnet_handlerentry_t *t = auto_table(n);
  test_init_handlers(argc, argv, 0, t, n);
  for (int i = 0; i < n; i++) {
    TEST_CHECK(t[i].index >= 128 && t[i].index < TEST_HIDX_REGISTERED_FIRST,
               "entry %d got index %d", i, t[i].index);
    for (int j = 0; j < i; j++)
      TEST_CHECK(t[j].index != t[i].index, "entries %d and %d both got %d", j, i, t[i].index);
  }
  test_finish("testhandlers all");
}

/* Attach with table T of N entries; exit 0 (or GOOD) if attach returned one
 * of the errors wanted, 1 otherwise. */
static int expect_attach_error(int *argc, char ***argv, gasnet_handlerentry_t *t, int n, int want,
                               int also_ok, int good, const char *what) {
  test_init_only(argc, argv);
  int rc = test_attach(t, n, 0);
  if (rc == want || (also_ok && rc == also_ok)) {
    test_print0("testhandlers %s: gasnet_attach returned %s as it should\n", what,
                gasnet_ErrorName(rc));
    return good;
  }
  fprintf(stderr, "node %u: testhandlers %s: gasnet_attach returned %s (%d), expected %s\n",
          (unsigned)gasnet_mynode(), what, gasnet_ErrorName(rc), rc, gasnet_ErrorName(want));
  return 1;
}

/* One index 0 entry more than there are free indices. */
static int toomany_test(int *argc, char ***argv) {
  int n = free_indices() + 1;
  gasnet_handlerentry_t *t = auto_table(n);
  int rc =
      expect_attach_error(argc, argv, t, n, GASNET_ERR_RESOURCE, GASNET_ERR_BAD_ARG, 0, "toomany");
  free(t);
  return rc;
}

static int bad_index_test(int *argc, char ***argv, int index, int good, const char *what) {
  static gasnet_handlerentry_t t[3];
  t[0].index = 140;
  t[0].fnptr = (void (*)())hit_0;
  t[1].index = (gasnet_handler_t)index;
  t[1].fnptr = (void (*)())hit_1;
  t[2].index = (gasnet_handler_t)(index == 217 ? 217 : 141);
  t[2].fnptr = (void (*)())hit_2;
  return expect_attach_error(argc, argv, t, 3, GASNET_ERR_BAD_ARG, 0, good, what);
}

/* ------------------------------------------------------------ fatal misuse */

static void reqinreq_handler(gasnet_token_t token) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  int rc = gasnet_AMRequestShort0(src, 151); /* must not return */
  fprintf(stderr, "testhandlers: a request from a request handler returned %s\n",
          gasnet_ErrorName(rc));
  gasnet_exit(0);
}

static void replyinreply_request_handler(gasnet_token_t token) {
  GASNET_Safe(gasnet_AMReplyShort0(token, 152));
}

static void misuse_reply_handler(gasnet_token_t token) {
  int rc = gasnet_AMReplyShort0(token, 152); /* must not return */
  fprintf(stderr, "testhandlers: a reply from a reply handler returned %s\n", gasnet_ErrorName(rc));
  gasnet_exit(0);
}

static void tworeplies_handler(gasnet_token_t token) {
  GASNET_Safe(gasnet_AMReplyShort0(token, 153));
  int rc = gasnet_AMReplyShort0(token, 153); /* must not return */
  fprintf(stderr, "testhandlers: a second reply returned %s\n", gasnet_ErrorName(rc));
  gasnet_exit(0);
}

static void plain_reply_handler(gasnet_token_t token) { (void)token; }

/* Node 0 sends the message whose handler misbehaves to the last node; then
 * every node just polls. The library must end the job from the handler; if
 * the bad call returns, the handler itself reports it and exits 0. A node
 * still here after MISUSE_WAIT seconds reports that nothing happened. */
#define MISUSE_WAIT 20.0
static int misuse_test(int *argc, char ***argv, int request_index) {
  static gasnet_handlerentry_t t[] = {
      {150, (void (*)())reqinreq_handler},
      {151, (void (*)())plain_reply_handler},
      {152, (void (*)())misuse_reply_handler},
      {153, (void (*)())plain_reply_handler},
      {154, (void (*)())replyinreply_request_handler},
      {155, (void (*)())tworeplies_handler},
  };
  test_init_handlers(argc, argv, 0, t, (int)(sizeof t / sizeof t[0]));
  test_barrier();
  if (TEST_MYNODE == 0) GASNET_Safe(gasnet_AMRequestShort0(TEST_NODES - 1, request_index));
  double deadline = test_now() + MISUSE_WAIT;
  GASNET_BLOCKUNTIL(test_now() > deadline);
  fprintf(stderr, "node %u: testhandlers: no fatal error %.0fs after the misuse\n",
          (unsigned)TEST_MYNODE, MISUSE_WAIT);
  gasnet_exit(0);
}

/* A message for an index nobody registered ends the job, naming the call
 * that sent it, its sender and the index: a request (Short, or Long whose
 * payload lands first), or a reply from a registered request handler. */
static void unregistered_reply_handler(gasnet_token_t token) {
  GASNET_Safe(gasnet_AMReplyShort1(token, 203, 7));
}

static int unregistered_test(int *argc, char ***argv, const char *how) {
  static gasnet_handlerentry_t t[] = {{156, (void (*)())unregistered_reply_handler}};
  test_init_handlers(argc, argv, 1 << 20, t, 1);
  test_barrier();
  gasnet_node_t last = TEST_NODES - 1;
  if (TEST_MYNODE == 0) {
    if (!strcmp(how, "request")) {
      GASNET_Safe(gasnet_AMRequestShort2(last, 201, 1, 2));
    } else if (!strcmp(how, "long")) {
      static char payload[8192];
      char *dest = (char *)test_seg(last);
      GASNET_Safe(gasnet_AMRequestLong1(last, 202, payload, sizeof payload, dest, 3));
    } else {
      GASNET_Safe(gasnet_AMRequestShort0(last, 156));
    }
  }
  double deadline = test_now() + MISUSE_WAIT;
  GASNET_BLOCKUNTIL(test_now() > deadline);
  fprintf(stderr, "node %u: testhandlers: no fatal error %.0fs after the message\n",
          (unsigned)TEST_MYNODE, MISUSE_WAIT);
  gasnet_exit(0);
}

/* A Long whose destination runs past the end of the receiver's segment
 * ends the job at the sender, naming the call, the range and the node: a
 * request from node 0 to the last node, or the last node's reply to it. */
static char outside_payload[8];

static void *straddling_end_of(gasnet_node_t node) {
  return (char *)test_seg(node) + test_segsize(node) - 4;
}

static void long_reply_outside_handler(gasnet_token_t token) {
  gasnet_node_t src;
  GASNET_Safe(gasnet_AMGetMsgSource(token, &src));
  int rc = gasnet_AMReplyLong0(token, 158, outside_payload, sizeof outside_payload,
                               straddling_end_of(src)); /* must not return */
  fprintf(stderr, "testhandlers: a Long reply outside the segment returned %s\n",
          gasnet_ErrorName(rc));
  gasnet_exit(0);
}

static int long_outside_test(int *argc, char ***argv, int reply) {
  static gasnet_handlerentry_t t[] = {
      {157, (void (*)())long_reply_outside_handler},
      {158, (void (*)())plain_reply_handler},
  };
  test_init_handlers(argc, argv, 1 << 20, t, 2);
  test_barrier();
  gasnet_node_t last = TEST_NODES - 1;
  if (TEST_MYNODE == 0) {
    if (reply) {
      GASNET_Safe(gasnet_AMRequestShort0(last, 157));
    } else {
      int rc = gasnet_AMRequestLong0(last, 158, outside_payload, sizeof outside_payload,
                                     straddling_end_of(last)); /* must not return */
      fprintf(stderr, "testhandlers: a Long request outside the segment returned %s\n",
              gasnet_ErrorName(rc));
      gasnet_exit(0);
    }
  }
  double deadline = test_now() + MISUSE_WAIT;
  GASNET_BLOCKUNTIL(test_now() > deadline);
  fprintf(stderr, "node %u: testhandlers: no fatal error %.0fs after the Long\n",
          (unsigned)TEST_MYNODE, MISUSE_WAIT);
  gasnet_exit(0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "assign";
  if (!strcmp(mode, "assign")) return assign_test(&argc, &argv);
  if (!strcmp(mode, "all")) return all_test(&argc, &argv);
  if (!strcmp(mode, "toomany")) return toomany_test(&argc, &argv);
  if (!strcmp(mode, "dup")) return bad_index_test(&argc, &argv, 217, 0, mode);
  if (!strcmp(mode, "dupmsg")) return bad_index_test(&argc, &argv, 217, 3, mode);
  if (!strcmp(mode, "core")) return bad_index_test(&argc, &argv, 5, 0, mode);
  if (!strcmp(mode, "ext")) return bad_index_test(&argc, &argv, 100, 0, mode);
  if (!strcmp(mode, "reqinreq")) return misuse_test(&argc, &argv, 150);
  if (!strcmp(mode, "replyinreply")) return misuse_test(&argc, &argv, 154);
  if (!strcmp(mode, "tworeplies")) return misuse_test(&argc, &argv, 155);
  if (!strcmp(mode, "unregistered")) return unregistered_test(&argc, &argv, "request");
  if (!strcmp(mode, "unregistered_long")) return unregistered_test(&argc, &argv, "long");
  if (!strcmp(mode, "unregistered_reply")) return unregistered_test(&argc, &argv, "reply");
  if (!strcmp(mode, "long_outside")) return long_outside_test(&argc, &argv, 0);
  if (!strcmp(mode, "long_reply_outside")) return long_outside_test(&argc, &argv, 1);
  fprintf(stderr, "testhandlers: unknown mode '%s'\n", mode);
  return 2;
}
