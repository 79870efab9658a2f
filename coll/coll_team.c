/* coll_team.c: what a client can ask of a team and the team barrier.
 *
 * GASNET_TEAM_ALL is the only team so far: its ranks are the node numbers.
 * The queries and the barrier therefore work from gasnet_attach on, with or
 * without gasnet_coll_init, as GASNet-1 clients use them. The GASNet-1
 * spellings with the gasnete_ prefix are the entry points; gasnet_coll.h
 * maps the gasnet_ spellings onto them. */
#include "coll_internal.h"

/* Every call names itself and the team it was given when the team is not
 * one this library made. */
static void gasnete_coll_check_team(gasnet_team_handle_t team, const char *call) {
  if (team != GASNET_TEAM_ALL)
    gasneti_fatalerror("%s: team %p is not a team handle (only GASNET_TEAM_ALL exists)", call,
                       (void *)team);
}

uint32_t gasnete_coll_team_size(gasnet_team_handle_t team) {
  gasnete_coll_check_team(team, "gasnet_coll_team_size");
  return gasnet_nodes();
}

gasnet_node_t gasnete_coll_team_rank2node(gasnet_team_handle_t team, int rank) {
  gasnete_coll_check_team(team, "gasnet_coll_team_rank2node");
  if (rank < 0 || (gasnet_node_t)rank >= gasnet_nodes())
    gasneti_fatalerror("gasnet_coll_team_rank2node: rank %d is outside the team of %u", rank,
                       (unsigned)gasnet_nodes());
  return (gasnet_node_t)rank;
}

uint32_t gasnete_coll_team_node2rank(gasnet_team_handle_t team, gasnet_node_t node) {
  gasnete_coll_check_team(team, "gasnet_coll_team_node2rank");
  if (node >= gasnet_nodes())
    gasneti_fatalerror("gasnet_coll_team_node2rank: node %u is not in the job of %u nodes",
                       (unsigned)node, (unsigned)gasnet_nodes());
  return node;
}

/* GASNET_BARRIERFLAG_IMAGES asks for a barrier over every image; with one
 * image per node that is the barrier over every node. */
static int gasnete_coll_node_barrier_flags(int flags) {
  return flags & ~GASNET_BARRIERFLAG_IMAGES;
}

void gasnete_coll_barrier_notify(gasnet_team_handle_t team, int id, int flags) {
  gasnete_coll_check_team(team, "gasnet_coll_barrier_notify");
  gasnet_barrier_notify(id, gasnete_coll_node_barrier_flags(flags));
}

int gasnete_coll_barrier_wait(gasnet_team_handle_t team, int id, int flags) {
  gasnete_coll_check_team(team, "gasnet_coll_barrier_wait");
  return gasnet_barrier_wait(id, gasnete_coll_node_barrier_flags(flags));
}

int gasnete_coll_barrier_try(gasnet_team_handle_t team, int id, int flags) {
  gasnete_coll_check_team(team, "gasnet_coll_barrier_try");
  return gasnet_barrier_try(id, gasnete_coll_node_barrier_flags(flags));
}

int gasnete_coll_barrier_result(gasnet_team_handle_t team, int *id) {
  gasnete_coll_check_team(team, "gasnet_coll_barrier_result");
  return gasnet_barrier_result(id);
}

int gasnete_coll_barrier(gasnet_team_handle_t team, int id, int flags) {
  gasnete_coll_check_team(team, "gasnet_coll_barrier");
  flags = gasnete_coll_node_barrier_flags(flags);
  gasnet_barrier_notify(id, flags);
  return gasnet_barrier_wait(id, flags);
}
