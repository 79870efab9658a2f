/* images_barrier.c: the team barrier over images (GASNET_BARRIERFLAG_IMAGES
 * with several images per node).
 *
 * Every image of every member node calls notify, then wait (or try until
 * it succeeds). The images of a node meet first: their ids are merged as
 * the node barrier merges nodes' (named ids that differ, or a
 * GASNET_BARRIERFLAG_MISMATCH, make a mismatch; anonymous images match
 * anything), and the last image to notify makes the node's notify with the
 * merged value. That image, the notifier, is also the one that makes the
 * node's wait or try: the barriers below are split-phase per node, and a
 * single thread carrying both halves keeps them so. The other images wait
 * for the phase to complete, polling. A phase completes for every image at
 * once, with the node barrier's result; an image may notify the next
 * phase as soon as its own wait has returned. */
#include "images/images.h"

/* ------------------------------------------------------------ the node's calls */
static void images_barrier_node_notify(gasnete_coll_team_t *team, int id, int flags) {
  if (team == &gasnete_coll_team_all) gasnet_barrier_notify(id, flags);
  else gasnete_coll_team_barrier_notify(team, id, flags);
}
static int images_barrier_node_wait(gasnete_coll_team_t *team, int id, int flags) {
  if (team == &gasnete_coll_team_all) return gasnet_barrier_wait(id, flags);
  return gasnete_coll_team_barrier_wait(team, id, flags);
}
static int images_barrier_node_try(gasnete_coll_team_t *team, int id, int flags) {
  if (team == &gasnete_coll_team_all) return gasnet_barrier_try(id, flags);
  return gasnete_coll_team_barrier_try(team, id, flags);
}

/* ------------------------------------------------------------ the meeting */
static gasnete_coll_images_barrier_t *images_barrier_of(gasnete_coll_team_t *team) {
  return &(team->images ? team->images : &gasnete_coll_images)->barrier;
}

/* Merge one image's (id, flags) into the node's value. Engine lock held. */
static void images_barrier_merge(gasnete_coll_images_barrier_t *b, int id, int flags) {
  if (flags & GASNET_BARRIERFLAG_MISMATCH) b->mismatch = 1;
  if (flags & GASNET_BARRIERFLAG_ANONYMOUS) return;
  if (!b->named) {
    b->named = 1;
    b->id = id;
  } else if (b->id != id) {
    b->mismatch = 1;
  }
}

void gasnete_coll_images_barrier_notify(gasnete_coll_team_t *team, int id, int flags,
                                        const char *call) {
  gasnete_coll_images_barrier_t *b = images_barrier_of(team);
  gasnet_image_t local = gasnete_coll_my_local_image(call);
  gasnete_coll_lock();
  if (b->notified_by[local])
    gasneti_fatalerror("%s: image %u notified twice on team id %u without a wait in between", call,
                       (unsigned)gasnete_coll_my_image(call), (unsigned)team->id);
  b->notified_by[local] = 1;
  images_barrier_merge(b, id, flags);
  int last = ++b->notified == gasnete_coll_images.mine;
  if (last) {
    b->notifier = local;
    b->node_flags = b->mismatch ? GASNET_BARRIERFLAG_MISMATCH
                                : (b->named ? 0 : GASNET_BARRIERFLAG_ANONYMOUS);
    b->node_id = b->named ? b->id : 0;
  }
  gasnete_coll_unlock();
  /* Only the notifier reaches here with last set, and nobody else touches
   * the node barrier until it completes the phase. */
  if (last) images_barrier_node_notify(team, b->node_id, b->node_flags);
  if (last) __atomic_store_n(&b->node_notified, 1, __ATOMIC_RELEASE);
}

/* The notifier ends the phase with the node barrier's result. */
static void images_barrier_complete(gasnete_coll_images_barrier_t *b, int result) {
  gasnete_coll_lock();
  b->result = result;
  b->notified = 0;
  b->named = b->mismatch = 0;
  __atomic_store_n(&b->node_notified, 0, __ATOMIC_RELAXED);
  __atomic_fetch_add(&b->completed, 1, __ATOMIC_ACQ_REL);
  gasnete_coll_unlock();
}

/* This image's phase is over: its result, and it may notify again. */
static int images_barrier_leave(gasnete_coll_images_barrier_t *b, gasnet_image_t local) {
  gasnete_coll_lock();
  int result = b->result;
  b->notified_by[local] = 0;
  b->phase_of[local]++;
  gasnete_coll_unlock();
  return result;
}

static void images_barrier_check_notified(const gasnete_coll_images_barrier_t *b, gasnet_image_t local,
                                          const gasnete_coll_team_t *team, const char *call) {
  if (!b->notified_by[local])
    gasneti_fatalerror("%s: image %u has no gasnet_coll_barrier_notify pending on team id %u", call,
                       (unsigned)gasnete_coll_my_image(call), (unsigned)team->id);
}

static int images_barrier_done(const gasnete_coll_images_barrier_t *b, gasnet_image_t local) {
  return __atomic_load_n(&b->completed, __ATOMIC_ACQUIRE) > b->phase_of[local];
}

int gasnete_coll_images_barrier_wait(gasnete_coll_team_t *team, const char *call) {
  gasnete_coll_images_barrier_t *b = images_barrier_of(team);
  gasnet_image_t local = gasnete_coll_my_local_image(call);
  images_barrier_check_notified(b, local, team, call);
  if (__atomic_load_n(&b->node_notified, __ATOMIC_ACQUIRE) && b->notifier == local &&
      !images_barrier_done(b, local)) {
    images_barrier_complete(b, images_barrier_node_wait(team, b->node_id, b->node_flags));
  } else {
    unsigned spins = 0;
    while (!images_barrier_done(b, local)) {
      gasnet_AMPoll();
      gasneti_wait_step(&spins);
    }
  }
  return images_barrier_leave(b, local);
}

int gasnete_coll_images_barrier_try(gasnete_coll_team_t *team, const char *call) {
  gasnete_coll_images_barrier_t *b = images_barrier_of(team);
  gasnet_image_t local = gasnete_coll_my_local_image(call);
  images_barrier_check_notified(b, local, team, call);
  if (!images_barrier_done(b, local)) {
    int mine = __atomic_load_n(&b->node_notified, __ATOMIC_ACQUIRE) && b->notifier == local;
    if (!mine) {
      gasnet_AMPoll();
      return GASNET_ERR_NOT_READY;
    }
    int rc = images_barrier_node_try(team, b->node_id, b->node_flags);
    if (rc == GASNET_ERR_NOT_READY) return rc;
    images_barrier_complete(b, rc);
  }
  return images_barrier_leave(b, local);
}
