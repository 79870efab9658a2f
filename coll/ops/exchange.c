/* exchange.c: exchange (all-to-all) algorithms. Block j of rank i's src
 * ends at block i of rank j's dst.
 *  - staggered (seed 002): rank p sends to p+1, p+2, ... mod P, so in each
 *    step every rank receives from exactly one other.
 *  - bruck: ceil(log2 P) rounds for small blocks. Rotate so block i is for
 *    rank p+i; in round k send every block whose index has bit k set to
 *    rank p + 2^k; finally block i holds the data from rank p-i.
 *  - put: staggered puts into every dst (dst in segment,
 *    or a team that takes Longs anywhere).
 *  - direct: rank me reads block me of every peer's src in one copy,
 *    staggered as put (coll_readfan.h).
 *  - pairwise, for large blocks: exchange_pairwise.c. */
#include "engine/coll_early.h"
#include "patterns/coll_putfan.h"
#include "patterns/coll_readfan.h"
#include "ops/coll_segmented.h"
#include "patterns/trees.h"

#include <stdlib.h>

#define EXCHANGE_STEP_DATA 0u

static void exchange_own_block(const gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  size_t nb = a->nbytes, me = op->team->myrank;
  char *to = (char *)a->dst + me * nb;
  const char *from = (const char *)a->src + me * nb;
  if (to != from) memcpy(to, from, nb);
}

/* ------------------------------------------------------------ staggered */
typedef struct {
  int sent;
  size_t received; /* atomic */
} exchange_staggered_t;

static void exchange_staggered_setup(gasnete_coll_op_t *op) {
  gasnete_coll_op_priv(op, sizeof(exchange_staggered_t));
}

static void exchange_staggered_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  exchange_staggered_t *x = op->priv;
  memcpy((char *)op->args.dst + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&x->received, msg->nbytes);
}

/* Every peer its block, staggered (p+1, p+2, ...), and my own. */
static void exchange_staggered_send(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  uint32_t tag = gasnete_coll_tag(GASNETE_COLL_TAG_ALG, EXCHANGE_STEP_DATA, 0);
  for (gasnet_node_t k = 1; k < size; k++) {
    gasnet_node_t peer = gasnete_coll_rank_add(me, k, size);
    gasnete_coll_send_data(op, peer, tag, (uint64_t)me * nb,
                           (const char *)op->args.src + (size_t)peer * nb, nb);
  }
  exchange_own_block(op);
}

static gasnete_coll_progress_t exchange_staggered_progress(gasnete_coll_op_t *op) {
  exchange_staggered_t *x = op->priv;
  if (!x->sent) {
    exchange_staggered_send(op);
    x->sent = 1;
  }
  if (__atomic_load_n(&x->received, __ATOMIC_ACQUIRE) < (size_t)(op->team->size - 1) * op->args.nbytes)
    return GASNETE_COLL_WAITING;
  return GASNETE_COLL_DONE;
}

/* Without an op: the peers' blocks taken from the early-arrival store,
 * this node's sent (first, by a call that waits for theirs). */
static gasnete_coll_quick_t exchange_staggered_quick(gasnete_coll_op_t *op, const void *prep) {
  (void)prep;
  return gasnete_coll_quick_all_to_all(op, (size_t)(op->team->size - 1) * op->args.nbytes,
                                       exchange_staggered_send);
}

static void exchange_free_priv(gasnete_coll_op_t *op) { gasnete_coll_op_priv_free(op); }

/* ------------------------------------------------------------ bruck */
typedef struct {
  unsigned nrounds;
  unsigned round;   /* current round */
  int sent;         /* this round's blocks are out */
  char *work;       /* P blocks; block i is for (sending) / from (final) rank p+i / p-i */
  char *pack;       /* blocks of one round, packed */
  char **incoming;  /* [nrounds]: the packed blocks received in each round */
  size_t *received; /* [nrounds], atomic */
} exchange_bruck_t;

static uint32_t bruck_blocks(gasnet_node_t size, unsigned round) {
  uint32_t n = 0;
  for (uint32_t i = 1; i < size; i++) n += (i >> round) & 1u;
  return n;
}

static void exchange_bruck_setup(gasnete_coll_op_t *op) {
  exchange_bruck_t *b = gasnete_coll_calloc(1, sizeof(*b));
  gasnet_node_t size = op->team->size;
  size_t nb = op->args.nbytes;
  b->nrounds = gasnete_coll_log2_ceil(size);
  b->work = gasnete_coll_malloc((size_t)size * nb);
  b->pack = gasnete_coll_malloc((size_t)(size / 2 + 1) * nb);
  b->incoming = gasnete_coll_calloc(b->nrounds, sizeof(char *));
  b->received = gasnete_coll_calloc(b->nrounds, sizeof(size_t));
  for (unsigned k = 0; k < b->nrounds; k++)
    b->incoming[k] = gasnete_coll_malloc((size_t)bruck_blocks(size, k) * nb);
  op->priv = b;
}

static void exchange_bruck_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  exchange_bruck_t *b = op->priv;
  unsigned round = gasnete_coll_tag_round(msg->tag);
  memcpy(b->incoming[round] + msg->offset, msg->data, msg->nbytes);
  gasnete_coll_count_add(&b->received[round], msg->nbytes);
}

/* Move the blocks whose index has bit `round` set between work and a
 * packed buffer (to_packed: work -> packed). */
static void bruck_pack(exchange_bruck_t *b, gasnet_node_t size, size_t nb, unsigned round,
                       char *packed, int to_packed) {
  size_t n = 0;
  for (uint32_t i = 1; i < size; i++) {
    if (!((i >> round) & 1u)) continue;
    if (to_packed)
      memcpy(packed + n * nb, b->work + (size_t)i * nb, nb);
    else
      memcpy(b->work + (size_t)i * nb, packed + n * nb, nb);
    n++;
  }
}

static gasnete_coll_progress_t exchange_bruck_progress(gasnete_coll_op_t *op) {
  exchange_bruck_t *b = op->priv;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  if (b->round == 0 && !b->sent)
    for (gasnet_node_t i = 0; i < size; i++)
      memcpy(b->work + (size_t)i * nb,
             (const char *)op->args.src + (size_t)gasnete_coll_rank_add(me, i, size) * nb, nb);
  while (b->round < b->nrounds) {
    unsigned k = b->round;
    size_t bytes = (size_t)bruck_blocks(size, k) * nb;
    if (!b->sent) {
      bruck_pack(b, size, nb, k, b->pack, 1);
      gasnete_coll_send_data(op, gasnete_coll_rank_add(me, (gasnet_node_t)1 << k, size),
                             gasnete_coll_tag(GASNETE_COLL_TAG_ALG, EXCHANGE_STEP_DATA, k), 0,
                             b->pack, bytes);
      b->sent = 1;
    }
    if (__atomic_load_n(&b->received[k], __ATOMIC_ACQUIRE) < bytes) return GASNETE_COLL_WAITING;
    bruck_pack(b, size, nb, k, b->incoming[k], 0);
    b->round++;
    b->sent = 0;
  }
  for (gasnet_node_t i = 0; i < size; i++)
    memcpy((char *)op->args.dst + (size_t)gasnete_coll_rank_sub(me, i, size) * nb,
           b->work + (size_t)i * nb, nb);
  b->sent = 1; /* a second call after DONE must not rotate again */
  return GASNETE_COLL_DONE;
}

static void exchange_bruck_cleanup(gasnete_coll_op_t *op) {
  exchange_bruck_t *b = op->priv;
  for (unsigned k = 0; k < b->nrounds; k++) free(b->incoming[k]);
  free(b->incoming);
  free(b->received);
  free(b->work);
  free(b->pack);
  free(b);
}

/* ------------------------------------------------------------ put */
/* Rank me puts block p of its src into block me of rank p's dst, starting
 * with me+1 (staggered, so the ranks do not all hit one target at once). */
static void exchange_put_setup(gasnete_coll_op_t *op) {
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = op->args.nbytes;
  const char *src = op->args.src;
  gasnete_coll_putfan_t *fan =
      gasnete_coll_putfan_new(op, size - 1, size - 1, (uint64_t)(size - 1) * nb);
  gasnete_coll_putfan_own_block(fan, (char *)op->args.dst + (size_t)me * nb, src + (size_t)me * nb,
                                nb);
  for (gasnet_node_t k = 1; k < size; k++) {
    gasnet_node_t peer = gasnete_coll_rank_add(me, k, size);
    fan->puts[k - 1] = (gasnete_coll_put_t){peer, src + (size_t)peer * nb, nb, (uint64_t)me * nb, 0};
    if (fan->announce) fan->announce[k - 1] = peer;
  }
}

/* ------------------------------------------------------------ direct */
/* Every rank announces its src to every other; rank me reads block me of
 * peer p's src into block p of its dst, starting with me+1. */
static void exchange_direct_setup(gasnete_coll_op_t *op) {
  const gasnete_coll_args_t *a = &op->args;
  gasnet_node_t size = op->team->size, me = op->team->myrank;
  size_t nb = a->nbytes;
  gasnete_coll_readfan_t *fan = gasnete_coll_readfan_new(op, size - 1, size - 1, a->src);
  gasnete_coll_readfan_own_block(fan, (char *)a->dst + (size_t)me * nb,
                                 (const char *)a->src + (size_t)me * nb);
  for (gasnet_node_t k = 1; k < size; k++) {
    gasnet_node_t peer = gasnete_coll_rank_add(me, k, size);
    fan->announce[k - 1] = peer;
    gasnete_coll_readfan_add_read(fan, peer, (char *)a->dst + (size_t)peer * nb, (uint64_t)me * nb);
  }
}

const gasnete_coll_alg_t gasnete_coll_exchange_algs[] = {
    {"staggered", "rank p sends to p+1, p+2, ... in AM chunks", GASNETE_COLL_EXCHANGE, 0,
     gasnete_coll_any_eligible, exchange_staggered_setup, exchange_staggered_progress,
     exchange_staggered_deliver, exchange_free_priv, exchange_staggered_quick},
    {"bruck", "log2(P) rounds of packed blocks, for small blocks", GASNETE_COLL_EXCHANGE, 0,
     gasnete_coll_any_eligible, exchange_bruck_setup, exchange_bruck_progress,
     exchange_bruck_deliver, exchange_bruck_cleanup},
    {"put",
     "staggered puts into every dst (dst in segment, or Longs anywhere)",
     GASNETE_COLL_EXCHANGE, 0, gasnete_coll_putfan_eligible, exchange_put_setup,
     gasnete_coll_putfan_alg_progress, gasnete_coll_putfan_alg_deliver,
     gasnete_coll_putfan_alg_cleanup},
    GASNETE_COLL_DIRECT_ALG(GASNETE_COLL_EXCHANGE,
                            "each rank reads its block of every src (cross-memory reads)",
                            exchange_direct_setup),
    GASNETE_COLL_SEGMENTED_ALG("pairwise", GASNETE_COLL_EXCHANGE,
                               "P-1 pairwise steps (XOR partners for powers of two) "
                               "(flow-controlled)",
                               gasnete_coll_exchange_pairwise),
};
const unsigned gasnete_coll_exchange_nalgs =
    sizeof(gasnete_coll_exchange_algs) / sizeof(gasnete_coll_exchange_algs[0]);
