/* testmany.c: GASNET_COLL_MAX_OUTSTANDING (65535) non-blocking broadcasts
 * in flight at once, in each of the three sync-mode pairs, then one
 * gasnet_coll_wait_sync_all; every destination checked. The engine must
 * not slow down with the number of ops merely in flight, so this finishes
 * in seconds (the case's timeout is generous: completion is what is
 * tested; times are printed).
 *
 *   testmany [-n COUNT]   (default GASNET_COLL_MAX_OUTSTANDING) */
#include <gasnet.h>
#include <gasnet_coll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t value_of(size_t i, int mode) { return (uint64_t)i * 2654435761u + (uint64_t)mode; }

static void node_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

/* count broadcasts from rotating roots, each of its own 8-byte value. */
static int run_mode(size_t count, int mode, int flags, uint64_t *src, uint64_t *dst,
                    gasnet_coll_handle_t *h) {
  gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
  for (size_t i = 0; i < count; i++) {
    src[i] = value_of(i, mode);
    dst[i] = 0;
  }
  node_barrier();
  double t0 = now_s();
  for (size_t i = 0; i < count; i++)
    h[i] = gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, &dst[i], (gasnet_image_t)(i % n), &src[i],
                                    sizeof(uint64_t), flags | GASNET_COLL_LOCAL);
  double t1 = now_s();
  gasnet_coll_wait_sync_all(h, count);
  double t2 = now_s();
  for (size_t i = 0; i < count; i++)
    if (dst[i] != value_of(i, mode)) {
      fprintf(stderr, "testmany: node %u: broadcast %zu (mode %d) holds %llx, not %llx\n",
              (unsigned)me, i, mode, (unsigned long long)dst[i],
              (unsigned long long)value_of(i, mode));
      return 0;
    }
  if (me == 0)
    printf("testmany: %zu outstanding broadcasts, %s: initiated in %.3f s, synced in %.3f s\n",
           count, mode == 0 ? "NOSYNC" : mode == 1 ? "MYSYNC" : "ALLSYNC", t1 - t0, t2 - t1);
  node_barrier();
  return 1;
}

int main(int argc, char **argv) {
  GASNET_Safe(gasnet_init(&argc, &argv));
  GASNET_Safe(gasnet_attach(NULL, 0, 1 << 20, 0));
  size_t count = GASNET_COLL_MAX_OUTSTANDING;
  if (argc == 3 && !strcmp(argv[1], "-n")) count = strtoul(argv[2], NULL, 10);
  gasnet_coll_init(NULL, 0, NULL, 0, 0);
  uint64_t *src = malloc(count * sizeof(*src)), *dst = malloc(count * sizeof(*dst));
  gasnet_coll_handle_t *h = malloc(count * sizeof(*h));
  if (!src || !dst || !h) gasnet_exit(2);
  static const int modes[3] = {GASNET_COLL_IN_NOSYNC | GASNET_COLL_OUT_NOSYNC,
                               GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC,
                               GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC};
  for (int m = 0; m < 3; m++)
    if (!run_mode(count, m, modes[m], src, dst, h)) gasnet_exit(1);
  if (gasnet_mynode() == 0) printf("testmany: PASS (%u nodes)\n", (unsigned)gasnet_nodes());
  node_barrier();
  gasnet_exit(0);
  return 0;
}
