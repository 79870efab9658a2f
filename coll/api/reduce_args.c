/* reduce_args.c: the argument checks of reduce and scan (after the checks
 * every collective shares, in coll_args.c): those of the single-valued
 * arguments, which give this rank's buffer extents, and those of the
 * buffers. Each failure names the call, the argument and its value, and
 * ends the job. */
#include "api/api.h"
#include "ops/reduce_apply.h"
#include "ops/reduce_layout.h"

extern void gasnete_coll_check_in_segment(const char *call, const char *what, const void *addr,
                                          size_t nbytes);

/* ------------------------------------------------------------ element-wise
 * blksz 0 as GASNet 1.x reads it (gasnet_coll.h): each image's elem_count
 * elements combine element by element with every other image's. It is the
 * layout call of one element per image, blksz 1, whose elements are
 * vectors of elem_count client elements (reduce_apply.c combines them), so
 * every algorithm, the images layer and the teams run it unchanged. */
static void gasnete_coll_check_elementwise(const gasnete_coll_args_t *a, const char *call) {
  const gasnete_coll_reduce_args_t *r = &a->red;
  const char *what = a->kind == GASNETE_COLL_SCAN ? "scan" : "reduce";
  if (a->kind == GASNETE_COLL_SCAN && (r->src_blksz == 0) != (r->dst_blksz == 0))
    gasneti_fatalerror("%s: src_blksz %zu, dst_blksz %zu: blksz 0 asks for the element-wise scan "
                       "across images, which takes 0 for both (or pass "
                       "GASNET_COLL_INDEFINITE_LAYOUT for the layout of one image)",
                       call, r->src_blksz, r->dst_blksz);
  if (r->src_offset || r->dst_offset)
    gasneti_fatalerror("%s: %s_offset %zu with blksz 0: the element-wise %s across images takes "
                       "offset 0 (GASNET_COLL_INDEFINITE_LAYOUT makes the offset an image number)",
                       call, r->src_offset ? "src" : "dst",
                       r->src_offset ? r->src_offset : r->dst_offset, what);
  if (r->elem_size == 0) gasneti_fatalerror("%s: elem_size is 0; it must be at least 1", call);
  if (r->elem_count == 0) gasneti_fatalerror("%s: elem_count is 0; it must be at least 1", call);
}

void gasnete_coll_reduce_elementwise(gasnete_coll_args_t *a, gasnet_image_t images,
                                     const char *call) {
  gasnete_coll_reduce_args_t *r = &a->red;
  if (a->flags & GASNET_COLL_INDEFINITE_LAYOUT) { /* the layout as given; the flag is spent */
    a->flags &= ~GASNET_COLL_INDEFINITE_LAYOUT;
    return;
  }
  if (!gasnete_coll_reduce_rewrites(a)) return;
  gasnete_coll_check_elementwise(a, call);
  size_t vec_bytes;
  if (__builtin_mul_overflow(r->elem_size, r->elem_count, &vec_bytes))
    gasneti_fatalerror("%s: elem_size %zu x elem_count %zu overflows", call, r->elem_size,
                       r->elem_count);
  r->vec_count = r->elem_count;
  r->elem_size = vec_bytes;
  r->elem_count = images;
  r->src_blksz = 1;
  if (a->kind == GASNETE_COLL_SCAN) r->dst_blksz = 1;
  a->nbytes = vec_bytes;
}

/* ------------------------------------------------------------ layouts
 * With GASNET_COLL_INDEFINITE_LAYOUT a blksz of 0 names an image by its
 * offset. */
static void gasnete_coll_check_layout(const char *call, const char *which, size_t blksz,
                                      size_t offset, gasnet_node_t size) {
  if (blksz == 0 && offset >= size)
    gasneti_fatalerror("%s: %s_offset %zu names no image (%s_blksz is 0, so the offset is an "
                       "image number, and there are %u images)",
                       call, which, offset, which, (unsigned)size);
}

/* The alignment a buffer of these elements must have: the element's own
 * (its largest power-of-two divisor), capped at GASNET_DATA_ALIGNMENT. */
static size_t gasnete_coll_elem_alignment(size_t elem_size) {
  size_t align = elem_size & (~elem_size + 1);
  return align < GASNET_DATA_ALIGNMENT ? align : GASNET_DATA_ALIGNMENT;
}

/* A buffer this rank uses: present, aligned (debug builds) and, when the
 * flags say so, in the segment. */
static void gasnete_coll_check_buffer(const char *call, const char *what, const void *buf,
                                      size_t nbytes, size_t elem_size, int in_segment) {
  if (!buf) gasneti_fatalerror("%s: %s is NULL", call, what);
#ifdef GASNET_DEBUG
  size_t align = gasnete_coll_elem_alignment(elem_size);
  if ((uintptr_t)buf % align)
    gasneti_fatalerror("%s: %s %p is not aligned to %zu bytes (elements of %zu bytes)", call,
                       what, buf, align, elem_size);
#else
  (void)gasnete_coll_elem_alignment;
  (void)elem_size;
#endif
  if (in_segment) gasnete_coll_check_in_segment(call, what, buf, nbytes);
}

/* The bytes of this rank's buffer an array of this layout touches (0 when
 * it holds none of it). */
static size_t gasnete_coll_local_extent(size_t blksz, size_t offset, size_t elem_size,
                                        size_t count, gasnet_node_t size, gasnet_node_t rank) {
  gasnete_coll_layout_t l = gasnete_coll_layout_make(blksz, offset, count, size);
  uint64_t first, n = gasnete_coll_layout_local_run(&l, rank, &first);
  return n ? (size_t)(first + n) * elem_size : 0;
}

static void gasnete_coll_check_scan_kind(int flags, const char *call) {
  int inc = (flags & GASNET_COLL_INCLUSIVE_SCAN) != 0, exc = (flags & GASNET_COLL_EXCLUSIVE_SCAN) != 0;
  if (!inc && !exc)
    gasneti_fatalerror("%s: flags 0x%x name neither GASNET_COLL_INCLUSIVE_SCAN nor "
                       "GASNET_COLL_EXCLUSIVE_SCAN",
                       call, (unsigned)flags);
  if (inc && exc)
    gasneti_fatalerror("%s: flags 0x%x name both GASNET_COLL_INCLUSIVE_SCAN and "
                       "GASNET_COLL_EXCLUSIVE_SCAN",
                       call, (unsigned)flags);
}

gasnete_coll_extents_t gasnete_coll_check_reduce_single(const gasnete_coll_team_t *team,
                                                        const gasnete_coll_args_t *a,
                                                        const char *call) {
  const gasnete_coll_reduce_args_t *r = &a->red;
  gasnet_node_t size = team->size, me = team->myrank;
  int scan = a->kind == GASNETE_COLL_SCAN;
  if (scan) gasnete_coll_check_scan_kind(a->flags, call);
  if (r->elem_size == 0) gasneti_fatalerror("%s: elem_size is 0; it must be at least 1", call);
  if (r->elem_count == 0) gasneti_fatalerror("%s: elem_count is 0; it must be at least 1", call);
  gasnete_coll_check_fn(r->func, call);
  if (!scan && a->root >= size)
    gasneti_fatalerror("%s: dstimage %u is out of range (there are %u images)", call,
                       (unsigned)a->root, (unsigned)size);
  gasnete_coll_check_layout(call, "src", r->src_blksz, r->src_offset, size);
  if (scan) gasnete_coll_check_layout(call, "dst", r->dst_blksz, r->dst_offset, size);
  gasnete_coll_extents_t x;
  x.src_bytes =
      gasnete_coll_local_extent(r->src_blksz, r->src_offset, r->elem_size, r->elem_count, size, me);
  x.dst_bytes = scan ? gasnete_coll_local_extent(r->dst_blksz, r->dst_offset, r->elem_size,
                                                 r->elem_count, size, me)
                     : (me == a->root ? r->elem_size : 0);
  return x;
}

void gasnete_coll_check_reduce_buffers(const gasnete_coll_extents_t *x,
                                       const gasnete_coll_args_t *a, const char *call) {
  size_t es = a->red.elem_size;
  if (x->src_bytes)
    gasnete_coll_check_buffer(call, "src", a->src, x->src_bytes, es,
                              a->flags & GASNET_COLL_SRC_IN_SEGMENT);
  if (x->dst_bytes)
    gasnete_coll_check_buffer(call, "dst", a->dst, x->dst_bytes, es,
                              a->flags & GASNET_COLL_DST_IN_SEGMENT);
}
