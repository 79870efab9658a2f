/* coll_composite.h: algorithms built from other algorithms. A composite op
 * runs sub-ops one after another; each sub-op is a copy of the op with its
 * own arguments, algorithm and state, and tags its messages with its phase
 * number so they reach it even when they arrive before it runs. */
#ifndef COLL_COMPOSITE_H
#define COLL_COMPOSITE_H

#include "engine/engine.h"

#define GASNETE_COLL_MAX_PHASES 3

typedef struct {
  unsigned nphases;
  unsigned current;
  gasnete_coll_op_t sub[GASNETE_COLL_MAX_PHASES];
} gasnete_coll_composite_t;

/* Add a phase running alg on args; call in order, from the composite's setup. */
extern void gasnete_coll_composite_add(gasnete_coll_composite_t *c, gasnete_coll_op_t *op,
                                       const gasnete_coll_alg_t *alg,
                                       const gasnete_coll_args_t *args);
extern gasnete_coll_progress_t gasnete_coll_composite_progress(gasnete_coll_composite_t *c);
extern void gasnete_coll_composite_deliver(gasnete_coll_composite_t *c,
                                           const gasnete_coll_msg_t *msg);
extern void gasnete_coll_composite_cleanup(gasnete_coll_composite_t *c);

#endif
