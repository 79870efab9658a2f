/* api_init.c: gasnet_coll_init. The first call of a node sets up every
 * floor, lowest first: the engine, the patterns' settings, the operations'
 * algorithm tables and the client's reduction functions, the progress
 * thread; with images, every image's thread calls it (images/images.h),
 * and every call returns once all the node's images have made theirs. */
#include "api/api.h"
#include "ops/ops.h"
#include "patterns/coll_hier.h"
#include "patterns/coll_readfan.h"
#include "patterns/coll_tree.h"

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
  gasnete_coll_engine_setup(call);
  gasnete_coll_hier_learn(&gasnete_coll_team_all, call);
  gasnete_coll_tree_init();
  gasnete_coll_readfan_init();
  gasnete_coll_ops_init();
  gasnete_coll_fn_register(fn_tbl, fn_count);
  gasnete_coll_select_init();
  int progress_thread = gasnete_coll_progress_init();
  gasneti_wait_threads_hint(gasnete_coll_images.mine + (progress_thread ? 1u : 0u));
}

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
