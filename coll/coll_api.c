/* coll_api.c: the public initiation calls. Each builds the argument
 * record, checks it, and starts an op; a blocking call is the _nb call
 * followed by a wait. */
#include "coll_images.h"

/* The handle an op completes: a fresh one, or the open aggregate's.
 * Calls flagged AGGREGATE keep the aggregate open; the first call without
 * the flag closes it and returns its handle. */
static gasnete_coll_handle_t *gasnete_coll_handle_for(gasnete_coll_team_t *team, int flags) {
  gasnete_coll_handle_t *h = team->aggregate ? team->aggregate : gasnete_coll_handle_new();
  __atomic_fetch_add(&h->pending, 1, __ATOMIC_ACQ_REL);
  team->aggregate = (flags & GASNET_COLL_AGGREGATE) ? h : NULL;
  return h;
}

/* The profile (gasnet_coll_dumpProfile): calls and the bytes they name. */
static void gasnete_coll_count_call(gasnete_coll_team_t *team, const gasnete_coll_args_t *args) {
  int reduction = args->kind == GASNETE_COLL_REDUCE || args->kind == GASNETE_COLL_SCAN;
  team->calls[args->kind]++;
  team->bytes[args->kind] += reduction ? (uint64_t)args->red.elem_size * args->red.elem_count
                                       : (uint64_t)args->nbytes;
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
  if (args->kind == GASNETE_COLL_REDUCE || args->kind == GASNETE_COLL_SCAN) {
    elementwise = *args;
    gasnete_coll_reduce_elementwise(&elementwise, im->multi ? im->total : team->size, call);
    args = &elementwise;
  }
  if (im->multi) return gasnete_coll_images_initiate(team, args, blocking, call);
  return gasnete_coll_initiate_nodes(team, args, blocking, call);
}

gasnet_coll_handle_t gasnete_coll_initiate_nodes(gasnete_coll_team_t *team,
                                                 const gasnete_coll_args_t *args, int blocking,
                                                 const char *call) {
  gasnete_coll_check_context(call);
  gasnete_coll_lock(); /* the team's plan (held until the op has used it) and profile */
  const gasnete_coll_plan_t *plan = gasnete_coll_plan_for(team, args, blocking, call);
  gasnete_coll_check_buffers(&plan->extents, args, call);
  gasnete_coll_count_call(team, args);
  /* Outside an aggregate the op may finish in the call (then there is no
   * handle at all); inside one it joins the aggregate's handle. */
  int aggregated = (args->flags & GASNET_COLL_AGGREGATE) || team->aggregate;
  gasnete_coll_handle_t *h = gasnete_coll_op_start_call(
      team, args, plan, aggregated ? gasnete_coll_handle_for(team, args->flags) : NULL, call);
  gasnete_coll_unlock();
  if (!h) return GASNET_COLL_INVALID_HANDLE;
  gasnete_coll_kick();
  if (args->flags & GASNET_COLL_AGGREGATE) return GASNET_COLL_INVALID_HANDLE;
  return h;
}

gasnete_coll_args_t gasnete_coll_args(gasnete_coll_kind_t kind, void *dst, void *src,
                                             size_t nbytes, gasnet_image_t root, int flags) {
  gasnete_coll_args_t a = {kind, dst, src, nbytes, (gasnet_node_t)root, flags};
  return a;
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
