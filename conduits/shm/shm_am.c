/* shm_am.c: active messages over the shared rings. A sender claims a slot
 * in the destination member's ring, writes the header into it and a Medium
 * payload into it or (larger than the slot holds) into a payload buffer of
 * the ring it took first, or (Long) copies the payload straight into the
 * destination segment, through the translated address, then publishes the
 * slot.
 * Requests and replies use separate rings so a reply never waits behind
 * requests: a node waiting to send a reply runs only reply handlers, which
 * send nothing, so replies always drain. */
#include "shm_internal.h"

#include "gasnet_copy.h"

#include <string.h>

static void gasnetc_shm_fill_slot(gasnetc_shm_ring_t *ring, gasnetc_shm_slot_t *slot, int buffer,
                                  gasnet_node_t dest, const gasneti_am_t *msg) {
  gasnetc_shm_msg_header_t *hdr = &slot->hdr;
  hdr->category = msg->category;
  hdr->handler = msg->handler;
  hdr->numargs = msg->numargs;
  hdr->is_request = msg->is_request;
  hdr->src = gasneti_mynode;
  hdr->nbytes = msg->nbytes;
  gasnetc_shm_copy_args(hdr->args, msg->args, msg->numargs);
  if (msg->category == GASNETI_AM_LONG) hdr->dest_addr = (uint64_t)(uintptr_t)msg->dest_addr;
  if (buffer >= 0) hdr->buffer = (uint32_t)buffer;
  if (!msg->nbytes) return;
  if (msg->category == GASNETI_AM_MEDIUM) {
    memcpy(gasnetc_shm_ring_payload(ring, slot), msg->payload, msg->nbytes);
  } else if (msg->category == GASNETI_AM_LONG) {
    void *to = gasnetc_shm_translate(dest, msg->dest_addr);
    if (to != msg->payload) gasneti_move(to, msg->payload, msg->nbytes); /* a flag word in one store */
  }
}

/* A member's messages to itself go through its private rings; its
 * shared rings carry only its peers' messages. */
static gasnetc_shm_queues_t *gasnetc_shm_queues_of(gasnet_node_t node) {
  if (node == gasneti_mynode) return gasnetc_shm.self;
  return &gasnetc_shm.queues[gasnetc_shm.node_member[node]];
}

/* Is this thread the only producer of the rings to dest? In a SEQ build
 * a process is one thread: its private rings have no other producer, and
 * a peer's shared rings have none when the supernode has two members. */
static inline int gasnetc_shm_sole_producer(gasnet_node_t dest) {
#if defined(GASNETI_THREADS)
  (void)dest;
  return 0;
#else
  return dest == gasneti_mynode || gasnetc_shm.members == 2;
#endif
}

/* The ring is full: wait, polling, until its receiver has freed a
 * quarter of it, watching the last slot of that quarter. Watching the
 * oldest slot, the one the receiver frees next, the sender read the very
 * line the receiver was writing, once per message: with a sender fast
 * enough to keep the ring full (one producer, gasnetc_shm_ring_claim)
 * 8-byte reduce and scan at 2 processes ran 1.4 times slower that way
 * (docs/performance.md, "One producer per ring"). */
_Static_assert(GASNETC_SHM_RING_SLOTS_PER_SENDER >= 4, "every ring has a quarter to wait for");
static void gasnetc_shm_await_room(gasnetc_shm_ring_t *ring, int (*poll)(void), unsigned *spins) {
  uint64_t pos = __atomic_load_n(&ring->enqueue_pos, __ATOMIC_RELAXED);
  uint64_t last = pos + gasnetc_shm_ring_depth / 4 - 1;
  const gasnetc_shm_slot_t *watch = gasnetc_shm_ring_slot(ring, last);
  do {
    poll();
    gasneti_wait_backoff(spins);
  } while ((int64_t)(__atomic_load_n(&watch->hdr.seq, __ATOMIC_RELAXED) - last) < 0);
}

static void gasnetc_shm_send(gasnetc_shm_ring_t *ring, gasnet_node_t dest,
                             const gasneti_am_t *msg, int (*poll)(void)) {
  uint64_t pos;
  unsigned spins = 0;
  int buffer = -1;
  /* A large Medium takes its payload buffer before claiming a slot: a
   * claimed slot not yet published holds back every later message of the
   * ring. */
  if (msg->category == GASNETI_AM_MEDIUM && gasnetc_shm_payload_buffered(msg->nbytes))
    while ((buffer = gasnetc_shm_buffer_take(ring)) < 0) {
      poll();
      gasneti_wait_backoff(&spins);
    }
  int sole = gasnetc_shm_sole_producer(dest);
  gasnetc_shm_slot_t *slot = gasnetc_shm_ring_reserve(ring, sole, &pos);
  while (!slot) {
    gasnetc_shm_await_room(ring, poll, &spins);
    slot = gasnetc_shm_ring_reserve(ring, sole, &pos);
  }
  gasnetc_shm_fill_slot(ring, slot, buffer, dest, msg);
  gasnetc_shm_ring_publish(slot, pos);
}

void gasnetc_shm_request(gasnet_node_t dest, const gasneti_am_t *msg, int (*poll)(void)) {
  gasnetc_shm_send(&gasnetc_shm_queues_of(dest)->requests, dest, msg, poll);
}

void gasnetc_shm_reply(gasnet_node_t dest, const gasneti_am_t *msg, int (*poll)(void)) {
  gasnetc_shm_send(&gasnetc_shm_queues_of(dest)->replies, dest, msg, poll);
}

static void gasnetc_shm_deliver(gasnetc_shm_ring_t *ring, gasnetc_shm_slot_t *slot) {
  const gasnetc_shm_msg_header_t *hdr = &slot->hdr;
  gasneti_am_t msg;
  msg.category = hdr->category;
  msg.handler = hdr->handler;
  msg.numargs = hdr->numargs;
  msg.is_request = hdr->is_request;
  msg.nbytes = hdr->nbytes;
  if (hdr->category == GASNETI_AM_LONG) {
    msg.dest_addr = (void *)(uintptr_t)hdr->dest_addr;
    msg.payload = msg.dest_addr;
  } else {
    msg.dest_addr = NULL;
    msg.payload = gasnetc_shm_ring_payload(ring, slot);
  }
  gasnetc_shm_copy_args(msg.args, hdr->args, hdr->numargs);
  struct gasneti_token_s token = {hdr->src, hdr->is_request, 0, NULL};
  gasneti_am_deliver(&token, &msg);
  if (hdr->category == GASNETI_AM_MEDIUM && gasnetc_shm_payload_buffered(hdr->nbytes))
    gasnetc_shm_buffer_free(ring, hdr->buffer);
}

/* Requests of this member's ring taken and not yet released, counted by
 * the threads of this process that poll (PAR): a request taken is run
 * only once its handler returns (gasnetc_shm_requests_run). */
#if defined(GASNETI_THREADS)
static int gasnetc_shm_running;
static inline void gasnetc_shm_running_add(int n) {
  __atomic_add_fetch(&gasnetc_shm_running, n, __ATOMIC_ACQ_REL);
}
#else
static inline void gasnetc_shm_running_add(int n) { (void)n; }
#endif

static gasnetc_shm_slot_t *gasnetc_shm_take(gasnetc_shm_ring_t *ring, int requests, uint64_t *pos_p) {
  if (requests) gasnetc_shm_running_add(1); /* before the take, so no window shows none */
  gasnetc_shm_slot_t *slot = gasnetc_shm_ring_take(ring, pos_p);
  if (requests && !slot) gasnetc_shm_running_add(-1);
  return slot;
}

/* Deliver at most GASNETC_SHM_DRAIN_MAX messages per poll, so a steady
 * flood cannot keep a poller inside forever, and a poller far behind its
 * senders takes their messages in as it needs them: what it takes before
 * the client wants it is copied out into a store (the collectives' early
 * arrivals) instead of staying in the ring. */
#define GASNETC_SHM_DRAIN_MAX 32
static int gasnetc_shm_drain_ready(gasnetc_shm_ring_t *ring, int requests) {
  int n = 0;
  uint64_t pos;
  gasnetc_shm_slot_t *slot;
  while (n < GASNETC_SHM_DRAIN_MAX && (slot = gasnetc_shm_take(ring, requests, &pos))) {
    gasnetc_shm_deliver(ring, slot);
    gasnetc_shm_ring_release(ring, pos);
    if (requests) gasnetc_shm_running_add(-1);
    n++;
  }
  return n;
}

/* Most polls find the ring empty: that is decided here, inline. */
static inline int gasnetc_shm_drain(gasnetc_shm_ring_t *ring, int requests) {
  return gasnetc_shm_ring_ready(ring) ? gasnetc_shm_drain_ready(ring, requests) : 0;
}

int gasnetc_shm_poll_replies(void) {
  int n = gasnetc_shm_drain(&gasnetc_shm.queues[gasnetc_shm.my_member].replies, 0);
  return n + gasnetc_shm_drain(&gasnetc_shm.self->replies, 0);
}

int gasnetc_shm_poll(void) {
  gasnetc_shm_queues_t *mine = &gasnetc_shm.queues[gasnetc_shm.my_member];
  gasnetc_shm_queues_t *self = gasnetc_shm.self;
  int n = gasnetc_shm_drain(&mine->replies, 0) + gasnetc_shm_drain(&self->replies, 0);
  return n + gasnetc_shm_drain(&mine->requests, 1) + gasnetc_shm_drain(&self->requests, 1);
}

/* ------------------------------------------------------------ the barrier's AM fence
 * A request sent before its sender's barrier notify sits in this member's
 * shared ring, or its private one if it sent it to itself (the sender's
 * enqueue returned before it notified), so once the barrier is complete
 * every such request has a position below the ring's enqueue position as
 * read now. Run until the consumers of both are past it and none is still
 * inside a handler. */
static int gasnetc_shm_requests_run(const gasnetc_shm_ring_t *ring, uint64_t upto) {
  if ((int64_t)(__atomic_load_n(&ring->dequeue_pos, __ATOMIC_ACQUIRE) - upto) < 0) return 0;
#if defined(GASNETI_THREADS)
  return __atomic_load_n(&gasnetc_shm_running, __ATOMIC_ACQUIRE) == 0;
#else
  return 1; /* one thread polls, and it is here, not in a handler */
#endif
}

void gasnetc_shm_run_arrived_requests(int (*poll)(void)) {
  if (!gasnetc_shm.members) return;
  gasnetc_shm_ring_t *ring = &gasnetc_shm.queues[gasnetc_shm.my_member].requests;
  gasnetc_shm_ring_t *self = &gasnetc_shm.self->requests;
  uint64_t upto = __atomic_load_n(&ring->enqueue_pos, __ATOMIC_ACQUIRE);
  uint64_t self_upto = __atomic_load_n(&self->enqueue_pos, __ATOMIC_ACQUIRE);
  unsigned spins = 0;
  while (!gasnetc_shm_requests_run(ring, upto) || !gasnetc_shm_requests_run(self, self_upto)) {
    poll();
    gasneti_wait_backoff(&spins);
  }
}
