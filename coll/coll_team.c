/* coll_team.c: team handles, what a client can ask of a team, freeing a
 * team, and the front of the team barrier.
 *
 * A handle is the team's id encoded as id * 2 + 1 (gasnet_coll.h), so it
 * is the same bits on every member; this node keeps its live teams in a
 * list, and every call that takes a handle looks it up there, which also
 * turns a bad handle into a clear error instead of a wild read. Teams are
 * few and made rarely; the list is short.
 *
 * GASNET_TEAM_ALL (id 0) works from gasnet_attach on, with or without
 * gasnet_coll_init, as GASNet-1 clients use it: its ranks are node numbers
 * and its barrier is the node barrier. Other teams come from
 * gasnet_coll_team_split / _create (team_split.c) and have their barrier
 * in team_barrier.c. The GASNet-1 spellings with the gasnete_ prefix are
 * the entry points; gasnet_coll.h maps the gasnet_ spellings onto them. */
#include "coll_images.h"

#include <stdlib.h>

extern void gasnete_coll_team_barrier_notify(gasnete_coll_team_t *team, int id, int flags);
extern int gasnete_coll_team_barrier_wait(gasnete_coll_team_t *team, int id, int flags);
extern int gasnete_coll_team_barrier_try(gasnete_coll_team_t *team, int id, int flags);
extern int gasnete_coll_team_barrier_result(gasnete_coll_team_t *team, int *id);

static gasnete_coll_team_t *gasnete_coll_teams; /* live teams other than ALL */

static inline uintptr_t gasnete_coll_handle_bits(uint32_t id) { return ((uintptr_t)id << 1) | 1u; }

gasnet_team_handle_t gasnete_coll_team_handle(const gasnete_coll_team_t *team) {
  return (gasnet_team_handle_t)gasnete_coll_handle_bits(team->id);
}

void gasnete_coll_team_register(gasnete_coll_team_t *team) {
  gasnete_coll_lock();
  team->next = gasnete_coll_teams;
  gasnete_coll_teams = team;
  gasnete_coll_unlock();
}

static void gasnete_coll_team_unregister(gasnete_coll_team_t *team) {
  gasnete_coll_lock();
  gasnete_coll_team_t **p = &gasnete_coll_teams;
  while (*p != team) p = &(*p)->next;
  *p = team->next;
  gasnete_coll_unlock();
}

static gasnete_coll_team_t *gasnete_coll_team_find(gasnet_team_handle_t handle) {
  uintptr_t bits = (uintptr_t)handle;
  if (handle == GASNET_TEAM_ALL) return &gasnete_coll_team_all;
  if (!(bits & 1u)) return NULL; /* an address, not an encoded id */
  gasnete_coll_lock();
  gasnete_coll_team_t *t = gasnete_coll_teams;
  while (t && gasnete_coll_handle_bits(t->id) != bits) t = t->next;
  gasnete_coll_unlock();
  return t;
}

gasnete_coll_team_t *gasnete_coll_team_lookup(gasnet_team_handle_t handle, const char *call) {
  gasnete_coll_team_t *t = gasnete_coll_team_find(handle);
  if (!t)
    gasneti_fatalerror("%s: team %p is not a team handle (no live team of node %u has it)", call,
                       (void *)handle, (unsigned)gasnet_mynode());
  return t;
}

static int gasnete_coll_member_cmp(const void *a, const void *b) {
  gasnet_node_t x = ((const gasnete_coll_member_t *)a)->node;
  gasnet_node_t y = ((const gasnete_coll_member_t *)b)->node;
  return (x > y) - (x < y);
}

long gasnete_coll_team_rank_of(const gasnete_coll_team_t *team, gasnet_node_t node) {
  if (!team->by_node) return node < gasnet_nodes() ? (long)node : -1;
  gasnete_coll_member_t key = {node, 0};
  const gasnete_coll_member_t *m =
      bsearch(&key, team->by_node, team->size, sizeof(key), gasnete_coll_member_cmp);
  return m ? (long)m->rank : -1;
}

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

/* ------------------------------------------------------------ freeing */
/* With several images per node each image frees the team it was given;
 * the last of the node's calls frees it. Returns 0 before that one. */
static int gasnete_coll_team_last_free(gasnete_coll_team_t *team, const char *call) {
  if (!gasnete_coll_images.multi) return 1;
  gasnete_coll_my_image(call);
  gasnete_coll_lock();
  int last = ++team->frees == gasnete_coll_images.mine;
  gasnete_coll_unlock();
  return last;
}

void gasnete_coll_team_free(gasnet_team_handle_t handle) {
  static const char call[] = "gasnet_coll_team_free";
  if (handle == GASNET_TEAM_ALL) gasneti_fatalerror("%s: GASNET_TEAM_ALL cannot be freed", call);
  gasnete_coll_team_t *team = gasnete_coll_team_lookup(handle, call);
  if (!gasnete_coll_team_last_free(team, call)) return;
  gasnet_AMPoll(); /* retire ops that finished since the client last polled */
  if (team->live_ops || team->barrier.notified || team->aggregate)
    gasneti_fatalerror("%s: team %p (id %u) is not quiescent: %u collectives in flight%s%s", call,
                       (void *)handle, (unsigned)team->id, (unsigned)team->live_ops,
                       team->barrier.notified ? ", a team barrier notified" : "",
                       team->aggregate ? ", an aggregate open" : "");
  gasnete_coll_team_unregister(team);
  gasnete_coll_forget_team(team->id);
  gasnete_coll_hier_forget(team);
  free(team->rank2node);
  free(team->by_node);
  gasnete_coll_images_free(team->images);
  free(team);
}

/* ------------------------------------------------------------ barrier */
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
