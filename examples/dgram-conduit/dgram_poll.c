/* dgram_poll.c: receiving. A poll reads a bounded batch of datagrams from
 * the socket (under the lock in PAR): control packets and Long DATA are
 * acted on at once, AM packets go to the tail of the request or reply
 * queue. Then, without the lock, it delivers: first replies, then (unless
 * it polls replies only) requests, each queue by one thread at a time so
 * every stream is handled in the order it was sent. A reply-only poll
 * still reads everything, so a node waiting to send a reply keeps its
 * socket drained; the requests it reads wait in the queue, bounded by the
 * senders' credits. */
#include "dgram_internal.h"

#include "gasnet_copy.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Datagrams read, and messages delivered per queue, by one poll. */
#define GASNETC_POLL_BATCH 32
/* Spare packet buffers kept for reuse. */
#define GASNETC_SPARE_MAX 64

static unsigned gasnetc_nspare;

/* ------------------------------------------------------------ buffers (lock held) */
static gasnetc_pkt_t *gasnetc_pkt_get(void) {
  gasnetc_pkt_t *p = gasnetc_dgram.free;
  if (p) {
    gasnetc_dgram.free = p->next;
    gasnetc_nspare--;
    return p;
  }
  void *mem = NULL;
  if (posix_memalign(&mem, 64, offsetof(gasnetc_pkt_t, hdr) + GASNETC_PACKET_MAX))
    gasneti_fatalerror("dgram conduit: out of memory for a receive buffer");
  return mem;
}

static void gasnetc_pkt_put(gasnetc_pkt_t *p) {
  if (gasnetc_nspare >= GASNETC_SPARE_MAX) {
    free(p);
    return;
  }
  p->next = gasnetc_dgram.free;
  gasnetc_dgram.free = p;
  gasnetc_nspare++;
}

static void gasnetc_enqueue(gasnetc_queue_t *q, gasnetc_pkt_t *p) {
  p->next = NULL;
  if (q->tail)
    q->tail->next = p;
  else
    q->head = p;
  q->tail = p;
}

/* ------------------------------------------------------------ arrival (lock held) */
static size_t gasnetc_am_header_bytes(const gasnetc_hdr_t *h) {
  return sizeof(*h) + gasnetc_args_bytes(h->numargs);
}

static void gasnetc_bad_packet(const gasnetc_pkt_t *p, const char *why) GASNETI_NORETURN;
static void gasnetc_bad_packet(const gasnetc_pkt_t *p, const char *why) {
  gasneti_fatalerror("dgram conduit: a bad %zu-byte datagram (kind %u from node %u): %s", p->len,
                     (unsigned)p->hdr.kind, (unsigned)p->hdr.src, why);
}

/* A datagram has arrived: act on it or queue it; true if it was queued. */
static int gasnetc_arrived(gasnetc_pkt_t *p) {
  gasnetc_dgram_t *d = &gasnetc_dgram;
  gasnetc_hdr_t *h = &p->hdr;
  if (p->len < sizeof(*h)) gasnetc_bad_packet(p, "shorter than a header");
  if (h->src >= gasneti_nodes) gasnetc_bad_packet(p, "from no node of this job");
  if (h->credits) __atomic_fetch_add(&d->credits[h->src], h->credits, __ATOMIC_ACQ_REL);
  switch ((gasnetc_kind_t)h->kind) {
    case GASNETC_K_REQUEST:
    case GASNETC_K_REPLY:
      if (h->numargs > 16 || p->len < gasnetc_am_header_bytes(h))
        gasnetc_bad_packet(p, "its arguments are cut short");
      gasnetc_enqueue(h->kind == GASNETC_K_REQUEST ? &d->requests : &d->replies, p);
      return 1;
    case GASNETC_K_DATA:
      if (p->len != sizeof(*h) + h->nbytes) gasnetc_bad_packet(p, "its length disagrees");
      memcpy((void *)(uintptr_t)h->addr, h + 1, h->nbytes);
      return 0;
    case GASNETC_K_CREDIT: return 0;
    case GASNETC_K_HELLO:
      d->pid[h->src] = (pid_t)h->aux;
      d->max_segsize[h->src] = h->nbytes;
      d->credits[h->src] = (uint32_t)h->addr; /* its window, until gasnetc_set_window */
      d->hello[h->src] = 1;
      return 0;
    case GASNETC_K_SEGINFO: d->seginfo[h->src] = *h; return 0;
    case GASNETC_K_EXIT: gasnetc_exit_notice(h->src, (int)h->aux); return 0;
  }
  gasnetc_bad_packet(p, "unknown kind");
}

int gasnetc_read(int max) {
  int n = 0;
  while (n < max) {
    gasnetc_pkt_t *p = gasnetc_pkt_get();
    ssize_t len = recv(gasnetc_dgram.fd, &p->hdr, GASNETC_PACKET_MAX, MSG_DONTWAIT);
    if (len < 0) {
      int err = errno;
      gasnetc_pkt_put(p);
      if (err == EINTR) continue;
      if (err == EAGAIN || err == EWOULDBLOCK) break;
      gasneti_fatalerror("dgram conduit: failed to receive (recv): %s", strerror(err));
    }
    n++;
    p->len = (size_t)len;
    if (!gasnetc_arrived(p)) gasnetc_pkt_put(p);
  }
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
  memcpy(msg.args, h + 1, msg.numargs * sizeof(gasnet_handlerarg_t));
  uint8_t *inline_payload = (uint8_t *)h + gasnetc_am_header_bytes(h);
  size_t inline_bytes = p->len - gasnetc_am_header_bytes(h);
  if (msg.category == GASNETI_AM_MEDIUM) {
    if (inline_bytes != msg.nbytes) gasnetc_bad_packet(p, "its Medium payload is cut short");
    msg.payload = inline_payload;
  } else if (msg.category == GASNETI_AM_LONG) {
    /* Inline, or already in place from DATA datagrams. */
    if (inline_bytes == msg.nbytes && msg.nbytes)
      gasneti_copy(msg.dest_addr, inline_payload, msg.nbytes); /* a flag word in one store */
    else if (inline_bytes != 0)
      gasnetc_bad_packet(p, "its Long payload is cut short");
    msg.payload = msg.dest_addr;
  }
  struct gasneti_token_s token = {(gasnet_node_t)h->src, msg.is_request, 0, NULL};
  if (msg.is_request) gasnetc_credit_owe(token.src);
  gasneti_am_deliver(&token, &msg);
}

/* Take up to a batch from the head of queue q, if no other thread is
 * delivering it (lock held). */
static gasnetc_pkt_t *gasnetc_claim(gasnetc_queue_t *q, int *delivering) {
  if (*delivering || !q->head) return NULL;
  gasnetc_pkt_t *first = q->head, *last = first;
  for (int n = 1; n < GASNETC_POLL_BATCH && last->next; n++) last = last->next;
  q->head = last->next;
  if (!q->head) q->tail = NULL;
  last->next = NULL;
  *delivering = 1;
  return first;
}

static int gasnetc_deliver_list(gasnetc_pkt_t *list, int *delivering) {
  if (!list) return 0;
  int n = 0;
  for (gasnetc_pkt_t *p = list; p; p = p->next, n++) gasnetc_deliver(p);
  gasnetc_lock();
  while (list) {
    gasnetc_pkt_t *next = list->next;
    gasnetc_pkt_put(list);
    list = next;
  }
  *delivering = 0;
  gasnetc_unlock();
  return n;
}

int gasnetc_poll(int replies_only) {
  gasnetc_dgram_t *d = &gasnetc_dgram;
  gasnetc_exit_check();
  gasnetc_liveness_check();
  if (!gasnetc_trylock()) { /* another thread is reading: let it run */
    sched_yield();
    return 0;
  }
  int n = gasnetc_read(GASNETC_POLL_BATCH);
  gasnetc_pkt_t *replies = gasnetc_claim(&d->replies, &d->delivering[1]);
  gasnetc_pkt_t *requests = replies_only ? NULL : gasnetc_claim(&d->requests, &d->delivering[0]);
  gasnetc_unlock();
  n += gasnetc_deliver_list(replies, &d->delivering[1]);
  n += gasnetc_deliver_list(requests, &d->delivering[0]);
  gasnetc_credit_flush();
  gasnetc_exit_check();
  return n;
}

int gasnetc_am_poll(void) { return gasnetc_poll(0); }
int gasnetc_am_poll_replies(void) { return gasnetc_poll(1); }

/* ------------------------------------------------------------ start-up waits */
void gasnetc_boot_wait(int (*done)(void *), void *arg, const char *what) {
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    gasnetc_lock();
    gasnetc_read(64);
    int ok = done(arg);
    gasnetc_unlock();
    if (ok) return;
    gasnetc_exit_check();
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - t0.tv_sec > GASNETC_BOOT_TIMEOUT)
      gasneti_fatalerror("%s: some node did not answer within %d s", what, GASNETC_BOOT_TIMEOUT);
    struct pollfd pfd = {gasnetc_dgram.fd, POLLIN, 0};
    poll(&pfd, 1, 10);
  }
}
