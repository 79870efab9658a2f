/* gasnet_am_coalesce.c: small client requests packed per destination
 * (GASNET_AM_COALESCE=1, SEQ builds; off by default), on every conduit.
 *
 * A message costs a conduit something whatever its size: inside a host
 * the move of a ring slot's cache lines between two cores, over a network
 * a send through the kernel or the NIC. A client that sends one small
 * Medium per item of work (a graph code's frontier) pays it per item. With
 * coalescing on, a Short or a Medium of at most GASNETI_COALESCE_PAYLOAD
 * bytes to a client handler (index 128-255) of another node is appended
 * to a private batch for its destination instead, and the batch travels
 * as one Medium request (a bundle, core handler GASNETI_HANDLER_BUNDLE)
 * whose handler runs the packed handlers in the order they were sent, each
 * with a token of its own (each may reply once).
 *
 * A batch goes out when the next message would not fit it; before any
 * other request to the same node (so per-pair order holds); when a barrier
 * is notified (extended-ref calls gasneti_am_flush: the barrier is an AM
 * fence); at every step of a blocking wait (GASNET_BLOCKUNTIL and the
 * library's own waits); and at a gasnet_AMPoll with no request sent since
 * the one before. A client that sends, polls and sends again keeps filling
 * its batches; one that sends and then waits loses nothing. A packed
 * request is not visible to its destination until its batch goes: a node
 * that sends and then computes without calling the library leaves it
 * there (GASNet-1 sends at once, hence the opt-in).
 *
 * PAR builds refuse the variable: a batch left by a thread that blocks
 * would wait for that thread, and no lock protects the batches. */
#include "gasnet_internal.h"

#include <stdlib.h>
#include <string.h>

/* 4 KiB: 170 updates of 16 bytes a bundle, two orders of magnitude fewer
 * messages than updates; 1 and 2 KiB measured alike within the machine's
 * noise (docs/performance.md). */
#define GASNETI_COALESCE_BYTES 4096
#define GASNETI_COALESCE_PAYLOAD 512
_Static_assert(GASNETI_COALESCE_BYTES <= GASNETC_MAX_MEDIUM, "a batch travels as one Medium");
/* A conduit whose messages to other supernodes each pay a network's fixed
 * cost may ask for larger batches to them in its gasnet_core.h (the ucx
 * conduit: 16 KiB; docs/porting.md); batches inside a supernode stay at
 * GASNETI_COALESCE_BYTES. */
#ifndef GASNETC_COALESCE_NET_BYTES
#define GASNETC_COALESCE_NET_BYTES GASNETI_COALESCE_BYTES
#endif
_Static_assert(GASNETC_COALESCE_NET_BYTES >= GASNETI_COALESCE_BYTES &&
                   GASNETC_COALESCE_NET_BYTES <= GASNETC_MAX_MEDIUM,
               "gasnet_core.h: GASNETC_COALESCE_NET_BYTES must lie between 4096 and the Medium "
               "limit (a batch travels as one Medium)");

/* One packed message: this header, its arguments, its payload, each part
 * padded to 8 bytes so every payload keeps the Medium alignment. */
typedef struct {
  uint8_t category;
  uint8_t handler;
  uint8_t numargs;
  uint8_t unused;
  uint32_t nbytes;
} gasneti_am_record_t;

typedef struct {
  size_t bytes;   /* used in data */
  uint32_t count; /* messages in it */
  int listed;     /* in gasneti_co.pending: sent by the next gasneti_am_flush */
  size_t cap;     /* the size of data, once allocated */
  uint8_t *data;  /* cap bytes, allocated at first use */
} gasneti_am_batch_t;

int gasneti_am_coalescing;

static struct {
  int sent_since_poll; /* a request was packed since the last gasnet_AMPoll */
  int flushing;        /* a bundle is being sent: no flush from inside it */
  gasneti_am_batch_t *batch; /* [gasneti_nodes] */
  gasnet_node_t *pending;    /* nodes whose batch may hold messages */
  unsigned npending;
} gasneti_co;

static inline size_t gasneti_pad8(size_t n) { return (n + 7) & ~(size_t)7; }

/* n in [w, 2w]: the first and the last w bytes, which may overlap (w is
 * a constant wherever this is inlined, so the moves are single loads and
 * stores). */
static inline void gasneti_copy_ends(uint8_t *d, const uint8_t *s, size_t n, size_t w) {
  uint64_t head = 0, tail = 0;
  memcpy(&head, s, w);
  memcpy(&tail, s + n - w, w);
  memcpy(d, &head, w);
  memcpy(d + n - w, &tail, w);
}

/* Most packed messages carry a few words: up to 16 bytes are copied inline
 * by two moves that may overlap, cheaper than a call to memcpy with a
 * length known only at run time; longer ones call it. */
static inline void gasneti_copy_short(void *dst, const void *src, size_t n) {
  uint8_t *d = dst;
  const uint8_t *s = src;
  if (n > 16) {
    memcpy(d, s, n);
  } else if (n >= 8) {
    gasneti_copy_ends(d, s, n, 8);
  } else if (n >= 4) {
    gasneti_copy_ends(d, s, n, 4);
  } else if (n) {
    uint8_t first = s[0], middle = s[n / 2], last = s[n - 1];
    d[0] = first;
    d[n / 2] = middle;
    d[n - 1] = last;
  }
}

static void gasneti_bundle_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                   gasnet_handlerarg_t count);

void gasneti_am_coalesce_init(void) {
  static const gasnet_handlerentry_t table[] = {
      {GASNETI_HANDLER_BUNDLE, (void (*)())gasneti_bundle_handler}};
  gasneti_handler_register_range(table, 1, GASNETI_HANDLER_CORE_MIN, GASNETI_HANDLER_CORE_MAX,
                                 "the AM front-end");
  if (!gasneti_getenv_yesno("GASNET_AM_COALESCE", 0)) return;
#if defined(GASNETI_THREADS)
  gasneti_fatalerror("GASNET_AM_COALESCE=%s: coalescing needs a SEQ build (this program was "
                     "built GASNET_PAR)", gasnet_getenv("GASNET_AM_COALESCE"));
#endif
  gasneti_co.batch = calloc(gasneti_nodes, sizeof(gasneti_am_batch_t));
  gasneti_co.pending = calloc(gasneti_nodes, sizeof(gasnet_node_t));
  if (!gasneti_co.batch || !gasneti_co.pending)
    gasneti_fatalerror("GASNET_AM_COALESCE: out of memory for %u batches", (unsigned)gasneti_nodes);
  gasneti_am_coalescing = 1;
}

/* Not to the node itself: a request to itself must run without the client
 * polling (a collective at one node never waits), and costs little. */
static int gasneti_am_coalescible(gasnet_node_t dest, const gasneti_am_t *am) {
  return dest != gasneti_mynode && am->category != GASNETI_AM_LONG &&
         am->handler >= GASNETI_HANDLER_CLIENT_MIN && am->nbytes <= GASNETI_COALESCE_PAYLOAD;
}

static void gasneti_flush_node(gasnet_node_t node) {
  gasneti_am_batch_t *b = &gasneti_co.batch[node];
  if (!b->count || gasneti_co.flushing) return;
  gasneti_am_t bundle;
  bundle.category = GASNETI_AM_MEDIUM;
  bundle.handler = GASNETI_HANDLER_BUNDLE;
  bundle.numargs = 1;
  bundle.is_request = 1;
  bundle.nbytes = b->bytes;
  bundle.payload = b->data;
  bundle.dest_addr = NULL;
  bundle.anywhere = 0;
  bundle.detach = 0;
  bundle.args[0] = (gasnet_handlerarg_t)b->count;
  gasneti_co.flushing = 1;
  gasnetc_am_request(node, &bundle); /* the batch is free again once it returns */
  gasneti_co.flushing = 0;
  b->bytes = 0;
  b->count = 0;
}

void gasneti_am_flush(void) {
  if (!gasneti_co.npending || gasneti_co.flushing) return;
  for (unsigned k = 0; k < gasneti_co.npending; k++) {
    gasnet_node_t node = gasneti_co.pending[k];
    gasneti_flush_node(node);
    gasneti_co.batch[node].listed = 0;
  }
  gasneti_co.npending = 0;
}

void gasneti_am_coalesce_flush_to(gasnet_node_t dest) {
  if (gasneti_co.batch[dest].count) gasneti_flush_node(dest);
}

void gasneti_am_coalesce_polled(void) {
  if (gasneti_co.npending && !gasneti_co.sent_since_poll) gasneti_am_flush();
  gasneti_co.sent_since_poll = 0;
}

/* The batch size for dest: larger to another supernode if the conduit
 * asks for it. Asked once per destination, when its batch is made. */
static size_t gasneti_batch_cap(gasnet_node_t dest) {
  if (GASNETC_COALESCE_NET_BYTES == GASNETI_COALESCE_BYTES) return GASNETI_COALESCE_BYTES;
  return gasneti_supernode_of(dest) == gasneti_supernode_of(gasneti_mynode)
             ? GASNETI_COALESCE_BYTES
             : GASNETC_COALESCE_NET_BYTES;
}

/* Room for `need` bytes in dest's batch, sending it first if full. */
static uint8_t *gasneti_batch_room(gasnet_node_t dest, size_t need) {
  gasneti_am_batch_t *b = &gasneti_co.batch[dest];
  if (!b->data) {
    b->cap = gasneti_batch_cap(dest);
    if (!(b->data = malloc(b->cap)))
      gasneti_fatalerror("GASNET_AM_COALESCE: out of memory for a batch of %zu bytes", b->cap);
  }
  if (b->bytes + need > b->cap) gasneti_flush_node(dest);
  if (!b->listed) {
    b->listed = 1;
    gasneti_co.pending[gasneti_co.npending++] = dest;
  }
  uint8_t *at = b->data + b->bytes;
  b->bytes += need;
  b->count++;
  return at;
}

int gasneti_am_coalesce_take(gasnet_node_t dest, const gasneti_am_t *am) {
  if (!gasneti_am_coalescible(dest, am)) return 0;
  size_t argbytes = am->numargs * sizeof(gasnet_handlerarg_t);
  uint8_t *at = gasneti_batch_room(
      dest, sizeof(gasneti_am_record_t) + gasneti_pad8(argbytes) + gasneti_pad8(am->nbytes));
  gasneti_am_record_t rec = {am->category, am->handler, am->numargs, 0, (uint32_t)am->nbytes};
  memcpy(at, &rec, sizeof rec);
  at += sizeof rec;
  gasneti_copy_short(at, am->args, argbytes);
  at += gasneti_pad8(argbytes);
  gasneti_copy_short(at, am->payload, am->nbytes);
  gasneti_co.sent_since_poll = 1;
  return 1;
}

/* Run a bundle's messages in the order they were packed. */
static void gasneti_bundle_handler(gasnet_token_t token, void *buf, size_t nbytes,
                                   gasnet_handlerarg_t count) {
  const uint8_t *data = buf;
  size_t off = 0;
  for (gasnet_handlerarg_t n = 0; n < count; n++) {
    gasneti_am_record_t rec;
    if (off + sizeof rec > nbytes)
      gasneti_fatalerror("AM bundle from node %u: %zu bytes hold fewer than its %d messages",
                         (unsigned)token->src, nbytes, (int)count);
    memcpy(&rec, data + off, sizeof rec);
    gasneti_am_t msg;
    msg.category = rec.category;
    msg.handler = rec.handler;
    msg.numargs = rec.numargs;
    msg.is_request = 1;
    msg.nbytes = rec.nbytes;
    msg.dest_addr = NULL;
    off += sizeof rec;
    size_t argbytes = rec.numargs * sizeof(gasnet_handlerarg_t);
    gasneti_copy_short(msg.args, data + off, argbytes);
    off += gasneti_pad8(argbytes);
    msg.payload = (void *)(data + off);
    off += gasneti_pad8(rec.nbytes);
    struct gasneti_token_s own = {token->src, 1, 0, NULL};
    gasneti_am_deliver(&own, &msg);
  }
}
