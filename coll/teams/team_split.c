/* team_split.c: making teams. Both calls are collective over the parent
 * team and run one gather_all on it, in which every member publishes what
 * it asks for (a color and a place in it, or no team) and the smallest team
 * id it could still take. From the gathered records every member computes
 * the same teams, so no further messages are needed:
 *   - the members of a team are the callers with its color, ranked by
 *     (relrank, parent rank);
 *   - its id is the largest proposal among its members. Each node's
 *     proposal is one more than any id it has held, so the id is new to
 *     every member (ids of live teams of a node never collide) and the same
 *     on all of them. Teams with disjoint members may get the same id; the
 *     spec allows that, and no node is in both.
 * Team creation calls of one node must not run concurrently (they read and
 * advance this node's next id); with several images per node the images
 * floor makes one call per node (images/images_team.c). Freeing is here
 * too. */
#include "patterns/coll_hier.h"
#include "teams/teams.h"

#include <stdlib.h>

/* The smallest id this node has not used (GASNET_TEAM_ALL is 0). */
static uint32_t gasnete_coll_next_team_id = 1;

/* A member of the new team, while it is being ranked. */
typedef struct {
  uint32_t relrank;
  gasnet_node_t parent_rank;
} gasnete_coll_split_pos_t;

static int gasnete_coll_split_pos_cmp(const void *a, const void *b) {
  const gasnete_coll_split_pos_t *x = a, *y = b;
  if (x->relrank != y->relrank) return (x->relrank > y->relrank) - (x->relrank < y->relrank);
  return (x->parent_rank > y->parent_rank) - (x->parent_rank < y->parent_rank);
}

static int gasnete_coll_member_node_cmp(const void *a, const void *b) {
  gasnet_node_t x = ((const gasnete_coll_member_t *)a)->node;
  gasnet_node_t y = ((const gasnete_coll_member_t *)b)->node;
  return (x > y) - (x < y);
}

/* Every member's record, in parent rank order. */
static gasnete_coll_split_rec_t *gasnete_coll_split_gather(gasnete_coll_team_t *parent,
                                                           gasnete_coll_split_rec_t mine,
                                                           const char *call) {
  gasnete_coll_split_rec_t *all = gasnete_coll_calloc(parent->size, sizeof(*all));
  /* ALLSYNC both ways: a split is rare, and it keeps the records private
   * to this call on every node. */
  gasnete_coll_args_t a = gasnete_coll_args(GASNETE_COLL_GATHER_ALL, all, &mine, sizeof(mine), 0,
                                            GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC |
                                                GASNET_COLL_LOCAL);
  gasnete_coll_run(parent, &a, call);
  return all;
}

/* The team this node is in, built from every member's record. */
static gasnete_coll_team_t *gasnete_coll_split_build(const gasnete_coll_team_t *parent,
                                                     const gasnete_coll_split_rec_t *all,
                                                     void *clientdata) {
  const gasnete_coll_split_rec_t *me = &all[parent->myrank];
  gasnete_coll_split_pos_t *pos = gasnete_coll_calloc(parent->size, sizeof(*pos));
  gasnet_node_t n = 0;
  uint32_t id = 0;
  for (gasnet_node_t r = 0; r < parent->size; r++) {
    if (!all[r].wants_team || all[r].color != me->color) continue;
    pos[n].relrank = all[r].relrank;
    pos[n].parent_rank = r;
    n++;
    if (all[r].proposed_id > id) id = all[r].proposed_id;
  }
  qsort(pos, n, sizeof(*pos), gasnete_coll_split_pos_cmp);
  gasnete_coll_team_t *team = gasnete_coll_calloc(1, sizeof(*team));
  team->id = id;
  team->size = n;
  team->clientdata = clientdata;
  team->rank2node = gasnete_coll_calloc(n, sizeof(*team->rank2node));
  team->by_node = gasnete_coll_calloc(n, sizeof(*team->by_node));
  for (gasnet_node_t i = 0; i < n; i++) {
    gasnet_node_t node = gasnete_coll_rank2node(parent, pos[i].parent_rank);
    if (pos[i].parent_rank == parent->myrank) team->myrank = i;
    team->rank2node[i] = node;
    team->by_node[i].node = node;
    team->by_node[i].rank = i;
  }
  qsort(team->by_node, n, sizeof(*team->by_node), gasnete_coll_member_node_cmp);
  gasnete_coll_hier_learn(team, "gasnet_coll_team_split");
  free(pos);
  return team;
}

gasnet_team_handle_t gasnete_coll_teams_make(gasnet_team_handle_t parent_handle,
                                             gasnete_coll_split_rec_t mine, void *clientdata,
                                             const char *call) {
  gasnete_coll_team_t *parent = gasnete_coll_team_lookup(parent_handle, call);
  mine.proposed_id = gasnete_coll_next_team_id;
  gasnete_coll_split_rec_t *all = gasnete_coll_split_gather(parent, mine, call);
  if (!mine.wants_team) {
    free(all);
    return NULL;
  }
  gasnete_coll_team_t *team = gasnete_coll_split_build(parent, all, clientdata);
  free(all);
  if (team->id == UINT32_MAX)
    gasneti_fatalerror("%s: node %u has run out of team ids", call, (unsigned)gasnet_mynode());
  gasnete_coll_next_team_id = team->id + 1;
  gasnete_coll_team_register(team);
  return gasnete_coll_team_handle(team);
}

/* Each listed node once, each a member of parent. The list is the same on
 * every caller, so every caller fails here alike. */
static void gasnete_coll_check_member_list(const gasnete_coll_team_t *parent,
                                           gasnet_node_t nmembers, const gasnet_node_t *members,
                                           const char *call) {
  if (nmembers == 0) gasneti_fatalerror("%s: nmembers is 0; a team needs a member", call);
  if (!members) gasneti_fatalerror("%s: members is NULL with nmembers %u", call, (unsigned)nmembers);
  char *seen = gasnete_coll_calloc(gasnet_nodes(), 1);
  for (gasnet_node_t i = 0; i < nmembers; i++) {
    gasnet_node_t node = members[i];
    if (node >= gasnet_nodes() || gasnete_coll_team_rank_of(parent, node) < 0)
      gasneti_fatalerror("%s: members[%u] is node %u, which is not a member of the parent team",
                         call, (unsigned)i, (unsigned)node);
    if (seen[node])
      gasneti_fatalerror("%s: members[%u] is node %u, which is listed twice", call, (unsigned)i,
                         (unsigned)node);
    seen[node] = 1;
  }
  free(seen);
}

gasnete_coll_split_rec_t gasnete_coll_teams_member_rec(gasnete_coll_team_t *parent,
                                                       gasnet_node_t nmembers,
                                                       const gasnet_node_t *members,
                                                       const char *call) {
  gasnete_coll_check_member_list(parent, nmembers, members, call);
  gasnete_coll_split_rec_t mine = {0, 0, 0, 0};
  for (gasnet_node_t i = 0; i < nmembers; i++)
    if (members[i] == gasnet_mynode()) {
      mine.wants_team = 1;
      mine.relrank = i;
    }
  return mine;
}

/* ------------------------------------------------------------ freeing */
void gasnete_coll_teams_free(gasnete_coll_team_t *team, const char *call) {
  gasnet_AMPoll(); /* retire ops that finished since the client last polled */
  int barrier = gasnete_coll_team_barrier_pending(team);
  if (team->live_ops || barrier || team->aggregate)
    gasneti_fatalerror("%s: team %p (id %u) is not quiescent: %u collectives in flight%s%s", call,
                       (void *)gasnete_coll_team_handle(team), (unsigned)team->id,
                       (unsigned)team->live_ops, barrier ? ", a team barrier notified" : "",
                       team->aggregate ? ", an aggregate open" : "");
  gasnete_coll_team_unregister(team);
  gasnete_coll_forget_team(team->id);
  gasnete_coll_hier_forget(team);
  free(team->barrier);
  free(team->rank2node);
  free(team->by_node);
  free(team);
}
