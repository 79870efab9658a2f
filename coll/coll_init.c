/* coll_init.c: gasnet_coll_init, the team of all nodes, the reduction
 * function table, and the shared error and memory helpers. */
#include "coll_images.h"
#include "reduce_builtin.h"

#include <stdlib.h>

gasnete_coll_team_t gasnete_coll_team_all;
int gasnete_coll_initialized;

/* The client's reduction functions, by index (reduce and scan use them). */
gasnet_coll_fn_entry_t *gasnete_coll_fn_table;
size_t gasnete_coll_fn_count;
/* Which entries are built-in functions, found once (reduce_apply.c applies
 * those through their typed loops). */
gasnete_coll_builtin_t *gasnete_coll_fn_builtins;

/* This node's segment, for the SRC/DST_IN_SEGMENT checks. */
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

/* Serialises the images of a node in gasnet_coll_init. */
#ifdef GASNETE_COLL_THREADS
static pthread_mutex_t gasnete_coll_init_mutex = PTHREAD_MUTEX_INITIALIZER;
static void gasnete_coll_init_lock(void) { pthread_mutex_lock(&gasnete_coll_init_mutex); }
static void gasnete_coll_init_unlock(void) { pthread_mutex_unlock(&gasnete_coll_init_mutex); }
#else
static void gasnete_coll_init_lock(void) {}
static void gasnete_coll_init_unlock(void) {}
#endif

/* What the first gasnet_coll_init call of a node sets up. */
static void gasnete_coll_node_init(const gasnet_coll_fn_entry_t fn_tbl[], size_t fn_count,
                                   const char *call) {
  gasnet_seginfo_t *segs = calloc(gasnet_nodes() ? gasnet_nodes() : 1, sizeof(*segs));
  if (!segs || gasnet_getSegmentInfo(segs, (int)gasnet_nodes()) != GASNET_OK)
    gasnete_coll_fatal_misuse(call, "called before gasnet_attach");
  gasnete_coll_myseg = segs[gasnet_mynode()];
  free(segs);
  gasnete_coll_fn_table = gasnete_coll_calloc(fn_count, sizeof(*fn_tbl));
  if (fn_count) memcpy(gasnete_coll_fn_table, fn_tbl, fn_count * sizeof(*fn_tbl));
  gasnete_coll_fn_count = fn_count;
  gasnete_coll_fn_builtins = gasnete_coll_calloc(fn_count, sizeof(*gasnete_coll_fn_builtins));
  for (size_t i = 0; i < fn_count; i++)
    gasnete_coll_fn_builtins[i] = gasnete_coll_builtin_of(fn_tbl[i].fnptr);
  gasnete_coll_team_all.id = 0;
  gasnete_coll_team_all.size = gasnet_nodes();
  gasnete_coll_team_all.myrank = gasnet_mynode();
  gasnete_coll_team_all.next_seq = 0;
  gasnete_coll_hier_learn(&gasnete_coll_team_all, call);
  gasnete_coll_engine_init();
  gasnete_coll_select_init();
  int progress_thread = gasnete_coll_progress_init();
  gasneti_wait_threads_hint(gasnete_coll_images.mine + (progress_thread ? 1u : 0u));
}

/* With images, every image's thread calls this (coll_images.h); the first
 * call of a node sets the library up, and every call returns once all the
 * node's images have made theirs. */
void gasnet_coll_init(const gasnet_image_t images[], gasnet_image_t my_image,
                      const gasnet_coll_fn_entry_t fn_tbl[], size_t fn_count, int init_flags) {
  static const char call[] = "gasnet_coll_init";
  static int node_done;
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
  if (init_flags != 0) gasneti_fatalerror("%s: init_flags 0x%x must be 0", call, (unsigned)init_flags);
  if (fn_count && !fn_tbl) gasneti_fatalerror("%s: fn_tbl is NULL with fn_count %zu", call, fn_count);
#ifdef GASNET_SEQ
  if (images)
    gasneti_fatalerror("%s: images must be NULL in a GASNET_SEQ build (got %p)", call,
                       (const void *)images);
#endif
  gasnete_coll_init_lock();
  gasnete_coll_images_init(images, my_image, call);
  if (!node_done) {
    gasnete_coll_node_init(fn_tbl, fn_count, call);
    node_done = 1;
    __atomic_store_n(&gasnete_coll_initialized, 1, __ATOMIC_RELEASE);
  }
  gasnete_coll_init_unlock();
  gasnete_coll_images_await_all();
}
