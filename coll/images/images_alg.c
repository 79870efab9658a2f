/* images_alg.c: the node-level op of a full gang (images.h).
 *
 * The op runs under the engine like any other, with the gang's sync modes:
 * IN_ALLSYNC waits for every node (so for every image: a gang starts only
 * when all of its node's images have called), OUT_ALLSYNC waits until
 * every node has handed its results out. Its algorithm is a wrapper:
 *   pack:   copy the images' sources into one node buffer (the first time
 *           it runs, i.e. after the IN sync);
 *   inner:  an ordinary node algorithm, chosen by the selector for the
 *           node-level arguments, run on a copy of the op (its messages
 *           carry the op's own tags, so the inner algorithm may itself be
 *           a composite);
 *   unpack: copy the node result to every image's destination.
 * Node buffers hold max_local blocks per node, so a node with fewer images
 * leaves some unused; where the layouts already agree (uniform image
 * counts, or one destination) the inner algorithm reads or writes the
 * image's own buffer and the copy is skipped.
 *
 * Block (node n, local image j) of a node-level buffer of blocks of nb
 * bytes is at ((n * I) + j) * nb, I = max_local; an exchange's node block
 * for the pair (local image a of node m, local image b of node n) is at
 * ((m * I + a) * I + b) * nb in node m's send buffer to n. */
#include "images/images.h"
#include "images/images_reduce.h"

#include <stdlib.h>


/* The images of the gang's team; "nodes" below are its ranks. */
static const gasnete_coll_images_t *images_of(const gasnete_coll_gang_t *g) {
  return gasnete_coll_team_images(g->team);
}

typedef struct {
  gasnete_coll_op_t inner; /* the op as the inner algorithm sees it */
  void *owned_src, *owned_dst; /* scratch buffers, given back at cleanup */
  size_t owned_src_size, owned_dst_size;
  int packed, unpacked;
  gasnete_coll_images_red_t *red; /* reduce and scan */
} images_op_t;

/* ------------------------------------------------------------ scratch
 * Node buffers are kept for the next op instead of freed: large fresh
 * allocations come from the kernel as new pages, and faulting them in
 * costs more than the copies themselves. A few buffers are kept (ops in
 * flight at once each need their own), the largest first to go when
 * there are too many. Engine lock held (setup and cleanup run under it). */
#define IMAGES_KEPT_BUFFERS 8
typedef struct {
  void *buf;
  size_t size;
} images_kept_t;
static images_kept_t images_kept[IMAGES_KEPT_BUFFERS];

static void *images_scratch_get(size_t nbytes, size_t *size_p) {
  int best = -1;
  for (int i = 0; i < IMAGES_KEPT_BUFFERS; i++)
    if (images_kept[i].buf && images_kept[i].size >= nbytes &&
        (best < 0 || images_kept[i].size < images_kept[best].size))
      best = i;
  if (best < 0) {
    *size_p = nbytes;
    return gasnete_coll_malloc(nbytes);
  }
  void *buf = images_kept[best].buf;
  *size_p = images_kept[best].size;
  images_kept[best].buf = NULL;
  return buf;
}

static void images_scratch_put(void *buf, size_t size) {
  if (!buf) return;
  int slot = -1;
  for (int i = 0; i < IMAGES_KEPT_BUFFERS && slot < 0; i++)
    if (!images_kept[i].buf) slot = i;
  if (slot < 0) { /* full: drop the largest kept one, or this one */
    slot = 0;
    for (int i = 1; i < IMAGES_KEPT_BUFFERS; i++)
      if (images_kept[i].size > images_kept[slot].size) slot = i;
    if (images_kept[slot].size < size) {
      free(buf);
      return;
    }
    free(images_kept[slot].buf);
  }
  images_kept[slot].buf = buf;
  images_kept[slot].size = size;
}

static char *images_src_scratch(images_op_t *p, size_t nbytes) {
  p->owned_src = images_scratch_get(nbytes, &p->owned_src_size);
  return p->owned_src;
}
static char *images_dst_scratch(images_op_t *p, size_t nbytes) {
  p->owned_dst = images_scratch_get(nbytes, &p->owned_dst_size);
  return p->owned_dst;
}

/* The node-level arguments of a gang: sizes per node, root node. */
static void images_node_args(gasnete_coll_args_t *node, const gasnete_coll_gang_t *g) {
  size_t nb = g->args.nbytes, I = images_of(g)->max_local;
  node->root = gasnete_coll_image_rank(images_of(g), g->team->size, g->args.root);
  switch (g->args.kind) {
    case GASNETE_COLL_BROADCAST: node->nbytes = nb; break;
    case GASNETE_COLL_SCATTER:
    case GASNETE_COLL_GATHER:
    case GASNETE_COLL_GATHER_ALL: node->nbytes = I * nb; break;
    case GASNETE_COLL_EXCHANGE: node->nbytes = I * I * nb; break;
    default: gasnete_coll_images_red_node_args(node, g); break;
  }
}

/* ------------------------------------------------------------ buffers */
/* Where the inner algorithm reads and writes on this node. */
static void images_inner_buffers(gasnete_coll_op_t *op, images_op_t *p, gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_images_t *im = images_of(g);
  gasnet_node_t me = op->team->myrank, nodes = op->team->size;
  gasnet_image_t f = im->first[me];
  int uniform = im->uniform, root = op->args.root == me;
  size_t all = (size_t)nodes * op->args.nbytes; /* a gathered node buffer */
  in->src = g->src[0];
  in->dst = g->dst[0];
  switch (g->args.kind) {
    case GASNETE_COLL_BROADCAST:
      if (root) in->src = g->src[g->args.root - f];
      break;
    case GASNETE_COLL_SCATTER:
      if (root) in->src = uniform ? g->src[g->args.root - f] : images_src_scratch(p, all);
      in->dst = images_dst_scratch(p, op->args.nbytes);
      break;
    case GASNETE_COLL_GATHER:
      in->src = images_src_scratch(p, op->args.nbytes);
      if (root) in->dst = uniform ? g->dst[g->args.root - f] : images_dst_scratch(p, all);
      break;
    case GASNETE_COLL_GATHER_ALL:
      in->src = images_src_scratch(p, op->args.nbytes);
      if (!uniform) in->dst = images_dst_scratch(p, all);
      break;
    case GASNETE_COLL_EXCHANGE:
      in->src = images_src_scratch(p, all);
      in->dst = images_dst_scratch(p, all);
      break;
    default: gasnete_coll_images_red_buffers(op, &p->red, in); break;
  }
}

/* ------------------------------------------------------------ pack */
/* Image blocks of a node-level buffer laid out (n, j) -> (n * I + j),
 * to_node: from the images' buffer into the node buffer, or back. */
static void images_shuttle_rows(const gasnete_coll_gang_t *g, char *node_buf, char *image_buf,
                                size_t nb, int to_node) {
  const gasnete_coll_images_t *im = images_of(g);
  size_t I = im->max_local;
  for (gasnet_node_t n = 0; n < g->team->size; n++)
    for (gasnet_image_t j = 0; j < gasnete_coll_images_at(im, n); j++) {
      char *nodes_block = node_buf + ((size_t)n * I + j) * nb;
      char *images_block = image_buf + (size_t)(im->first[n] + j) * nb;
      if (to_node) memcpy(nodes_block, images_block, nb); else memcpy(images_block, nodes_block, nb);
    }
}

static void images_pack_exchange(const gasnete_coll_op_t *op, const gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_images_t *im = images_of(g);
  size_t nb = g->args.nbytes, I = im->max_local;
  char *out = in->src;
  for (gasnet_node_t m = 0; m < op->team->size; m++)
    for (gasnet_image_t a = 0; a < im->mine; a++)
      for (gasnet_image_t b = 0; b < gasnete_coll_images_at(im, m); b++)
        memcpy(out + (((size_t)m * I + a) * I + b) * nb,
               (const char *)g->src[a] + (size_t)(im->first[m] + b) * nb, nb);
}

static void images_unpack_exchange(const gasnete_coll_op_t *op, const gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_images_t *im = images_of(g);
  size_t nb = g->args.nbytes, I = im->max_local;
  const char *got = in->dst;
  for (gasnet_node_t n = 0; n < op->team->size; n++)
    for (gasnet_image_t a = 0; a < gasnete_coll_images_at(im, n); a++)
      for (gasnet_image_t b = 0; b < im->mine; b++)
        memcpy((char *)g->dst[b] + (size_t)(im->first[n] + a) * nb,
               got + (((size_t)n * I + a) * I + b) * nb, nb);
}

/* The local images' blocks, one after another. */
static void images_pack_mine(const gasnete_coll_gang_t *g, char *out) {
  size_t nb = g->args.nbytes;
  for (gasnet_image_t j = 0; j < images_of(g)->mine; j++)
    memcpy(out + j * nb, g->src[j], nb);
}

/* Copy a result every local image gets from where the inner algorithm
 * left it (the first image's dst) to the other images. */
static void images_copy_to_others(const gasnete_coll_gang_t *g, size_t nbytes) {
  for (gasnet_image_t j = 1; j < images_of(g)->mine; j++)
    if (g->dst[j] != g->dst[0]) memcpy(g->dst[j], g->dst[0], nbytes);
}

static void images_pack(gasnete_coll_op_t *op, images_op_t *p) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_args_t *in = &p->inner.args;
  gasnet_node_t me = op->team->myrank;
  int root = op->args.root == me;
  switch (g->args.kind) {
    case GASNETE_COLL_SCATTER:
      if (root && p->owned_src)
        images_shuttle_rows(g, in->src, g->src[g->args.root - images_of(g)->first[me]], g->args.nbytes, 1);
      break;
    case GASNETE_COLL_GATHER:
    case GASNETE_COLL_GATHER_ALL: images_pack_mine(g, in->src); break;
    case GASNETE_COLL_EXCHANGE: images_pack_exchange(op, in); break;
    case GASNETE_COLL_REDUCE:
    case GASNETE_COLL_SCAN: gasnete_coll_images_red_pack(op, p->red, in); break;
    default: break;
  }
}

/* Returns 0 when a step must wait for the next poll (a reduction function
 * that may not run in this context). */
static int images_unpack(gasnete_coll_op_t *op, images_op_t *p) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_args_t *in = &p->inner.args;
  const gasnete_coll_images_t *im = images_of(g);
  size_t nb = g->args.nbytes, all = (size_t)im->total * nb;
  gasnet_node_t me = op->team->myrank;
  int root = op->args.root == me;
  switch (g->args.kind) {
    case GASNETE_COLL_BROADCAST: images_copy_to_others(g, nb); break;
    case GASNETE_COLL_SCATTER:
      for (gasnet_image_t j = 0; j < im->mine; j++)
        memcpy(g->dst[j], (const char *)in->dst + j * nb, nb);
      break;
    case GASNETE_COLL_GATHER:
      if (root && p->owned_dst)
        images_shuttle_rows(g, in->dst, g->dst[g->args.root - im->first[me]], nb, 0);
      break;
    case GASNETE_COLL_GATHER_ALL:
      if (p->owned_dst) images_shuttle_rows(g, in->dst, g->dst[0], nb, 0);
      images_copy_to_others(g, all);
      break;
    case GASNETE_COLL_EXCHANGE: images_unpack_exchange(op, in); break;
    default: return gasnete_coll_images_red_unpack(op, p->red, in);
  }
  return 1;
}

/* ------------------------------------------------------------ the algorithm */
static int images_eligible(const gasnete_coll_args_t *args, const gasnete_coll_team_t *team) {
  (void)team;
  return args->gang != NULL;
}

static void images_setup(gasnete_coll_op_t *op) {
  images_op_t *p = gasnete_coll_calloc(1, sizeof(*p));
  op->priv = p;
  gasnete_coll_args_t in = op->args;
  int sync = GASNET_COLL_IN_NOSYNC | GASNET_COLL_IN_MYSYNC | GASNET_COLL_IN_ALLSYNC |
             GASNET_COLL_OUT_NOSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_OUT_ALLSYNC;
  /* The sync modes are the outer op's; the inner one only moves data. */
  in.flags = (op->args.flags & ~sync) | GASNET_COLL_IN_NOSYNC | GASNET_COLL_OUT_NOSYNC;
  in.gang = NULL;
  images_inner_buffers(op, p, &in);
  p->inner = *op;
  p->inner.args = in;
  p->inner.alg = gasnete_coll_select(&in, op->team);
  p->inner.priv = NULL;
  p->inner.alg->setup(&p->inner);
}

static gasnete_coll_progress_t images_progress(gasnete_coll_op_t *op) {
  images_op_t *p = op->priv;
  if (!p->packed) {
    images_pack(op, p);
    p->packed = 1;
  }
  gasnete_coll_progress_t r = p->inner.alg->progress(&p->inner);
  if (r != GASNETE_COLL_DONE) return r; /* WAITING too: inner messages reach this op */
  if (!p->unpacked) {
    if (!images_unpack(op, p)) return GASNETE_COLL_NOT_YET;
    p->unpacked = 1;
  }
  return GASNETE_COLL_DONE;
}

static void images_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  images_op_t *p = op->priv;
  p->inner.alg->deliver(&p->inner, msg);
}

/* The op is retired: every image's call is complete. */
static void images_cleanup(gasnete_coll_op_t *op) {
  images_op_t *p = op->priv;
  gasnete_coll_gang_t *g = op->args.gang;
  if (p->inner.alg->cleanup) p->inner.alg->cleanup(&p->inner);
  gasnete_coll_images_red_free(p->red);
  images_scratch_put(p->owned_src, p->owned_src_size);
  images_scratch_put(p->owned_dst, p->owned_dst_size);
  free(p);
  for (gasnet_image_t j = 0; j < images_of(g)->mine; j++)
    gasnete_coll_handle_op_done(g->handles[j]);
  free(g->dst);
  free(g->src);
  free(g->handles);
  free(g);
}

static const gasnete_coll_alg_t gasnete_coll_images_alg = {
    "images", "the images of a node through one node-level op", GASNETE_COLL_BROADCAST, 0,
    images_eligible, images_setup, images_progress, images_deliver, images_cleanup};

gasnete_coll_op_t *gasnete_coll_images_start(gasnete_coll_gang_t *gang) {
  gasnete_coll_args_t node = gang->args;
  node.gang = gang;
  /* Node buffers are private to each node: LOCAL, and not in the segment. */
  node.flags &= ~(GASNET_COLL_SINGLE | GASNET_COLL_AGGREGATE | GASNET_COLL_DST_IN_SEGMENT |
                  GASNET_COLL_SRC_IN_SEGMENT);
  node.flags |= GASNET_COLL_LOCAL;
  images_node_args(&node, gang);
  gasnete_coll_team_t *team = gang->team;
  team->calls[gang->args.kind]++;
  team->bytes[gang->args.kind] += gang->args.kind >= GASNETE_COLL_REDUCE
                                      ? (uint64_t)gang->args.red.elem_size * gang->args.red.elem_count
                                      : (uint64_t)gang->args.nbytes;
  return gasnete_coll_op_start_alg(team, &node, &gasnete_coll_images_alg, NULL, gang->call);
}
