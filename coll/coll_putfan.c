/* coll_putfan.c: see coll_putfan.h. */
#include "coll_putfan.h"

#include <stdlib.h>

int gasnete_coll_putfan_eligible(const gasnete_coll_args_t *args, gasnet_node_t size) {
  (void)size;
  return (args->flags & GASNET_COLL_DST_IN_SEGMENT) != 0;
}

int gasnete_coll_putfan_needs_ready(const gasnete_coll_op_t *op) {
  return (op->args.flags & (GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC)) != 0;
}

gasnete_coll_putfan_t *gasnete_coll_putfan_new(gasnete_coll_op_t *op, uint32_t nputs,
                                               uint32_t nannounce, uint32_t done_expected) {
  gasnet_node_t size = op->team->size;
  gasnete_coll_putfan_t *fan = gasnete_coll_calloc(1, sizeof(*fan));
  op->priv = fan;
  fan->nputs = nputs;
  fan->puts = gasnete_coll_calloc(nputs, sizeof(gasnete_coll_put_t));
  fan->done_expected = done_expected;
  fan->my_buffer = op->args.dst;
  fan->peer_base = gasnete_coll_calloc(size, sizeof(uint64_t));
  fan->peer_ready = gasnete_coll_calloc(size, 1);
  if (gasnete_coll_putfan_needs_ready(op)) {
    fan->nannounce = nannounce;
    fan->announce = gasnete_coll_calloc(nannounce, sizeof(gasnet_node_t));
  } else {
    /* SINGLE without IN_MYSYNC: every buffer is at our own dst, now. */
    for (gasnet_node_t r = 0; r < size; r++) {
      fan->peer_base[r] = (uint64_t)(uintptr_t)op->args.dst;
      fan->peer_ready[r] = 1;
    }
  }
  return fan;
}

static int gasnete_coll_putfan_try_issue(gasnete_coll_putfan_t *fan, gasnete_coll_op_t *op,
                                         gasnete_coll_put_t *put) {
  if (!__atomic_load_n(&fan->peer_ready[put->rank], __ATOMIC_ACQUIRE)) return 0;
  void *remote = (void *)(uintptr_t)(fan->peer_base[put->rank] + put->remote_offset);
  put->handle = gasnet_put_nb_bulk(gasnete_coll_rank2node(op->team, put->rank), remote,
                                   (void *)put->src, put->nbytes);
  put->state = 1;
  fan->unsignalled++;
  return 1;
}

/* Issue puts in order; a put whose target has not announced yet holds up
 * the ones behind it only until it can go, so issue what we can now. */
static void gasnete_coll_putfan_issue(gasnete_coll_putfan_t *fan, gasnete_coll_op_t *op) {
  uint32_t first_waiting = fan->nputs;
  for (uint32_t i = fan->next_put; i < fan->nputs; i++) {
    gasnete_coll_put_t *put = &fan->puts[i];
    if (put->state == 0 && !gasnete_coll_putfan_try_issue(fan, op, put) && i < first_waiting)
      first_waiting = i;
  }
  fan->next_put = first_waiting;
}

static void gasnete_coll_putfan_signal(gasnete_coll_putfan_t *fan, gasnete_coll_op_t *op) {
  for (uint32_t i = 0; i < fan->nputs && fan->unsignalled; i++) {
    gasnete_coll_put_t *put = &fan->puts[i];
    if (put->state != 1 || gasnet_try_syncnb(put->handle) != GASNET_OK) continue;
    put->state = 2;
    fan->unsignalled--;
    gasnete_coll_send_signal(op, put->rank, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, GASNETE_COLL_STEP_DONE, 0), 0);
  }
}

gasnete_coll_progress_t gasnete_coll_putfan_alg_progress(gasnete_coll_op_t *op) {
  gasnete_coll_putfan_t *fan = op->priv;
  if (!fan->own_copied) {
    if (fan->own_nbytes && fan->own_dst != fan->own_src)
      memcpy(fan->own_dst, fan->own_src, fan->own_nbytes);
    fan->own_copied = 1;
  }
  if (!fan->announced) {
    fan->announced = 1;
    uint32_t tag = gasnete_coll_tag(GASNETE_COLL_TAG_ALG, GASNETE_COLL_STEP_READY, 0);
    for (uint32_t i = 0; i < fan->nannounce; i++)
      gasnete_coll_send_signal(op, fan->announce[i], tag, (uint64_t)(uintptr_t)fan->my_buffer);
  }
  if (fan->next_put < fan->nputs || fan->unsignalled) {
    /* Put handles belong to the thread that makes them: only the owner
     * issues and syncs them (another thread's poll leaves them be). */
    if (!gasnete_coll_on_owner_thread(op)) return GASNETE_COLL_NOT_YET;
    if (fan->next_put < fan->nputs) gasnete_coll_putfan_issue(fan, op);
    if (fan->unsignalled) gasnete_coll_putfan_signal(fan, op);
    if (fan->next_put < fan->nputs || fan->unsignalled) return GASNETE_COLL_NOT_YET;
  }
  if (__atomic_load_n(&fan->done_received, __ATOMIC_ACQUIRE) < fan->done_expected)
    return GASNETE_COLL_NOT_YET;
  return GASNETE_COLL_DONE;
}

void gasnete_coll_putfan_alg_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_putfan_t *fan = op->priv;
  switch (gasnete_coll_tag_step(msg->tag)) {
    case GASNETE_COLL_STEP_READY:
      fan->peer_base[msg->src_rank] = msg->offset;
      __atomic_store_n(&fan->peer_ready[msg->src_rank], 1, __ATOMIC_RELEASE);
      break;
    case GASNETE_COLL_STEP_DONE:
      __atomic_fetch_add(&fan->done_received, 1, __ATOMIC_ACQ_REL);
      break;
    default:
      gasneti_fatalerror("%s (put algorithm): unexpected message tag 0x%x from rank %u", op->call,
                         (unsigned)msg->tag, (unsigned)msg->src_rank);
  }
}

void gasnete_coll_putfan_alg_cleanup(gasnete_coll_op_t *op) {
  gasnete_coll_putfan_t *fan = op->priv;
  free(fan->puts);
  free(fan->announce);
  free(fan->peer_base);
  free(fan->peer_ready);
  free(fan);
}
