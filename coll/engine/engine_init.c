/* engine_init.c: the engine's globals (the team of all nodes, this node's
 * segment, whether gasnet_coll_init has run), its part of
 * gasnet_coll_init, and the error and memory helpers every floor uses. */
#include "engine/engine.h"

#include <stdlib.h>

gasnete_coll_team_t gasnete_coll_team_all;
int gasnete_coll_initialized;
gasnet_seginfo_t gasnete_coll_myseg;

void gasnete_coll_fatal_misuse(const char *call, const char *what) {
  gasneti_fatalerror("%s: %s", call, what);
}

void *gasnete_coll_malloc(size_t nbytes) {
  void *p = malloc(nbytes ? nbytes : 1);
  if (!p) gasneti_fatalerror("gasnet_coll: failed to allocate %zu bytes", nbytes);
  return p;
}

void *gasnete_coll_calloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) gasneti_fatalerror("gasnet_coll: failed to allocate %zu x %zu bytes", count, size);
  return p;
}

void gasnete_coll_engine_setup(const char *call) {
  gasnet_seginfo_t *segs = calloc(gasnet_nodes() ? gasnet_nodes() : 1, sizeof(*segs));
  if (!segs || gasnet_getSegmentInfo(segs, (int)gasnet_nodes()) != GASNET_OK)
    gasnete_coll_fatal_misuse(call, "called before gasnet_attach");
  gasnete_coll_myseg = segs[gasnet_mynode()];
  free(segs);
  gasnete_coll_team_all.id = 0;
  gasnete_coll_team_all.size = gasnet_nodes();
  gasnete_coll_team_all.myrank = gasnet_mynode();
  gasnete_coll_team_all.next_seq = 0;
  gasnete_coll_engine_init();
}
