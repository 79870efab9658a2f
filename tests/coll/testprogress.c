/* testprogress.c: does a collective advance while a node's client neither
 * polls nor syncs? Every node starts an IN_ALLSYNC|OUT_ALLSYNC broadcast
 * (its dissemination rounds need every node to take part after the
 * start), then node 1 sleeps without calling GASNet while the others wait
 * for the broadcast.
 *
 *   testprogress -p   the library's progress thread is on
 *                     (GASNET_COLL_PROGRESS_THREAD=1): the others finish
 *                     long before node 1 wakes up;
 *   testprogress -c   control, thread off: they cannot finish before node
 *                     1 wakes up and polls (shows the test can tell).
 * Needs at least 2 nodes; PAR build. */
#include <gasnet.h>
#include <gasnet_coll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define SLEEP_S 2.0

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Sleep without entering GASNet (nanosleep resumes after signals). */
static void sleep_without_polling(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static void node_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

int main(int argc, char **argv) {
  int progress = argc > 1 && !strcmp(argv[1], "-p");
  int control = argc > 1 && !strcmp(argv[1], "-c");
  if (progress) setenv("GASNET_COLL_PROGRESS_THREAD", "1", 1);
  if (control) setenv("GASNET_COLL_PROGRESS_THREAD", "0", 1);
  GASNET_Safe(gasnet_init(&argc, &argv));
  GASNET_Safe(gasnet_attach(NULL, 0, 1 << 20, 0));
  if (!progress && !control) {
    if (gasnet_mynode() == 0) fprintf(stderr, "usage: testprogress -p | -c\n");
    gasnet_exit(2);
  }
  if (gasnet_nodes() < 2) {
    if (gasnet_mynode() == 0) printf("testprogress: needs 2 nodes; skipped\n");
    gasnet_exit(77);
  }
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  char src[64], dst[64];
  memset(src, 7, sizeof src);
  node_barrier();
  double t0 = now_s();
  gasnet_coll_handle_t h =
      gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, dst, 0, src, sizeof src,
                               GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC | GASNET_COLL_LOCAL);
  if (gasnet_mynode() == 1) sleep_without_polling(SLEEP_S);
  gasnet_coll_wait_sync(h);
  double took = now_s() - t0;
  if (dst[0] != 7 || dst[63] != 7) {
    fprintf(stderr, "testprogress: node %u: wrong data\n", (unsigned)gasnet_mynode());
    gasnet_exit(1);
  }
  /* Node 0's time says it all: it needs node 1's signals. */
  int ok = 1;
  if (gasnet_mynode() == 0) {
    ok = progress ? took < SLEEP_S / 2 : took >= SLEEP_S * 0.9;
    printf("testprogress: progress thread %s: node 0 finished after %.3f s while node 1 "
           "slept %.1f s: %s\n",
           progress ? "on" : "off", took, SLEEP_S, ok ? "PASS" : "FAIL");
  }
  node_barrier();
  gasnet_exit(ok ? 0 : 1);
  return 0;
}
