/* coll_mforms.c: the multiple-address (M) forms. Each image takes its own
 * entry of each list and makes the single-address call with it, so the M
 * forms share every path, check and algorithm of the plain ones.
 *
 * With one image per node a SINGLE list whose entries differ is passed
 * on as LOCAL: the node algorithms read SINGLE as "my address is every
 * node's address", which such a list is not. With several images per node
 * the node-level op uses private node buffers whatever the flags say. */
#include "api/api.h"

/* Length of a list and this caller's index in it: a SINGLE list has an
 * entry per image of the team, a LOCAL one per image of this node. */
static size_t gasnete_coll_list_len(const gasnete_coll_team_t *team, int flags) {
  const gasnete_coll_images_t *im = gasnete_coll_team_images(team);
  if (flags & GASNET_COLL_SINGLE) return im->multi ? im->total : team->size;
  return im->multi ? im->mine : 1;
}
static size_t gasnete_coll_list_index(const gasnete_coll_team_t *team, int flags, const char *call) {
  if (!gasnete_coll_team_images(team)->multi) return (flags & GASNET_COLL_SINGLE) ? team->myrank : 0;
  return (flags & GASNET_COLL_SINGLE) ? gasnete_coll_team_my_image(team, call)
                                      : gasnete_coll_my_local_image(call);
}

static int gasnete_coll_list_uniform(void *const list[], size_t n) {
  for (size_t i = 1; i < n; i++)
    if (list[i] != list[0]) return 0;
  return 1;
}

/* Fill in this image's addresses from the lists (either may be NULL: the
 * form has a plain address there) and start the call. */
static gasnet_coll_handle_t gasnete_coll_mform(gasnet_team_handle_t handle, gasnete_coll_args_t *a,
                                               void *const dstlist[], void *const srclist[],
                                               int use_dst, int use_src, int blocking,
                                               const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  if (use_dst && !dstlist) gasneti_fatalerror("%s: dstlist is NULL", call);
  if (use_src && !srclist) gasneti_fatalerror("%s: srclist is NULL", call);
  size_t me = gasnete_coll_list_index(team, a->flags, call);
  size_t n = gasnete_coll_list_len(team, a->flags);
  int uniform = 1;
  if (use_dst) {
    a->dst = dstlist[me];
    uniform = uniform && gasnete_coll_list_uniform(dstlist, n);
  }
  if (use_src) {
    a->src = srclist[me];
    uniform = uniform && gasnete_coll_list_uniform(srclist, n);
  }
  if ((a->flags & GASNET_COLL_SINGLE) && !uniform && !gasnete_coll_team_images(team)->multi)
    a->flags = (a->flags & ~GASNET_COLL_SINGLE) | GASNET_COLL_LOCAL;
  return gasnete_coll_initiate(handle, a, blocking, call);
}

/* ------------------------------------------------------------ data movement */
gasnet_coll_handle_t gasnet_coll_broadcastM_nb(gasnet_team_handle_t team, void *const dstlist[],
                                               gasnet_image_t srcimage, void *src, size_t nbytes,
                                               int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_BROADCAST, NULL, src, nbytes, srcimage, flags);
  return gasnete_coll_mform(team, &a, dstlist, NULL, 1, 0, 0, "gasnet_coll_broadcastM_nb");
}

void gasnet_coll_broadcastM(gasnet_team_handle_t team, void *const dstlist[],
                            gasnet_image_t srcimage, void *src, size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_BROADCAST, NULL, src, nbytes, srcimage, flags);
  gasnet_coll_wait_sync(gasnete_coll_mform(team, &a, dstlist, NULL, 1, 0, 1, "gasnet_coll_broadcastM"));
}

gasnet_coll_handle_t gasnet_coll_scatterM_nb(gasnet_team_handle_t team, void *const dstlist[],
                                             gasnet_image_t srcimage, void *src, size_t nbytes,
                                             int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_SCATTER, NULL, src, nbytes, srcimage, flags);
  return gasnete_coll_mform(team, &a, dstlist, NULL, 1, 0, 0, "gasnet_coll_scatterM_nb");
}

void gasnet_coll_scatterM(gasnet_team_handle_t team, void *const dstlist[], gasnet_image_t srcimage,
                          void *src, size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_SCATTER, NULL, src, nbytes, srcimage, flags);
  gasnet_coll_wait_sync(gasnete_coll_mform(team, &a, dstlist, NULL, 1, 0, 1, "gasnet_coll_scatterM"));
}

gasnet_coll_handle_t gasnet_coll_gatherM_nb(gasnet_team_handle_t team, gasnet_image_t dstimage,
                                            void *dst, void *const srclist[], size_t nbytes,
                                            int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER, dst, NULL, nbytes, dstimage, flags);
  return gasnete_coll_mform(team, &a, NULL, srclist, 0, 1, 0, "gasnet_coll_gatherM_nb");
}

void gasnet_coll_gatherM(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                         void *const srclist[], size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER, dst, NULL, nbytes, dstimage, flags);
  gasnet_coll_wait_sync(gasnete_coll_mform(team, &a, NULL, srclist, 0, 1, 1, "gasnet_coll_gatherM"));
}

gasnet_coll_handle_t gasnet_coll_gather_allM_nb(gasnet_team_handle_t team, void *const dstlist[],
                                                void *const srclist[], size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER_ALL, NULL, NULL, nbytes, 0, flags);
  return gasnete_coll_mform(team, &a, dstlist, srclist, 1, 1, 0, "gasnet_coll_gather_allM_nb");
}

void gasnet_coll_gather_allM(gasnet_team_handle_t team, void *const dstlist[],
                             void *const srclist[], size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER_ALL, NULL, NULL, nbytes, 0, flags);
  gasnet_coll_wait_sync(
      gasnete_coll_mform(team, &a, dstlist, srclist, 1, 1, 1, "gasnet_coll_gather_allM"));
}

gasnet_coll_handle_t gasnet_coll_exchangeM_nb(gasnet_team_handle_t team, void *const dstlist[],
                                              void *const srclist[], size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_EXCHANGE, NULL, NULL, nbytes, 0, flags);
  return gasnete_coll_mform(team, &a, dstlist, srclist, 1, 1, 0, "gasnet_coll_exchangeM_nb");
}

void gasnet_coll_exchangeM(gasnet_team_handle_t team, void *const dstlist[], void *const srclist[],
                           size_t nbytes, int flags) {
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_EXCHANGE, NULL, NULL, nbytes, 0, flags);
  gasnet_coll_wait_sync(
      gasnete_coll_mform(team, &a, dstlist, srclist, 1, 1, 1, "gasnet_coll_exchangeM"));
}

/* ------------------------------------------------------------ reduce and scan */
gasnet_coll_handle_t gasnet_coll_reduceM_nb(gasnet_team_handle_t team, gasnet_image_t dstimage,
                                            void *dst, void *const srclist[], size_t src_blksz,
                                            size_t src_offset, size_t elem_size, size_t elem_count,
                                            gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_REDUCE, dstimage, dst, 0, 0, NULL, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  return gasnete_coll_mform(team, &a, NULL, srclist, 0, 1, 0, "gasnet_coll_reduceM_nb");
}

void gasnet_coll_reduceM(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                         void *const srclist[], size_t src_blksz, size_t src_offset,
                         size_t elem_size, size_t elem_count, gasnet_coll_fn_handle_t func,
                         int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_REDUCE, dstimage, dst, 0, 0, NULL, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  gasnet_coll_wait_sync(gasnete_coll_mform(team, &a, NULL, srclist, 0, 1, 1, "gasnet_coll_reduceM"));
}

gasnet_coll_handle_t gasnet_coll_scanM_nb(gasnet_team_handle_t team, void *const dstlist[],
                                          size_t dst_blksz, size_t dst_offset,
                                          void *const srclist[], size_t src_blksz,
                                          size_t src_offset, size_t elem_size, size_t elem_count,
                                          gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_SCAN, 0, NULL, dst_blksz, dst_offset, NULL, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  return gasnete_coll_mform(team, &a, dstlist, srclist, 1, 1, 0, "gasnet_coll_scanM_nb");
}

void gasnet_coll_scanM(gasnet_team_handle_t team, void *const dstlist[], size_t dst_blksz,
                       size_t dst_offset, void *const srclist[], size_t src_blksz,
                       size_t src_offset, size_t elem_size, size_t elem_count,
                       gasnet_coll_fn_handle_t func, int func_arg, int flags) {
  gasnete_coll_args_t a =
      gasnete_coll_reduce_args(GASNETE_COLL_SCAN, 0, NULL, dst_blksz, dst_offset, NULL, src_blksz,
                               src_offset, elem_size, elem_count, func, func_arg, flags);
  gasnet_coll_wait_sync(
      gasnete_coll_mform(team, &a, dstlist, srclist, 1, 1, 1, "gasnet_coll_scanM"));
}
