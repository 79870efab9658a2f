/* images_team.c: teams with several images per node. A team is made of
 * whole nodes: every image makes the team calls, with the same arguments
 * on a node (a node's images are all in a team or none is). The images of
 * a node meet; the last to arrive makes the node's call (teams/), while the
 * others wait, and all of them return the same handle; the new team gets
 * its images table (images_alg.c numbers a team's images node-major in
 * team rank order). Freeing: each image frees the team it was given; the
 * last of the node's calls frees it. With one image per node there is no
 * meeting. */
#include "images/images.h"

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

/* The node's call, and the new team's images table. */
static gasnet_team_handle_t gasnete_coll_split_node(gasnet_team_handle_t parent,
                                                    gasnete_coll_split_rec_t mine,
                                                    void *clientdata, const char *call) {
  gasnet_team_handle_t result = gasnete_coll_teams_make(parent, mine, clientdata, call);
  if (result) {
    gasnete_coll_team_t *team = gasnete_coll_team_lookup(result, call);
    team->images = gasnete_coll_images_for_team(team);
  }
  return result;
}

gasnet_team_handle_t gasnete_coll_images_team_make(gasnet_team_handle_t parent,
                                                   gasnete_coll_split_rec_t mine, void *clientdata,
                                                   const char *call) {
  if (!gasnete_coll_images.multi) return gasnete_coll_split_node(parent, mine, clientdata, call);
  gasnet_team_handle_t result = NULL;
  if (!gasnete_coll_split_meet(parent, mine, &result, call)) return result;
  result = gasnete_coll_split_node(parent, mine, clientdata, call);
  gasnete_coll_split_publish(result);
  return result;
}

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


void gasnete_coll_images_team_free(gasnete_coll_team_t *team, const char *call) {
  if (!gasnete_coll_team_last_free(team, call)) return;
  gasnete_coll_images_free(team->images);
  team->images = NULL;
  gasnete_coll_teams_free(team, call);
}
