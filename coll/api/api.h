/* api.h: the api floor of the collectives (coll/api/): the public entry
 * points of gasnet_coll.h (and their GASNet-1 gasnete_ spellings). Each
 * call builds an argument record, checks it (a bad argument ends the job
 * naming the call, the argument and the value), and hands it to the
 * images floor (several images per node) or straight to the engine. */
#ifndef COLL_API_H
#define COLL_API_H

#include "images/images.h"

/* coll_args.c, reduce_args.c: the argument checks. The single-valued
 * arguments (the same on every rank: kind, sizes, root, flags, layouts,
 * function) decide how much of this rank's buffers a call uses; the
 * buffers themselves are checked against that on every call. */
/* Initialised, not in a handler, not inside a barrier. */
extern void gasnete_coll_check_context(const char *call);
/* The single-valued arguments (and, in the order the checks of the flags
 * come, no AGGREGATE on a blocking call). */
extern gasnete_coll_extents_t gasnete_coll_check_single(const gasnete_coll_team_t *team,
                                                        const gasnete_coll_args_t *a, int blocking,
                                                        const char *call);
extern gasnete_coll_extents_t gasnete_coll_check_reduce_single(const gasnete_coll_team_t *team,
                                                               const gasnete_coll_args_t *a,
                                                               const char *call);
/* A reduce or scan call with blksz 0 becomes the element-wise call
 * (engine.h, gasnete_coll_reduce_args_t) over this many images, unless its
 * flags ask for the indefinite layout. */
extern void gasnete_coll_reduce_elementwise(gasnete_coll_args_t *a, gasnet_image_t images,
                                            const char *call);
/* Would gasnete_coll_reduce_elementwise change a? Most calls give a
 * layout (blksz above 0) without the flag and are used as they come: the
 * copy the change needs (a whole argument record, which gcc makes a
 * `rep movsq`) is then not made. */
static inline int gasnete_coll_reduce_rewrites(const gasnete_coll_args_t *a) {
  const gasnete_coll_reduce_args_t *r = &a->red;
  return (a->flags & GASNET_COLL_INDEFINITE_LAYOUT) || r->src_blksz == 0 ||
         (a->kind == GASNETE_COLL_SCAN && r->dst_blksz == 0);
}
/* No AGGREGATE on a blocking call. */
extern void gasnete_coll_check_blocking(int flags, int blocking, const char *call);
extern void gasnete_coll_check_buffers(const gasnete_coll_extents_t *x,
                                       const gasnete_coll_args_t *a, const char *call);
extern void gasnete_coll_check_reduce_buffers(const gasnete_coll_extents_t *x,
                                              const gasnete_coll_args_t *a, const char *call);
extern void gasnete_coll_check_in_segment(const char *call, const char *what, const void *addr,
                                          size_t nbytes);
/* All of them (an image's call, checked as if the images were ranks). */
extern void gasnete_coll_check_args(const gasnete_coll_team_t *team, const gasnete_coll_args_t *a,
                                    int blocking, const char *call);

/* coll_plan.c: a loop of the same collective is the common case: its
 * single-valued arguments were checked and its algorithm chosen on the
 * first call, and a call whose single-valued arguments match the team's
 * plan reuses both. This returns the team's plan for args, made now if the
 * last call's does not fit (checking them: a bad argument ends the job);
 * engine lock held. */
extern const gasnete_coll_plan_t *gasnete_coll_plan_for(gasnete_coll_team_t *team,
                                                        const gasnete_coll_args_t *args,
                                                        int blocking, const char *call);

/* coll_api.c: reduce and scan's argument records, and the path every
 * initiation call takes (coll_mforms.c's too). */
extern gasnete_coll_args_t gasnete_coll_reduce_args(gasnete_coll_kind_t kind, gasnet_image_t root,
                                                    void *dst, size_t dst_blksz, size_t dst_offset,
                                                    void *src, size_t src_blksz, size_t src_offset,
                                                    size_t elem_size, size_t elem_count,
                                                    gasnet_coll_fn_handle_t func, int func_arg,
                                                    int flags);
extern gasnet_coll_handle_t gasnete_coll_initiate(gasnet_team_handle_t handle,
                                                  const gasnete_coll_args_t *args, int blocking,
                                                  const char *call);

#endif
