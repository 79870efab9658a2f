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
 * advance this node's next id); in a PAR process one thread at a time
 * makes them, as with any collective initiation of one image per node.
 *
 * With several images per node every image calls, with the same
 * arguments on a node (a team is made of whole nodes: a node's images are
 * all in it or none is). The images of a node meet; the last to arrive
 * makes the node's call, on the parent's nodes (its exchange bypasses the
 * images), while the others wait; all of them return the same handle. */
#include "coll_images.h"

#include <stdlib.h>

/* The smallest id this node has not used (GASNET_TEAM_ALL is 0). */
static uint32_t gasnete_coll_next_team_id = 1;

/* What one member of the parent asks for. */
typedef struct {
  uint32_t wants_team; /* 0: not in any new team (gasnet_coll_team_create) */
  uint32_t color;
  uint32_t relrank;
  uint32_t proposed_id;
} gasnete_coll_split_rec_t;

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
  gasnet_coll_wait_sync(gasnete_coll_initiate_nodes(parent, &a, 1, call));
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
  team->images = gasnete_coll_images_for_team(team);
  gasnete_coll_hier_learn(team, "gasnet_coll_team_split");
  free(pos);
  return team;
}

/* The shared body of split and create. Returns NULL when mine asks for no team. */
static gasnet_team_handle_t gasnete_coll_split_common(gasnet_team_handle_t parent_handle,
                                                      gasnete_coll_split_rec_t mine,
                                                      void *clientdata, const char *call) {
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

static void gasnete_coll_check_creation_call(const char *call) {
  if (!gasnete_coll_initialized) gasnete_coll_fatal_misuse(call, "called before gasnet_coll_init");
  if (gasneti_in_handler()) gasnete_coll_fatal_misuse(call, "called from inside an AM handler");
}

/* ------------------------------------------------------------ images */
/* The images of a node making one team: at most one such meeting at a
 * time (team creation is collective, so every image is in the same one). */
static struct {
  gasnet_image_t arrived;
  uint32_t generation;            /* completed meetings; atomic */
  gasnet_team_handle_t parent;
  gasnete_coll_split_rec_t mine;  /* as the first image gave it */
  gasnet_image_t first_image;
  gasnet_team_handle_t result;
} gasnete_coll_split_meeting;

/* The calling image joins its node's meeting. Returns 1 for the image
 * that makes the node's call, 0 for the others (which have waited for the
 * result in *result). */
static int gasnete_coll_split_meet(gasnet_team_handle_t parent, gasnete_coll_split_rec_t mine,
                                   gasnet_team_handle_t *result, const char *call) {
  __typeof__(gasnete_coll_split_meeting) *m = &gasnete_coll_split_meeting;
  gasnet_image_t me = gasnete_coll_my_image(call);
  gasnete_coll_lock();
  uint32_t generation = __atomic_load_n(&m->generation, __ATOMIC_RELAXED);
  if (m->arrived == 0) {
    m->parent = parent;
    m->mine = mine;
    m->first_image = me;
  } else if (m->parent != parent || m->mine.wants_team != mine.wants_team ||
             m->mine.color != mine.color || m->mine.relrank != mine.relrank) {
    gasneti_fatalerror("%s: image %u asks for (parent %p, %s color %u, relrank %u) but image %u "
                       "of the same node for (parent %p, %s color %u, relrank %u); a node's images "
                       "join a team together",
                       call, (unsigned)me, (void *)parent, mine.wants_team ? "" : "no team,",
                       (unsigned)mine.color, (unsigned)mine.relrank, (unsigned)m->first_image,
                       (void *)m->parent, m->mine.wants_team ? "" : "no team,",
                       (unsigned)m->mine.color, (unsigned)m->mine.relrank);
  }
  int last = ++m->arrived == gasnete_coll_images.mine;
  gasnete_coll_unlock();
  if (last) return 1;
  unsigned spins = 0;
  while (__atomic_load_n(&m->generation, __ATOMIC_ACQUIRE) == generation) {
    gasnet_AMPoll();
    gasneti_wait_step(&spins);
  }
  *result = m->result;
  return 0;
}

/* The image that made the node's call hands its result to the others. */
static void gasnete_coll_split_publish(gasnet_team_handle_t result) {
  __typeof__(gasnete_coll_split_meeting) *m = &gasnete_coll_split_meeting;
  gasnete_coll_lock();
  m->result = result;
  m->arrived = 0;
  __atomic_fetch_add(&m->generation, 1, __ATOMIC_ACQ_REL);
  gasnete_coll_unlock();
}

/* One image per node in effect: the call itself; several: the meeting. */
static gasnet_team_handle_t gasnete_coll_split_by_node(gasnet_team_handle_t parent,
                                                       gasnete_coll_split_rec_t mine,
                                                       void *clientdata, const char *call) {
  if (!gasnete_coll_images.multi) return gasnete_coll_split_common(parent, mine, clientdata, call);
  gasnet_team_handle_t result = NULL;
  if (!gasnete_coll_split_meet(parent, mine, &result, call)) return result;
  result = gasnete_coll_split_common(parent, mine, clientdata, call);
  gasnete_coll_split_publish(result);
  return result;
}

gasnet_team_handle_t gasnete_coll_team_split_with(gasnet_team_handle_t parent, gasnet_node_t color,
                                                  gasnet_node_t relrank, void *clientdata) {
  static const char call[] = "gasnet_coll_team_split";
  gasnete_coll_check_creation_call(call);
  gasnete_coll_split_rec_t mine = {1, color, relrank, 0};
  return gasnete_coll_split_by_node(parent, mine, clientdata, call);
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

gasnet_team_handle_t gasnete_coll_team_create(gasnet_team_handle_t parent_handle,
                                              gasnet_node_t nmembers,
                                              const gasnet_node_t *members) {
  static const char call[] = "gasnet_coll_team_create";
  gasnete_coll_check_creation_call(call);
  gasnete_coll_team_t *parent = gasnete_coll_team_lookup(parent_handle, call);
  gasnete_coll_check_member_list(parent, nmembers, members, call);
  gasnete_coll_split_rec_t mine = {0, 0, 0, 0};
  for (gasnet_node_t i = 0; i < nmembers; i++)
    if (members[i] == gasnet_mynode()) {
      mine.wants_team = 1;
      mine.relrank = i;
    }
  return gasnete_coll_split_by_node(parent_handle, mine, NULL, call);
}
