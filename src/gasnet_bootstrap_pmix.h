/* gasnet_bootstrap_pmix.h: the PMIx backend of the bootstrap exchange
 * (gasnet_bootstrap.h), used by gasnet_bootstrap.c when it is compiled with
 * GASNETI_BOOTSTRAP_PMIX and the node was started by a PMIx launcher. */
#ifndef GASNET_BOOTSTRAP_PMIX_H
#define GASNET_BOOTSTRAP_PMIX_H

#include "gasnet_bootstrap.h"

/* PMIx_Init; b->node and b->nodes from PMIx's rank and job size. */
extern int gasneti_bootstrap_pmix_open(gasneti_bootstrap_t *b);
/* This node's block is already at all + node * len; fetch the others'.
 * len 0 is the barrier. */
extern int gasneti_bootstrap_pmix_allgather(gasneti_bootstrap_t *b, size_t len, void *all);
/* PMIx_Finalize. */
extern void gasneti_bootstrap_pmix_close(gasneti_bootstrap_t *b);

#endif
