/* gather_all.c: gather_all algorithms. Every rank's src block ends at
 * block r of every rank's dst.
 *  - dissem (seed 002): ceil(log2 P) rounds; in round i rank p sends the
 *    min(2^i, P - 2^i) blocks it holds ending at its own (ranks p, p-1, ...)
 *    to rank p + 2^i, placed directly at their final offsets.
 *  - flat: every rank sends its block to every other rank, staggered
 *    (rank p sends to p+1, p+2, ...), so no rank is everyone's first target.
 *  - gather_bcast: a binomial gather to rank 0, then a binomial broadcast.
 *  - hier: the same with the two-level trees over the supernodes.
 *  - put: every rank puts its block into every dst (dst in segment,
 *    or a team that takes Longs anywhere).
 *  - direct: every rank reads every other rank's src into its dst in one
 *    copy each, staggered as flat (coll_readfan.h).
 *  - ring, for large blocks: gather_all_ring.c. */
#include "patterns/coll_composite.h"
#include "engine/coll_early.h"
#include "patterns/coll_putfan.h"
#include "patterns/coll_readfan.h"
#include "ops/coll_segmented.h"
#include "patterns/trees.h"

#include <stdlib.h>

#define GATHER_ALL_STEP_DATA 0u

static void gather_all_own_block(const gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  char *mine = (char *)a->dst + (size_t)op->team->myrank * a->nbytes;
  if (mine != a->src) memcpy(mine, a->src, a->nbytes);
}

/* ------------------------------------------------------------ dissemination */
typedef struct {
  unsigned nrounds;
  unsigned round; /* next round to send */
  int started;
  size_t *received; /* [nrounds], atomic: bytes in for each round */
} gather_all_dissem_t;

static uint32_t dissem_count(gasnet_node_t size, unsigned round) {
  uint32_t span = 1u << round;
  return span < size - span ? span : size - span;
}

static void gather_all_dissem_setup(gasnete_coll_op_t *op) {
  gather_all_dissem_t *d = gasnete_coll_op_priv(op, sizeof(*d));
  d->nrounds = gasnete_coll_log2_ceil(op->team->size);
  d->received = gasnete_coll_calloc(d->nrounds, sizeof(size_t));
}

/* A run of blocks lands at its offset in dst, taken modulo the whole of
 * dst: a run that wrapped past the last rank's block goes on at block 0
 * (gather_all_send_run). */
static void gather_all_place_run(gasnete_coll_op_t *op, uint64_t offset, const void *data,
                                 size_t nbytes) {
  size_t total = (size_t)op->team->size * op->args.nbytes;
  size_t at = (size_t)(offset % total);
  size_t head = nbytes < total - at ? nbytes : total - at;
  memcpy((char *)op->args.dst + at, data, head);
  if (nbytes > head) memcpy(op->args.dst, (const char *)data + head, nbytes - head);
}

static void gather_all_dissem_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gather_all_dissem_t *d = op->priv;
  gather_all_place_run(op, msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&d->received[gasnete_coll_tag_round(msg->tag)], msg->nbytes);
}

/* Send blocks of ranks [me - count + 1, me] (mod P) to dest, placed at
 * their final offsets; a run that wraps past rank 0 goes as a pair
 * (gasnete_coll_send_data_pair), its second piece at offsets past the end
 * of dst, which the receiver takes modulo its size. */
static void gather_all_send_run(gasnete_coll_op_t *op, gasnet_node_t dest, uint32_t tag,
                                uint32_t count) {
  gasnet_node_t size = op->team->size;
  size_t nb = op->args.nbytes;
  gasnet_node_t first = gasnete_coll_rank_sub(op->team->myrank, count - 1, size);
  uint32_t run = count < size - first ? count : size - first;
  const char *dst = op->args.dst;
  gasnete_coll_send_data_pair(op, dest, tag, (uint64_t)first * nb, dst + (size_t)first * nb,
                              run * nb, dst, (count - run) * nb);
}

static gasnete_coll_progress_t gather_all_dissem_progress(gasnete_coll_op_t *op) {
  gather_all_dissem_t *d = op->priv;
  gasnet_node_t size = op->team->size;
  if (!d->started) {
    gather_all_own_block(op);
    d->started = 1;
  }
  while (d->round < d->nrounds) {
    unsigned i = d->round;
    size_t need = (size_t)dissem_count(size, i - (i > 0)) * op->args.nbytes;
    if (i > 0 && __atomic_load_n(&d->received[i - 1], __ATOMIC_ACQUIRE) < need)
      return GASNETE_COLL_WAITING;
    gasnet_node_t dest = gasnete_coll_rank_add(op->team->myrank, (gasnet_node_t)1 << i, size);
    gather_all_send_run(op, dest, gasnete_coll_tag(GASNETE_COLL_TAG_ALG, GATHER_ALL_STEP_DATA, i),
                        dissem_count(size, i));
    d->round++;
  }
  if (d->nrounds) {
    unsigned last = d->nrounds - 1;
    size_t need = (size_t)dissem_count(size, last) * op->args.nbytes;
    if (__atomic_load_n(&d->received[last], __ATOMIC_ACQUIRE) < need) return GASNETE_COLL_WAITING;
  }
  return GASNETE_COLL_DONE;
}

static void gather_all_dissem_cleanup(gasnete_coll_op_t *op) {
  gather_all_dissem_t *d = op->priv;
  free(d->received);
  gasnete_coll_op_priv_free(op);
}

/* ------------------------------------------------------------ flat (staggered) */
typedef struct {
  int sent;
  size_t received; /* atomic */
} gather_all_flat_t;

static void gather_all_flat_setup(gasnete_coll_op_t *op) {
  gasnete_coll_op_priv(op, sizeof(gather_all_flat_t));
}

static void gather_all_flat_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gather_all_flat_t *f = op->priv;
  memcpy((char *)op->args.dst + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&f->received, msg->nbytes);
}

/* Every other rank's block, staggered (p+1, p+2, ...), and my own. */
static void gather_all_flat_send(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  uint32_t tag = gasnete_coll_tag(GASNETE_COLL_TAG_ALG, GATHER_ALL_STEP_DATA, 0);
  for (gasnet_node_t k = 1; k < size; k++)
    gasnete_coll_send_data(op, gasnete_coll_rank_add(me, k, size), tag, (uint64_t)me * nb,
                           op->args.src, nb);
  gather_all_own_block(op);
}

static gasnete_coll_progress_t gather_all_flat_progress(gasnete_coll_op_t *op) {
  gather_all_flat_t *f = op->priv;
  size_t nb = op->args.nbytes;
  if (!f->sent) {
    gather_all_flat_send(op);
    f->sent = 1;
  }
  if (__atomic_load_n(&f->received, __ATOMIC_ACQUIRE) < (size_t)(op->team->size - 1) * nb)
    return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}

/* Without an op: when every other block arrived early, take them and send.
 * The peers may be waiting for this node's block, so a call waits for
 * theirs only once it has sent its own (gasnete_coll_quick_send_first). */
static gasnete_coll_quick_t gather_all_flat_quick(gasnete_coll_op_t *op, const void *prep) {
  (void)prep;
  return gasnete_coll_quick_all_to_all(op, (size_t)(op->team->size - 1) * op->args.nbytes,
                                       gather_all_flat_send);
}

static void gather_all_free_priv(gasnete_coll_op_t *op) { gasnete_coll_op_priv_free(op); }

/* ------------------------------------------------------------ gather + broadcast */
/* Gather every block into rank 0's dst with the gather algorithm named
 * tree, then broadcast that dst with the broadcast algorithm of the same
 * name. */
static void gather_all_gb_setup_with(gasnete_coll_op_t *op, const char *tree) {
  gasnete_coll_composite_t *c = gasnete_coll_calloc(1, sizeof(*c));
  const gasnete_coll_args_t *a = &op->args;
  int flags = a->flags & ~(GASNET_COLL_AGGREGATE);
  gasnete_coll_args_t gather = gasnete_coll_args(GASNETE_COLL_GATHER, a->dst, a->src, a->nbytes, 0, flags);
  gasnete_coll_args_t bcast = gasnete_coll_args(GASNETE_COLL_BROADCAST, a->dst, a->dst,
                                                a->nbytes * op->team->size, 0, flags);
  gasnete_coll_composite_add(c, op, gasnete_coll_select_named(GASNETE_COLL_GATHER, tree), &gather);
  gasnete_coll_composite_add(c, op, gasnete_coll_select_named(GASNETE_COLL_BROADCAST, tree), &bcast);
  op->priv = c;
}

static void gather_all_gb_setup(gasnete_coll_op_t *op) { gather_all_gb_setup_with(op, "binomial"); }

/* The two-level trees: only the supernode leaders' messages cross the
 * network, two per leader (its run of blocks up, the whole array down),
 * where flat sends every rank's block to every rank. */
static void gather_all_hier_setup(gasnete_coll_op_t *op) { gather_all_gb_setup_with(op, "hier"); }

static gasnete_coll_progress_t gather_all_gb_progress(gasnete_coll_op_t *op) {
  return gasnete_coll_composite_progress(op->priv);
}

static void gather_all_gb_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  gasnete_coll_composite_deliver(op->priv, msg);
}

static void gather_all_gb_cleanup(gasnete_coll_op_t *op) {
  gasnete_coll_composite_cleanup(op->priv);
  free(op->priv);
}

/* ------------------------------------------------------------ put */
/* Every rank puts its src into block me of every other rank's dst. */
static void gather_all_put_setup(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  gasnete_coll_putfan_t *fan =
      gasnete_coll_putfan_new(op, size - 1, size - 1, (uint64_t)(size - 1) * nb);
  gasnete_coll_putfan_own_block(fan, (char *)op->args.dst + (size_t)me * nb, op->args.src, nb);
  for (gasnet_node_t k = 1; k < size; k++) {
    gasnet_node_t peer = gasnete_coll_rank_add(me, k, size);
    fan->puts[k - 1] = (gasnete_coll_put_t){peer, op->args.src, nb, (uint64_t)me * nb, 0};
    if (fan->announce) fan->announce[k - 1] = peer;
  }
}

/* ------------------------------------------------------------ direct */
/* Every rank announces its src to every other and reads each peer's src
 * into block peer of its dst, starting with me+1 so that no src is
 * everyone's first read. */
static void gather_all_direct_setup(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  char *dst = op->args.dst;
  gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, size - 1, size - 1, op->args.src);
  gasnete_coll_readfan_own_block(fan, dst + (size_t)me * nb, op->args.src);
  for (gasnet_node_t k = 1; k < size; k++) {
    gasnet_node_t peer = gasnete_coll_rank_add(me, k, size);
    fan->announce[k - 1] = peer;
    gasnete_coll_readfan_add_read(fan, peer, dst + (size_t)peer * nb, 0);
  }
}

const gasnete_coll_alg_t gasnete_coll_gather_all_algs[] = {
    {"dissem", "log2(P) rounds of doubling runs (dissemination pattern)", GASNETE_COLL_GATHER_ALL,
     0, gasnete_coll_any_eligible, gather_all_dissem_setup, gather_all_dissem_progress,
     gather_all_dissem_deliver, gather_all_dissem_cleanup},
    {"flat", "every rank sends its block to every other, staggered", GASNETE_COLL_GATHER_ALL, 0,
     gasnete_coll_any_eligible, gather_all_flat_setup, gather_all_flat_progress,
     gather_all_flat_deliver, gather_all_free_priv, gather_all_flat_quick},
    {"gather_bcast", "binomial gather to rank 0, then binomial broadcast", GASNETE_COLL_GATHER_ALL,
     0, gasnete_coll_any_eligible, gather_all_gb_setup, gather_all_gb_progress,
     gather_all_gb_deliver, gather_all_gb_cleanup},
    {"hier", "hier gather to rank 0, then hier broadcast (supernode leaders over the network)",
     GASNETE_COLL_GATHER_ALL, 0, gasnete_coll_any_eligible, gather_all_hier_setup,
     gather_all_gb_progress, gather_all_gb_deliver, gather_all_gb_cleanup},
    {"put",
     "every rank puts its block into every dst (dst in segment, or Longs anywhere)",
     GASNETE_COLL_GATHER_ALL, 0, gasnete_coll_putfan_eligible, gather_all_put_setup,
     gasnete_coll_putfan_alg_progress, gasnete_coll_putfan_alg_deliver,
     gasnete_coll_putfan_alg_cleanup},
    GASNETE_COLL_DIRECT_ALG(GASNETE_COLL_GATHER_ALL,
                            "every rank reads every other rank's src (cross-memory reads)",
                            gather_all_direct_setup),
    GASNETE_COLL_SEGMENTED_ALG("ring", GASNETE_COLL_GATHER_ALL,
                               "P-1 steps round a ring, forwarding each block as it arrives "
                               "(flow-controlled)",
                               gasnete_coll_gather_all_ring),
};
const unsigned gasnete_coll_gather_all_nalgs =
    sizeof(gasnete_coll_gather_all_algs) / sizeof(gasnete_coll_gather_all_algs[0]);
