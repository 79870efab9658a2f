/* coll_putfan.c: see coll_putfan.h. */
#include "patterns/coll_putfan.h"

#include <stdint.h>
#include <stdlib.h>

static uint32_t putfan_tag(uint32_t step) {
  return gasnete_coll_tag(GASNETE_COLL_TAG_ALG, step, 0);
}

int gasnete_coll_putfan_eligible(const gasnete_coll_args_t *args, const gasnete_coll_team_t *team) {
  return (args->flags & GASNET_COLL_DST_IN_SEGMENT) || team->puts_anywhere;
}

int gasnete_coll_putfan_needs_ready(const gasnete_coll_op_t *op) {
  /* A buffer outside the segment is where its owner says, whatever the
   * addressing. */
  return (op->args.flags & (GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC)) ||
         !(op->args.flags & GASNET_COLL_DST_IN_SEGMENT);
}

gasnete_coll_putfan_t *gasnete_coll_putfan_new(gasnete_coll_op_t *op, uint32_t nputs,
                                               uint32_t nannounce, uint64_t bytes_expected) {
  gasnet_node_t size = op->team->size;
  gasnete_coll_putfan_t *fan = gasnete_coll_calloc(1, sizeof(*fan));
  op->priv = fan;
  fan->nputs = nputs;
  fan->puts = gasnete_coll_calloc(nputs, sizeof(gasnete_coll_put_t));
  fan->bytes_expected = bytes_expected;
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

/* Send, in order, every put whose target has announced its buffer; a put
 * still waiting for its READY holds up none behind it. */
static void putfan_send(gasnete_coll_putfan_t *fan, gasnete_coll_op_t *op) {
  uint32_t first_waiting = fan->nputs;
  for (uint32_t i = fan->next_put; i < fan->nputs; i++) {
    gasnete_coll_put_t *put = &fan->puts[i];
    if (put->sent) continue;
    if (!__atomic_load_n(&fan->peer_ready[put->rank], __ATOMIC_ACQUIRE)) {
      if (i < first_waiting) first_waiting = i;
      continue;
    }
    void *remote = (void *)(uintptr_t)(fan->peer_base[put->rank] + put->remote_offset);
    put->sent = 1;
    fan->reads_expected += gasnete_coll_send_placed(
        op, put->rank, putfan_tag(GASNETE_COLL_STEP_DATA), remote, put->src, put->nbytes);
  }
  fan->next_put = first_waiting;
}

static int putfan_detaches(const gasnete_coll_op_t *op, gasnet_node_t rank) {
  return gasneti_long_detaches(gasnete_coll_rank2node(op->team, rank));
}

/* Will any put this node sends, or receives from the ranks it announces
 * to, go detached (gasneti_long_detaches)? Such a payload may move only
 * while its sender and its receiver poll. */
static int putfan_travels(const gasnete_coll_putfan_t *fan, const gasnete_coll_op_t *op) {
  for (uint32_t i = 0; i < fan->nputs; i++)
    if (putfan_detaches(op, fan->puts[i].rank)) return 1;
  for (uint32_t i = 0; i < fan->nannounce; i++)
    if (putfan_detaches(op, fan->announce[i])) return 1;
  return 0;
}


/* The own block goes in pieces of this many bytes, a poll between two.
 * A put may need this node's polls to move (UCX's TCP transport sends a
 * rendezvous payload only while its sender progresses, and a receiver
 * takes the payloads in its polls), and a 1 MiB copy in one go held it
 * up: over UCX_TLS=tcp at 2 ranks a 1 MiB broadcast took 184-206 us
 * copying in one go, 173-180 in 256 KiB pieces, 135-152 with no own copy
 * at all; through shared memory, where the receiver reads the payload
 * itself, the pieces cost nothing measurable (docs/ucx-conduit.md, "A
 * root's own copy while its puts travel"). */
#define PUTFAN_OWN_PIECE ((size_t)256 * 1024)

/* Copies up to max more bytes of the own block (all of it, or one piece
 * while puts travel: this node's detached ones, or its peers' puts to it);
 * returns whether the whole block is in. */
static int putfan_copy_own(gasnete_coll_putfan_t *fan, size_t max) {
  size_t left = fan->own_nbytes - fan->own_done;
  if (left > max) left = max;
  if (left && fan->own_dst != fan->own_src)
    memcpy((char *)fan->own_dst + fan->own_done, (const char *)fan->own_src + fan->own_done, left);
  fan->own_done += left;
  return fan->own_done == fan->own_nbytes;
}

/* A node announces its buffer before anything else, so its peers' puts
 * may start while it copies its own block. A node with puts to send copies
 * next, while the peers' READYs are on their way, unless a put to or from
 * it may go detached: then the copy waits until its puts are sent and runs
 * in pieces while the conduit carries them (a root's copy and its
 * receivers' fetches overlap). A node with no puts to send (a gather's
 * root) copies in pieces at once, polling between two for the puts that
 * come in. Its leaves used to wait for its whole copy: an in-segment 1 MiB
 * gather on smp at 2 ranks took 61-69 us then, 31-36 now
 * (docs/performance.md, "A gather's root announces first"). */
gasnete_coll_progress_t gasnete_coll_putfan_alg_progress(gasnete_coll_op_t *op) {
  gasnete_coll_putfan_t *fan = op->priv;
  if (!fan->announced) {
    fan->announced = 1;
    for (uint32_t i = 0; i < fan->nannounce; i++)
      gasnete_coll_send_signal(op, fan->announce[i], putfan_tag(GASNETE_COLL_STEP_READY),
                               (uint64_t)(uintptr_t)fan->my_buffer);
    if (fan->nputs && !putfan_travels(fan, op)) putfan_copy_own(fan, SIZE_MAX);
  }
  int all_in = __atomic_load_n(&fan->bytes_received, __ATOMIC_ACQUIRE) >= fan->bytes_expected;
  if (fan->next_put < fan->nputs && (all_in || !fan->forwards)) putfan_send(fan, op);
  if (fan->next_put >= fan->nputs && !putfan_copy_own(fan, PUTFAN_OWN_PIECE))
    return GASNETE_COLL_NOT_YET;
  /* What is left waits for a READY, peers' data or the answers to
   * detached puts: messages only. */
  if (fan->next_put < fan->nputs || !all_in ||
      __atomic_load_n(&fan->reads_done, __ATOMIC_ACQUIRE) < fan->reads_expected)
    return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}

void gasnete_coll_putfan_alg_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_putfan_t *fan = op->priv;
  switch (gasnete_coll_tag_step(msg->tag)) {
    case GASNETE_COLL_STEP_READY:
      fan->peer_base[msg->src_rank] = msg->offset;
      __atomic_store_n(&fan->peer_ready[msg->src_rank], 1, __ATOMIC_RELEASE);
      return;
    case GASNETE_COLL_STEP_DATA:
      if (msg->data) break; /* only placed chunks carry a put's data */
      if (__atomic_add_fetch(&fan->bytes_received, msg->nbytes, __ATOMIC_ACQ_REL) >
          fan->bytes_expected)
        gasneti_fatalerror("%s (put algorithm): %zu bytes from rank %u overflow the %llu bytes "
                           "expected",
                           op->call, msg->nbytes, (unsigned)msg->src_rank,
                           (unsigned long long)fan->bytes_expected);
      return;
    case GASNETE_COLL_STEP_PLACED_READ:
      __atomic_add_fetch(&fan->reads_done, 1, __ATOMIC_ACQ_REL);
      return;
    default: break;
  }
  gasneti_fatalerror("%s (put algorithm): unexpected message tag 0x%x (%zu bytes) from rank %u",
                     op->call, (unsigned)msg->tag, msg->nbytes, (unsigned)msg->src_rank);
}

void gasnete_coll_putfan_alg_cleanup(gasnete_coll_op_t *op) {
  gasnete_coll_putfan_t *fan = op->priv;
  free(fan->puts);
  free(fan->announce);
  free(fan->peer_base);
  free(fan->peer_ready);
  free(fan);
}
