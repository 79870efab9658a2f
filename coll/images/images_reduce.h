/* images_reduce.h: reduce and scan for the images of a node (images_alg.c
 * runs them).
 *
 * With the same number of images I on every node, a block-cyclic layout
 * over the images (blocks of B elements) is a block-cyclic layout over the
 * nodes with blocks of I * B elements: image block b is on node
 * (b mod NImages) / I, and the node's blocks of one row, in local image
 * order, are I consecutive image blocks. So the node reduces or scans
 * with the ordinary algorithms, on a node buffer holding its images'
 * blocks in that order, and the element order (what a non-commutative
 * function needs) is the same. The indefinite layout (blksz 0) stays
 * indefinite, on the image's node.
 *
 * With different numbers of images per node there is no such layout; the
 * node instead gathers every node's elements (to the destination's node
 * for reduce, to every node for scan) and combines them in element order
 * itself. */
#ifndef COLL_IMAGES_REDUCE_H
#define COLL_IMAGES_REDUCE_H

#include "images/images.h"

typedef struct gasnete_coll_images_red_s gasnete_coll_images_red_t;

/* The node-level layouts and root of a gang's reduce or scan. */
extern void gasnete_coll_images_red_node_args(gasnete_coll_args_t *node,
                                              const gasnete_coll_gang_t *gang);
/* The inner op's arguments and buffers on this node (may change its kind). */
extern void gasnete_coll_images_red_buffers(gasnete_coll_op_t *op, gasnete_coll_images_red_t **red_p,
                                            gasnete_coll_args_t *inner);
extern void gasnete_coll_images_red_pack(gasnete_coll_op_t *op, gasnete_coll_images_red_t *red,
                                         const gasnete_coll_args_t *inner);
/* Returns 0 when the client's function may not run here; call again. */
extern int gasnete_coll_images_red_unpack(gasnete_coll_op_t *op, gasnete_coll_images_red_t *red,
                                          const gasnete_coll_args_t *inner);
extern void gasnete_coll_images_red_free(gasnete_coll_images_red_t *red);

#endif
