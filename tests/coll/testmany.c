/* testmany.c: GASNET_COLL_MAX_OUTSTANDING (65535) non-blocking broadcasts
 * in flight at once, in each of the three sync-mode pairs, then one
 * gasnet_coll_wait_sync_all; every destination checked. The engine must
 * not slow down with the number of ops merely in flight, so this finishes
 * in seconds (the case's timeout is generous: completion is what is
 * tested; times are printed).
 *
 * With -I K (testmany-par) every node runs K images (threads), and image 0
 * of each node issues all its broadcasts before the node's other images
 * issue any: every call of image 0 waits for its siblings' in an open
 * gang, and each sibling's call must find its own among all of them.
 * Every image checks its own destinations.
 *
 *   testmany[-par] [-n COUNT] [-I K] */
#include <gasnet.h>
#include <gasnet_coll.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(GASNET_PAR)
#include <pthread.h>
#endif

#include "test.h"

static size_t count = GASNET_COLL_MAX_OUTSTANDING;
static unsigned images = 1; /* per node */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t value_of(size_t i, int mode) { return (uint64_t)i * 2654435761u + (uint64_t)mode; }

#if defined(GASNET_PAR)
static pthread_barrier_t node_images;
static void images_barrier(void) { pthread_barrier_wait(&node_images); }
#else
static void images_barrier(void) {}
#endif

/* The nodes meet: one thread per node calls it. */
static void node_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_Safe(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

/* Every image of the job: this node's meet, then image 0 meets the other
 * nodes. */
static void job_barrier(unsigned local) {
  images_barrier();
  if (local == 0) node_barrier();
  images_barrier();
}

typedef struct {
  unsigned local; /* this image's number on its node */
  uint64_t *src, *dst;
  gasnet_coll_handle_t *h;
} image_t;

static void initiate(image_t *im, int flags) {
  gasnet_image_t all = (gasnet_image_t)(gasnet_nodes() * images);
  for (size_t i = 0; i < count; i++)
    im->h[i] = gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, &im->dst[i], (gasnet_image_t)(i % all),
                                        &im->src[i], sizeof(uint64_t), flags | GASNET_COLL_LOCAL);
}

/* count broadcasts from rotating roots, each of its own 8-byte value;
 * image 0 of every node first (alone when there are several). */
static int run_mode(image_t *im, int mode, int flags) {
  gasnet_node_t me = gasnet_mynode();
  for (size_t i = 0; i < count; i++) {
    im->src[i] = value_of(i, mode);
    im->dst[i] = 0;
  }
  job_barrier(im->local);
  double t0 = now_s();
  if (im->local == 0) initiate(im, flags);
  images_barrier(); /* the other images start once image 0 is done */
  if (im->local != 0) initiate(im, flags);
  double t1 = now_s();
  gasnet_coll_wait_sync_all(im->h, count);
  double t2 = now_s();
  for (size_t i = 0; i < count; i++)
    if (im->dst[i] != value_of(i, mode)) {
      fprintf(stderr, "testmany: node %u image %u: broadcast %zu (mode %d) holds %llx, not %llx\n",
              (unsigned)me, im->local, i, mode, (unsigned long long)im->dst[i],
              (unsigned long long)value_of(i, mode));
      return 0;
    }
  if (me == 0 && im->local == images - 1)
    printf("testmany: %zu outstanding broadcasts, %s, %u image(s) per node: initiated in %.3f s, "
           "synced in %.3f s\n",
           count, mode == 0 ? "NOSYNC" : mode == 1 ? "MYSYNC" : "ALLSYNC", images, t1 - t0,
           t2 - t1);
  job_barrier(im->local);
  return 1;
}

static void *run_image(void *arg) {
  image_t *im = arg;
  gasnet_image_t *per_node = NULL;
  if (images > 1) {
    per_node = malloc(gasnet_nodes() * sizeof(*per_node));
    if (!per_node) gasnet_exit(2);
    for (gasnet_node_t n = 0; n < gasnet_nodes(); n++) per_node[n] = images;
  }
  gasnet_coll_init(per_node, per_node ? gasnet_mynode() * images + im->local : 0, NULL, 0, 0);
  im->src = malloc(count * sizeof(*im->src));
  im->dst = malloc(count * sizeof(*im->dst));
  im->h = malloc(count * sizeof(*im->h));
  if (!im->src || !im->dst || !im->h) gasnet_exit(2);
  static const int modes[3] = {GASNET_COLL_IN_NOSYNC | GASNET_COLL_OUT_NOSYNC,
                               GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC,
                               GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC};
  for (int m = 0; m < 3; m++)
    if (!run_mode(im, m, modes[m])) gasnet_exit(1);
  free(im->src);
  free(im->dst);
  free(im->h);
  free(per_node);
  return NULL;
}

static void parse_args(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n"))
      count = strtoul(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "-I"))
      images = (unsigned)strtoul(argv[i + 1], NULL, 10);
    else
      break;
  }
  if (argc % 2 == 0 || count == 0 || count > GASNET_COLL_MAX_OUTSTANDING || images == 0) {
    fprintf(stderr, "usage: testmany[-par] [-n 1..%u] [-I IMAGES]\n",
            (unsigned)GASNET_COLL_MAX_OUTSTANDING);
    gasnet_exit(2);
  }
#if !defined(GASNET_PAR)
  if (images > 1) {
    fprintf(stderr, "testmany: -I %u needs testmany-par (a GASNET_PAR build)\n", images);
    gasnet_exit(2);
  }
#endif
}

int main(int argc, char **argv) {
  GASNET_Safe(gasnet_init(&argc, &argv));
  GASNET_Safe(gasnet_attach(NULL, 0, 1 << 20, 0));
  parse_args(argc, argv);
  image_t *ims = calloc(images, sizeof(*ims));
  if (!ims) gasnet_exit(2);
  for (unsigned j = 0; j < images; j++) ims[j].local = j;
#if defined(GASNET_PAR)
  pthread_t *threads = calloc(images, sizeof(*threads));
  if (!threads || pthread_barrier_init(&node_images, NULL, images)) gasnet_exit(2);
  for (unsigned j = 1; j < images; j++)
    if (pthread_create(&threads[j], NULL, run_image, &ims[j])) gasnet_exit(2);
#endif
  run_image(&ims[0]);
#if defined(GASNET_PAR)
  for (unsigned j = 1; j < images; j++) pthread_join(threads[j], NULL);
  free(threads);
#endif
  if (gasnet_mynode() == 0) printf("testmany: PASS (%u nodes)\n", (unsigned)gasnet_nodes());
  free(ims);
  node_barrier(); /* the image threads are gone: no images_barrier now */
  gasnet_exit(0);
  return 0;
}
