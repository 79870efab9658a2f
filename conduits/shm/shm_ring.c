/* shm_ring.c: the lock-free message ring in shared memory (D. Vyukov's
 * bounded queue).
 *
 * Each slot's sequence number says what the slot is ready for: a producer
 * may fill the slot at position p once it reads p, and publishes it by
 * storing p + 1; a consumer takes position p once it reads p + 1, and when
 * it is done releases the slot by storing p + depth, the position that
 * uses the slot next. Positions only grow (64 bits never wrap in
 * practice), and differences are compared signed. Slots are released out
 * of order (PAR: several threads poll one ring; a handler may poll), which
 * a slot's own number needs nothing more for.
 *
 * The release moves the slot's first cache line to the receiver and back
 * to the next sender. Freeing slots through one counter per ring instead
 * (the receiver writes only the counter, a sender reads it once per lap)
 * saved that transfer but, on an Intel host, took floods of 1 KiB
 * Mediums from 5.5 to 3.4 M messages/s at 2 processes (and 64 B to 4 KiB
 * ones by 10-20%), while the 8-byte collectives gained nothing
 * measurable there (docs/performance.md, "Freeing a ring's slots,
 * measured again"). */
#include "shm_internal.h"

/* The depth of every ring of the region: the same in every member, which
 * all call gasnetc_shm_ring_configure with the same count. */
uint64_t gasnetc_shm_ring_depth = GASNETC_SHM_RING_SLOTS_PER_SENDER;

void gasnetc_shm_ring_configure(unsigned members) {
  uint64_t depth = GASNETC_SHM_RING_SLOTS_PER_SENDER;
  unsigned senders = members > 1 ? members - 1 : 1;
  while (depth < (uint64_t)senders * GASNETC_SHM_RING_SLOTS_PER_SENDER &&
         depth < GASNETC_SHM_RING_SLOTS)
    depth *= 2;
  gasnetc_shm_ring_depth = depth;
}

#if defined(__SANITIZE_THREAD__)
uint64_t gasnetc_shm_tsan_word; /* shm_internal.h */
#endif

void gasnetc_shm_ring_init(gasnetc_shm_ring_t *ring) {
  ring->enqueue_pos = 0;
  ring->dequeue_pos = 0;
  ring->free_buffers = gasnetc_shm_all_buffers();
  for (uint64_t i = 0; i < gasnetc_shm_ring_depth; i++) ring->slots[i].hdr.seq = i;
}

/* Move the producers' position from *pos to *pos + 1, or return 0 with
 * *pos the position another producer moved it to. A ring that one thread
 * alone writes (sole: see gasnetc_shm_send) takes a plain store: a locked
 * compare-exchange waits for this core's earlier stores, the publication
 * of the message before among them, to reach the receiver's core, which
 * held a Short AM flood at 2 processes to less than half its rate
 * (docs/performance.md, "One producer per ring"). */
static inline int gasnetc_shm_ring_claim(uint64_t *enqueue_pos, int sole, uint64_t *pos) {
  if (sole) {
    __atomic_store_n(enqueue_pos, *pos + 1, __ATOMIC_RELAXED);
    return 1;
  }
  return __atomic_compare_exchange_n(enqueue_pos, pos, *pos + 1, 1, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED);
}

/* Claim the next free slot, or return NULL when the ring is full. The
 * acquire pairs with the owner's release of the slot, so what the owner
 * read of it happens before this producer writes it. */
gasnetc_shm_slot_t *gasnetc_shm_ring_reserve(gasnetc_shm_ring_t *ring, int sole, uint64_t *pos_p) {
  uint64_t pos = __atomic_load_n(&ring->enqueue_pos, __ATOMIC_RELAXED);
  for (;;) {
    gasnetc_shm_slot_t *slot = gasnetc_shm_ring_slot(ring, pos);
    uint64_t seq = __atomic_load_n(&slot->hdr.seq, __ATOMIC_ACQUIRE);
    int64_t diff = (int64_t)(seq - pos);
    if (diff == 0) {
      if (gasnetc_shm_ring_claim(&ring->enqueue_pos, sole, &pos)) {
        *pos_p = pos;
        /* ThreadSanitizer only (shm_internal.h): the slot's last writer may
         * be another thread of this process, a lap ago; what orders the two
         * passes through the owner, a process TSan cannot see. */
        gasnetc_shm_tsan_acquire();
        return slot;
      }
    } else if (diff < 0) {
      return NULL; /* the slot still holds the message of the lap before */
    } else {
      pos = __atomic_load_n(&ring->enqueue_pos, __ATOMIC_RELAXED);
    }
  }
}

void gasnetc_shm_ring_publish(gasnetc_shm_slot_t *slot, uint64_t pos) {
  gasnetc_shm_tsan_release(); /* ThreadSanitizer only: see shm_internal.h */
  __atomic_store_n(&slot->hdr.seq, pos + 1, __ATOMIC_RELEASE);
}

/* Move the consumers' position from *pos to *pos + 1, or return 0 with
 * *pos the position another thread moved it to. Under threads (PAR and
 * PARSYNC builds) several may poll one ring. In a SEQ build only this
 * thread takes from its own ring, so a plain store moves the position. A
 * locked compare-exchange there also waits for this core's earlier
 * stores, among them the release of the slot just used: a line its sender
 * filled, which this core must take back from the sender's first
 * (docs/performance.md, "The taker's position without a locked
 * instruction"). */
static inline int gasnetc_shm_ring_advance(uint64_t *dequeue_pos, uint64_t *pos) {
#if defined(GASNETI_THREADS)
  return __atomic_compare_exchange_n(dequeue_pos, pos, *pos + 1, 1, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED);
#else
  __atomic_store_n(dequeue_pos, *pos + 1, __ATOMIC_RELAXED);
  return 1;
#endif
}

/* Take the oldest published message, or return NULL when there is none.
 * The slot stays the caller's until gasnetc_shm_ring_release, so a Medium
 * payload can be handed to its handler in place. A slot not yet published
 * at pos holds pos or an older lap's number, below pos + 1; one above it
 * means another thread took pos meanwhile. */
gasnetc_shm_slot_t *gasnetc_shm_ring_take(gasnetc_shm_ring_t *ring, uint64_t *pos_p) {
  uint64_t pos = __atomic_load_n(&ring->dequeue_pos, __ATOMIC_RELAXED);
  for (;;) {
    gasnetc_shm_slot_t *slot = gasnetc_shm_ring_slot(ring, pos);
    uint64_t seq = __atomic_load_n(&slot->hdr.seq, __ATOMIC_ACQUIRE);
    int64_t diff = (int64_t)(seq - (pos + 1));
    if (diff == 0) {
      if (gasnetc_shm_ring_advance(&ring->dequeue_pos, &pos)) {
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

/* The owner is done with position pos: the slot is free for the position
 * that uses it next. */
void gasnetc_shm_ring_release(gasnetc_shm_ring_t *ring, uint64_t pos) {
  __atomic_store_n(&gasnetc_shm_ring_slot(ring, pos)->hdr.seq, pos + gasnetc_shm_ring_depth,
                   __ATOMIC_RELEASE);
}
