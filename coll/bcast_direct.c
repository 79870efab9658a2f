/* bcast_direct.c: broadcast by direct reads. The root announces its src
 * address with a READY signal to every other rank; each reads the data
 * straight from the root's memory into its dst with one copy
 * (gasneti_xmem_read, gasnet_hooks.h), then signals DONE. The root's op
 * completes when every DONE is in, as its src is read until then.
 *
 * A read can fail even when gasneti_xmem_available said yes (the kernel
 * may refuse at run time); that receiver then signals NEED and the root
 * sends it the data in AM chunks, after which it signals DONE as well.
 * Eligibility (gasnete_coll_direct_eligible, select.c) uses only
 * single-valued arguments and the conduit's job-wide answer, so every
 * node picks this algorithm or none does. */
#include "coll_internal.h"

#include <stdlib.h>

#define DIRECT_STEP_DATA 0u
#define DIRECT_STEP_READY 1u
#define DIRECT_STEP_NEED 2u
#define DIRECT_STEP_DONE 3u

typedef enum { DIRECT_START, DIRECT_AWAIT, DIRECT_AWAIT_DATA, DIRECT_FINISHED } direct_state_t;

typedef struct {
  direct_state_t state;
  uint64_t src_addr; /* receiver: the root's src, from READY */
  int ready;         /* receiver, atomic: READY is in */
  size_t received;   /* receiver, atomic: fallback bytes in dst */
  uint32_t done;     /* root, atomic: DONE signals in */
  uint8_t *need;     /* root, [team size], atomic: 1 asked for data, 2 served */
} direct_t;

static uint32_t direct_tag(uint32_t step) {
  return gasnete_coll_tag(GASNETE_COLL_TAG_ALG, step, 0);
}

void gasnete_coll_direct_bcast_setup(gasnete_coll_op_t *op) {
  direct_t *d = gasnete_coll_calloc(1, sizeof(*d));
  if (op->team->myrank == op->args.root) d->need = gasnete_coll_calloc(op->team->size, 1);
  op->priv = d;
}

void gasnete_coll_direct_bcast_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  direct_t *d = op->priv;
  switch (gasnete_coll_tag_step(msg->tag)) {
    case DIRECT_STEP_READY:
      d->src_addr = msg->offset;
      __atomic_store_n(&d->ready, 1, __ATOMIC_RELEASE);
      break;
    case DIRECT_STEP_DATA:
      memcpy((char *)op->args.dst + msg->offset, msg->data, msg->nbytes);
      __atomic_fetch_add(&d->received, msg->nbytes, __ATOMIC_ACQ_REL);
      break;
    case DIRECT_STEP_NEED: __atomic_store_n(&d->need[msg->src_rank], 1, __ATOMIC_RELEASE); break;
    case DIRECT_STEP_DONE: __atomic_fetch_add(&d->done, 1, __ATOMIC_ACQ_REL); break;
    default:
      gasneti_fatalerror("%s (direct broadcast): unexpected message tag 0x%x from rank %u",
                         op->call, (unsigned)msg->tag, (unsigned)msg->src_rank);
  }
}

/* Root: announce src, serve the ranks whose read failed, await all DONEs.
 * Sends happen here, not in deliver (which may run in an AM handler). */
static gasnete_coll_progress_t direct_root(gasnete_coll_op_t *op, direct_t *d) {
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t size = op->team->size;
  if (d->state == DIRECT_START) {
    for (gasnet_node_t r = 0; r < size; r++)
      if (r != a->root)
        gasnete_coll_send_signal(op, r, direct_tag(DIRECT_STEP_READY), (uint64_t)(uintptr_t)a->src);
    if (a->dst != a->src) memcpy(a->dst, a->src, a->nbytes);
    d->state = DIRECT_AWAIT;
  }
  for (gasnet_node_t r = 0; r < size; r++) {
    uint8_t one = 1;
    if (__atomic_compare_exchange_n(&d->need[r], &one, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      gasnete_coll_send_data(op, r, direct_tag(DIRECT_STEP_DATA), 0, a->src, a->nbytes);
  }
  if (__atomic_load_n(&d->done, __ATOMIC_ACQUIRE) < (uint32_t)size - 1) return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}

/* Receiver: read from the root once it has announced src; on failure ask
 * for the data instead. */
static gasnete_coll_progress_t direct_receiver(gasnete_coll_op_t *op, direct_t *d) {
  const gasnete_coll_args_t *a = &op->args;
  switch (d->state) {
    case DIRECT_START:
    case DIRECT_AWAIT: {
      if (!__atomic_load_n(&d->ready, __ATOMIC_ACQUIRE)) return GASNETE_COLL_WAITING;
      gasnet_node_t root_node = gasnete_coll_rank2node(op->team, a->root);
      if (gasneti_xmem_read(root_node, a->dst, (const void *)(uintptr_t)d->src_addr, a->nbytes)) {
        d->state = DIRECT_AWAIT_DATA;
        gasnete_coll_send_signal(op, a->root, direct_tag(DIRECT_STEP_NEED), 0);
        return GASNETE_COLL_WAITING;
      }
      break;
    }
    case DIRECT_AWAIT_DATA:
      if (__atomic_load_n(&d->received, __ATOMIC_ACQUIRE) < a->nbytes) return GASNETE_COLL_WAITING;
      break;
    case DIRECT_FINISHED: return GASNETE_COLL_DONE;
  }
  d->state = DIRECT_FINISHED;
  gasnete_coll_send_signal(op, a->root, direct_tag(DIRECT_STEP_DONE), 0);
  return GASNETE_COLL_DONE;
}

gasnete_coll_progress_t gasnete_coll_direct_bcast_progress(gasnete_coll_op_t *op) {
  direct_t *d = op->priv;
  if (op->team->myrank == op->args.root) return direct_root(op, d);
  return direct_receiver(op, d);
}

void gasnete_coll_direct_bcast_cleanup(gasnete_coll_op_t *op) {
  direct_t *d = op->priv;
  free(d->need);
  free(d);
}
