/* shm_ring.c: the lock-free message ring in shared memory.
 *
 * Producers claim positions by advancing enqueue_pos, fill the slot at
 * position p and publish it by storing p + 1 as its sequence number; a
 * consumer takes position p once the slot's sequence number is p + 1.
 * Positions only grow (64 bits never wrap in practice), and differences
 * are compared signed.
 *
 * The owner frees a slot by advancing the ring's `released` counter, not
 * by writing into the slot: had it written the slot (as a slot's own
 * sequence number would say "free"), every message would move the slot's
 * cache line to the consumer and back to the producer before the producer
 * could fill it, a second transfer per message that made the cost of an
 * 8-byte collective. A producer keeps the last value of `released` it read
 * (this process's own memory) and reads the shared one only when that
 * value leaves no room, once per lap of the ring when the owner keeps up.
 *
 * Slots are released out of order (PAR: several threads poll one ring; a
 * handler may poll), so the owner notes each released position in its own
 * memory and moves `released` over every position noted in a row. */
#include "shm_internal.h"

#include <stdlib.h>

/* The depth of every ring of the region: the same in every member, which
 * all call gasnetc_shm_ring_configure with the same count. */
uint64_t gasnetc_shm_ring_depth = GASNETC_SHM_RING_SLOTS_PER_SENDER;

/* What this process keeps of a ring, in its own memory: as a producer, the
 * last value of `released` it read; as the owner, which positions have
 * been released: done[p % depth] == p + 1. */
typedef struct {
  uint64_t released_seen; /* atomic */
  uint64_t done[GASNETC_SHM_RING_SLOTS]; /* atomic */
} gasnetc_shm_ring_local_t;

static gasnetc_shm_ring_local_t *gasnetc_shm_ring_locals; /* two per member: requests, replies */

void gasnetc_shm_ring_configure(unsigned members) {
  uint64_t depth = GASNETC_SHM_RING_SLOTS_PER_SENDER;
  unsigned senders = members > 1 ? members - 1 : 1;
  while (depth < (uint64_t)senders * GASNETC_SHM_RING_SLOTS_PER_SENDER &&
         depth < GASNETC_SHM_RING_SLOTS)
    depth *= 2;
  gasnetc_shm_ring_depth = depth;
  free(gasnetc_shm_ring_locals);
  gasnetc_shm_ring_locals = calloc(2 * (size_t)(members ? members : 1), sizeof(gasnetc_shm_ring_local_t));
  if (!gasnetc_shm_ring_locals)
    gasneti_fatalerror("gasnet_init: out of memory for the state of %u members' rings", members);
}

/* The rings are the members' request and reply rings, in that order
 * (gasnetc_shm_queues_t), one after the other. */
static inline gasnetc_shm_ring_local_t *gasnetc_shm_ring_local(const gasnetc_shm_ring_t *ring) {
  size_t index = (size_t)(ring - &gasnetc_shm.queues[0].requests);
  return &gasnetc_shm_ring_locals[index];
}
_Static_assert(sizeof(gasnetc_shm_queues_t) == 2 * sizeof(gasnetc_shm_ring_t),
               "a member's two rings lie one after the other");

/* The owner's notes need ordering between its threads only (PAR); a
 * process of one thread needs none. */
#if defined(GASNETI_THREADS)
#define GASNETC_SHM_RING_NOTE_ORDER __ATOMIC_SEQ_CST
#else
#define GASNETC_SHM_RING_NOTE_ORDER __ATOMIC_RELAXED
#endif

#if defined(__SANITIZE_THREAD__)
uint64_t gasnetc_shm_tsan_word; /* shm_internal.h */
#endif

void gasnetc_shm_ring_init(gasnetc_shm_ring_t *ring) {
  ring->enqueue_pos = 0;
  ring->dequeue_pos = 0;
  ring->released = 0;
  ring->free_buffers = gasnetc_shm_all_buffers();
  for (uint64_t i = 0; i < gasnetc_shm_ring_depth; i++) ring->slots[i].hdr.seq = 0;
}

/* Whether position pos is free to fill: the slot it uses last held
 * pos - depth, which must have been released. The acquire pairs with the
 * owner's release of `released`, through this process's copy too, so what
 * the owner read of the slot happens before the producer writes it. */
static int gasnetc_shm_ring_room(gasnetc_shm_ring_t *ring, uint64_t pos) {
  gasnetc_shm_ring_local_t *local = gasnetc_shm_ring_local(ring);
  uint64_t seen = __atomic_load_n(&local->released_seen, __ATOMIC_ACQUIRE);
  if ((int64_t)(pos - seen) < (int64_t)gasnetc_shm_ring_depth) return 1;
  seen = __atomic_load_n(&ring->released, __ATOMIC_ACQUIRE);
  __atomic_store_n(&local->released_seen, seen, __ATOMIC_RELEASE);
  return (int64_t)(pos - seen) < (int64_t)gasnetc_shm_ring_depth;
}

/* Claim the next free slot, or return NULL when the ring is full. A pos
 * read before another producer's claim may lie below what this process
 * has seen released: that passes the room check and fails the claim. */
gasnetc_shm_slot_t *gasnetc_shm_ring_reserve(gasnetc_shm_ring_t *ring, uint64_t *pos_p) {
  uint64_t pos = __atomic_load_n(&ring->enqueue_pos, __ATOMIC_RELAXED);
  for (;;) {
    if (!gasnetc_shm_ring_room(ring, pos)) return NULL;
    if (__atomic_compare_exchange_n(&ring->enqueue_pos, &pos, pos + 1, 1, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      *pos_p = pos;
      /* ThreadSanitizer only (shm_internal.h): the slot's last writer may
       * be another thread of this process, a lap ago; what orders the two
       * passes through the owner, a process TSan cannot see. */
      gasnetc_shm_tsan_acquire();
      return gasnetc_shm_ring_slot(ring, pos);
    }
  }
}

void gasnetc_shm_ring_publish(gasnetc_shm_slot_t *slot, uint64_t pos) {
  gasnetc_shm_tsan_release(); /* ThreadSanitizer only: see shm_internal.h */
  __atomic_store_n(&slot->hdr.seq, pos + 1, __ATOMIC_RELEASE);
}

/* Take the oldest published message, or return NULL when there is none.
 * The slot stays the caller's until gasnetc_shm_ring_release, so a Medium
 * payload can be handed to its handler in place. A slot not yet published
 * at pos holds an older lap's number (or 0), below pos + 1; one above it
 * means another thread took pos meanwhile. */
gasnetc_shm_slot_t *gasnetc_shm_ring_take(gasnetc_shm_ring_t *ring, uint64_t *pos_p) {
  uint64_t pos = __atomic_load_n(&ring->dequeue_pos, __ATOMIC_RELAXED);
  for (;;) {
    gasnetc_shm_slot_t *slot = gasnetc_shm_ring_slot(ring, pos);
    uint64_t seq = __atomic_load_n(&slot->hdr.seq, __ATOMIC_ACQUIRE);
    int64_t diff = (int64_t)(seq - (pos + 1));
    if (diff == 0) {
      if (__atomic_compare_exchange_n(&ring->dequeue_pos, &pos, pos + 1, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
        *pos_p = pos;
        gasnetc_shm_tsan_acquire(); /* ThreadSanitizer only: see shm_internal.h */
        return slot;
      }
    } else if (diff < 0) {
      return NULL;
    } else {
      pos = __atomic_load_n(&ring->dequeue_pos, __ATOMIC_RELAXED);
    }
  }
}

/* The owner is done with position pos. Note it, then move `released` over
 * every noted position from where it stands. Two threads that release
 * neighbours at once each note first and then look (sequentially
 * consistent), so one of them sees both notes. Position r + depth cannot
 * be noted before r is released (no producer can claim it), so a note
 * equal to r + 1 means r. */
void gasnetc_shm_ring_release(gasnetc_shm_ring_t *ring, uint64_t pos) {
  gasnetc_shm_ring_local_t *local = gasnetc_shm_ring_local(ring);
  const uint64_t mask = gasnetc_shm_ring_depth - 1;
  __atomic_store_n(&local->done[pos & mask], pos + 1, GASNETC_SHM_RING_NOTE_ORDER);
  uint64_t r = __atomic_load_n(&ring->released, GASNETC_SHM_RING_NOTE_ORDER);
  while (__atomic_load_n(&local->done[r & mask], GASNETC_SHM_RING_NOTE_ORDER) == r + 1) {
#if defined(GASNETI_THREADS)
    if (__atomic_compare_exchange_n(&ring->released, &r, r + 1, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      r++;
#else
    __atomic_store_n(&ring->released, ++r, __ATOMIC_RELEASE);
#endif
  }
}
