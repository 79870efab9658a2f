/* ucx_poll.c: receiving. A poll first delivers what waits in this node's
 * shared-memory rings (its supernode's AMs, ucx_shm.c), then progresses
 * the UCP worker a bounded amount (under the lock in PAR); the AM
 * callback, which UCX runs inside that progress, acts on control messages
 * at once, writes a Long's payload into the segment (or starts fetching a
 * rendezvous payload), and keeps every AM as a packet queued in its
 * stream's order. Then, without the lock, the poll delivers: first
 * replies, then (unless it polls replies only) requests, each queue by
 * one thread at a time so every stream is handled in the order it was
 * sent. A reply-only poll still progresses the worker, so a node waiting
 * to send a reply keeps receiving; the requests it takes in wait in the
 * queue, bounded by the senders' credits. */
#include "ucx_shm.h"

#include "gasnet_copy.h"
#include "gasnet_pace.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* Messages delivered per queue, and worker progress calls, per poll. */
#define GASNETC_POLL_BATCH 32
#define GASNETC_PROGRESS_MAX 16
/* A packet is made one of two sizes, and up to a number of each is kept
 * for reuse: GASNETC_SMALL_PKT bytes (header included) for the messages
 * that fit, GASNETC_SPARE_MAX of them, and the largest size (a header, 16
 * arguments and a Medium of GASNETC_MAX_MEDIUM bytes) for every other,
 * GASNETC_BIG_SPARE_MAX of them (2 MiB). Freed each time, 64 KiB packets
 * made glibc hand the top of its heap back and fault it in again for the
 * next one: a 1 MiB exchange or gather at 2 nodes over TCP took up to
 * twice as long (docs/ucx-conduit.md, "Messages"). */
#define GASNETC_SMALL_PKT 512
#define GASNETC_SPARE_MAX 256
#define GASNETC_BIG_PKT \
  (sizeof(gasnetc_hdr_t) + 16 * sizeof(gasnet_handlerarg_t) + GASNETC_MAX_MEDIUM)
#define GASNETC_BIG_SPARE_MAX 32

/* ------------------------------------------------------------ packets (lock held) */
gasnetc_pkt_t *gasnetc_pkt_alloc(size_t size) {
  if (size > GASNETC_BIG_PKT)
    gasneti_fatalerror("ucx conduit: a %zu-byte message, larger than any AM", size);
  int big = size > GASNETC_SMALL_PKT;
  gasnetc_spare_t *spare = &gasnetc_ucx.spare[big];
  gasnetc_pkt_t *p = spare->head;
  if (p) {
    spare->head = p->next;
    spare->count--;
    p->kept = NULL;
    return p;
  }
  size_t made = big ? GASNETC_BIG_PKT : GASNETC_SMALL_PKT;
  void *mem = NULL;
  if (posix_memalign(&mem, 64, offsetof(gasnetc_pkt_t, hdr) + made))
    gasneti_fatalerror("ucx conduit: out of memory for a %zu-byte message", size);
  p = mem;
  p->size = made;
  p->kept = NULL;
  return p;
}

static void gasnetc_pkt_free(gasnetc_pkt_t *p) {
  if (p->kept) ucp_am_data_release(gasnetc_ucx.worker, p->kept);
  int big = p->size == GASNETC_BIG_PKT;
  gasnetc_spare_t *spare = &gasnetc_ucx.spare[big];
  if (spare->count >= (big ? GASNETC_BIG_SPARE_MAX : GASNETC_SPARE_MAX)) {
    free(p);
    return;
  }
  p->next = spare->head;
  spare->head = p;
  spare->count++;
}

static void gasnetc_enqueue(gasnetc_queue_t *q, gasnetc_pkt_t *p) {
  p->next = NULL;
  if (q->tail)
    q->tail->next = p;
  else
    q->head = p;
  q->tail = p;
}

/* ------------------------------------------------------------ order (lock held) */
static int gasnetc_channel(const gasnetc_pkt_t *p) {
  return p->hdr.kind == GASNETC_K_REQUEST ? GASNETC_CH_REQ : GASNETC_CH_REP;
}

/* Numbers wrap: does a come before b? */
static int gasnetc_seq_before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

static void gasnetc_hold(gasnetc_pkt_t **held, gasnetc_pkt_t *p) {
  while (*held && gasnetc_seq_before((*held)->hdr.seq, p->hdr.seq)) held = &(*held)->next;
  p->next = *held;
  *held = p;
}

void gasnetc_accept(gasnetc_pkt_t *p) {
  gasnetc_ucx_t *u = &gasnetc_ucx;
  gasnet_node_t src = p->hdr.src;
  int ch = gasnetc_channel(p);
  uint32_t *next = &u->recv_seq[src][ch];
  gasnetc_pkt_t **held = &u->held[src][ch];
  if (p->hdr.seq != *next) { /* early: wait for the ones before it */
    gasnetc_hold(held, p);
    return;
  }
  gasnetc_enqueue(&u->queue[ch], p);
  ++*next;
  while (*held && (*held)->hdr.seq == *next) {
    gasnetc_pkt_t *q = *held;
    *held = q->next;
    gasnetc_enqueue(&u->queue[ch], q);
    ++*next;
  }
}

/* ------------------------------------------------------------ arrival (lock held) */
static void gasnetc_bad_message(const gasnetc_hdr_t *h, size_t hlen, size_t len, const char *why)
    GASNETI_NORETURN;
static void gasnetc_bad_message(const gasnetc_hdr_t *h, size_t hlen, size_t len, const char *why) {
  gasneti_fatalerror("ucx conduit: a bad message (kind %u from node %u, header %zu bytes, data %zu "
                     "bytes): %s",
                     (unsigned)h->kind, (unsigned)h->src, hlen, len, why);
}

/* The arguments of an AM, checked against the header's length. */
static void gasnetc_check_args(const gasnetc_hdr_t *h, size_t hlen, size_t len) {
  if (h->numargs > 16 || hlen != gasnetc_wire_header_bytes(h))
    gasnetc_bad_message(h, hlen, len, "its arguments are cut short");
}

/* A packet for an AM whose header h (whole, a compact one completed) came
 * as `header` on the wire, the arguments where gasnetc_wire_args_at says,
 * with room for `carried` payload bytes after the arguments. */
static gasnetc_pkt_t *gasnetc_pkt_for(const gasnetc_hdr_t *h, const void *header, size_t carried) {
  gasnetc_pkt_t *p = gasnetc_pkt_alloc(sizeof(*h) + gasnetc_args_bytes(h->numargs) + carried);
  p->hdr = *h;
  /* UCX's header may be unaligned */
  memcpy(gasnetc_pkt_args(p), (const uint8_t *)header + gasnetc_wire_args_at(h),
         (size_t)h->numargs * sizeof(gasnet_handlerarg_t));
  return p;
}

/* An AM: check it, land a Long's payload, keep the rest as a packet.
 * Returns UCS_INPROGRESS when the packet holds on to UCX's data. */
static ucs_status_t gasnetc_arrived_am(const gasnetc_hdr_t *h, const void *header, size_t hlen,
                                       void *data, size_t len, int keepable) {
  gasnetc_check_args(h, hlen, len);
  size_t carried = 0;
  switch (h->category) {
    case GASNETI_AM_SHORT:
      if (len) gasnetc_bad_message(h, hlen, len, "a Short with a payload");
      break;
    case GASNETI_AM_MEDIUM:
      if (len != h->nbytes) gasnetc_bad_message(h, hlen, len, "its Medium payload is cut short");
      carried = len;
      break;
    case GASNETI_AM_LONG:
      if (h->flags & GASNETC_F_IN_PLACE) {
        if (len) gasnetc_bad_message(h, hlen, len, "an in-place Long with a payload");
      } else if (len != h->nbytes) {
        gasnetc_bad_message(h, hlen, len, "its Long payload is cut short");
      } else if (len) {
        gasneti_copy((void *)(uintptr_t)h->addr, data, len); /* a flag word in one store */
      }
      break;
    default: gasnetc_bad_message(h, hlen, len, "an unknown category");
  }
  /* A Medium payload stays in UCX's buffer until its handler has run when
   * UCX allows it (keepable: UCP_AM_RECV_ATTR_FLAG_DATA) and it is aligned
   * as a Medium payload must be (GASNET_DATA_ALIGNMENT, 8 by default).
   * UCX offers that for the messages of more than one transport fragment
   * (over TCP from 8 KiB), which it put together in a buffer of its own,
   * and for those its shared memory sends from a buffer of their own
   * (more than fits a FIFO element); those sit 8 bytes past 16. Keeping
   * it saves copying the whole payload once more. */
  int keep = carried && keepable && ((uintptr_t)data & (GASNET_DATA_ALIGNMENT - 1)) == 0;
  gasnetc_pkt_t *p = gasnetc_pkt_for(h, header, keep ? 0 : carried);
  if (keep) p->kept = data;
  else if (carried) memcpy(gasnetc_pkt_payload(p), data, carried);
  gasnetc_accept(p);
  return keep ? UCS_INPROGRESS : UCS_OK;
}

/* A rendezvous AM: fetch its payload into a packet (Medium) or straight
 * into the segment (Long); the packet joins its stream once the data is
 * there, which may be after later messages of the stream (gasnetc_accept
 * holds those). */
static void gasnetc_fetched(void *request, ucs_status_t status, size_t length, void *user_data) {
  gasnetc_pkt_t *p = user_data;
  if (status != UCS_OK)
    gasneti_fatalerror("ucx conduit: fetching a %zu-byte payload from node %u "
                       "(ucp_am_recv_data_nbx) failed: %s",
                       (size_t)p->hdr.nbytes, (unsigned)p->hdr.src, ucs_status_string(status));
  (void)length;
  ucp_request_free(request);
  gasnetc_accept(p);
}

static void gasnetc_arrived_rndv(const gasnetc_hdr_t *h, const void *header, size_t hlen,
                                 void *desc, size_t len) {
  gasnetc_check_args(h, hlen, len);
  if ((h->category != GASNETI_AM_MEDIUM && h->category != GASNETI_AM_LONG) ||
      (h->flags & GASNETC_F_IN_PLACE) || len != h->nbytes)
    gasnetc_bad_message(h, hlen, len, "a rendezvous payload it cannot carry");
  int medium = h->category == GASNETI_AM_MEDIUM;
  gasnetc_pkt_t *p = gasnetc_pkt_for(h, header, medium ? len : 0);
  void *into = medium ? gasnetc_pkt_payload(p) : (void *)(uintptr_t)h->addr;
  ucp_request_param_t param;
  param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  param.cb.recv_am = gasnetc_fetched;
  param.user_data = p;
  void *req = ucp_am_recv_data_nbx(gasnetc_ucx.worker, desc, into, len, &param);
  if (UCS_PTR_IS_ERR(req))
    gasnetc_ucx_fail("gasnet_AMPoll", "fetching an AM payload (ucp_am_recv_data_nbx)",
                     UCS_PTR_STATUS(req));
  if (!req) gasnetc_accept(p); /* already there */
}

static ucs_status_t gasnetc_am_arrived(void *arg, const void *header, size_t hlen, void *data,
                                       size_t len, const ucp_am_recv_param_t *param) {
  (void)arg;
  gasnetc_hdr_t h;
  if (hlen < GASNETC_HDR_COMPACT)
    gasneti_fatalerror("ucx conduit: a message with a %zu-byte header, shorter than ours", hlen);
  memcpy(&h, header, GASNETC_HDR_COMPACT);
  /* A compact header ends here: a Medium's length is its data's. */
  h.nbytes = h.category == GASNETI_AM_MEDIUM ? len : 0;
  h.addr = 0;
  if (!gasnetc_hdr_is_compact(&h)) {
    if (hlen < sizeof(h)) gasnetc_bad_message(&h, hlen, len, "its header is cut short");
    memcpy(&h, header, sizeof(h));
  }
  if (h.src >= gasneti_nodes || h.src == gasneti_mynode)
    gasnetc_bad_message(&h, hlen, len, "from no other node of this job");
  int rndv = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
  if (rndv && h.kind != GASNETC_K_REQUEST && h.kind != GASNETC_K_REPLY)
    gasnetc_bad_message(&h, hlen, len, "a control message sent by rendezvous");
  gasnetc_credit_returned((gasnet_node_t)h.src, h.credits);
  int keepable = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA) != 0;
  switch ((gasnetc_kind_t)h.kind) {
    case GASNETC_K_REQUEST:
    case GASNETC_K_REPLY:
      if (!rndv) return gasnetc_arrived_am(&h, header, hlen, data, len, keepable);
      gasnetc_arrived_rndv(&h, header, hlen, data, len);
      break;
    case GASNETC_K_CREDIT: break;
    case GASNETC_K_FENCE: gasneti_amfence_asked_by((gasnet_node_t)h.src, h.seq); break;
    case GASNETC_K_FENCE_ACK: gasneti_amfence_answered(); break;
    case GASNETC_K_EXIT: gasnetc_exit_notice((gasnet_node_t)h.src, h.seq); break;
    default: gasnetc_bad_message(&h, hlen, len, "an unknown kind");
  }
  return UCS_OK;
}

void gasnetc_poll_init(void) {
  ucp_am_handler_param_t hp;
  memset(&hp, 0, sizeof(hp));
  hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_FLAGS |
                  UCP_AM_HANDLER_PARAM_FIELD_CB;
  hp.id = GASNETC_AM_ID;
  hp.flags = UCP_AM_FLAG_WHOLE_MSG;
  hp.cb = gasnetc_am_arrived;
  ucs_status_t st = ucp_worker_set_am_recv_handler(gasnetc_ucx.worker, &hp);
  if (st != UCS_OK) gasnetc_ucx_fail("gasnet_init", "ucp_worker_set_am_recv_handler", st);
}

/* A message is waiting for its handler (lock held). */
static inline int gasnetc_deliverable(void) {
  return gasnetc_ucx.queue[GASNETC_CH_REQ].head || gasnetc_ucx.queue[GASNETC_CH_REP].head;
}

/* Progress until UCX has nothing more or a message is ready to run: over
 * TCP each call is an epoll_wait, and one more call after an arrival would
 * stand between that message and its handler (the next poll goes on). */
int gasnetc_progress(void) {
  int n = 0;
  while (n < GASNETC_PROGRESS_MAX && ucp_worker_progress(gasnetc_ucx.worker)) {
    n++;
    if (gasnetc_deliverable()) break;
  }
  gasneti_amfence_flush();
  return n;
}

/* ------------------------------------------------------------ delivery (lock not held) */
static void gasnetc_deliver(gasnetc_pkt_t *p) {
  const gasnetc_hdr_t *h = &p->hdr;
  gasneti_am_t msg;
  msg.category = h->category;
  msg.handler = h->handler;
  msg.numargs = h->numargs;
  msg.is_request = h->kind == GASNETC_K_REQUEST;
  msg.nbytes = (size_t)h->nbytes;
  msg.dest_addr = (void *)(uintptr_t)h->addr;
  msg.payload = NULL;
  memcpy(msg.args, gasnetc_pkt_args(p), msg.numargs * sizeof(gasnet_handlerarg_t));
  if (msg.category == GASNETI_AM_MEDIUM) msg.payload = gasnetc_pkt_payload(p);
  else if (msg.category == GASNETI_AM_LONG) msg.payload = msg.dest_addr;
  struct gasneti_token_s token = {(gasnet_node_t)h->src, msg.is_request, 0, NULL};
  if (msg.is_request) gasnetc_credit_owe(token.src);
  gasneti_am_deliver(&token, &msg);
  if (msg.is_request) gasneti_amfence_ran_request(token.src);
}

/* Take up to a batch from the head of queue ch, if no other thread is
 * delivering it (lock held). */
static gasnetc_pkt_t *gasnetc_claim(int ch) {
  gasnetc_ucx_t *u = &gasnetc_ucx;
  gasnetc_queue_t *q = &u->queue[ch];
  if (u->delivering[ch] || !q->head) return NULL;
  gasnetc_pkt_t *first = q->head, *last = first;
  for (int n = 1; n < GASNETC_POLL_BATCH && last->next; n++) last = last->next;
  q->head = last->next;
  if (!q->head) q->tail = NULL;
  last->next = NULL;
  u->delivering[ch] = 1;
  return first;
}

static int gasnetc_deliver_list(gasnetc_pkt_t *list, int ch) {
  if (!list) return 0;
  int n = 0;
  for (gasnetc_pkt_t *p = list; p; p = p->next, n++) gasnetc_deliver(p);
  gasnetc_lock();
  while (list) {
    gasnetc_pkt_t *next = list->next;
    gasnetc_pkt_free(list);
    list = next;
  }
  gasnetc_ucx.delivering[ch] = 0;
  gasnetc_unlock();
  return n;
}

/* What came through UCX: progress, then deliver. -1: another thread is
 * progressing the worker (this one yielded to it). */
static int gasnetc_poll_ucx(int replies_only) {
  if (!gasnetc_trylock()) {
    sched_yield();
    return -1;
  }
  int n = gasnetc_progress();
  if (!gasnetc_deliverable()) { /* most polls of a wait: nothing to hand out */
    gasnetc_unlock();
    return n;
  }
  gasnetc_pkt_t *replies = gasnetc_claim(GASNETC_CH_REP);
  gasnetc_pkt_t *requests = replies_only ? NULL : gasnetc_claim(GASNETC_CH_REQ);
  gasnetc_unlock();
  n += gasnetc_deliver_list(replies, GASNETC_CH_REP);
  n += gasnetc_deliver_list(requests, GASNETC_CH_REQ);
  return n;
}

/* UCX's progress over TCP is an epoll_wait per call: after one that found
 * nothing, a thread that sends between polls leaves the worker alone for
 * twice as long as that call took (gasnet_pace.h). */
static GASNETI_THREAD_LOCAL gasneti_pace_t gasnetc_pace;

static int gasnetc_poll_ucx_paced(int replies_only) {
  return gasneti_pace_poll(&gasnetc_pace, gasnetc_poll_ucx, replies_only);
}

/* The supernode's rings first (no lock), then UCX (ucx_shm.h: not at
 * every poll when the supernode is the whole job). */
static int gasnetc_poll(int replies_only) {
  gasnetc_exit_check();
  gasnetc_liveness_check();
  int n = gasnetc_ucx_shm_poll(replies_only);
  if (gasnetc_ucx_shm_ucx_due()) n += gasnetc_poll_ucx_paced(replies_only);
  gasnetc_exit_check();
  return n;
}

int gasnetc_am_poll(void) { return gasnetc_poll(0); }
int gasnetc_am_poll_replies(void) { return gasnetc_poll(1); }
