/* trees.h: tree shapes for rooted collectives, as pure functions of
 * (shape, size, virtual rank). Virtual rank 0 is the root; a team rank r
 * has virtual rank (r - root) mod size.
 *
 * Every shape numbers its nodes so that each subtree is a contiguous range
 * of virtual ranks [child, child + subtree_size): scatter and gather can
 * then move a whole subtree's blocks as one contiguous piece. */
#ifndef COLL_TREES_H
#define COLL_TREES_H

#include <stdint.h>

#include "engine/rank_math.h"

typedef enum {
  GASNETE_COLL_TREE_FLAT,     /* the root is everyone's parent */
  GASNETE_COLL_TREE_BINOMIAL, /* children v + 2^j for 2^j below v's lowest set bit */
  GASNETE_COLL_TREE_BINARY,   /* pre-order numbered, balanced binary tree */
  GASNETE_COLL_TREE_KNOMIAL   /* binomial generalised to radix k */
} gasnete_coll_tree_shape_t;

typedef struct {
  gasnete_coll_tree_shape_t shape;
  uint32_t radix; /* KNOMIAL only (>= 2) */
} gasnete_coll_tree_kind_t;

typedef struct {
  uint32_t vrank;        /* first virtual rank of the child's subtree: the child */
  uint32_t subtree_size; /* ranks in the child's subtree, the child included */
} gasnete_coll_tree_child_t;

/* The parent of vrank (vrank > 0). */
extern uint32_t gasnete_coll_tree_parent(gasnete_coll_tree_kind_t kind, uint32_t size,
                                         uint32_t vrank);
/* Ranks in vrank's subtree, vrank included. */
extern uint32_t gasnete_coll_tree_subtree_size(gasnete_coll_tree_kind_t kind, uint32_t size,
                                               uint32_t vrank);
/* The children of vrank in the order a parent should serve them (largest
 * subtree first, so the longest chain starts earliest); writes at most
 * max_children and returns how many there are. */
extern uint32_t gasnete_coll_tree_children(gasnete_coll_tree_kind_t kind, uint32_t size,
                                           uint32_t vrank, gasnete_coll_tree_child_t *children,
                                           uint32_t max_children);

#endif
