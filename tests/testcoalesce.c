/* testcoalesce.c: when a request sent inside a host becomes visible to its
 * destination, with and without GASNET_AM_COALESCE (docs/user-guide.md,
 * "Packing small requests").
 *
 *   testcoalesce immediate  node 0 sends a Short and a 16-byte Medium to
 *                           every other node, then computes for 0.3 s
 *                           without calling the library: both handlers
 *                           must run before that time is up (GASNet-1
 *                           delivers a request inside a host at once)
 *   testcoalesce held       (GASNET_AM_COALESCE=1) the same requests must
 *                           run only after it: they wait in node 0's
 *                           batches until node 0 notifies a barrier
 *
 * Each node records when its handlers ran (CLOCK_MONOTONIC, the same clock
 * in every process of a host); node 0 puts the time its computing ended
 * into every node's segment before the barrier, and each node compares.
 * One node: nothing to send, passes. -e VAR=VALUE (repeatable) sets a
 * variable before gasnet_init, in every node: -e GASNET_AM_COALESCE=1. */
#include "test.h"

#include <string.h>

#define H_SHORT TEST_HIDX_FIRST
#define H_MEDIUM (TEST_HIDX_FIRST + 1)
#define COMPUTE_S 0.3

static volatile int arrived;
static double arrival_time;

static void note_arrival(void) {
  arrival_time = test_now();
  arrived++;
}

static void short_handler(gasnet_token_t token, gasnet_handlerarg_t a0) {
  (void)token;
  TEST_CHECK(a0 == 17, "Short argument %d, not 17", (int)a0);
  note_arrival();
}

static void medium_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token;
  TEST_CHECK(nbytes == 16 && memcmp(buf, "sixteen bytes!!", 16) == 0, "Medium payload damaged");
  note_arrival();
}

static gasnet_handlerentry_t table[] = {{H_SHORT, (void (*)())short_handler},
                                        {H_MEDIUM, (void (*)())medium_handler}};

/* Pure computation: no library call, so nothing the library holds can go. */
static double compute_until(double end) {
  volatile uint64_t x = 1;
  while (test_now() < end) x = x * 6364136223846793005ull + 1;
  return test_now();
}

/* -e VAR=VALUE pairs lead; the mode is the last argument. */
static void set_variables(int argc, char **argv) {
  for (int i = 1; i + 1 < argc && !strcmp(argv[i], "-e"); i += 2)
    test_setenv_pair("testcoalesce", argv[i + 1]);
}

int main(int argc, char **argv) {
  set_variables(argc, argv);
  test_init_handlers(&argc, &argv, 4096, table, 2);
  const char *word = argc >= 2 ? argv[argc - 1] : "";
  TEST_CHECK(!strcmp(word, "held") || !strcmp(word, "immediate"),
             "usage: testcoalesce [-e VAR=VALUE]... held|immediate");
  int held = !strcmp(word, "held");
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  double *computed_until = test_seg(me);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (me == 0) {
    for (gasnet_node_t p = 1; p < n; p++) {
      TEST_CHECK(gasnet_AMRequestShort1(p, H_SHORT, 17) == GASNET_OK, "Short to %u", (unsigned)p);
      TEST_CHECK(gasnet_AMRequestMedium0(p, H_MEDIUM, "sixteen bytes!!", 16) == GASNET_OK,
                 "Medium to %u", (unsigned)p);
    }
    double end = compute_until(test_now() + COMPUTE_S);
    for (gasnet_node_t p = 1; p < n; p++) gasnet_put(p, test_seg(p), &end, sizeof end);
  } else {
    GASNET_BLOCKUNTIL(arrived == 2);
  }
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (me != 0) {
    double late = arrival_time - *computed_until;
    if (held)
      TEST_CHECK(late >= 0, "node %u ran a packed request %.3f s before node 0 stopped computing",
                 (unsigned)me, -late);
    else
      TEST_CHECK(late < 0, "node %u ran a request %.3f s after node 0 stopped computing "
                 "(it was held back)", (unsigned)me, late);
  }
  test_finish(held ? "testcoalesce held" : "testcoalesce immediate");
}
