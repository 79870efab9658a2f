/* coll_tree.c: see coll_tree.h. */
#include "patterns/coll_hier.h"
#include "patterns/coll_tree.h"

#include <stdlib.h>

static uint32_t gasnete_coll_tree_radix = 4; /* GASNET_COLL_TREE_RADIX's default, as listed */

void gasnete_coll_tree_init(void) {
  const char *radix = gasneti_getenv_verbose("GASNET_COLL_TREE_RADIX", "4");
  if (!radix) return;
  long r = strtol(radix, NULL, 10);
  if (r < 2 || r > 64)
    gasneti_fatalerror("gasnet_coll_init: GASNET_COLL_TREE_RADIX=\"%s\" is not in 2..64", radix);
  gasnete_coll_tree_radix = (uint32_t)r;
}

gasnete_coll_tree_kind_t gasnete_coll_tree_kind_of(const gasnete_coll_alg_t *alg) {
  gasnete_coll_tree_kind_t kind = {(gasnete_coll_tree_shape_t)alg->param, gasnete_coll_tree_radix};
  return kind;
}

/* The flat tree's places, without the general tree math (the small
 * collectives of small teams take it on every call). */
static int gasnete_coll_treepos_flat(gasnete_coll_treepos_t *pos, uint32_t size) {
  pos->parent = 0;
  if (pos->vrank) {
    pos->subtree = 1;
    pos->nchildren = 0;
  } else if (size - 1 <= GASNETE_COLL_TREEPOS_FEW) {
    pos->subtree = size;
    pos->nchildren = size - 1;
    for (uint32_t v = 1; v < size; v++) pos->few[v - 1] = (gasnete_coll_tree_child_t){v, 1};
  } else {
    return 0;
  }
  pos->children = pos->few;
  return 1;
}

/* The two-level tree over the team's supernode runs. */
static void gasnete_coll_treepos_hier(gasnete_coll_treepos_t *pos, const gasnete_coll_op_t *op) {
  const gasnete_coll_hier_runs_t *runs = op->team->hier;
  uint32_t root = op->args.root;
  pos->parent = pos->vrank ? gasnete_coll_hier_parent(runs, root, pos->vrank) : 0;
  pos->subtree = gasnete_coll_hier_subtree_size(runs, root, pos->vrank);
  pos->nchildren =
      gasnete_coll_hier_children(runs, root, pos->vrank, pos->few, GASNETE_COLL_TREEPOS_FEW);
  pos->children = pos->few;
  if (pos->nchildren > GASNETE_COLL_TREEPOS_FEW) {
    pos->children = gasnete_coll_calloc(pos->nchildren, sizeof(gasnete_coll_tree_child_t));
    gasnete_coll_hier_children(runs, root, pos->vrank, pos->children, pos->nchildren);
  }
}

void gasnete_coll_treepos_init(gasnete_coll_treepos_t *pos, const gasnete_coll_op_t *op) {
  uint32_t size = op->team->size;
  pos->vrank = gasnete_coll_rank_sub(op->team->myrank, op->args.root, size);
  if (op->alg->param == GASNETE_COLL_TREE_PARAM_HIER) {
    gasnete_coll_treepos_hier(pos, op);
    return;
  }
  gasnete_coll_tree_kind_t kind = gasnete_coll_tree_kind_of(op->alg);
  if (kind.shape == GASNETE_COLL_TREE_FLAT && gasnete_coll_treepos_flat(pos, size)) return;
  pos->parent = pos->vrank ? gasnete_coll_tree_parent(kind, size, pos->vrank) : 0;
  pos->subtree = gasnete_coll_tree_subtree_size(kind, size, pos->vrank);
  pos->nchildren =
      gasnete_coll_tree_children(kind, size, pos->vrank, pos->few, GASNETE_COLL_TREEPOS_FEW);
  pos->children = pos->few;
  if (pos->nchildren > GASNETE_COLL_TREEPOS_FEW) {
    pos->children = gasnete_coll_calloc(pos->nchildren, sizeof(gasnete_coll_tree_child_t));
    gasnete_coll_tree_children(kind, size, pos->vrank, pos->children, pos->nchildren);
  }
}

void gasnete_coll_treepos_free(gasnete_coll_treepos_t *pos) {
  if (pos->children != pos->few) free(pos->children);
}

void gasnete_coll_tree_prepare(const gasnete_coll_op_t *op, void *prep) {
  _Static_assert(sizeof(gasnete_coll_tree_prep_t) <= GASNETE_COLL_PREP_WORDS * sizeof(uint64_t),
                 "a tree position fits a plan's room");
  gasnete_coll_tree_prep_t *t = prep;
  gasnete_coll_treepos_init(&t->pos, op);
  t->ok = t->pos.children == t->pos.few;
  if (!t->ok) gasnete_coll_treepos_free(&t->pos);
}

void gasnete_coll_copy_vrank_to_real(void *real_buf, const gasnete_coll_op_t *op, uint64_t voffset,
                                     const void *data, size_t nbytes) {
  size_t block = op->args.nbytes;
  uint64_t wrap = (uint64_t)(op->team->size - op->args.root) * block;
  uint64_t shift = (uint64_t)op->args.root * block;
  const char *p = data;
  char *out = real_buf;
  if (voffset < wrap) {
    size_t n = nbytes < wrap - voffset ? nbytes : (size_t)(wrap - voffset);
    memcpy(out + voffset + shift, p, n);
    p += n;
    voffset += n;
    nbytes -= n;
  }
  if (nbytes) memcpy(out + (voffset - wrap), p, nbytes);
}

void gasnete_coll_send_real_run(gasnete_coll_op_t *op, gasnet_node_t dest, uint32_t tag,
                                uint64_t dest_offset, const void *real_buf, uint32_t first,
                                uint32_t count) {
  uint32_t size = op->team->size;
  size_t block = op->args.nbytes;
  gasnet_node_t start = gasnete_coll_vrank_to_rank(op, first);
  uint32_t run = count < size - start ? count : size - start;
  gasnete_coll_send_data_pair(op, dest, tag, dest_offset,
                              (const char *)real_buf + (size_t)start * block, (size_t)run * block,
                              real_buf, (size_t)(count - run) * block);
}
