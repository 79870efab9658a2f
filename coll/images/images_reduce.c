/* images_reduce.c: see images_reduce.h. */
#include "images/images_reduce.h"
#include "ops/reduce_apply.h"
#include "ops/reduce_layout.h"

#include <stdlib.h>

struct gasnete_coll_images_red_s {
  const gasnete_coll_images_t *im;     /* the team's images */
  gasnet_node_t me, nodes;             /* this node's team rank, the team's size */
  int fallback;                        /* image counts differ between nodes */
  int exclusive;                       /* an exclusive scan: element 0 is left alone */
  size_t es;                           /* elem_size */
  gasnete_coll_layout_t src_img, dst_img;   /* over the images */
  gasnete_coll_layout_t src_node, dst_node; /* over the nodes (uniform) */
  char *src_buf, *dst_buf;             /* node buffers (NULL: an image's own) */
  /* fallback */
  uint64_t pmax;      /* elements of the largest node's contribution */
  uint64_t *pack_pos; /* [NImages]: where an image's run starts in its node's contribution */
  uint64_t *run_first; /* [NImages]: local index of an image's first element */
  char *ordered;      /* the whole array in element order */
  gasnete_coll_apply_t fn;
};

static gasnet_image_t red_first_mine(const gasnete_coll_images_red_t *r) { return r->im->first[r->me]; }
static int red_mine(const gasnete_coll_images_red_t *r, gasnet_image_t image) {
  return image >= r->im->first[r->me] && image < r->im->first[r->me + 1];
}

/* The elements of block-cyclic layout l from index i that share i's block. */
static uint64_t red_run_len(const gasnete_coll_layout_t *l, uint64_t i) {
  uint64_t left = l->blksz - (l->off + i) % l->blksz;
  return left < l->count - i ? left : l->count - i;
}

/* (blksz, offset) of an image layout as a node layout (uniform counts). */
static void red_node_layout(const gasnete_coll_gang_t *g, size_t *blksz, size_t *offset) {
  const gasnete_coll_images_t *im = gasnete_coll_team_images(g->team);
  if (*blksz == 0)
    *offset = gasnete_coll_image_rank(im, g->team->size, (gasnet_image_t)*offset);
  else
    *blksz *= im->max_local;
}

void gasnete_coll_images_red_node_args(gasnete_coll_args_t *node, const gasnete_coll_gang_t *g) {
  node->nbytes = g->args.nbytes;
  if (!gasnete_coll_team_images(g->team)->uniform) return; /* the fallback keeps the image layouts */
  red_node_layout(g, &node->red.src_blksz, &node->red.src_offset);
  if (g->args.kind == GASNETE_COLL_SCAN) red_node_layout(g, &node->red.dst_blksz, &node->red.dst_offset);
}

/* ------------------------------------------------------------ uniform */
/* A node buffer for layout l: room for this node's run, or NULL. */
static char *red_node_buffer(const gasnete_coll_images_red_t *r, const gasnete_coll_layout_t *l) {
  uint64_t local, n = gasnete_coll_layout_local_run(l, r->me, &local);
  return n ? gasnete_coll_malloc((size_t)(local + n) * r->es) : NULL;
}

/* Copy the elements of this node's images between their buffers and the
 * node buffer (to_node: images -> node). */
static void red_shuttle(const gasnete_coll_images_red_t *r, const gasnete_coll_layout_t *img,
                        const gasnete_coll_layout_t *node, void *const *image_bufs, char *node_buf,
                        int to_node, uint64_t skip_before) {
  gasnet_image_t f = red_first_mine(r);
  size_t es = r->es;
  for (uint64_t i = 0, len; i < img->count; i += len) {
    len = red_run_len(img, i);
    gasnet_image_t o = (gasnet_image_t)gasnete_coll_layout_owner(img, i);
    uint64_t from = i < skip_before ? skip_before : i;
    if (!red_mine(r, o) || from >= i + len) continue;
    char *ibuf = (char *)image_bufs[o - f] + gasnete_coll_layout_local_index(img, from) * es;
    char *nbuf = node_buf + gasnete_coll_layout_local_index(node, from) * es;
    size_t bytes = (size_t)(i + len - from) * es;
    if (to_node) memcpy(nbuf, ibuf, bytes); else memcpy(ibuf, nbuf, bytes);
  }
}

/* An indefinite layout's buffer on this node: its image's own, if local. */
static void *red_indefinite_buffer(const gasnete_coll_images_red_t *r, void *const *image_bufs,
                                   size_t image) {
  return red_mine(r, (gasnet_image_t)image) ? image_bufs[image - red_first_mine(r)] : image_bufs[0];
}

/* The inner op's buffer for one side (source or destination): the
 * indefinite layout's image buffer, a node buffer (kept in *owned), or,
 * when this node holds none of the elements, the first image's. */
static void *red_uniform_side(const gasnete_coll_images_red_t *r, const gasnete_coll_layout_t *node,
                              size_t image_blksz, size_t image_offset, void *const *image_bufs,
                              char **owned) {
  if (image_blksz == 0) return red_indefinite_buffer(r, image_bufs, image_offset);
  *owned = red_node_buffer(r, node);
  return *owned ? *owned : image_bufs[0];
}

static void red_uniform_buffers(gasnete_coll_op_t *op, gasnete_coll_images_red_t *r,
                                gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_reduce_args_t *ia = &g->args.red, *na = &op->args.red;
  r->src_node = gasnete_coll_layout_make(na->src_blksz, na->src_offset, na->elem_count, r->nodes);
  in->src = red_uniform_side(r, &r->src_node, ia->src_blksz, ia->src_offset, g->src, &r->src_buf);
  if (g->args.kind == GASNETE_COLL_REDUCE) {
    in->dst = red_indefinite_buffer(r, g->dst, g->args.root);
    return;
  }
  r->dst_node = gasnete_coll_layout_make(na->dst_blksz, na->dst_offset, na->elem_count, r->nodes);
  in->dst = red_uniform_side(r, &r->dst_node, ia->dst_blksz, ia->dst_offset, g->dst, &r->dst_buf);
}

/* ------------------------------------------------------------ fallback */
/* Where each image's elements go in its node's contribution. */
static void red_fallback_plan(gasnete_coll_images_red_t *r) {
  const gasnete_coll_images_t *im = r->im;
  r->pack_pos = gasnete_coll_calloc(im->total, sizeof(*r->pack_pos));
  r->run_first = gasnete_coll_calloc(im->total, sizeof(*r->run_first));
  r->pmax = 0;
  for (gasnet_node_t n = 0; n < r->nodes; n++) {
    uint64_t pos = 0;
    for (gasnet_image_t o = im->first[n]; o < im->first[n + 1]; o++) {
      r->pack_pos[o] = pos;
      pos += gasnete_coll_layout_local_run(&r->src_img, o, &r->run_first[o]);
    }
    if (pos > r->pmax) r->pmax = pos;
  }
}

static void red_fallback_buffers(gasnete_coll_op_t *op, gasnete_coll_images_red_t *r,
                                 gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_reduce_args_t *ia = &g->args.red;
  red_fallback_plan(r);
  gasnete_coll_apply_init(&r->fn, ia);
  int scan = g->args.kind == GASNETE_COLL_SCAN;
  size_t contribution = (size_t)r->pmax * r->es;
  in->kind = scan ? GASNETE_COLL_GATHER_ALL : GASNETE_COLL_GATHER;
  in->nbytes = contribution;
  in->flags &= ~(GASNET_COLL_INCLUSIVE_SCAN | GASNET_COLL_EXCLUSIVE_SCAN);
  r->src_buf = gasnete_coll_malloc(contribution);
  in->src = r->src_buf;
  if (scan || op->args.root == r->me) {
    r->dst_buf = gasnete_coll_malloc(contribution * r->nodes);
    r->ordered = gasnete_coll_malloc((size_t)ia->elem_count * r->es);
  }
  in->dst = r->dst_buf;
}

static void red_fallback_pack(const gasnete_coll_gang_t *g, gasnete_coll_images_red_t *r) {
  gasnet_image_t f = red_first_mine(r);
  for (gasnet_image_t a = 0; a < r->im->mine; a++) {
    uint64_t local, n = gasnete_coll_layout_local_run(&r->src_img, f + a, &local);
    if (n)
      memcpy(r->src_buf + r->pack_pos[f + a] * r->es, (const char *)g->src[a] + local * r->es,
             (size_t)n * r->es);
  }
}

/* The gathered contributions, in element order. */
static void red_fallback_order(gasnete_coll_images_red_t *r) {
  const gasnete_coll_layout_t *l = &r->src_img;
  for (uint64_t i = 0, len; i < l->count; i += len) {
    len = red_run_len(l, i);
    gasnet_image_t o = (gasnet_image_t)gasnete_coll_layout_owner(l, i);
    uint64_t pos = gasnete_coll_image_rank(r->im, r->nodes, o) * r->pmax + r->pack_pos[o] +
                   (gasnete_coll_layout_local_index(l, i) - r->run_first[o]);
    memcpy(r->ordered + i * r->es, r->dst_buf + pos * r->es, (size_t)len * r->es);
  }
}

/* Results in element order -> the destinations of this node's images. */
static void red_fallback_hand_out(const gasnete_coll_gang_t *g, gasnete_coll_images_red_t *r,
                                  const char *out) {
  const gasnete_coll_layout_t *l = &r->dst_img;
  gasnet_image_t f = red_first_mine(r);
  for (uint64_t i = r->exclusive ? 1 : 0, len; i < l->count; i += len) {
    len = red_run_len(l, i);
    gasnet_image_t o = (gasnet_image_t)gasnete_coll_layout_owner(l, i);
    if (!red_mine(r, o)) continue;
    memcpy((char *)g->dst[o - f] + gasnete_coll_layout_local_index(l, i) * r->es,
           out + i * r->es, (size_t)len * r->es);
  }
}

static int red_fallback_unpack(gasnete_coll_op_t *op, gasnete_coll_images_red_t *r) {
  const gasnete_coll_gang_t *g = op->args.gang;
  if (!r->ordered) return 1; /* a reduce, not on the destination's node */
  if (!gasnete_coll_apply_may_run(&r->fn)) return 0;
  red_fallback_order(r);
  if (g->args.kind == GASNETE_COLL_REDUCE) {
    gasnet_image_t f = red_first_mine(r);
    gasnete_coll_apply_reduce(&r->fn, g->dst[g->args.root - f], r->ordered, r->src_img.count);
    return 1;
  }
  uint64_t count = r->src_img.count;
  char *out = gasnete_coll_malloc((size_t)count * r->es);
  if (!r->exclusive)
    gasnete_coll_apply_prefix(&r->fn, out, NULL, r->ordered, count);
  else if (count > 1)
    gasnete_coll_apply_prefix(&r->fn, out + r->es, NULL, r->ordered, count - 1);
  red_fallback_hand_out(g, r, out);
  free(out);
  return 1;
}

/* ------------------------------------------------------------ entry points */
void gasnete_coll_images_red_buffers(gasnete_coll_op_t *op, gasnete_coll_images_red_t **red_p,
                                     gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  const gasnete_coll_reduce_args_t *ia = &g->args.red;
  gasnete_coll_images_red_t *r = gasnete_coll_calloc(1, sizeof(*r));
  *red_p = r;
  r->im = gasnete_coll_team_images(g->team);
  r->me = op->team->myrank;
  r->nodes = op->team->size;
  gasnet_image_t total = r->im->total;
  r->es = ia->elem_size;
  r->exclusive = (g->args.flags & GASNET_COLL_EXCLUSIVE_SCAN) != 0;
  r->src_img = gasnete_coll_layout_make(ia->src_blksz, ia->src_offset, ia->elem_count, total);
  r->dst_img = gasnete_coll_layout_make(ia->dst_blksz, ia->dst_offset, ia->elem_count, total);
  r->fallback = !r->im->uniform;
  if (r->fallback)
    red_fallback_buffers(op, r, in);
  else
    red_uniform_buffers(op, r, in);
}

void gasnete_coll_images_red_pack(gasnete_coll_op_t *op, gasnete_coll_images_red_t *r,
                                  const gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  (void)in;
  if (r->fallback)
    red_fallback_pack(g, r);
  else if (r->src_buf)
    red_shuttle(r, &r->src_img, &r->src_node, g->src, r->src_buf, 1, 0);
}

int gasnete_coll_images_red_unpack(gasnete_coll_op_t *op, gasnete_coll_images_red_t *r,
                                   const gasnete_coll_args_t *in) {
  const gasnete_coll_gang_t *g = op->args.gang;
  (void)in;
  if (r->fallback) return red_fallback_unpack(op, r);
  if (g->args.kind == GASNETE_COLL_SCAN && r->dst_buf)
    red_shuttle(r, &r->dst_img, &r->dst_node, g->dst, r->dst_buf, 0, r->exclusive ? 1 : 0);
  return 1;
}

void gasnete_coll_images_red_free(gasnete_coll_images_red_t *r) {
  if (!r) return;
  if (r->fallback) gasnete_coll_apply_free(&r->fn);
  free(r->src_buf);
  free(r->dst_buf);
  free(r->pack_pos);
  free(r->run_first);
  free(r->ordered);
  free(r);
}
