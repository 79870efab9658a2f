/* coll_hier.c: which supernode each rank of a team is on, as the runs of
 * trees_hier.h, and whether puts may target buffers outside the segment.
 * Learned once, when the team is made, from the public gasnet_getNodeInfo
 * (the conduit's supernodes: the processes of a host sharing memory), so
 * every member computes the same runs and the hier algorithms build the
 * same tree everywhere; and whether the team's ranks are on one host. */
#include "patterns/coll_hier.h"

#include <stdlib.h>

/* Are the team's ranks (at least 2) each on a supernode of their own? */
static int gasnete_coll_ranks_apart(const gasnete_coll_team_t *team, const uint32_t *supernode_of,
                                    gasnet_node_t nodes) {
  if (team->size < 2) return 0;
  uint8_t *seen = gasnete_coll_calloc(nodes, 1);
  int distinct = 1;
  for (gasnet_node_t r = 0; r < team->size && distinct; r++) {
    uint32_t s = supernode_of[r] < nodes ? supernode_of[r] : 0;
    distinct = !seen[s];
    seen[s] = 1;
  }
  free(seen);
  return distinct;
}

/* Are they all on one host? */
static int gasnete_coll_one_host(const gasnete_coll_team_t *team, const gasnet_nodeinfo_t *info) {
  gasnet_node_t first = info[gasnete_coll_rank2node(team, 0)].host;
  for (gasnet_node_t r = 1; r < team->size; r++)
    if (info[gasnete_coll_rank2node(team, r)].host != first) return 0;
  return 1;
}

/* Every answer below is the same on every member: the node table and the
 * conduit's flags are the job's. */
static void gasnete_coll_learn_puts(gasnete_coll_team_t *team, const gasnet_nodeinfo_t *info,
                                    const uint32_t *supernode_of, gasnet_node_t nodes) {
  int apart = gasnete_coll_ranks_apart(team, supernode_of, nodes);
  /* Does the conduit take Longs to any address between supernodes? */
  gasnet_node_t peer = apart ? gasnete_coll_rank2node(team, team->myrank ? 0 : 1) : 0;
  team->puts_anywhere = apart && gasneti_long_anywhere(peer);
  team->one_host_apart = apart && gasnete_coll_one_host(team, info) && gasneti_host_memory_paths();
}

void gasnete_coll_hier_learn(gasnete_coll_team_t *team, const char *call) {
  gasnet_node_t nodes = gasnet_nodes();
  gasnet_nodeinfo_t *info = gasnete_coll_calloc(nodes, sizeof(*info));
  if (gasnet_getNodeInfo(info, (int)nodes) != GASNET_OK)
    gasneti_fatalerror("%s: failed to read the node table: gasnet_getNodeInfo refused %u entries",
                       call, (unsigned)nodes);
  uint32_t *supernode_of = gasnete_coll_calloc(team->size, sizeof(*supernode_of));
  for (gasnet_node_t r = 0; r < team->size; r++)
    supernode_of[r] = info[gasnete_coll_rank2node(team, r)].supernode;
  uint32_t *run_start = gasnete_coll_calloc(team->size, sizeof(*run_start));
  uint32_t nruns = gasnete_coll_hier_find_runs(supernode_of, team->size, run_start);
  uint32_t *kept = realloc(run_start, nruns * sizeof(*run_start)); /* a run per supernode, often */
  gasnete_coll_hier_runs_t *hier = gasnete_coll_calloc(1, sizeof(*hier));
  hier->size = team->size;
  hier->nruns = nruns;
  hier->run_start = kept ? kept : run_start;
  gasnete_coll_hier_forget(team); /* GASNET_TEAM_ALL's, if learned before */
  team->hier = hier;
  gasnete_coll_learn_puts(team, info, supernode_of, nodes);
  free(supernode_of);
  free(info);
}

void gasnete_coll_hier_forget(gasnete_coll_team_t *team) {
  if (!team->hier) return;
  free((void *)team->hier->run_start);
  free(team->hier);
  team->hier = NULL;
}
