/* bcast_direct.c: broadcast by direct reads (coll_readfan.h). The root
 * announces its src to every other rank; each reads it straight into its
 * dst with one copy and signals DONE; the root's op completes when every
 * DONE is in, as its src is read until then. A receiver whose read fails
 * gets the data from the root in AM chunks instead.
 *
 * Eligibility (gasnete_coll_direct_eligible, patterns/coll_readfan.c) uses only the
 * conduit's job-wide answer, so every node picks this algorithm or none
 * does. The scatter, gather and exchange forms are in their own files. */
#include "ops/ops.h"
#include "patterns/coll_readfan.h"

void gasnete_coll_direct_bcast_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t size = op->team->size;
  if (op->team->myrank == a->root) {
    gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, 0, size - 1, a->src);
    gasnete_coll_readfan_own_block(fan, a->dst, a->src);
    uint32_t n = 0;
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != a->root) fan->announce[n++] = r;
  } else {
    gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, 1, 0, NULL);
    gasnete_coll_readfan_add_read(fan, a->root, a->dst, 0);
    gasnete_coll_readfan_ask_share(fan, gasnete_coll_readfan_root_share(size));
  }
}
