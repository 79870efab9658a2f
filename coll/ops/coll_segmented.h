/* coll_segmented.h: the flow-controlled algorithms for large data
 * (coll_flow.h), one family per file: broadcast pipe (bcast_pipe.c) and
 * scatter_allgather (bcast_sag.c), scatter and gather flow
 * (rooted_flow.c), gather_all ring (gather_all_ring.c), exchange pairwise
 * (exchange_pairwise.c). Each op's table takes them by the row macros
 * below. */
#ifndef COLL_SEGMENTED_H
#define COLL_SEGMENTED_H

#include "patterns/coll_flow.h"

#define GASNETE_COLL_SEGMENTED_DECLARE(prefix_)                                             \
  extern void prefix_##_setup(gasnete_coll_op_t *op);                                     \
  extern gasnete_coll_progress_t prefix_##_progress(gasnete_coll_op_t *op);                \
  extern void prefix_##_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg);     \
  extern void prefix_##_cleanup(gasnete_coll_op_t *op)

GASNETE_COLL_SEGMENTED_DECLARE(gasnete_coll_bcast_pipe);
GASNETE_COLL_SEGMENTED_DECLARE(gasnete_coll_bcast_sag);
GASNETE_COLL_SEGMENTED_DECLARE(gasnete_coll_gather_all_ring);
GASNETE_COLL_SEGMENTED_DECLARE(gasnete_coll_exchange_pairwise);

extern void gasnete_coll_scatter_flow_setup(gasnete_coll_op_t *op);
extern gasnete_coll_progress_t gasnete_coll_scatter_flow_progress(gasnete_coll_op_t *op);
extern void gasnete_coll_gather_flow_setup(gasnete_coll_op_t *op);
extern gasnete_coll_progress_t gasnete_coll_gather_flow_progress(gasnete_coll_op_t *op);
extern void gasnete_coll_rooted_flow_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg);
extern void gasnete_coll_rooted_flow_cleanup(gasnete_coll_op_t *op);

#define GASNETE_COLL_ROOTED_FLOW_ALG(kind_, desc_, prefix_)                                   \
  {"flow", desc_, kind_, 0, gasnete_coll_segmented_eligible, prefix_##_setup, prefix_##_progress, \
   gasnete_coll_rooted_flow_deliver, gasnete_coll_rooted_flow_cleanup}

#define GASNETE_COLL_SEGMENTED_ALG(name_, kind_, desc_, prefix_)                              \
  {name_, desc_, kind_, 0, gasnete_coll_segmented_eligible, prefix_##_setup, prefix_##_progress, \
   prefix_##_deliver, prefix_##_cleanup}

#endif
