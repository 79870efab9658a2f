/* coll_hier.h: a team's supernode runs (trees_hier.h), learned from
 * gasnet_getNodeInfo when the team is made (the same on every member)
 * and given back when it is freed; the hier algorithms build their
 * two-level trees on them, and the selector asks whether a team spans
 * several supernodes. */
#ifndef COLL_HIER_H
#define COLL_HIER_H

#include "engine/engine.h"
#include "patterns/trees_hier.h"

extern void gasnete_coll_hier_learn(gasnete_coll_team_t *team, const char *call);
extern void gasnete_coll_hier_forget(gasnete_coll_team_t *team);

/* Does the team span several supernodes (some messages cross the
 * network)? Not before its runs are known. */
static inline int gasnete_coll_team_networked(const gasnete_coll_team_t *team) {
  return team->hier && team->hier->nruns > 1;
}
/* ... and some run has more than one rank, so the hier algorithms have
 * work to save. */
static inline int gasnete_coll_hier_pays(const gasnete_coll_team_t *team) {
  return gasnete_coll_team_networked(team) && team->hier->nruns < team->size;
}

#endif
