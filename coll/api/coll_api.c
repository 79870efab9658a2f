/* coll_api.c: the public initiation calls. Each builds the argument
 * record, checks it, and starts an op; a blocking call is the _nb call
 * followed by a wait. */
#include "api/api.h"

/* The handle an op completes: a fresh one, or the open aggregate's.
 * Calls flagged AGGREGATE keep the aggregate open; the first call without
 * the flag closes it and returns its handle. */
static gasnete_coll_handle_t *gasnete_coll_handle_for(gasnete_coll_team_t *team, int flags) {
  gasnete_coll_handle_t *h = team->aggregate ? team->aggregate : gasnete_coll_handle_new();
  gasnete_coll_count_add(&h->pending, 1);
  team->aggregate = (flags & GASNET_COLL_AGGREGATE) ? h : NULL;
  return h;
}

/* The arguments checked as if the team's images were its ranks. */
static void gasnete_coll_images_check_args(gasnete_coll_team_t *team, const gasnete_coll_args_t *args,
                                           int blocking, const char *call) {
  /* Copied under the lock: the other images of this node start ops on
   * the team meanwhile, which changes its next_seq, live_ops and profile
   * under that lock (an unlocked copy was a data race). */
  gasnete_coll_lock();
  gasnete_coll_team_t view = *team;
  gasnete_coll_unlock();
  view.size = gasnete_coll_team_images(team)->total;
  view.myrank = gasnete_coll_team_my_image(team, call);
  gasnete_coll_check_args(&view, args, blocking, call);
}

/* The call on the team's nodes (one image each). */
static gasnet_coll_handle_t gasnete_coll_initiate_nodes(gasnete_coll_team_t *team,
                                                        const gasnete_coll_args_t *args,
                                                        int blocking, const char *call) {
  gasnete_coll_check_context(call);
  gasnete_coll_lock(); /* the team's plan, profile and aggregate */
  const gasnete_coll_plan_t *plan = gasnete_coll_plan_for(team, args, blocking, call);
  gasnete_coll_check_buffers(&plan->extents, args, call);
  gasnete_coll_profile_count(team, args);
  /* Outside an aggregate the op may finish in the call (then there is no
   * handle at all), a blocking one after waiting there, so the lock is let
   * go first: a waiting thread must not keep the engine from the others.
   * The plan stays put meanwhile, as a team's calls come one at a time.
   * Inside an aggregate the op joins the aggregate's handle. */
  int aggregated = (args->flags & GASNET_COLL_AGGREGATE) || team->aggregate;
  gasnete_coll_handle_t *agg = aggregated ? gasnete_coll_handle_for(team, args->flags) : NULL;
  if (!agg) gasnete_coll_unlock();
  gasnete_coll_handle_t *h = gasnete_coll_op_start_call(team, args, plan, agg, blocking, call);
  if (agg) gasnete_coll_unlock();
  if (!h) return GASNET_COLL_INVALID_HANDLE;
  gasnete_coll_kick();
  if (args->flags & GASNET_COLL_AGGREGATE) return GASNET_COLL_INVALID_HANDLE;
  return h;
}

/* Every initiation call ends here (coll_mforms.c too, with this image's
 * addresses taken from its lists). */
gasnet_coll_handle_t gasnete_coll_initiate(gasnet_team_handle_t handle,
                                           const gasnete_coll_args_t *args, int blocking,
                                           const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  const gasnete_coll_images_t *im = gasnete_coll_team_images(team);
  gasnete_coll_args_t elementwise;
  if ((args->kind == GASNETE_COLL_REDUCE || args->kind == GASNETE_COLL_SCAN) &&
      gasnete_coll_reduce_rewrites(args)) {
    elementwise = *args;
    gasnete_coll_reduce_elementwise(&elementwise, im->multi ? im->total : team->size, call);
    args = &elementwise;
  }
  if (im->multi) {
    gasnete_coll_images_check_args(team, args, blocking, call);
    return gasnete_coll_images_initiate(team, args, blocking, call);
  }
  return gasnete_coll_initiate_nodes(team, args, blocking, call);
}

gasnet_coll_handle_t gasnet_coll_broadcast_nb(gasnet_team_handle_t team, void *dst,
                                              gasnet_image_t srcimage, void *src, size_t nbytes,
                                              int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_BROADCAST, dst, src, nbytes, srcimage, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_broadcast_nb");
}

void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                           size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_BROADCAST, dst, src, nbytes, srcimage, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_broadcast"));
}

gasnet_coll_handle_t gasnet_coll_scatter_nb(gasnet_team_handle_t team, void *dst,
                                            gasnet_image_t srcimage, void *src, size_t nbytes,
                                            int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_SCATTER, dst, src, nbytes, srcimage, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_scatter_nb");
}

void gasnet_coll_scatter(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                         size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_SCATTER, dst, src, nbytes, srcimage, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_scatter"));
}

gasnet_coll_handle_t gasnet_coll_gather_nb(gasnet_team_handle_t team, gasnet_image_t dstimage,
                                           void *dst, void *src, size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER, dst, src, nbytes, dstimage, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_gather_nb");
}

void gasnet_coll_gather(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst, void *src,
                        size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER, dst, src, nbytes, dstimage, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_gather"));
}

gasnet_coll_handle_t gasnet_coll_gather_all_nb(gasnet_team_handle_t team, void *dst, void *src,
                                               size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER_ALL, dst, src, nbytes, 0, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_gather_all_nb");
}

void gasnet_coll_gather_all(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                            int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER_ALL, dst, src, nbytes, 0, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_gather_all"));
}

gasnet_coll_handle_t gasnet_coll_exchange_nb(gasnet_team_handle_t team, void *dst, void *src,
                                             size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_EXCHANGE, dst, src, nbytes, 0, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_exchange_nb");
}

void gasnet_coll_exchange(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                          int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_EXCHANGE, dst, src, nbytes, 0, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_exchange"));
}

/* ------------------------------------------------------------ reduce and scan */
gasnete_coll_args_t gasnete_coll_reduce_args(gasnete_coll_kind_t kind, gasnet_image_t root,
                                                    void *dst, size_t dst_blksz,
                                                    size_t dst_offset, void *src, size_t src_blksz,
                                                    size_t src_offset, size_t elem_size,
                                                    size_t elem_count, gasnet_coll_fn_handle_t func,
                                                    int func_arg, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(kind, dst, src, elem_size, root, flags);
  gasnete_coll_reduce_args_t r = {src_blksz,  src_offset, dst_blksz, dst_offset, elem_size,
                                  elem_count, func,       func_arg,  0};
  a.red = r;
  return a;
}

gasnet_coll_handle_t gasnet_coll_reduce_nb(gasnet_team_handle_t team, gasnet_image_t dstimage,
                                           void *dst, void *src, size_t src_blksz,
                                           size_t src_offset, size_t elem_size, size_t elem_count,
                                           gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_REDUCE, dstimage, dst, 0, 0, src, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_reduce_nb");
}

void gasnet_coll_reduce(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst, void *src,
                        size_t src_blksz, size_t src_offset, size_t elem_size, size_t elem_count,
                        gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_REDUCE, dstimage, dst, 0, 0, src, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_reduce"));
}

gasnet_coll_handle_t gasnet_coll_scan_nb(gasnet_team_handle_t team, void *dst, size_t dst_blksz,
                                         size_t dst_offset, void *src, size_t src_blksz,
                                         size_t src_offset, size_t elem_size, size_t elem_count,
                                         gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_SCAN, 0, dst, dst_blksz, dst_offset, src, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  return gasnete_coll_initiate(team, &a, 0, "gasnet_coll_scan_nb");
}

void gasnet_coll_scan(gasnet_team_handle_t team, void *dst, size_t dst_blksz, size_t dst_offset,
                      void *src, size_t src_blksz, size_t src_offset, size_t elem_size,
                      size_t elem_count, gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_SCAN, 0, dst, dst_blksz, dst_offset, src, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  gasnet_coll_wait_sync(gasnete_coll_initiate(team, &a, 1, "gasnet_coll_scan"));
}
