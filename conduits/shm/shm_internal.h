/* shm_internal.h: the layout of a supernode's region and the layer's
 * internals (shm_layer.h is what conduits use). */
#ifndef SHM_INTERNAL_H
#define SHM_INTERNAL_H

#include "shm_layer.h"

#include <stddef.h>
#include <string.h>

#define GASNETC_SHM_CACHE_LINE 64
/* The most slots a ring uses. A member's request ring is shared by every peer
 * that sends to it, so its depth grows with them: with 32 slots the three
 * senders of a gather or reduce at 4 ranks could run only about 10
 * collectives ahead of the root and spent their time waiting for it,
 * while at 2 ranks 32 slots are enough and more cost cache misses
 * (docs/performance.md, "Ring depth"). gasnetc_shm_ring_configure picks
 * the depth: 32 slots per sender up to this many. A power of two. */
#define GASNETC_SHM_RING_SLOTS 128
#define GASNETC_SHM_RING_SLOTS_PER_SENDER 32
/* Handler arguments and message fields fit in this header; the Medium
 * payload follows it, so it starts 64-byte aligned. */
#define GASNETC_SHM_SLOT_HEADER 128
/* Medium payloads up to this size travel in their slot: a collective's
 * 4 KiB blocks do. A slot is 8 KiB and one cache line, not a multiple of
 * 4 KiB: at such a stride every slot's header would fall in the same set
 * of the L1 cache, and 32 of them evict each other (a flood of Shorts ran
 * at two thirds of the rate). */
#define GASNETC_SHM_SLOT_INLINE (8192 + GASNETC_SHM_CACHE_LINE - GASNETC_SHM_SLOT_HEADER)
/* Larger ones travel in one of this many payload buffers of the ring: only
 * as many large payloads as these buffers can be in flight, so a flood of
 * 64 KiB Mediums cycles through 2 MiB, not through a buffer per slot (with
 * one per slot, 128 slots made 64 KiB collectives up to 30 times slower).
 * At most 32: the ring's free buffers are the bits of one word. */
#define GASNETC_SHM_RING_BUFFERS 32
/* Written at creation; a member that maps a region checks it. */
#define GASNETC_SHM_MAGIC 0x67736e7470736d31ull /* "gsntpsm1" */

/* What every message uses comes first and its arguments right after, so
 * a message of up to 10 arguments (a collective's 8-byte block travels in
 * a Short of 8) is one cache line for the receiver to fetch; the fields
 * only a Long or a buffered Medium uses follow, and are written and read
 * only for those. */
typedef struct {
  uint64_t seq; /* atomic: the ring position this slot is ready for */
  uint8_t category;
  uint8_t handler;
  uint8_t numargs;
  uint8_t is_request;
  uint32_t src; /* the sender's node */
  uint64_t nbytes;
  gasnet_handlerarg_t args[16];
  uint64_t dest_addr; /* Long: in the destination's own address space */
  uint32_t buffer;    /* a Medium larger than the slot holds: its payload buffer */
  uint32_t unused;
} gasnetc_shm_msg_header_t;

/* The arguments that share the slot's first cache line with the header. */
#define GASNETC_SHM_LINE_ARGS 10
_Static_assert(offsetof(gasnetc_shm_msg_header_t, args) +
                       GASNETC_SHM_LINE_ARGS * sizeof(gasnet_handlerarg_t) <=
                   GASNETC_SHM_CACHE_LINE,
               "a message of up to 10 arguments fits the slot's first cache line");

/* Copy a message's n arguments between a slot and a gasneti_am_t (both
 * hold 16). From 1 to GASNETC_SHM_LINE_ARGS they go as one block of that
 * fixed size, a few moves: copied by their count, gcc made each copy a
 * `rep movsq`, whose start-up cost a small message paid once on each side
 * (docs/performance.md, "Arguments copied by a fixed size"). */
static inline void gasnetc_shm_copy_args(gasnet_handlerarg_t *to, const gasnet_handlerarg_t *from,
                                         unsigned n) {
  if (n == 0) return;
  if (n <= GASNETC_SHM_LINE_ARGS)
    memcpy(to, from, GASNETC_SHM_LINE_ARGS * sizeof(gasnet_handlerarg_t));
  else
    memcpy(to, from, n * sizeof(gasnet_handlerarg_t));
}

typedef struct {
  gasnetc_shm_msg_header_t hdr;
  uint8_t pad[GASNETC_SHM_SLOT_HEADER - sizeof(gasnetc_shm_msg_header_t)];
  uint8_t payload[GASNETC_SHM_SLOT_INLINE];
} gasnetc_shm_slot_t;

/* A payload buffer, two cache lines longer than a payload for the same
 * reason: consecutive buffers start in different cache sets. */
typedef struct {
  uint8_t payload[GASNETC_MAX_MEDIUM];
  uint8_t pad[2 * GASNETC_SHM_CACHE_LINE];
} gasnetc_shm_buffer_t;

/* A bounded ring with many producers (every member that sends to the
 * owner) and the owner's threads as consumers (shm_ring.c). A slot's
 * sequence number says whether it is free for a producer at a given
 * position or full for the consumer at it, so neither side locks, and
 * looking at an empty ring costs two loads. */
typedef struct {
  _Alignas(GASNETC_SHM_CACHE_LINE) uint64_t enqueue_pos;
  _Alignas(GASNETC_SHM_CACHE_LINE) uint64_t dequeue_pos;
  _Alignas(GASNETC_SHM_CACHE_LINE) uint32_t free_buffers; /* atomic: bit b, buffer b is free */
  _Alignas(GASNETC_SHM_CACHE_LINE) gasnetc_shm_slot_t slots[GASNETC_SHM_RING_SLOTS];
  _Alignas(GASNETC_SHM_CACHE_LINE) gasnetc_shm_buffer_t buffers[GASNETC_SHM_RING_BUFFERS];
} gasnetc_shm_ring_t;

_Static_assert(GASNETC_SHM_RING_BUFFERS <= 32, "the free buffers are the bits of a uint32_t");
_Static_assert(GASNETC_MAX_MEDIUM % GASNETC_SHM_CACHE_LINE == 0,
               "every payload buffer starts on a cache line");

struct gasnetc_shm_queues_s {
  gasnetc_shm_ring_t requests;
  gasnetc_shm_ring_t replies;
};

/* One cache line per member: its start-up barrier counter and what it
 * tells the others at start-up; then the state of the SMP barrier
 * (shm_barrier.c): a counter bumped at each notify (wraps around) and the
 * id and flags of the notify, per phase (barrier number & 1). Only the
 * owner writes its line. */
typedef struct {
  _Alignas(GASNETC_SHM_CACHE_LINE) uint64_t barrier_count; /* atomic */
  uint64_t segsize;
  uint64_t segaddr; /* its segment, in its own process (aligned or its slot) */
  uint64_t probe_addr; /* its cross-memory probe word, in its own process (shm_xmem.c) */
  int32_t pid;
  uint32_t ext_barrier_count; /* atomic */
  int32_t ext_barrier_id[2];
  int32_t ext_barrier_flags[2];
  int32_t xmem_ok; /* its cross-memory probe worked */
} gasnetc_shm_line_t;

struct gasnetc_shm_control_s {
  _Alignas(GASNETC_SHM_CACHE_LINE) uint8_t conduit[GASNETC_SHM_CONDUIT_BYTES];
  _Alignas(GASNETC_SHM_CACHE_LINE) uint64_t magic;
  uint64_t bytes;
  uint64_t max_segsize;
  uint32_t members;
  _Alignas(GASNETC_SHM_CACHE_LINE) gasnetc_shm_line_t member[];
};

_Static_assert(offsetof(gasnetc_shm_control_t, conduit) == 0,
               "the conduit area starts the control area (gasnetc_shm_conduit_area)");
_Static_assert(sizeof(gasnetc_shm_line_t) == GASNETC_SHM_CACHE_LINE,
               "a member's control line is one cache line");

static inline gasnetc_shm_line_t *gasnetc_shm_line(unsigned m) {
  return &gasnetc_shm.control->member[m];
}
static inline gasnetc_shm_line_t *gasnetc_shm_my_line(void) {
  return gasnetc_shm_line(gasnetc_shm.my_member);
}

/* ThreadSanitizer sees one process only. A node's messages and barriers
 * carry happens-before through its peers' processes, where TSan cannot
 * follow: a reply answers our request, a request may follow our reply or
 * our barrier. Without help it reports, as races, the handler's use of
 * memory the requesting thread set up (an op, a buffer) and the copies into
 * memory another thread of this node used before the exchange. Under it,
 * sending a message and notifying a barrier release, and taking a message
 * and completing a barrier acquire, one word of this process: what a thread
 * did before it sent happens before what any thread does after it receives.
 * That orders more than the exchanges that really depend on each other; in
 * other builds it is nothing. */
#if defined(__SANITIZE_THREAD__)
extern uint64_t gasnetc_shm_tsan_word;
static inline void gasnetc_shm_tsan_release(void) {
  /* a read-modify-write: TSan joins every releaser's clock (a store would replace it) */
  (void)__atomic_fetch_add(&gasnetc_shm_tsan_word, 0, __ATOMIC_RELEASE);
}
static inline void gasnetc_shm_tsan_acquire(void) {
  (void)__atomic_load_n(&gasnetc_shm_tsan_word, __ATOMIC_ACQUIRE);
}
#else
static inline void gasnetc_shm_tsan_release(void) {}
static inline void gasnetc_shm_tsan_acquire(void) {}
#endif

/* shm_ring.c */
extern void gasnetc_shm_ring_configure(unsigned members);
extern void gasnetc_shm_ring_init(gasnetc_shm_ring_t *ring);
extern gasnetc_shm_slot_t *gasnetc_shm_ring_reserve(gasnetc_shm_ring_t *ring, int sole,
                                                    uint64_t *pos_p);
extern void gasnetc_shm_ring_publish(gasnetc_shm_slot_t *slot, uint64_t pos);
extern gasnetc_shm_slot_t *gasnetc_shm_ring_take(gasnetc_shm_ring_t *ring, uint64_t *pos_p);
extern void gasnetc_shm_ring_release(gasnetc_shm_ring_t *ring, uint64_t pos);

extern uint64_t gasnetc_shm_ring_depth; /* slots in use per ring; a power of two */

static inline gasnetc_shm_slot_t *gasnetc_shm_ring_slot(gasnetc_shm_ring_t *ring, uint64_t pos) {
  return &ring->slots[pos & (gasnetc_shm_ring_depth - 1)];
}

/* Is a message waiting at the ring's head? A hint, decided inline with
 * two loads: most polls find both of a member's rings empty, and the
 * take (shm_ring.c) settles the rest. */
static inline int gasnetc_shm_ring_ready(gasnetc_shm_ring_t *ring) {
  uint64_t pos = __atomic_load_n(&ring->dequeue_pos, __ATOMIC_RELAXED);
  uint64_t seq = __atomic_load_n(&gasnetc_shm_ring_slot(ring, pos)->hdr.seq, __ATOMIC_RELAXED);
  return (int64_t)(seq - (pos + 1)) >= 0;
}

/* ------------------------------------------------------------ Medium payloads
 * A payload that fits its slot stays there; a larger one takes a free
 * payload buffer of the ring before its slot (a claimed slot left
 * unpublished while its sender waits would hold back every later message),
 * names it in the header, and the consumer frees the buffer once the
 * handler has returned. A buffer is not tied to a position: with several
 * threads polling one ring (PAR), or a handler that polls, messages are
 * released out of order, so the message that last used buffer
 * pos % BUFFERS may still be in its handler when a later one at the same
 * position modulo BUFFERS has been released. */
static inline int gasnetc_shm_payload_buffered(size_t medium_bytes) {
  return medium_bytes > GASNETC_SHM_SLOT_INLINE;
}

static inline uint32_t gasnetc_shm_all_buffers(void) {
  return GASNETC_SHM_RING_BUFFERS == 32 ? UINT32_MAX : (1u << GASNETC_SHM_RING_BUFFERS) - 1;
}

/* Take a free payload buffer: its index, or -1 when every one is in use. */
static inline int gasnetc_shm_buffer_take(gasnetc_shm_ring_t *ring) {
  uint32_t mask = __atomic_load_n(&ring->free_buffers, __ATOMIC_RELAXED);
  while (mask) {
    int b = __builtin_ctz(mask);
    if (__atomic_compare_exchange_n(&ring->free_buffers, &mask, mask & ~(1u << b), 1,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return b;
  }
  return -1;
}

/* The consumer is done with buffer b: its payload has been handed over. */
static inline void gasnetc_shm_buffer_free(gasnetc_shm_ring_t *ring, uint32_t b) {
  __atomic_fetch_or(&ring->free_buffers, 1u << b, __ATOMIC_RELEASE);
}

static inline uint8_t *gasnetc_shm_ring_payload(gasnetc_shm_ring_t *ring, gasnetc_shm_slot_t *slot) {
  const gasnetc_shm_msg_header_t *hdr = &slot->hdr;
  if (!gasnetc_shm_payload_buffered(hdr->nbytes)) return slot->payload;
  return ring->buffers[hdr->buffer].payload;
}

#endif
