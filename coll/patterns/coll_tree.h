/* coll_tree.h: an op's place in a tree (built from trees.h), shared by the
 * tree algorithms of broadcast, scatter and gather. */
#ifndef COLL_TREE_H
#define COLL_TREE_H

#include "engine/engine.h"
#include "patterns/trees.h"

/* Children kept in the position itself (no allocation for small teams). */
#define GASNETE_COLL_TREEPOS_FEW 8u

/* An op's place: it must not be copied once made (children may point
 * into it). */
typedef struct {
  uint32_t vrank;      /* (myrank - root) mod size */
  uint32_t parent;     /* virtual rank of the parent (vrank > 0) */
  uint32_t subtree;    /* ranks in my subtree, me included */
  uint32_t nchildren;
  gasnete_coll_tree_child_t *children; /* few, or allocated when there are more */
  gasnete_coll_tree_child_t few[GASNETE_COLL_TREEPOS_FEW];
} gasnete_coll_treepos_t;

/* The tree shape of an algorithm: alg->param is a gasnete_coll_tree_shape_t;
 * k-nomial trees take their radix from GASNET_COLL_TREE_RADIX. */
/* alg->param of the hier algorithms: the team's two-level tree over its
 * supernodes (trees_hier.h) instead of a shape of trees.h. */
#define GASNETE_COLL_TREE_PARAM_HIER 0x100u
extern gasnete_coll_tree_kind_t gasnete_coll_tree_kind_of(const gasnete_coll_alg_t *alg);
extern void gasnete_coll_treepos_init(gasnete_coll_treepos_t *pos, const gasnete_coll_op_t *op);
extern void gasnete_coll_treepos_free(gasnete_coll_treepos_t *pos);

/* A tree position worked out once per team plan for a quick path
 * (gasnete_coll_alg_t.prepare): ok when its children fit in pos.few, which
 * then stays where it is (the plan's room) until the plan changes; a
 * quick path declines a position that is not ok. */
typedef struct {
  int ok;
  gasnete_coll_treepos_t pos;
} gasnete_coll_tree_prep_t;
extern void gasnete_coll_tree_prepare(const gasnete_coll_op_t *op, void *prep);

static inline gasnet_node_t gasnete_coll_vrank_to_rank(const gasnete_coll_op_t *op, uint32_t vrank) {
  return gasnete_coll_rank_add(vrank, op->args.root, op->team->size);
}

/* Copy a run of blocks given in virtual-rank order (starting at byte
 * voffset, block b belongs to virtual rank b) into a buffer ordered by
 * real rank. The run wraps at most once, where virtual rank size - root
 * meets real rank 0. */
extern void gasnete_coll_copy_vrank_to_real(void *real_buf, const gasnete_coll_op_t *op,
                                            uint64_t voffset, const void *data, size_t nbytes);

/* Send the blocks of virtual ranks [first, first + count), taken from a
 * buffer ordered by real rank, as data at byte offsets starting at
 * dest_offset (a run that wraps: gasnete_coll_send_data_pair). */
extern void gasnete_coll_send_real_run(gasnete_coll_op_t *op, gasnet_node_t dest, uint32_t tag,
                                       uint64_t dest_offset, const void *real_buf,
                                       uint32_t first, uint32_t count);

/* GASNET_COLL_TREE_RADIX, at gasnet_coll_init. */
extern void gasnete_coll_tree_init(void);

#endif
