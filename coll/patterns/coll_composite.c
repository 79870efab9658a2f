/* coll_composite.c: see coll_composite.h. */
#include "patterns/coll_composite.h"

void gasnete_coll_composite_add(gasnete_coll_composite_t *c, gasnete_coll_op_t *op,
                                const gasnete_coll_alg_t *alg, const gasnete_coll_args_t *args) {
  if (c->nphases == GASNETE_COLL_MAX_PHASES)
    gasneti_fatalerror("gasnet_coll: a composite algorithm has more than %d phases",
                       GASNETE_COLL_MAX_PHASES);
  gasnete_coll_op_t *sub = &c->sub[c->nphases++];
  *sub = *op;
  sub->args = *args;
  sub->alg = alg;
  sub->priv = NULL;
  memset(&sub->scratch, 0, sizeof(sub->scratch)); /* its own, not the op's */
  sub->subphase = c->nphases;
  alg->setup(sub);
}

gasnete_coll_progress_t gasnete_coll_composite_progress(gasnete_coll_composite_t *c) {
  while (c->current < c->nphases) {
    gasnete_coll_op_t *sub = &c->sub[c->current];
    gasnete_coll_progress_t r = sub->alg->progress(sub);
    if (r != GASNETE_COLL_DONE) return r;
    c->current++;
  }
  return GASNETE_COLL_DONE;
}

void gasnete_coll_composite_deliver(gasnete_coll_composite_t *c, const gasnete_coll_msg_t *msg) {
  uint32_t phase = gasnete_coll_tag_subphase(msg->tag);
  if (phase == 0 || phase > c->nphases)
    gasneti_fatalerror("gasnet_coll: message for phase %u of a %u-phase algorithm",
                       (unsigned)phase, c->nphases);
  gasnete_coll_msg_t inner = *msg;
  inner.tag = gasnete_coll_tag_with_subphase(msg->tag, 0);
  gasnete_coll_op_t *sub = &c->sub[phase - 1];
  sub->alg->deliver(sub, &inner);
}

void gasnete_coll_composite_cleanup(gasnete_coll_composite_t *c) {
  for (unsigned i = 0; i < c->nphases; i++) {
    if (c->sub[i].alg->cleanup) c->sub[i].alg->cleanup(&c->sub[i]);
    gasnete_coll_op_scratch_release(&c->sub[i], 1);
  }
}
