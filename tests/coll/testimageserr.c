/* testimageserr.c: misuse of images (several threads per node) ends the job
 * with a message naming the call and the value. One scenario per run;
 * tests/expect_fail.sh checks the message and the non-zero exit. PAR build.
 *
 *   zero      images[] has a 0
 *   range     an image passes a my_image of another node
 *   twice     two threads register the same image
 *   notimage  a thread that never called gasnet_coll_init starts a collective
 *   team      making a team (only GASNET_TEAM_ALL exists with several images)
 *   mismatch  two images of a node disagree on nbytes
 *   barrier   a team barrier with GASNET_BARRIERFLAG_IMAGES */
#include <gasnet.h>
#include <gasnet_coll.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define IMAGES 2 /* per node */

static const char *scenario;
static gasnet_image_t images_per_node[256];

static gasnet_image_t my_first_image(void) { return (gasnet_image_t)(gasnet_mynode() * IMAGES); }

static int is(const char *name) { return !strcmp(scenario, name); }

/* What image `local` of this node does. */
static void *image_main(void *arg) {
  gasnet_image_t local = (gasnet_image_t)(uintptr_t)arg;
  gasnet_image_t me = my_first_image() + local;
  if (is("range") && local == 1) me = (gasnet_image_t)((gasnet_mynode() + 1) * IMAGES) % (IMAGES * gasnet_nodes() + 1);
  if (is("twice") && local == 1) me = my_first_image();
  gasnet_coll_init(images_per_node, me, NULL, 0, 0);
  char buf[64] = {0}, out[64 * IMAGES * 8];
  int flags = GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL;
  if (is("team") && local == 1) {
    /* Teams are made by one thread per node: the created one, so that the
     * main thread is still waiting in pthread_join when the job ends (no
     * finished, unjoined thread for ThreadSanitizer to report as leaked). */
    gasnet_team_handle_t team = gasnet_coll_team_split(GASNET_TEAM_ALL, 0, gasnet_mynode(), NULL);
    gasnet_coll_broadcast(team, out, 0, buf, 8, flags);
  } else if (is("mismatch")) {
    gasnet_coll_broadcast(GASNET_TEAM_ALL, out, 0, buf, local ? 16 : 8, flags);
  } else if (is("barrier")) {
    gasnet_coll_barrier_notify(GASNET_TEAM_ALL, 0, GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_IMAGES);
  }
  return NULL;
}

/* A thread of the process that is no image. */
static void *stranger_main(void *arg) {
  (void)arg;
  char buf[8] = {0}, out[8];
  gasnet_coll_broadcast(GASNET_TEAM_ALL, out, 0, buf, 8,
                        GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
  return NULL;
}

int main(int argc, char **argv) {
  GASNET_Safe(gasnet_init(&argc, &argv));
  GASNET_Safe(gasnet_attach(NULL, 0, 1 << 20, 0));
  scenario = argc > 1 ? argv[1] : "";
  if (gasnet_nodes() > 255) gasnet_exit(77);
  for (gasnet_node_t n = 0; n < gasnet_nodes(); n++) images_per_node[n] = IMAGES;
  if (is("zero")) images_per_node[gasnet_nodes() - 1] = 0;
  pthread_t t;
  pthread_create(&t, NULL, image_main, (void *)(uintptr_t)1);
  image_main((void *)(uintptr_t)0);
  pthread_join(t, NULL);
  if (is("notimage")) {
    pthread_create(&t, NULL, stranger_main, NULL);
    pthread_join(t, NULL);
  }
  printf("testimageserr: scenario '%s' was not caught\n", scenario);
  gasnet_exit(0);
  return 0;
}
