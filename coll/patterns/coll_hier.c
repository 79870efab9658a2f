/* coll_hier.c: which supernode each rank of a team is on, as the runs of
 * trees_hier.h. Learned once, when the team is made, from the public
 * gasnet_getNodeInfo (the conduit's supernodes: the processes of a host
 * sharing memory), so every member computes the same runs and the hier
 * algorithms build the same tree everywhere. */
#include "patterns/coll_hier.h"

#include <stdlib.h>

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
  free(supernode_of);
  free(info);
}

void gasnete_coll_hier_forget(gasnete_coll_team_t *team) {
  if (!team->hier) return;
  free((void *)team->hier->run_start);
  free(team->hier);
  team->hier = NULL;
}
