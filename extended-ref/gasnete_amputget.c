/* gasnete_amputget.c: put, get and memset as active messages (seed 001).
 *
 *   put  nbytes <= GASNET_AMPUT_MEDIUM_MAX (default 4 KiB, at most
 *        gasnet_AMMaxMedium()): one Medium request; the handler copies
 *        the payload to its destination.
 *        larger: Long requests of up to gasnet_AMMaxLongRequest() bytes,
 *        whose payload the conduit lands in the destination segment
 *        (LongAsync for the _bulk forms).
 *   get  a Short request per chunk, answered by a Long reply straight into
 *        the destination when it lies in this node's segment (chunks of
 *        gasnet_AMMaxLongReply()), else by a Medium reply the handler copies
 *        out (chunks of gasnet_AMMaxMedium()).
 *   memset  one Short request.
 * Every request is answered exactly once; the reply counts one completion
 * on the counter whose address travels in the last two handler args.
 * Handlers copy with gasnet_copy.h (an aligned 1, 2, 4 or 8 bytes in one
 * store), as the conduits land Long payloads. */
#include "gasnete_internal.h"

#include "gasnet_copy.h"

#include <gasnet_tools.h>

/* ------------------------------------------------------------ handlers */
static void gasnete_done_reph(gasnet_token_t token, gasnet_handlerarg_t ch,
                              gasnet_handlerarg_t cl) {
  (void)token;
  gasnete_counter_complete(gasnete_ptr(ch, cl));
}

static void gasnete_put_medium_reqh(gasnet_token_t token, void *buf, size_t nbytes,
                                    gasnet_handlerarg_t dh, gasnet_handlerarg_t dl,
                                    gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  gasneti_copy(gasnete_ptr(dh, dl), buf, nbytes);
  gasnet_AMReplyShort2(token, GASNETE_H_DONE, ch, cl);
}

static void gasnete_put_long_reqh(gasnet_token_t token, void *buf, size_t nbytes,
                                  gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  (void)buf;
  (void)nbytes;
  gasnet_AMReplyShort2(token, GASNETE_H_DONE, ch, cl);
}

static void gasnete_get_medium_reqh(gasnet_token_t token, gasnet_handlerarg_t sh,
                                    gasnet_handlerarg_t sl, gasnet_handlerarg_t nbytes,
                                    gasnet_handlerarg_t dh, gasnet_handlerarg_t dl,
                                    gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  gasnet_AMReplyMedium4(token, GASNETE_H_GET_MEDIUM_REPLY, gasnete_ptr(sh, sl),
                        (size_t)(uint32_t)nbytes, dh, dl, ch, cl);
}

static void gasnete_get_long_reqh(gasnet_token_t token, gasnet_handlerarg_t sh,
                                  gasnet_handlerarg_t sl, gasnet_handlerarg_t nbytes,
                                  gasnet_handlerarg_t dh, gasnet_handlerarg_t dl,
                                  gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  gasnet_AMReplyLong2(token, GASNETE_H_GET_LONG_REPLY, gasnete_ptr(sh, sl),
                      (size_t)(uint32_t)nbytes, gasnete_ptr(dh, dl), ch, cl);
}

static void gasnete_get_medium_reph(gasnet_token_t token, void *buf, size_t nbytes,
                                    gasnet_handlerarg_t dh, gasnet_handlerarg_t dl,
                                    gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  (void)token;
  gasneti_copy(gasnete_ptr(dh, dl), buf, nbytes);
  gasnete_counter_complete(gasnete_ptr(ch, cl));
}

static void gasnete_get_long_reph(gasnet_token_t token, void *buf, size_t nbytes,
                                  gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  (void)token;
  (void)buf;
  (void)nbytes;
  gasnete_counter_complete(gasnete_ptr(ch, cl));
}

static void gasnete_memset_reqh(gasnet_token_t token, gasnet_handlerarg_t dh,
                                gasnet_handlerarg_t dl, gasnet_handlerarg_t val,
                                gasnet_handlerarg_t nh, gasnet_handlerarg_t nl,
                                gasnet_handlerarg_t ch, gasnet_handlerarg_t cl) {
  gasneti_set(gasnete_ptr(dh, dl), (int)val, (size_t)gasnete_u64(nh, nl));
  gasnet_AMReplyShort2(token, GASNETE_H_DONE, ch, cl);
}

/* ------------------------------------------------------------ the put threshold
 * Puts up to this many bytes travel as Mediums, larger ones as Longs. A
 * Medium costs a copy on each side (into the message, out of it in the
 * handler), a Long at most one, as conduits land its payload in the
 * destination segment; below a few KiB the Medium's simpler path wins or
 * ties. Read at attach (GASNET_AMPUT_MEDIUM_MAX), capped by the conduit's
 * Medium limit. */
#define GASNETE_AMPUT_MEDIUM_MAX_DEFAULT 4096
static size_t gasnete_put_medium_max = GASNETE_AMPUT_MEDIUM_MAX_DEFAULT;

static void gasnete_amputget_attach(void) {
  int64_t v = gasnett_getenv_int_withdefault("GASNET_AMPUT_MEDIUM_MAX",
                                             GASNETE_AMPUT_MEDIUM_MAX_DEFAULT, 1);
  if (v < 0)
    gasneti_fatalerror("GASNET_AMPUT_MEDIUM_MAX=%lld is negative", (long long)v);
  size_t mm = gasnet_AMMaxMedium();
  gasnete_put_medium_max = (uint64_t)v < mm ? (size_t)v : mm;
}

/* Peers may send as soon as their gasnet_attach returns, so the handlers
 * are in the table before main runs. */
GASNETE_CONSTRUCTOR static void gasnete_amputget_register(void) {
  static const gasnet_handlerentry_t table[] = {
      {GASNETE_H_PUT_MEDIUM, (gasneti_handler_fn_t)gasnete_put_medium_reqh},
      {GASNETE_H_PUT_LONG, (gasneti_handler_fn_t)gasnete_put_long_reqh},
      {GASNETE_H_GET_MEDIUM, (gasneti_handler_fn_t)gasnete_get_medium_reqh},
      {GASNETE_H_GET_LONG, (gasneti_handler_fn_t)gasnete_get_long_reqh},
      {GASNETE_H_GET_MEDIUM_REPLY, (gasneti_handler_fn_t)gasnete_get_medium_reph},
      {GASNETE_H_GET_LONG_REPLY, (gasneti_handler_fn_t)gasnete_get_long_reph},
      {GASNETE_H_MEMSET, (gasneti_handler_fn_t)gasnete_memset_reqh},
      {GASNETE_H_DONE, (gasneti_handler_fn_t)gasnete_done_reph},
  };
  gasneti_handler_register_range(table, (int)(sizeof(table) / sizeof(table[0])),
                                 GASNETI_HANDLER_EXTENDED_MIN, GASNETI_HANDLER_EXTENDED_MAX,
                                 "extended-ref put/get");
  gasneti_attach_hook_register(gasnete_amputget_attach);
}

/* ------------------------------------------------------------ initiation */
void gasnete_am_put(gasnet_node_t node, void *dest, void *src, size_t nbytes,
                    gasnete_counter_t *ctr, int bulk) {
  const gasnet_handlerarg_t ch = gasnete_phi(&ctr->completed), cl = gasnete_plo(&ctr->completed);
  if (nbytes <= gasnete_put_medium_max) {
    ctr->initiated++;
    gasnet_AMRequestMedium4(node, GASNETE_H_PUT_MEDIUM, src, nbytes, gasnete_phi(dest),
                            gasnete_plo(dest), ch, cl);
    return;
  }
  const size_t chunk = gasnet_AMMaxLongRequest();
  for (size_t off = 0; off < nbytes; off += chunk) {
    size_t n = nbytes - off < chunk ? nbytes - off : chunk;
    uint8_t *s = (uint8_t *)src + off, *d = (uint8_t *)dest + off;
    ctr->initiated++;
    if (bulk)
      gasnet_AMRequestLongAsync2(node, GASNETE_H_PUT_LONG, s, n, d, ch, cl);
    else
      gasnet_AMRequestLong2(node, GASNETE_H_PUT_LONG, s, n, d, ch, cl);
  }
}

/* Long replies need the whole destination inside this node's segment. */
static int gasnete_in_my_segment(const void *addr, size_t nbytes) {
  const gasnet_seginfo_t *mine = &gasnete_seginfo[gasnete_mynode];
  uintptr_t lo = (uintptr_t)mine->addr, hi = lo + mine->size, a = (uintptr_t)addr;
  return a >= lo && a <= hi && nbytes <= hi - a;
}

void gasnete_am_get(void *dest, gasnet_node_t node, void *src, size_t nbytes,
                    gasnete_counter_t *ctr) {
  const gasnet_handlerarg_t ch = gasnete_phi(&ctr->completed), cl = gasnete_plo(&ctr->completed);
  const int use_long = gasnete_in_my_segment(dest, nbytes);
  const size_t chunk = use_long ? gasnet_AMMaxLongReply() : gasnet_AMMaxMedium();
  const gasnet_handler_t handler = use_long ? GASNETE_H_GET_LONG : GASNETE_H_GET_MEDIUM;
  for (size_t off = 0; off < nbytes; off += chunk) {
    size_t n = nbytes - off < chunk ? nbytes - off : chunk;
    uint8_t *s = (uint8_t *)src + off, *d = (uint8_t *)dest + off;
    ctr->initiated++;
    gasnet_AMRequestShort7(node, handler, gasnete_phi(s), gasnete_plo(s),
                           (gasnet_handlerarg_t)(uint32_t)n, gasnete_phi(d), gasnete_plo(d), ch,
                           cl);
  }
}

void gasnete_am_memset(gasnet_node_t node, void *dest, int val, size_t nbytes,
                       gasnete_counter_t *ctr) {
  ctr->initiated++;
  gasnet_AMRequestShort7(node, GASNETE_H_MEMSET, gasnete_phi(dest), gasnete_plo(dest),
                         (gasnet_handlerarg_t)val, gasnete_hi(nbytes), gasnete_lo(nbytes),
                         gasnete_phi(&ctr->completed), gasnete_plo(&ctr->completed));
}
