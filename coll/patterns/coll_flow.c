/* coll_flow.c: see coll_flow.h. */
#include "patterns/coll_flow.h"

#include <stdlib.h>

#define FLOW_STEP_DATA 0u
#define FLOW_STEP_READY 1u

void gasnete_coll_flow_init(gasnete_coll_flow_t *f, const gasnete_coll_op_t *op, void *dst,
                            size_t total, size_t piece_bytes) {
  f->dst = dst;
  f->total = total;
  f->piece_bytes = piece_bytes ? piece_bytes : 1;
  f->npieces = total ? (uint32_t)((total + f->piece_bytes - 1) / f->piece_bytes) : 0;
  f->got = gasnete_coll_calloc(f->npieces ? f->npieces : 1, sizeof(size_t));
  f->ready = gasnete_coll_calloc(op->team->size, 1);
}

void gasnete_coll_flow_free(gasnete_coll_flow_t *f) {
  free(f->got);
  free(f->ready);
}

void gasnete_coll_flow_announce(gasnete_coll_op_t *op, gasnet_node_t rank) {
  gasnete_coll_send_signal(op, rank, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, FLOW_STEP_READY, 0), 0);
}

void gasnete_coll_flow_send(gasnete_coll_op_t *op, gasnet_node_t rank, uint64_t offset,
                            const void *data, size_t nbytes) {
  if (nbytes)
    gasnete_coll_send_data(op, rank, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, FLOW_STEP_DATA, 0),
                           offset, data, nbytes);
}

void gasnete_coll_flow_deliver(gasnete_coll_op_t *op, gasnete_coll_flow_t *f,
                               const gasnete_coll_msg_t *msg) {
  switch (gasnete_coll_tag_step(msg->tag)) {
    case FLOW_STEP_READY: __atomic_store_n(&f->ready[msg->src_rank], 1, __ATOMIC_RELEASE); return;
    case FLOW_STEP_DATA:
      if (msg->offset + msg->nbytes > f->total) break;
      memcpy(f->dst + msg->offset, msg->data, msg->nbytes);
      __atomic_fetch_add(&f->got[msg->offset / f->piece_bytes], msg->nbytes, __ATOMIC_ACQ_REL);
      return;
    default: break;
  }
  gasneti_fatalerror("%s (%s algorithm): unexpected message tag 0x%x (offset %llu, %zu bytes) from "
                     "rank %u",
                     op->call, op->alg->name, (unsigned)msg->tag, (unsigned long long)msg->offset,
                     msg->nbytes, (unsigned)msg->src_rank);
}

int gasnete_coll_segmented_eligible(const gasnete_coll_args_t *args,
                                    const gasnete_coll_team_t *team) {
  (void)args;
  (void)team;
  return 1;
}
