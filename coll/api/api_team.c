/* api_team.c: the team calls of gasnet_coll.h, in their GASNet-1
 * spelling with the gasnete_ prefix (gasnet_coll.h maps the gasnet_
 * spellings onto them): queries, making and freeing teams, and the team
 * barrier, which goes to the node barrier for GASNET_TEAM_ALL, to the
 * team's own barrier (teams/team_barrier.c) for any other team, and, with
 * GASNET_BARRIERFLAG_IMAGES and several images per node, to the barrier
 * over images (images/images_barrier.c).
 *
 * GASNET_TEAM_ALL (id 0) works from gasnet_attach on, with or without
 * gasnet_coll_init, as GASNet-1 clients use it: its ranks are node
 * numbers. */
#include "api/api.h"

/* ------------------------------------------------------------ queries */
/* GASNET_TEAM_ALL answers from the core, so the queries work before
 * gasnet_coll_init fills its record. */
static gasnet_node_t gasnete_coll_team_size_of(const gasnete_coll_team_t *team) {
  return team == &gasnete_coll_team_all ? gasnet_nodes() : team->size;
}

uint32_t gasnete_coll_team_size(gasnet_team_handle_t handle) {
  return gasnete_coll_team_size_of(gasnete_coll_team_lookup(handle, "gasnet_coll_team_size"));
}

gasnet_node_t gasnete_coll_team_rank2node(gasnet_team_handle_t handle, int rank) {
  static const char call[] = "gasnet_coll_team_rank2node";
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  gasnet_node_t size = gasnete_coll_team_size_of(team);
  if (rank < 0 || (gasnet_node_t)rank >= size)
    gasneti_fatalerror("%s: rank %d is outside the team of %u", call, rank, (unsigned)size);
  return gasnete_coll_rank2node(team, (gasnet_node_t)rank);
}

uint32_t gasnete_coll_team_node2rank(gasnet_team_handle_t handle, gasnet_node_t node) {
  static const char call[] = "gasnet_coll_team_node2rank";
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  if (node >= gasnet_nodes())
    gasneti_fatalerror("%s: node %u is not in the job of %u nodes", call, (unsigned)node,
                       (unsigned)gasnet_nodes());
  long rank = gasnete_coll_team_rank_of(team, node);
  if (rank < 0)
    gasneti_fatalerror("%s: node %u is not a member of team %p (id %u, %u members)", call,
                       (unsigned)node, (void *)handle, (unsigned)team->id, (unsigned)team->size);
  return (uint32_t)rank;
}

uint32_t gasnete_coll_team_id(gasnet_team_handle_t handle) {
  return gasnete_coll_team_lookup(handle, "gasnet_coll_team_id")->id;
}

void *gasnete_coll_team_clientdata(gasnet_team_handle_t handle) {
  return gasnete_coll_team_lookup(handle, "gasnet_coll_team_clientdata")->clientdata;
}

/* ------------------------------------------------------------ making and freeing */
static void gasnete_coll_check_creation_call(const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
}

gasnet_team_handle_t gasnete_coll_team_split_with(gasnet_team_handle_t parent, gasnet_node_t color,
                                                  gasnet_node_t relrank, void *clientdata) {
  static const char call[] = "gasnet_coll_team_split";
  gasnete_coll_check_creation_call(call);
  gasnete_coll_split_rec_t mine = {1, color, relrank, 0};
  return gasnete_coll_images_team_make(parent, mine, clientdata, call);
}

gasnet_team_handle_t gasnete_coll_team_create(gasnet_team_handle_t parent_handle,
                                              gasnet_node_t nmembers,
                                              const gasnet_node_t *members) {
  static const char call[] = "gasnet_coll_team_create";
  gasnete_coll_check_creation_call(call);
  gasnete_coll_team_t *parent = gasnete_coll_team_lookup(parent_handle, call);
  gasnete_coll_split_rec_t mine = gasnete_coll_teams_member_rec(parent, nmembers, members, call);
  return gasnete_coll_images_team_make(parent_handle, mine, NULL, call);
}

void gasnete_coll_team_free(gasnet_team_handle_t handle) {
  static const char call[] = "gasnet_coll_team_free";
  if (handle == GASNET_TEAM_ALL) gasneti_fatalerror("%s: GASNET_TEAM_ALL cannot be freed", call);
  gasnete_coll_images_team_free(gasnete_coll_team_lookup(handle, call), call);
}

/* ------------------------------------------------------------ the team barrier */
/* GASNET_BARRIERFLAG_IMAGES asks for a barrier over every image of the
 * team; with one image per node that is the barrier over its nodes. With
 * several, every image calls notify and wait (images_barrier.c); without
 * the flag one thread per node calls them. */
static int gasnete_coll_barrier_over_images(int flags) {
  return (flags & GASNET_BARRIERFLAG_IMAGES) && gasnete_coll_images.multi;
}

void gasnete_coll_barrier_notify(gasnet_team_handle_t handle, int id, int flags) {
  static const char call[] = "gasnet_coll_barrier_notify";
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  if (gasnete_coll_barrier_over_images(flags))
    gasnete_coll_images_barrier_notify(team, id, flags & ~GASNET_BARRIERFLAG_IMAGES, call);
  else if (team == &gasnete_coll_team_all)
    gasnet_barrier_notify(id, flags & ~GASNET_BARRIERFLAG_IMAGES);
  else
    gasnete_coll_team_barrier_notify(team, id, flags);
}

int gasnete_coll_barrier_wait(gasnet_team_handle_t handle, int id, int flags) {
  static const char call[] = "gasnet_coll_barrier_wait";
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  if (gasnete_coll_barrier_over_images(flags)) return gasnete_coll_images_barrier_wait(team, call);
  if (team == &gasnete_coll_team_all) return gasnet_barrier_wait(id, flags & ~GASNET_BARRIERFLAG_IMAGES);
  return gasnete_coll_team_barrier_wait(team, id, flags);
}

int gasnete_coll_barrier_try(gasnet_team_handle_t handle, int id, int flags) {
  static const char call[] = "gasnet_coll_barrier_try";
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  if (gasnete_coll_barrier_over_images(flags)) return gasnete_coll_images_barrier_try(team, call);
  if (team == &gasnete_coll_team_all) return gasnet_barrier_try(id, flags & ~GASNET_BARRIERFLAG_IMAGES);
  return gasnete_coll_team_barrier_try(team, id, flags);
}

int gasnete_coll_barrier_result(gasnet_team_handle_t handle, int *id) {
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, "gasnet_coll_barrier_result");
  if (team == &gasnete_coll_team_all) return gasnet_barrier_result(id);
  return gasnete_coll_team_barrier_result(team, id);
}

int gasnete_coll_barrier(gasnet_team_handle_t handle, int id, int flags) {
  gasnete_coll_barrier_notify(handle, id, flags);
  return gasnete_coll_barrier_wait(handle, id, flags);
}
