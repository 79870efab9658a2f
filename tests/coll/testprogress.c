/* testprogress.c: does a collective advance while a node's client neither
 * polls nor syncs? Node 1 starts its part, then sleeps without calling
 * GASNet while the others wait for the collective; node 0's time says
 * whether anything advanced node 1's part meanwhile.
 *
 *   testprogress -p [put]  the library's progress thread is on
 *                          (GASNET_COLL_PROGRESS_THREAD=1): node 0
 *                          finishes long before node 1 wakes up;
 *   testprogress -c [put]  control, thread off: node 0 cannot finish
 *                          before node 1 wakes up and polls (shows the
 *                          test can tell).
 *
 * Without `put`: every node starts an IN_ALLSYNC|OUT_ALLSYNC broadcast
 * (its dissemination rounds need every node to take part after the
 * start). With `put`: the put algorithm of each of broadcast (root 1),
 * scatter (root 1), gather (root 0), gather_all and exchange, LOCAL,
 * IN_ALLSYNC|OUT_MYSYNC, in the segment; node 0 starts its five only
 * after node 1 has gone to sleep, so node 1's in-sync, and therefore its
 * puts into node 0, can only happen while it sleeps: node 0 needs node
 * 1's data, which only the progress thread can move. Data is checked
 * byte for byte. Needs at least 2 nodes; PAR build. */
#include "coll_test.h"

#include <time.h>

#define SLEEP_S 2.0
#define LATE_S 0.3 /* put: node 0 starts this long after node 1 went to sleep */
#define PUT_BYTES 4096
#define MAX_NODES 64 /* put: the segment holds 2 x 5 buffers of PUT_BYTES x nodes */

/* Sleep without entering GASNet (nanosleep resumes after signals). */
static void sleep_without_polling(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

/* Node 1 sleeps from its start; node 0's time from its start to done. */
static double run_broadcast(void) {
  char src[64], dst[64];
  memset(src, 7, sizeof src);
  memset(dst, 0, sizeof dst);
  coll_barrier();
  double t0 = test_now();
  gasnet_coll_handle_t h =
      gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, dst, 0, src, sizeof src,
                               GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC | GASNET_COLL_LOCAL);
  if (TEST_MYNODE == 1) sleep_without_polling(SLEEP_S);
  gasnet_coll_wait_sync(h);
  double took = test_now() - t0;
  TEST_CHECK(dst[0] == 7 && dst[63] == 7, "broadcast: wrong data");
  return took;
}

static gasnet_node_t put_root(int op) { return op == OP_GATHER ? 0 : 1; }

/* The five put collectives at once, each with its own src and dst in the
 * segment. Returns node 0's time from its start to done. */
static double run_puts(void) {
  gasnet_node_t n = TEST_NODES, me = TEST_MYNODE;
  size_t room = (size_t)PUT_BYTES * n;
  unsigned char *seg = test_seg(me);
  unsigned char *src[OP_COUNT], *dst[OP_COUNT];
  gasnet_coll_handle_t h[OP_COUNT];
  for (int o = 0; o < OP_COUNT; o++) {
    src[o] = seg + (size_t)(2 * o) * room;
    dst[o] = seg + (size_t)(2 * o + 1) * room;
    coll_fill_src(o, (uint32_t)o, PUT_BYTES, n, me, src[o]);
    memset(dst[o], 0, room);
  }
  int flags = GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL |
              GASNET_COLL_SRC_IN_SEGMENT | GASNET_COLL_DST_IN_SEGMENT;
  coll_barrier();
  if (me == 0) sleep_without_polling(LATE_S);
  double t0 = test_now();
  for (int o = 0; o < OP_COUNT; o++)
    h[o] = coll_initiate(o, 0, dst[o], src[o], put_root(o), PUT_BYTES, flags);
  if (me == 1) sleep_without_polling(SLEEP_S);
  gasnet_coll_wait_sync_all(h, OP_COUNT);
  double took = test_now() - t0;
  for (int o = 0; o < OP_COUNT; o++) {
    if (!op_uses_dst(o, put_root(o), me)) continue;
    uint32_t seed = 0;
    long bad = coll_dst_mismatch(o, (uint32_t)o, PUT_BYTES, put_root(o), n, me, dst[o], &seed);
    TEST_CHECK(bad < 0, "%s (put): dst byte %ld differs from pattern 0x%x", op_names[o], bad,
               (unsigned)seed);
  }
  return took;
}

int main(int argc, char **argv) {
  int progress = argc > 1 && !strcmp(argv[1], "-p");
  int control = argc > 1 && !strcmp(argv[1], "-c");
  int puts_mode = argc > 2 && !strcmp(argv[2], "put");
  int usage_ok = (progress || control) && (argc == 2 || (argc == 3 && puts_mode));
  if (progress) setenv("GASNET_COLL_PROGRESS_THREAD", "1", 1);
  if (control) setenv("GASNET_COLL_PROGRESS_THREAD", "0", 1);
  if (puts_mode)
    for (int o = 0; o < OP_COUNT; o++) setenv(op_env[o], "put", 1);
  test_init(&argc, &argv, (uintptr_t)(2 * OP_COUNT * PUT_BYTES) * MAX_NODES);
  if (!usage_ok) {
    test_print0("usage: testprogress -p | -c [put]\n");
    gasnet_exit(2);
  }
  if (TEST_NODES < 2) {
    test_print0("testprogress: needs 2 nodes; skipped\n");
    gasnet_exit(77);
  }
  TEST_CHECK(!puts_mode || TEST_NODES <= MAX_NODES, "put: %u nodes, at most %u",
             (unsigned)TEST_NODES, (unsigned)MAX_NODES);
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  double took = puts_mode ? run_puts() : run_broadcast();
  /* Node 0's time says it all: it needs node 1's part. */
  double late = puts_mode ? LATE_S : 0.0;
  int ok = 1;
  if (TEST_MYNODE == 0) {
    ok = progress ? took < SLEEP_S / 2 : took >= (SLEEP_S - late) * 0.9;
    printf("testprogress: %s, progress thread %s: node 0 finished after %.3f s while node 1 "
           "slept %.1f s: %s\n",
           puts_mode ? "put algorithms" : "broadcast", progress ? "on" : "off", took, SLEEP_S,
           ok ? "PASS" : "FAIL");
  }
  coll_barrier();
  gasnet_exit(ok ? 0 : 1);
  return 0;
}
