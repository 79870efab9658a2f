/* coll_images.c: images (images.h): who they are, how gasnet_coll_init
 * registers them, and how their calls meet in gangs. */
#include "images/images.h"

#include <stdlib.h>

gasnete_coll_images_t gasnete_coll_images;

/* The calling thread as an image (of GASNET_TEAM_ALL). */
typedef struct {
  int registered;
  gasnet_image_t image, local;
} gasnete_coll_me_t;
#ifdef GASNETE_COLL_THREADS
static __thread gasnete_coll_me_t gasnete_coll_me;
#else
static gasnete_coll_me_t gasnete_coll_me;
#endif

/* Local images registered so far (multi mode); atomic. */
static gasnet_image_t gasnete_coll_images_registered;
static uint8_t *gasnete_coll_local_taken; /* [mine]: this local image has registered */

/* ------------------------------------------------------------ configuration */
/* The per-local-image arrays of a table whose mine is set. */
static void gasnete_coll_images_per_local(gasnete_coll_images_t *im) {
  im->next_call = gasnete_coll_calloc(im->mine, sizeof(*im->next_call));
  im->aggregate = gasnete_coll_calloc(im->mine, sizeof(*im->aggregate));
  im->barrier.notified_by = gasnete_coll_calloc(im->mine, sizeof(*im->barrier.notified_by));
  im->barrier.phase_of = gasnete_coll_calloc(im->mine, sizeof(*im->barrier.phase_of));
}

/* Check images[] and fill gasnete_coll_images from it; once per node. */
static void gasnete_coll_images_configure(const gasnet_image_t images[], const char *call) {
  gasnete_coll_images_t *im = &gasnete_coll_images;
  gasnet_node_t nodes = gasnet_nodes(), me = gasnet_mynode();
  im->first = gasnete_coll_calloc(nodes + 1u, sizeof(*im->first));
  uint64_t total = 0;
  im->max_local = 0;
  for (gasnet_node_t n = 0; n < nodes; n++) {
    gasnet_image_t k = images ? images[n] : 1;
    if (k == 0) gasneti_fatalerror("%s: images[%u] is 0; every node runs at least one image", call, (unsigned)n);
    im->first[n] = (gasnet_image_t)total;
    total += k;
    if (total > (uint64_t)(gasnet_image_t)-1 || total > (uint64_t)SSIZE_MAX)
      gasneti_fatalerror("%s: images[] adds up to more than %llu images", call,
                         (unsigned long long)(gasnet_image_t)-1);
    if (k > im->max_local) im->max_local = k;
  }
  im->first[nodes] = (gasnet_image_t)total;
  im->total = (gasnet_image_t)total;
  im->multi = total != nodes;
  im->uniform = total == (uint64_t)im->max_local * nodes;
  im->mine = images ? images[me] : 1;
  gasnete_coll_images_per_local(im);
  gasnete_coll_local_taken = gasnete_coll_calloc(im->mine, 1);
}

/* ------------------------------------------------------------ teams */
gasnete_coll_images_t *gasnete_coll_images_for_team(const gasnete_coll_team_t *team) {
  const gasnete_coll_images_t *all = &gasnete_coll_images;
  if (!all->multi) return NULL;
  gasnete_coll_images_t *im = gasnete_coll_calloc(1, sizeof(*im));
  im->first = gasnete_coll_calloc(team->size + 1u, sizeof(*im->first));
  gasnet_image_t total = 0;
  for (gasnet_node_t r = 0; r < team->size; r++) {
    gasnet_image_t k = gasnete_coll_images_on(gasnete_coll_rank2node(team, r));
    im->first[r] = total;
    total += k; /* no overflow: a subset of GASNET_TEAM_ALL's images */
    if (k > im->max_local) im->max_local = k;
  }
  im->first[team->size] = total;
  im->total = total;
  im->multi = total != team->size;
  im->uniform = total == (gasnet_image_t)(im->max_local * team->size);
  im->mine = all->mine;
  gasnete_coll_images_per_local(im);
  return im;
}

void gasnete_coll_images_free(gasnete_coll_images_t *im) {
  if (!im) return;
  free(im->first);
  free(im->next_call);
  free(im->aggregate);
  free(im->barrier.notified_by);
  free(im->barrier.phase_of);
  free(im);
}

/* Every image of a node passes the same images[]. */
static void gasnete_coll_images_same(const gasnet_image_t images[], const char *call) {
  const gasnete_coll_images_t *im = &gasnete_coll_images;
  for (gasnet_node_t n = 0; n < gasnet_nodes(); n++) {
    gasnet_image_t k = images ? images[n] : 1;
    if (k != im->first[n + 1] - im->first[n])
      gasneti_fatalerror("%s: images[%u] is %u here but %u in an earlier call on this node", call,
                         (unsigned)n, (unsigned)k, (unsigned)(im->first[n + 1] - im->first[n]));
  }
}

/* Register the calling thread as image my_image of this node. */
static void gasnete_coll_images_register(gasnet_image_t my_image, const char *call) {
  const gasnete_coll_images_t *im = &gasnete_coll_images;
  gasnet_node_t me = gasnet_mynode();
  gasnet_image_t lo = im->first[me], hi = im->first[me + 1];
  if (my_image < lo || my_image >= hi)
    gasneti_fatalerror("%s: my_image %u is not an image of node %u (its images are %u..%u)", call,
                       (unsigned)my_image, (unsigned)me, (unsigned)lo, (unsigned)(hi - 1));
  if (gasnete_coll_me.registered)
    gasneti_fatalerror("%s: called twice by the thread of image %u", call,
                       (unsigned)gasnete_coll_me.image);
  if (gasnete_coll_local_taken[my_image - lo])
    gasneti_fatalerror("%s: image %u registered twice (by two threads)", call, (unsigned)my_image);
  gasnete_coll_local_taken[my_image - lo] = 1;
  gasnete_coll_me.registered = 1;
  gasnete_coll_me.image = my_image;
  gasnete_coll_me.local = my_image - lo;
}

/* Called under gasnet_coll_init's lock, by every image (multi mode) or by
 * the one thread of the node (otherwise). */
void gasnete_coll_images_init(const gasnet_image_t images[], gasnet_image_t my_image,
                              const char *call) {
  int first_call = gasnete_coll_images.first == NULL;
  if (first_call)
    gasnete_coll_images_configure(images, call);
  else
    gasnete_coll_images_same(images, call);
  if (!gasnete_coll_images.multi) {
    if (!first_call) gasnete_coll_fatal_misuse(call, "called more than once");
    gasnete_coll_me.registered = 1;
    gasnete_coll_me.image = gasnet_mynode();
    return;
  }
  gasnete_coll_images_register(images ? my_image : (gasnet_image_t)gasnet_mynode(), call);
  __atomic_fetch_add(&gasnete_coll_images_registered, 1, __ATOMIC_ACQ_REL);
}

/* gasnet_coll_init blocks until every local image has called it. */
void gasnete_coll_images_await_all(void) {
  unsigned spins = 0;
  while (gasnete_coll_images.multi &&
         __atomic_load_n(&gasnete_coll_images_registered, __ATOMIC_ACQUIRE) < gasnete_coll_images.mine)
    gasneti_wait_step(&spins);
}

gasnet_image_t gasnete_coll_my_image(const char *call) {
  if (!gasnete_coll_me.registered)
    gasneti_fatalerror("%s: called by a thread that is not an image (with several images per "
                       "node, each image's thread calls gasnet_coll_init first)",
                       call);
  return gasnete_coll_me.image;
}

gasnet_image_t gasnete_coll_my_local_image(const char *call) {
  gasnete_coll_my_image(call);
  return gasnete_coll_me.local;
}

gasnet_image_t gasnete_coll_team_my_image(const gasnete_coll_team_t *team, const char *call) {
  const gasnete_coll_images_t *im = gasnete_coll_team_images(team);
  gasnet_image_t local = gasnete_coll_my_local_image(call);
  return im->multi ? im->first[team->myrank] + local : (gasnet_image_t)team->myrank;
}

/* ------------------------------------------------------------ gangs */
/* Open gangs by (team, call number). An image thousands of _nb calls
 * ahead of its siblings leaves as many gangs open, and each of theirs
 * must find its own among them. */
static gasnete_coll_seq_table_t gasnete_coll_gangs = GASNETE_COLL_SEQ_TABLE_INIT(64);

static gasnete_coll_gang_t *gasnete_coll_gang_new(gasnete_coll_team_t *team, uint32_t seq,
                                                  const gasnete_coll_args_t *args, const char *call) {
  gasnet_image_t mine = gasnete_coll_images.mine;
  gasnete_coll_gang_t *g = gasnete_coll_calloc(1, sizeof(*g));
  g->key.team_id = team->id;
  g->key.seq = seq;
  g->team = team;
  g->args = *args;
  g->call = call;
  g->dst = gasnete_coll_calloc(mine, sizeof(*g->dst));
  g->src = gasnete_coll_calloc(mine, sizeof(*g->src));
  g->handles = gasnete_coll_calloc(mine, sizeof(*g->handles));
  gasnete_coll_seq_add(&gasnete_coll_gangs, &g->key);
  return g;
}

static gasnete_coll_gang_t *gasnete_coll_gang_find(const gasnete_coll_team_t *team, uint32_t seq) {
  /* the key is a gang's first member */
  return (gasnete_coll_gang_t *)gasnete_coll_seq_find(&gasnete_coll_gangs, team->id, seq);
}

/* The single-valued arguments of the images of a node agree (a check that
 * costs no communication). */
static void gasnete_coll_gang_check(const gasnete_coll_gang_t *g, const gasnete_coll_args_t *a,
                                    const char *call) {
  const gasnete_coll_args_t *f = &g->args;
  const gasnete_coll_reduce_args_t *x = &f->red, *y = &a->red;
  const char *what = NULL;
  if (f->kind != a->kind)
    what = "a different collective";
  else if (f->nbytes != a->nbytes)
    what = "another nbytes / elem_size";
  else if (f->root != a->root)
    what = "another root image";
  else if (f->flags != a->flags)
    what = "other flags";
  else if (x->src_blksz != y->src_blksz || x->src_offset != y->src_offset ||
           x->dst_blksz != y->dst_blksz || x->dst_offset != y->dst_offset ||
           x->elem_count != y->elem_count || x->func != y->func || x->func_arg != y->func_arg)
    what = "another layout, count or function";
  if (what)
    gasneti_fatalerror("%s: image %u calls it with %s than %s (call %u on team id %u of every "
                       "image on node %u)",
                       call, (unsigned)gasnete_coll_me.image, what, g->call, (unsigned)g->key.seq,
                       (unsigned)g->team->id, (unsigned)gasnet_mynode());
}

/* This image's handle for its next call on a team, as coll_api.c does
 * for a node. */
static gasnete_coll_handle_t *gasnete_coll_image_handle(const gasnete_coll_images_t *im, int flags) {
  gasnete_coll_handle_t **open = &im->aggregate[gasnete_coll_me.local];
  gasnete_coll_handle_t *h = *open ? *open : gasnete_coll_handle_new();
  __atomic_fetch_add(&h->pending, 1, __ATOMIC_ACQ_REL);
  *open = (flags & GASNET_COLL_AGGREGATE) ? h : NULL;
  return h;
}

gasnet_coll_handle_t gasnete_coll_images_initiate(gasnete_coll_team_t *team,
                                                  const gasnete_coll_args_t *args, int blocking,
                                                  const char *call) {
  (void)blocking; /* checked by the caller */
  gasnete_coll_my_image(call);
  const gasnete_coll_images_t *im = gasnete_coll_team_images(team);
  gasnete_coll_handle_t *h = gasnete_coll_image_handle(im, args->flags);
  uint32_t seq = im->next_call[gasnete_coll_me.local]++;
  gasnete_coll_lock();
  gasnete_coll_gang_t *g = gasnete_coll_gang_find(team, seq);
  if (g)
    gasnete_coll_gang_check(g, args, call);
  else
    g = gasnete_coll_gang_new(team, seq, args, call);
  gasnet_image_t local = gasnete_coll_me.local;
  g->dst[local] = args->dst;
  g->src[local] = args->src;
  g->handles[local] = h;
  if (++g->arrived == gasnete_coll_images.mine) {
    /* Started in the same critical section as the last arrival, so the
     * gangs of successive calls start their ops in call order. */
    gasnete_coll_seq_remove(&gasnete_coll_gangs, &g->key);
    gasnete_coll_images_start(g);
  }
  gasnete_coll_unlock();
  gasnete_coll_kick();
  if (args->flags & GASNET_COLL_AGGREGATE) return GASNET_COLL_INVALID_HANDLE;
  return h;
}
