/* coll_msg.c: the collectives' active messages. Four handlers carry every
 * message: a Short for signals (a 64-bit value rides in two arguments), a
 * Medium for data chunks the op copies to their place (the chunk's offset
 * rides the same way), a Short for data chunks of at most 8 bytes (the
 * payload rides in two arguments), and a Long for data chunks the conduit
 * has already placed in the receiver's segment (the put fan's blocks: the
 * message only reports the arrival). Where a conduit's Long returns before
 * its payload is read, a second Long handler also answers the sender with
 * a Short reply, so it learns when its source is free. All hand the
 * message to the engine, which finds the op it names. */
#include "engine/engine.h"

enum {
  GASNETE_COLL_H_SIGNAL = GASNETI_HANDLER_COLL_MIN,
  GASNETE_COLL_H_DATA,
  GASNETE_COLL_H_PLACED,
  GASNETE_COLL_H_SMALL,
  GASNETE_COLL_H_PLACED_DETACHED,
  GASNETE_COLL_H_PLACED_READ
};

/* Chunks of at most this many bytes, at an offset below 2^32, travel in a
 * Short's arguments: eight arguments of four bytes fit the smp conduit's
 * first header cache line, where a Medium's payload takes a second line
 * that the receiver's core must fetch too. */
#define GASNETE_COLL_SMALL_MAX 8u

static inline uint64_t join64(gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
  return ((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo;
}
static inline gasnet_handlerarg_t hi32(uint64_t v) { return (gasnet_handlerarg_t)(uint32_t)(v >> 32); }
static inline gasnet_handlerarg_t lo32(uint64_t v) { return (gasnet_handlerarg_t)(uint32_t)v; }

static void gasnete_coll_signal_handler(gasnet_token_t token, gasnet_handlerarg_t team_id,
                                        gasnet_handlerarg_t seq, gasnet_handlerarg_t tag,
                                        gasnet_handlerarg_t src_rank, gasnet_handlerarg_t hi,
                                        gasnet_handlerarg_t lo) {
  (void)token;
  gasnete_coll_msg_t msg = {(uint32_t)tag, (gasnet_node_t)src_rank, join64(hi, lo), NULL, 0};
  gasnete_coll_dispatch((uint32_t)team_id, (uint32_t)seq, &msg);
}

static void gasnete_coll_data_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                      gasnet_handlerarg_t team_id, gasnet_handlerarg_t seq,
                                      gasnet_handlerarg_t tag, gasnet_handlerarg_t src_rank,
                                      gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
  (void)token;
  gasnete_coll_msg_t msg = {(uint32_t)tag, (gasnet_node_t)src_rank, join64(hi, lo), buf, nbytes};
  gasnete_coll_dispatch((uint32_t)team_id, (uint32_t)seq, &msg);
}

static void gasnete_coll_small_handler(gasnet_token_t token, gasnet_handlerarg_t team_id,
                                       gasnet_handlerarg_t seq, gasnet_handlerarg_t tag,
                                       gasnet_handlerarg_t src_rank, gasnet_handlerarg_t offset,
                                       gasnet_handlerarg_t nbytes, gasnet_handlerarg_t w0,
                                       gasnet_handlerarg_t w1) {
  (void)token;
  const uint32_t words[2] = {(uint32_t)w0, (uint32_t)w1};
  gasnete_coll_msg_t msg = {(uint32_t)tag, (gasnet_node_t)src_rank, (uint32_t)offset, words,
                            (uint32_t)nbytes};
  gasnete_coll_dispatch((uint32_t)team_id, (uint32_t)seq, &msg);
}

/* The payload is already where it belongs: pass on only that it came. */
static void gasnete_coll_placed_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                        gasnet_handlerarg_t team_id, gasnet_handlerarg_t seq,
                                        gasnet_handlerarg_t tag, gasnet_handlerarg_t src_rank,
                                        gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
  (void)token;
  (void)buf;
  gasnete_coll_msg_t msg = {(uint32_t)tag, (gasnet_node_t)src_rank, join64(hi, lo), NULL, nbytes};
  gasnete_coll_dispatch((uint32_t)team_id, (uint32_t)seq, &msg);
}

/* A placed chunk whose sender's call returned before the payload was read
 * (gasneti_long_detaches): besides the arrival, tell the sender its source
 * is free, as a placed-read message from this rank (the request names it). */
static void gasnete_coll_placed_detached_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                                 gasnet_handlerarg_t team_id,
                                                 gasnet_handlerarg_t seq, gasnet_handlerarg_t tag,
                                                 gasnet_handlerarg_t src_rank,
                                                 gasnet_handlerarg_t hi, gasnet_handlerarg_t lo,
                                                 gasnet_handlerarg_t my_rank) {
  gasnete_coll_placed_handler(token, buf, nbytes, team_id, seq, tag, src_rank, hi, lo);
  uint32_t read_tag = gasnete_coll_tag_with_step((uint32_t)tag, GASNETE_COLL_STEP_PLACED_READ);
  gasnet_AMReplyShort4(token, GASNETE_COLL_H_PLACED_READ, team_id, seq,
                       (gasnet_handlerarg_t)read_tag, my_rank);
}

static void gasnete_coll_placed_read_handler(gasnet_token_t token, gasnet_handlerarg_t team_id,
                                             gasnet_handlerarg_t seq, gasnet_handlerarg_t tag,
                                             gasnet_handlerarg_t from_rank) {
  (void)token;
  gasnete_coll_msg_t msg = {(uint32_t)tag, (gasnet_node_t)from_rank, 0, NULL, 0};
  gasnete_coll_dispatch((uint32_t)team_id, (uint32_t)seq, &msg);
}

/* Registered at load time: a peer may send to this node as soon as both
 * have attached, before this node calls gasnet_coll_init. */
__attribute__((constructor)) static void gasnete_coll_register_handlers(void) {
  static const gasnet_handlerentry_t handlers[] = {
      {GASNETE_COLL_H_SIGNAL, (gasneti_handler_fn_t)gasnete_coll_signal_handler},
      {GASNETE_COLL_H_DATA, (gasneti_handler_fn_t)gasnete_coll_data_handler},
      {GASNETE_COLL_H_PLACED, (gasneti_handler_fn_t)gasnete_coll_placed_handler},
      {GASNETE_COLL_H_SMALL, (gasneti_handler_fn_t)gasnete_coll_small_handler},
      {GASNETE_COLL_H_PLACED_DETACHED, (gasneti_handler_fn_t)gasnete_coll_placed_detached_handler},
      {GASNETE_COLL_H_PLACED_READ, (gasneti_handler_fn_t)gasnete_coll_placed_read_handler},
  };
  gasneti_handler_register_range(handlers, (int)(sizeof(handlers) / sizeof(handlers[0])),
                                 GASNETI_HANDLER_COLL_MIN, GASNETI_HANDLER_COLL_MAX, "gasnet_coll");
}

void gasnete_coll_send_signal(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                              uint64_t value) {
  gasnete_coll_team_t *team = op->team;
  gasnet_AMRequestShort6(gasnete_coll_rank2node(team, rank), GASNETE_COLL_H_SIGNAL,
                         (gasnet_handlerarg_t)team->id, (gasnet_handlerarg_t)op->seq,
                         (gasnet_handlerarg_t)gasnete_coll_tag_with_subphase(tag, op->subphase),
                         (gasnet_handlerarg_t)team->myrank, hi32(value), lo32(value));
}

static void gasnete_coll_send_small(const gasnete_coll_op_t *op, gasnet_node_t node, uint32_t tag,
                                    uint32_t offset, const void *data, size_t nbytes) {
  uint32_t words[2] = {0, 0};
  if (nbytes == sizeof(words))
    memcpy(words, data, sizeof(words)); /* a fixed size: a move, not a call */
  else if (nbytes)
    memcpy(words, data, nbytes);
  gasnet_AMRequestShort8(node, GASNETE_COLL_H_SMALL, (gasnet_handlerarg_t)op->team->id,
                         (gasnet_handlerarg_t)op->seq, (gasnet_handlerarg_t)tag,
                         (gasnet_handlerarg_t)op->team->myrank, (gasnet_handlerarg_t)offset,
                         (gasnet_handlerarg_t)nbytes, (gasnet_handlerarg_t)words[0],
                         (gasnet_handlerarg_t)words[1]);
}

void gasnete_coll_send_data(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                            uint64_t offset, const void *data, size_t nbytes) {
  gasnete_coll_team_t *team = op->team;
  gasnet_node_t node = gasnete_coll_rank2node(team, rank);
  tag = gasnete_coll_tag_with_subphase(tag, op->subphase);
  if (nbytes <= GASNETE_COLL_SMALL_MAX && offset <= UINT32_MAX) {
    gasnete_coll_send_small(op, node, tag, (uint32_t)offset, data, nbytes);
    return;
  }
  size_t chunk = gasnet_AMMaxMedium();
  const char *p = data;
  do {
    size_t n = nbytes < chunk ? nbytes : chunk;
    gasnet_AMRequestMedium6(node, GASNETE_COLL_H_DATA, (void *)p, n,
                            (gasnet_handlerarg_t)team->id, (gasnet_handlerarg_t)op->seq,
                            (gasnet_handlerarg_t)tag, (gasnet_handlerarg_t)team->myrank,
                            hi32(offset), lo32(offset));
    p += n;
    offset += n;
    nbytes -= n;
  } while (nbytes);
}

void gasnete_coll_send_data_pair(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                                 uint64_t offset, const void *a, size_t alen, const void *b,
                                 size_t blen) {
  if (blen && alen + blen <= GASNETE_COLL_PACK_MAX) {
    char packed[GASNETE_COLL_PACK_MAX];
    memcpy(packed, a, alen);
    memcpy(packed + alen, b, blen);
    gasnete_coll_send_data(op, rank, tag, offset, packed, alen + blen);
    return;
  }
  gasnete_coll_send_data(op, rank, tag, offset, a, alen);
  if (blen) gasnete_coll_send_data(op, rank, tag, offset + alen, b, blen);
}

/* One placed chunk: detached where the conduit allows it (the receiver's
 * handler then answers, and the sender counts the answer), else an
 * ordinary Long, into the segment or (anywhere) the team's buffers. */
static void gasnete_coll_send_placed_chunk(gasnete_coll_op_t *op, gasnet_node_t rank,
                                           gasnet_node_t node, uint32_t tag, void *dst,
                                           const void *p, size_t n, uint64_t offset, int anywhere,
                                           int detach) {
  const gasnete_coll_team_t *team = op->team;
  if (detach) {
    gasneti_AMRequestLongDetachedM(node, GASNETE_COLL_H_PLACED_DETACHED, (void *)p, n, dst, anywhere,
                                   7, (gasnet_handlerarg_t)team->id, (gasnet_handlerarg_t)op->seq,
                                   (gasnet_handlerarg_t)tag, (gasnet_handlerarg_t)team->myrank,
                                   hi32(offset), lo32(offset), (gasnet_handlerarg_t)rank);
    return;
  }
  if (anywhere)
    gasneti_AMRequestLongAnywhereM(node, GASNETE_COLL_H_PLACED, (void *)p, n, dst, 6,
                                   (gasnet_handlerarg_t)team->id, (gasnet_handlerarg_t)op->seq,
                                   (gasnet_handlerarg_t)tag, (gasnet_handlerarg_t)team->myrank,
                                   hi32(offset), lo32(offset));
  else
    gasnet_AMRequestLong6(node, GASNETE_COLL_H_PLACED, (void *)p, n, dst,
                          (gasnet_handlerarg_t)team->id, (gasnet_handlerarg_t)op->seq,
                          (gasnet_handlerarg_t)tag, (gasnet_handlerarg_t)team->myrank,
                          hi32(offset), lo32(offset));
}

uint32_t gasnete_coll_send_placed(gasnete_coll_op_t *op, gasnet_node_t rank, uint32_t tag,
                                  void *remote, const void *data, size_t nbytes) {
  gasnet_node_t node = gasnete_coll_rank2node(op->team, rank);
  size_t chunk = gasnet_AMMaxLongRequest();
  /* Destinations are the op's dst: outside the segment only on a team
   * that allows it (gasnete_coll_putfan_eligible). */
  int anywhere = !(op->args.flags & GASNET_COLL_DST_IN_SEGMENT);
  tag = gasnete_coll_tag_with_subphase(tag, op->subphase);
  const char *p = data;
  char *dst = remote;
  uint64_t offset = 0;
  int detach = gasneti_long_detaches(node);
  uint32_t chunks = 0;
  do {
    size_t n = nbytes < chunk ? nbytes : chunk;
    gasnete_coll_send_placed_chunk(op, rank, node, tag, dst + offset, p, n, offset, anywhere,
                                   detach);
    chunks++;
    p += n;
    offset += n;
    nbytes -= n;
  } while (nbytes);
  return detach ? chunks : 0;
}
