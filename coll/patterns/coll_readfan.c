/* coll_readfan.c: see coll_readfan.h. */
#include "patterns/coll_readfan.h"

#include <stdlib.h>

/* gasneti_xmem_available for every node of the job: a team's members are
 * among them, and the conduit's answer is the same on every node, so this
 * is too (every node must choose the same algorithm). */
static int gasnete_coll_xmem_all;

void gasnete_coll_readfan_init(void) {
  int all = 1;
  for (gasnet_node_t n = 0; n < gasnet_nodes() && all; n++) all = gasneti_xmem_available(n);
  gasnete_coll_xmem_all = all;
}

int gasnete_coll_readfan_available(void) { return gasnete_coll_xmem_all; }

/* Any size may be forced (so tests reach small ones); the default rule
 * applies the threshold (ops/select_default.c). */
int gasnete_coll_direct_eligible(const gasnete_coll_args_t *args, gasnet_node_t size) {
  (void)args;
  (void)size;
  return gasnete_coll_xmem_all;
}

#define READFAN_STEP_DATA 0u
#define READFAN_STEP_READY 1u
#define READFAN_STEP_NEED 2u
#define READFAN_STEP_DONE 3u

static uint32_t readfan_tag(uint32_t step) { return gasnete_coll_tag(GASNETE_COLL_TAG_ALG, step, 0); }

gasnete_coll_readfan_t *gasnete_coll_readfan_new(gasnete_coll_op_t *op, uint32_t nreads,
                                                 uint32_t nannounce, const void *buffer) {
  gasnet_node_t size = op->team->size;
  gasnete_coll_readfan_t *fan = gasnete_coll_calloc(1, sizeof(*fan));
  op->priv = fan;
  fan->my_buffer = buffer;
  fan->nannounce = nannounce;
  fan->announce = gasnete_coll_calloc(nannounce ? nannounce : 1, sizeof(gasnet_node_t));
  fan->reads = gasnete_coll_calloc(nreads ? nreads : 1, sizeof(gasnete_coll_read_t));
  fan->read_of = gasnete_coll_calloc(size, sizeof(int32_t));
  for (gasnet_node_t r = 0; r < size; r++) fan->read_of[r] = -1;
  fan->peer_base = gasnete_coll_calloc(size, sizeof(uint64_t));
  fan->peer_ready = gasnete_coll_calloc(size, 1);
  fan->need_off = gasnete_coll_calloc(size, sizeof(uint64_t));
  fan->need = gasnete_coll_calloc(size, 1);
  return fan;
}

void gasnete_coll_readfan_add_read(gasnete_coll_readfan_t *fan, gasnet_node_t rank, void *dst,
                                   uint64_t offset) {
  fan->read_of[rank] = (int32_t)fan->nreads;
  fan->reads[fan->nreads++] = (gasnete_coll_read_t){rank, dst, offset, 0, 0};
  fan->reads_left++;
}

/* Announce before copying this node's own block: every announced buffer is
 * a src, which the own copy only reads, so readers start at once and the
 * copy overlaps their reads instead of delaying them (a 1 MiB broadcast at
 * 2 ranks on smp: 170-230 us with the copy first, 130-156 after). */
static void readfan_start(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op) {
  if (!fan->announced) {
    fan->announced = 1;
    for (uint32_t i = 0; i < fan->nannounce; i++)
      gasnete_coll_send_signal(op, fan->announce[i], readfan_tag(READFAN_STEP_READY),
                               (uint64_t)(uintptr_t)fan->my_buffer);
  }
  if (!fan->own_copied) {
    if (fan->own_dst && fan->own_dst != fan->own_src)
      memcpy(fan->own_dst, fan->own_src, op->args.nbytes);
    fan->own_copied = 1;
  }
}

/* Send the block to each reader whose read failed. Here, not in deliver
 * (which may run inside an AM handler). */
static void readfan_serve(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op) {
  for (gasnet_node_t r = 0; r < op->team->size; r++) {
    uint8_t asked = 1;
    if (!__atomic_compare_exchange_n(&fan->need[r], &asked, 2, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
      continue;
    const char *block = (const char *)fan->my_buffer + fan->need_off[r];
    gasnete_coll_send_data(op, r, readfan_tag(READFAN_STEP_DATA), 0, block, op->args.nbytes);
  }
}

static void readfan_read_done(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op,
                              gasnete_coll_read_t *rd) {
  rd->state = 2;
  fan->reads_left--;
  gasnete_coll_send_signal(op, rd->rank, readfan_tag(READFAN_STEP_DONE), 0);
}

/* One read, once its server has announced; a failed read asks for the
 * block instead. */
static void readfan_try_read(gasnete_coll_readfan_t *fan, gasnete_coll_op_t *op,
                             gasnete_coll_read_t *rd) {
  size_t nbytes = op->args.nbytes;
  if (rd->state == 1) {
    if (__atomic_load_n(&rd->received, __ATOMIC_ACQUIRE) == nbytes) readfan_read_done(fan, op, rd);
    return;
  }
  if (rd->state != 0 || !__atomic_load_n(&fan->peer_ready[rd->rank], __ATOMIC_ACQUIRE)) return;
  const void *src = (const void *)(uintptr_t)(fan->peer_base[rd->rank] + rd->offset);
  if (!gasneti_xmem_read(gasnete_coll_rank2node(op->team, rd->rank), rd->dst, src, nbytes)) {
    readfan_read_done(fan, op, rd);
    return;
  }
  rd->state = 1;
  gasnete_coll_send_signal(op, rd->rank, readfan_tag(READFAN_STEP_NEED), rd->offset);
}

gasnete_coll_progress_t gasnete_coll_readfan_progress(gasnete_coll_op_t *op) {
  gasnete_coll_readfan_t *fan = op->priv;
  readfan_start(fan, op);
  readfan_serve(fan, op);
  for (uint32_t i = 0; i < fan->nreads && fan->reads_left; i++)
    readfan_try_read(fan, op, &fan->reads[i]);
  if (fan->reads_left || __atomic_load_n(&fan->done_received, __ATOMIC_ACQUIRE) < fan->nannounce)
    return GASNETE_COLL_WAITING; /* only a READY, NEED, DATA or DONE changes that */
  return GASNETE_COLL_DONE;
}

void gasnete_coll_readfan_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_readfan_t *fan = op->priv;
  gasnet_node_t from = msg->src_rank;
  switch (gasnete_coll_tag_step(msg->tag)) {
    case READFAN_STEP_READY:
      fan->peer_base[from] = msg->offset;
      __atomic_store_n(&fan->peer_ready[from], 1, __ATOMIC_RELEASE);
      return;
    case READFAN_STEP_NEED:
      fan->need_off[from] = msg->offset;
      __atomic_store_n(&fan->need[from], 1, __ATOMIC_RELEASE);
      return;
    case READFAN_STEP_DATA:
      if (fan->read_of[from] < 0) break;
      gasnete_coll_read_t *rd = &fan->reads[fan->read_of[from]];
      memcpy((char *)rd->dst + msg->offset, msg->data, msg->nbytes);
      __atomic_fetch_add(&rd->received, msg->nbytes, __ATOMIC_ACQ_REL);
      return;
    case READFAN_STEP_DONE: __atomic_fetch_add(&fan->done_received, 1, __ATOMIC_ACQ_REL); return;
    default: break;
  }
  gasneti_fatalerror("%s (direct algorithm): unexpected message tag 0x%x from rank %u", op->call,
                     (unsigned)msg->tag, (unsigned)from);
}

void gasnete_coll_readfan_cleanup(gasnete_coll_op_t *op) {
  gasnete_coll_readfan_t *fan = op->priv;
  free(fan->announce);
  free(fan->reads);
  free(fan->read_of);
  free(fan->peer_base);
  free(fan->peer_ready);
  free(fan->need_off);
  free(fan->need);
  free(fan);
}
