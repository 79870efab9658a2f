/* engine_team.c: team handles and the list of this node's live teams.
 *
 * A handle is the team's id encoded as id * 2 + 1 (gasnet_coll.h), so it
 * is the same bits on every member; this node keeps its live teams in a
 * list, and every call that takes a handle looks it up there, which also
 * turns a bad handle into a clear error instead of a wild read. Teams are
 * few and made rarely; the list is short. GASNET_TEAM_ALL (id 0) is always
 * there. */
#include "engine/engine.h"

#include <stdlib.h>

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

void gasnete_coll_team_unregister(gasnete_coll_team_t *team) {
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

