/* images.h: the images floor of the collectives (coll/images/): several
 * images (client threads) per node.
 *
 * With images[] given to gasnet_coll_init and some node running more than
 * one image, every collective is called by every image. The calls of a
 * node's images meet in a gang (one per call number: the images call
 * collectives in the same order, so the n-th call of each image is the
 * same collective); the image that completes a gang starts one node-level
 * op for it. That op's algorithm (images_alg.c) gathers the images'
 * sources into one node buffer, runs an ordinary node algorithm on it
 * (data crosses the network once per node), and hands the result out to
 * the images' destinations; each image's handle completes when the op
 * does. Nodes may run different numbers of images: node buffers give every
 * node room for the most images any node runs.
 *
 * With one image per node (images NULL or all ones) none of this runs: an
 * image is a node and collectives go straight to the engine. */
#ifndef COLL_IMAGES_H
#define COLL_IMAGES_H

#include "teams/teams.h"

/* A node's images in the team barrier over images (images_barrier.c).
 * Engine lock for the fields without a note. */
typedef struct {
  gasnet_image_t notified;  /* local images that notified this phase */
  uint8_t *notified_by;     /* [mine] */
  uint32_t *phase_of;       /* [mine]: phases each image has left */
  uint32_t completed;       /* phases completed; atomic */
  int named, id, mismatch;  /* the merged value of this phase's notifies */
  int node_notified;        /* the node's notify is made; atomic */
  gasnet_image_t notifier;  /* the image that made it */
  int node_id, node_flags;  /* what it passed */
  int result;               /* of the last completed phase */
} gasnete_coll_images_barrier_t;

/* The images of a team: every image of its member nodes, numbered
 * node-major in team rank order (for GASNET_TEAM_ALL: the job's image
 * numbers). A team is made of whole nodes, so each node's images are all
 * in it or none is. */
typedef struct gasnete_coll_images_s {
  int multi;                /* some member node runs more than one image */
  gasnet_image_t total;     /* the team's images */
  gasnet_image_t *first;    /* [size + 1]: first image of each team rank; [size] = total */
  gasnet_image_t max_local; /* the most images any member runs */
  int uniform;              /* every member runs max_local images */
  gasnet_image_t mine;      /* images on this node */
  /* Per local image, touched only by that image's thread: */
  uint32_t *next_call;              /* [mine]: number of its next call on this team */
  gasnete_coll_handle_t **aggregate; /* [mine]: its open aggregate, or NULL */
  gasnete_coll_images_barrier_t barrier;
} gasnete_coll_images_t;

/* GASNET_TEAM_ALL's images: the images[] of gasnet_coll_init. */
extern gasnete_coll_images_t gasnete_coll_images;

static inline const gasnete_coll_images_t *gasnete_coll_team_images(const gasnete_coll_team_t *team) {
  return team->images ? team->images : &gasnete_coll_images;
}

/* The team rank of the node that runs image (a team image number). */
static inline gasnet_node_t gasnete_coll_image_rank(const gasnete_coll_images_t *im,
                                                    gasnet_node_t size, gasnet_image_t image) {
  if (!im->multi) return (gasnet_node_t)image;
  gasnet_node_t lo = 0, hi = size; /* first[lo] <= image < first[hi] */
  while (hi - lo > 1) {
    gasnet_node_t mid = lo + (hi - lo) / 2;
    if (im->first[mid] <= image) lo = mid; else hi = mid;
  }
  return lo;
}
static inline gasnet_node_t gasnete_coll_image_node(gasnet_image_t image) {
  return gasnete_coll_image_rank(&gasnete_coll_images, gasnet_nodes(), image);
}
/* Images run by the member of team rank `rank`. */
static inline gasnet_image_t gasnete_coll_images_at(const gasnete_coll_images_t *im,
                                                    gasnet_node_t rank) {
  return im->multi ? im->first[rank + 1] - im->first[rank] : 1;
}
static inline gasnet_image_t gasnete_coll_images_on(gasnet_node_t node) {
  return gasnete_coll_images_at(&gasnete_coll_images, node);
}

/* The calls of a node's images to one collective. */
typedef struct gasnete_coll_gang_s {
  gasnete_coll_keyed_t key;       /* first: (team id, the images' call number on the team) */
  gasnete_coll_team_t *team;
  gasnete_coll_args_t args;       /* as the first image gave them */
  const char *call;
  gasnet_image_t arrived;
  void **dst, **src;              /* [mine]: each local image's own addresses */
  gasnete_coll_handle_t **handles; /* [mine] */
} gasnete_coll_gang_t;

/* coll_images.c */
extern void gasnete_coll_images_init(const gasnet_image_t images[], gasnet_image_t my_image,
                                     const char *call);
/* gasnet_coll_init returns once every image of the node has called it. */
extern void gasnete_coll_images_await_all(void);
/* Is the calling thread an image? (multi mode: it called gasnet_coll_init) */
extern gasnet_image_t gasnete_coll_my_image(const char *call);
extern gasnet_image_t gasnete_coll_my_local_image(const char *call);
/* Initiate a collective in multi mode; args as this image gave them
 * (root: an image number; dst, src: this image's own), already checked
 * as if the team's images were its ranks (api/coll_api.c). */
extern gasnet_coll_handle_t gasnete_coll_images_initiate(gasnete_coll_team_t *team,
                                                         const gasnete_coll_args_t *args,
                                                         int blocking, const char *call);

/* The images table of a team made of the parent's members in rank2node
 * order (images_team.c); NULL when every image is a node. */
extern gasnete_coll_images_t *gasnete_coll_images_for_team(const gasnete_coll_team_t *team);
extern void gasnete_coll_images_free(gasnete_coll_images_t *im);
/* The calling image's number in team, and its index on its node. */
extern gasnet_image_t gasnete_coll_team_my_image(const gasnete_coll_team_t *team, const char *call);

/* images_team.c: team creation and freeing by the images of a node (one
 * node-level call, teams/teams.h, made by the last image to arrive). */
extern gasnet_team_handle_t gasnete_coll_images_team_make(gasnet_team_handle_t parent,
                                                          gasnete_coll_split_rec_t mine,
                                                          void *clientdata, const char *call);
extern void gasnete_coll_images_team_free(gasnete_coll_team_t *team, const char *call);

/* images_barrier.c: gasnet_coll_barrier_* with GASNET_BARRIERFLAG_IMAGES. */
extern void gasnete_coll_images_barrier_notify(gasnete_coll_team_t *team, int id, int flags,
                                               const char *call);
extern int gasnete_coll_images_barrier_wait(gasnete_coll_team_t *team, const char *call);
extern int gasnete_coll_images_barrier_try(gasnete_coll_team_t *team, const char *call);

/* images_alg.c: the node-level op a full gang starts. */
extern gasnete_coll_op_t *gasnete_coll_images_start(gasnete_coll_gang_t *gang);

#endif
