/* teams.h: the teams floor of the collectives (coll/teams/): making teams
 * of nodes out of a parent team, freeing them, and the split-phase barrier
 * of a team other than GASNET_TEAM_ALL. Everything here is per node: with
 * several images per node the images floor (images/images_team.c) lets
 * the images of a node meet and makes one node-level call. */
#ifndef COLL_TEAMS_H
#define COLL_TEAMS_H

#include "engine/engine.h"

/* ------------------------------------------------------------ making and freeing (team_split.c) */
/* What one member of the parent asks for. */
typedef struct {
  uint32_t wants_team; /* 0: not in any new team (gasnet_coll_team_create) */
  uint32_t color;
  uint32_t relrank;
  uint32_t proposed_id; /* filled in by gasnete_coll_teams_make */
} gasnete_coll_split_rec_t;

/* Collective over the parent's nodes: every member passes what it asks
 * for; returns the handle of the team this node joins, or NULL when it
 * asks for none. Calls of one node must not run concurrently. */
extern gasnet_team_handle_t gasnete_coll_teams_make(gasnet_team_handle_t parent,
                                                    gasnete_coll_split_rec_t mine,
                                                    void *clientdata, const char *call);
/* The record of gasnet_coll_team_create's member list for this node, after
 * checking the list (each node once, each a member of parent; the same on
 * every caller, so every caller fails alike). */
extern gasnete_coll_split_rec_t gasnete_coll_teams_member_rec(gasnete_coll_team_t *parent,
                                                              gasnet_node_t nmembers,
                                                              const gasnet_node_t *members,
                                                              const char *call);
/* Free what this node holds of a quiescent team (fatal if it is not). */
extern void gasnete_coll_teams_free(gasnete_coll_team_t *team, const char *call);

/* ------------------------------------------------------------ the team barrier (team_barrier.c)
 * At most one in flight per team. A consensus is the barrier's verdict so
 * far, encoded in 64 bits. */
struct gasnete_coll_team_barrier_s {
  int notified;   /* between notify and the wait or successful try */
  int id, flags;  /* of the pending notify */
  uint64_t mine;  /* this rank's own consensus, from its notify */
  uint32_t count; /* barriers completed */
  uint64_t last;  /* the consensus of the last one to complete */
  int last_id;    /* this node's id in it */
  gasnete_coll_handle_t *handle;
};
typedef struct gasnete_coll_team_barrier_s gasnete_coll_team_barrier_t;

extern void gasnete_coll_team_barrier_notify(gasnete_coll_team_t *team, int id, int flags);
extern int gasnete_coll_team_barrier_wait(gasnete_coll_team_t *team, int id, int flags);
extern int gasnete_coll_team_barrier_try(gasnete_coll_team_t *team, int id, int flags);
extern int gasnete_coll_team_barrier_result(gasnete_coll_team_t *team, int *id);
/* A team barrier is notified and not yet waited for. */
static inline int gasnete_coll_team_barrier_pending(const gasnete_coll_team_t *team) {
  return team->barrier && team->barrier->notified;
}

#endif
