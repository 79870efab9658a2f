/* coll_sync.c: the IN_ALLSYNC / OUT_ALLSYNC phases, a dissemination
 * exchange (Hensgen, Finkel and Manber; Mellor-Crummey and Scott sec. 3.3):
 * in round r rank p signals rank p + 2^r and waits for rank p - 2^r. After
 * ceil(log2 P) rounds every rank has heard, directly or not, from all. */
#include "engine/engine.h"

int gasnete_coll_dissem_rounds(gasnete_coll_op_t *op, gasnete_coll_dissem_t *d) {
  gasnete_coll_team_t *team = op->team;
  while (d->round < d->nrounds) {
    if (!d->sent) {
      d->sent = 1;
      gasnet_node_t peer = gasnete_coll_rank_add(team->myrank, (gasnet_node_t)1 << d->round, team->size);
      gasnete_coll_send_signal(op, peer, gasnete_coll_tag(d->owner, 0, d->round), d->value);
    }
    uint32_t arrived = __atomic_load_n(&d->arrived, __ATOMIC_ACQUIRE);
    if (!(arrived & (1u << d->round))) return 0;
    d->round++;
    d->sent = 0;
  }
  return 1;
}

void gasnete_coll_dissem_deliver(gasnete_coll_op_t *op, gasnete_coll_dissem_t *d,
                                 const gasnete_coll_msg_t *msg) {
  unsigned round = gasnete_coll_tag_round(msg->tag);
  if (d->owner == GASNETE_COLL_TAG_CHECK && msg->offset != d->value)
    gasneti_fatalerror("%s: the single-valued arguments (nbytes %zu, root %u, flags 0x%x here) "
                       "differ between team ranks %u and %u (collective #%u)",
                       op->call, op->args.nbytes, (unsigned)op->args.root,
                       (unsigned)op->args.flags, (unsigned)op->team->myrank,
                       (unsigned)msg->src_rank, (unsigned)op->seq);
  __atomic_fetch_or(&d->arrived, 1u << round, __ATOMIC_ACQ_REL);
}
