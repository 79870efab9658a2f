/* bcast_sag.c: broadcast as a scatter then a ring allgather (van de
 * Geijn), for large data on larger teams.
 *
 * dst is cut into P - 1 pieces, piece i for virtual rank i + 1 (rank
 * root + i + 1); the root sends each its piece, then the non-roots pass
 * pieces round a ring (virtual ranks 1 .. P-1, each to the next, the
 * last to 1): in P - 2 steps each forwards the piece it got last, its
 * own first. The root moves each byte once, however large the team, and
 * every non-root copies about as much as it receives. Every non-root
 * announces itself to the root and to its ring predecessor when its op
 * starts, and nobody sends before that (coll_flow.h). */
#include "patterns/coll_flow.h"
#include "ops/coll_segmented.h"

typedef struct {
  gasnete_coll_flow_t flow; /* pieces of dst, piece i for virtual rank i + 1 */
  uint32_t vrank, nonroots;
  uint32_t next; /* root: pieces sent; others: ring forwards done */
  int announced, own_copied;
} bcast_sag_t;

static gasnet_node_t sag_rank(const gasnete_coll_op_t *op, uint32_t vrank) {
  return gasnete_coll_rank_add(vrank, op->args.root, op->team->size);
}
/* Ring neighbours among the non-roots (virtual ranks 1 .. m). */
static uint32_t sag_succ(const bcast_sag_t *s) { return s->vrank < s->nonroots ? s->vrank + 1 : 1; }
static uint32_t sag_pred(const bcast_sag_t *s) { return s->vrank > 1 ? s->vrank - 1 : s->nonroots; }

void gasnete_coll_bcast_sag_setup(gasnete_coll_op_t *op) {
  bcast_sag_t *s = gasnete_coll_op_priv(op, sizeof(*s));
  gasnet_node_t size = op->team->size;
  s->vrank = gasnete_coll_rank_sub(op->team->myrank, op->args.root, size);
  s->nonroots = size - 1;
  size_t n = op->args.nbytes, m = s->nonroots ? s->nonroots : 1;
  gasnete_coll_flow_init(&s->flow, op, op->args.dst, n, (n + m - 1) / m);
  s->own_copied = s->vrank != 0 || op->args.dst == op->args.src;
}

void gasnete_coll_bcast_sag_deliver(gasnete_coll_op_t *op, const gasnete_coll_msg_t *msg) {
  bcast_sag_t *s = op->priv;
  gasnete_coll_flow_deliver(op, &s->flow, msg);
}

static void sag_send_piece(gasnete_coll_op_t *op, bcast_sag_t *s, uint32_t to_vrank, uint32_t piece,
                           const char *from) {
  if (piece >= s->flow.npieces) return; /* a piece of nothing: small data, many ranks */
  size_t at = (size_t)piece * s->flow.piece_bytes;
  gasnete_coll_flow_send(op, sag_rank(op, to_vrank), at, from + at,
                         gasnete_coll_flow_piece_size(&s->flow, piece));
}

/* The root: piece i to virtual rank i + 1, in order, as each is ready. */
static void sag_scatter(gasnete_coll_op_t *op, bcast_sag_t *s) {
  while (s->next < s->nonroots && gasnete_coll_flow_ready(&s->flow, sag_rank(op, s->next + 1))) {
    sag_send_piece(op, s, s->next + 1, s->next, op->args.src);
    s->next++;
  }
}

/* A non-root: in step k it forwards piece (vrank - 1 - k) mod m, once in. */
static void sag_ring(gasnete_coll_op_t *op, bcast_sag_t *s) {
  uint32_t m = s->nonroots, succ = sag_succ(s);
  if (!gasnete_coll_flow_ready(&s->flow, sag_rank(op, succ))) return;
  while (s->next + 1 < m) {
    uint32_t piece = (s->vrank - 1 + m - s->next) % m;
    if (piece < s->flow.npieces && !gasnete_coll_flow_has(&s->flow, piece)) return;
    sag_send_piece(op, s, succ, piece, op->args.dst);
    s->next++;
  }
}

static int sag_all_in(const bcast_sag_t *s) {
  for (uint32_t i = 0; i < s->flow.npieces; i++)
    if (!gasnete_coll_flow_has(&s->flow, i)) return 0;
  return 1;
}

gasnete_coll_progress_t gasnete_coll_bcast_sag_progress(gasnete_coll_op_t *op) {
  bcast_sag_t *s = op->priv;
  if (!s->announced) {
    s->announced = 1;
    if (s->vrank) {
      gasnete_coll_flow_announce(op, sag_rank(op, 0));
      if (s->nonroots > 1) gasnete_coll_flow_announce(op, sag_rank(op, sag_pred(s)));
    }
  }
  if (s->vrank == 0) {
    sag_scatter(op, s);
    if (!s->own_copied) {
      memcpy(op->args.dst, op->args.src, op->args.nbytes);
      s->own_copied = 1;
      sag_scatter(op, s);
    }
    return s->next == s->nonroots ? GASNETE_COLL_DONE : GASNETE_COLL_WAITING;
  }
  sag_ring(op, s);
  /* Only a READY or a piece changes anything now. */
  return s->next + 1 >= s->nonroots && sag_all_in(s) ? GASNETE_COLL_DONE : GASNETE_COLL_WAITING;
}

void gasnete_coll_bcast_sag_cleanup(gasnete_coll_op_t *op) {
  bcast_sag_t *s = op->priv;
  gasnete_coll_flow_free(&s->flow);
  gasnete_coll_op_priv_free(op);
}
