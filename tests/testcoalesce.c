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
 *   testcoalesce sizes      node 0 sends every other node a Medium of each
 *                           size from 0 to SIZES_MAX bytes and requests
 *                           with 3 and 5 arguments, back to back; each
 *                           must arrive whole (packing copies short
 *                           payloads and arguments by size class)
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
#define H_SIZED (TEST_HIDX_FIRST + 2)
#define H_ARGS3 (TEST_HIDX_FIRST + 3)
#define H_ARGS5 (TEST_HIDX_FIRST + 4)
#define COMPUTE_S 0.3
#define SIZES_MAX 40

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

/* sizes: byte k of the payload of size n. */
static uint8_t sized_byte(size_t n, size_t k) { return (uint8_t)(n * 7 + k * 13 + 1); }

static volatile int sized_arrived;

static void sized_handler(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token;
  const uint8_t *p = buf;
  TEST_CHECK(nbytes <= SIZES_MAX, "Medium of %zu bytes, more than sent", nbytes);
  for (size_t k = 0; k < nbytes; k++)
    TEST_CHECK(p[k] == sized_byte(nbytes, k), "Medium of %zu bytes: byte %zu is %u, not %u",
               nbytes, k, (unsigned)p[k], (unsigned)sized_byte(nbytes, k));
  sized_arrived++;
}

static void args3_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t a0,
                          gasnet_handlerarg_t a1, gasnet_handlerarg_t a2) {
  (void)token;
  TEST_CHECK(a0 == 301 && a1 == -302 && a2 == 303, "3 arguments: %d %d %d", (int)a0, (int)a1,
             (int)a2);
  TEST_CHECK(nbytes == 5 && memcmp(buf, "five", 5) == 0, "Medium with 3 arguments damaged");
  sized_arrived++;
}

static void args5_handler(gasnet_token_t token, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1,
                          gasnet_handlerarg_t a2, gasnet_handlerarg_t a3, gasnet_handlerarg_t a4) {
  (void)token;
  TEST_CHECK(a0 == 501 && a1 == 502 && a2 == -503 && a3 == 504 && a4 == 505,
             "5 arguments: %d %d %d %d %d", (int)a0, (int)a1, (int)a2, (int)a3, (int)a4);
  sized_arrived++;
}

static gasnet_handlerentry_t table[] = {{H_SHORT, (void (*)())short_handler},
                                        {H_MEDIUM, (void (*)())medium_handler},
                                        {H_SIZED, (void (*)())sized_handler},
                                        {H_ARGS3, (void (*)())args3_handler},
                                        {H_ARGS5, (void (*)())args5_handler}};

/* sizes: node 0 sends, the others check what arrives. */
static void send_sizes(gasnet_node_t dest) {
  uint8_t buf[SIZES_MAX];
  for (size_t n = 0; n <= SIZES_MAX; n++) {
    for (size_t k = 0; k < n; k++) buf[k] = sized_byte(n, k);
    TEST_CHECK(gasnet_AMRequestMedium0(dest, H_SIZED, buf, n) == GASNET_OK, "Medium of %zu bytes",
               n);
  }
  TEST_CHECK(gasnet_AMRequestMedium3(dest, H_ARGS3, "five", 5, 301, -302, 303) == GASNET_OK,
             "Medium with 3 arguments");
  TEST_CHECK(gasnet_AMRequestShort5(dest, H_ARGS5, 501, 502, -503, 504, 505) == GASNET_OK,
             "Short with 5 arguments");
}

static void sizes(void) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  if (me == 0)
    for (gasnet_node_t p = 1; p < n; p++) send_sizes(p);
  else
    GASNET_BLOCKUNTIL(sized_arrived == SIZES_MAX + 3);
  test_finish("testcoalesce sizes");
}

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
  test_init_handlers(&argc, &argv, 4096, table, sizeof table / sizeof table[0]);
  const char *word = argc >= 2 ? argv[argc - 1] : "";
  TEST_CHECK(!strcmp(word, "held") || !strcmp(word, "immediate") || !strcmp(word, "sizes"),
             "usage: testcoalesce [-e VAR=VALUE]... held|immediate|sizes");
  if (!strcmp(word, "sizes")) sizes();
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
