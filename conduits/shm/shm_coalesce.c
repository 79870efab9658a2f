/* shm_coalesce.c: small client requests packed into one ring slot per
 * destination (GASNET_AM_COALESCE=1, SEQ builds; off by default).
 *
 * Every message through a ring costs the move of its slot's cache lines
 * from the sender's core to the receiver's and back, whatever its size; a
 * client that sends one small Medium per update (a graph code's frontier)
 * pays that per update. With coalescing on, a Short or a Medium of at most
 * GASNETC_SHM_COALESCE_PAYLOAD bytes sent to a client handler is appended
 * to a private batch for its destination instead, and the batch goes out
 * as one slot (a bundle) that the receiver unpacks, running the handlers in
 * the order they were sent.
 *
 * A batch goes out when the next message would not fit it; before any
 * other request to the same destination (so per-pair order holds); at a
 * barrier's notify (the barrier is an AM fence); and at a poll that finds
 * the client waiting: a poll from a blocking wait (GASNET_BLOCKUNTIL and
 * the library's own waits), or a gasnet_AMPoll with no request sent since
 * the one before. A client that sends, polls and sends again (the frontier)
 * keeps filling its batches; one that sends and then waits sees no delay
 * beyond its first poll. A request not yet sent is not visible to its
 * destination: a node that sends and then never calls the library again
 * leaves it in the batch (GASNet-1 on shared memory delivers at once,
 * hence the opt-in).
 *
 * PAR builds refuse the variable: a batch left by one thread that blocks
 * would wait for that thread, and no lock protects the batches. */
#include "shm_internal.h"

#include <stdlib.h>
#include <string.h>

/* One packed message: this header, its arguments, its payload, each part
 * padded to 8 bytes so every payload keeps the Medium alignment. */
typedef struct {
  uint8_t category;
  uint8_t handler;
  uint8_t numargs;
  uint8_t unused;
  uint32_t nbytes;
} gasnetc_shm_record_t;

typedef struct {
  size_t bytes;    /* used in data */
  uint32_t count;  /* messages in it */
  uint8_t *data;   /* GASNETC_SHM_COALESCE_BYTES, allocated at first use */
} gasnetc_shm_batch_t;

static struct {
  int enabled;
  int sent_since_poll; /* a request was packed since the last poll */
  int flushing;        /* a flush is polling for ring space: no nested flush */
  gasnetc_shm_batch_t *batch; /* [members] */
  unsigned *pending;          /* members whose batch is not empty */
  unsigned npending;
} gasnetc_coalesce;

static inline size_t gasnetc_pad8(size_t n) { return (n + 7) & ~(size_t)7; }

static size_t gasnetc_record_bytes(const gasneti_am_t *msg) {
  return sizeof(gasnetc_shm_record_t) + gasnetc_pad8(msg->numargs * sizeof(gasnet_handlerarg_t)) +
         gasnetc_pad8(msg->nbytes);
}

void gasnetc_shm_coalesce_init(void) {
  int on = gasneti_getenv_yesno("GASNET_AM_COALESCE", 0);
#if defined(GASNETI_THREADS)
  if (on)
    gasneti_fatalerror("GASNET_AM_COALESCE=%s: coalescing needs a SEQ build (this program was "
                       "built GASNET_PAR)", gasnet_getenv("GASNET_AM_COALESCE"));
#endif
  if (!on || !gasnetc_shm.members) return;
  gasnetc_coalesce.batch = calloc(gasnetc_shm.members, sizeof(gasnetc_shm_batch_t));
  gasnetc_coalesce.pending = calloc(gasnetc_shm.members, sizeof(unsigned));
  if (!gasnetc_coalesce.batch || !gasnetc_coalesce.pending)
    gasneti_fatalerror("GASNET_AM_COALESCE: out of memory for %u batches", gasnetc_shm.members);
  gasnetc_coalesce.enabled = 1;
}

int gasnetc_shm_coalesce_enabled(void) { return gasnetc_coalesce.enabled; }

/* Not to the node itself: its own ring costs no cache-line moves, and a
 * request to itself must run without the client polling (a collective at
 * one node never waits). */
int gasnetc_shm_coalescible(gasnet_node_t dest, const gasneti_am_t *msg) {
  return gasnetc_coalesce.enabled && dest != gasneti_mynode && msg->is_request &&
         msg->category != GASNETI_AM_LONG &&
         msg->handler >= GASNETI_HANDLER_CLIENT_MIN && msg->nbytes <= GASNETC_SHM_COALESCE_PAYLOAD;
}

static void gasnetc_flush_member(unsigned m) {
  gasnetc_shm_batch_t *b = &gasnetc_coalesce.batch[m];
  if (!b->count) return;
  gasneti_am_t bundle;
  bundle.category = GASNETC_SHM_BUNDLE;
  bundle.handler = 0;
  bundle.numargs = 1;
  bundle.is_request = 1;
  bundle.nbytes = b->bytes;
  bundle.payload = b->data;
  bundle.dest_addr = NULL;
  bundle.args[0] = b->count;
  gasnetc_coalesce.flushing = 1;
  gasnetc_shm_send_bundle(gasnetc_shm.member_node[m], &bundle, gasnetc_shm_poll);
  gasnetc_coalesce.flushing = 0;
  b->bytes = 0;
  b->count = 0;
}

void gasnetc_shm_coalesce_flush_all(void) {
  if (!gasnetc_coalesce.npending || gasnetc_coalesce.flushing) return;
  for (unsigned k = 0; k < gasnetc_coalesce.npending; k++)
    gasnetc_flush_member(gasnetc_coalesce.pending[k]);
  gasnetc_coalesce.npending = 0;
}

/* Before a request that is not packed: what was packed for its member goes
 * first. The member stays in the pending list (an empty batch there costs
 * one check at the next flush). */
void gasnetc_shm_coalesce_flush_to(unsigned m) {
  if (gasnetc_coalesce.enabled && !gasnetc_coalesce.flushing) gasnetc_flush_member(m);
}

static uint8_t *gasnetc_batch_room(unsigned m, size_t need) {
  gasnetc_shm_batch_t *b = &gasnetc_coalesce.batch[m];
  if (!b->data && !(b->data = malloc(GASNETC_SHM_COALESCE_BYTES)))
    gasneti_fatalerror("GASNET_AM_COALESCE: out of memory for a batch of %d bytes",
                       GASNETC_SHM_COALESCE_BYTES);
  if (b->bytes + need > GASNETC_SHM_COALESCE_BYTES) gasnetc_flush_member(m);
  if (!b->count) {
    int listed = 0;
    for (unsigned k = 0; k < gasnetc_coalesce.npending && !listed; k++)
      listed = gasnetc_coalesce.pending[k] == m;
    if (!listed) gasnetc_coalesce.pending[gasnetc_coalesce.npending++] = m;
  }
  uint8_t *at = b->data + b->bytes;
  b->bytes += need;
  b->count++;
  return at;
}

void gasnetc_shm_coalesce_add(unsigned m, const gasneti_am_t *msg) {
  uint8_t *at = gasnetc_batch_room(m, gasnetc_record_bytes(msg));
  gasnetc_shm_record_t rec = {msg->category, msg->handler, msg->numargs, 0, (uint32_t)msg->nbytes};
  memcpy(at, &rec, sizeof rec);
  at += sizeof rec;
  size_t argbytes = msg->numargs * sizeof(gasnet_handlerarg_t);
  memcpy(at, msg->args, argbytes);
  at += gasnetc_pad8(argbytes);
  if (msg->nbytes) memcpy(at, msg->payload, msg->nbytes);
  gasnetc_coalesce.sent_since_poll = 1;
}

/* At every poll of the rings: flush when the client is waiting. */
void gasnetc_shm_coalesce_poll(void) {
  if (!gasnetc_coalesce.npending) return;
  if (gasneti_wait_polling || !gasnetc_coalesce.sent_since_poll) gasnetc_shm_coalesce_flush_all();
  gasnetc_coalesce.sent_since_poll = 0;
}

/* Run the messages of a bundle from node src, in the order they were
 * packed; returns how many. */
int gasnetc_shm_deliver_bundle(gasnet_node_t src, const uint8_t *data, size_t bytes) {
  int n = 0;
  for (size_t off = 0; off < bytes; n++) {
    gasnetc_shm_record_t rec;
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
    memcpy(msg.args, data + off, argbytes);
    off += gasnetc_pad8(argbytes);
    msg.payload = (void *)(data + off);
    off += gasnetc_pad8(rec.nbytes);
    struct gasneti_token_s token = {src, 1, 0, NULL};
    gasneti_am_deliver(&token, &msg);
  }
  return n;
}
