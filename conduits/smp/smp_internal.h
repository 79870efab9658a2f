/* smp_internal.h: the smp conduit's shared-memory layout and internals.
 *
 * One memfd holds everything, mapped by the first process before it forks
 * the nodes, so every process sees it at the same address and nothing ever
 * appears in /dev/shm (the memory goes away with the last process):
 *
 *   [ control: job state, one cache line per node ]
 *   [ queues: per node, a request ring and a reply ring ]
 *   [ segments: per node, max_segsize bytes (sparse until touched) ]
 */
#ifndef SMP_INTERNAL_H
#define SMP_INTERNAL_H

#include "gasnet_internal.h"

#include <sys/types.h>

#define GASNETC_SMP_CACHE_LINE 64
/* Slots per ring. A power of two. Deep enough that a node flooding a peer
 * rarely waits, small enough to keep the rings in cache. */
#define GASNETC_SMP_RING_DEPTH 32
/* Handler arguments and message fields fit in this header; the Medium
 * payload follows it, so it starts 64-byte aligned. */
#define GASNETC_SMP_SLOT_HEADER 128

typedef struct {
  uint64_t seq; /* atomic: the ring position this slot is ready for */
  uint8_t category;
  uint8_t handler;
  uint8_t numargs;
  uint8_t is_request;
  uint32_t src;
  uint64_t nbytes;
  uint64_t dest_addr;
  gasnet_handlerarg_t args[16];
} gasnetc_smp_msg_header_t;

typedef struct {
  gasnetc_smp_msg_header_t hdr;
  uint8_t pad[GASNETC_SMP_SLOT_HEADER - sizeof(gasnetc_smp_msg_header_t)];
  uint8_t payload[GASNETC_MAX_MEDIUM];
} gasnetc_smp_slot_t;

/* A bounded multi-producer multi-consumer ring (D. Vyukov's design): each
 * slot's sequence number says whether it is free for the producer at a
 * given position or full for the consumer at it, so neither side locks and
 * looking at an empty ring costs two loads. */
typedef struct {
  _Alignas(GASNETC_SMP_CACHE_LINE) uint64_t enqueue_pos;
  _Alignas(GASNETC_SMP_CACHE_LINE) uint64_t dequeue_pos;
  _Alignas(GASNETC_SMP_CACHE_LINE) gasnetc_smp_slot_t slots[GASNETC_SMP_RING_DEPTH];
} gasnetc_smp_ring_t;

typedef struct {
  gasnetc_smp_ring_t requests;
  gasnetc_smp_ring_t replies;
} gasnetc_smp_queues_t;

/* One cache line per node: its start-up barrier counter and what it tells
 * the others at start-up; then the state of the extended API's SMP barrier
 * (smp_barrier.c): a counter bumped at each notify (wraps around) and the
 * id and flags of the notify, per phase (barrier number & 1). Only the
 * owner writes its line. */
typedef struct {
  _Alignas(GASNETC_SMP_CACHE_LINE) uint64_t barrier_count; /* atomic */
  uint64_t segsize;
  int32_t pid;
  uint32_t ext_barrier_count; /* atomic */
  int32_t ext_barrier_id[2];
  int32_t ext_barrier_flags[2];
  int32_t xmem_ok; /* its cross-memory probe worked (smp_xmem.c) */
} gasnetc_smp_node_line_t;

/* Exit protocol: the first node (or the supervisor) to decide the job's
 * exit code stores it with the flag; every node checks the flag when it
 * polls. */
typedef struct {
  _Alignas(GASNETC_SMP_CACHE_LINE) int32_t exit_flag; /* atomic: 0 running, 1 exiting */
  int32_t exit_code;
  uint32_t nodes;
  uint64_t max_segsize;
  _Alignas(GASNETC_SMP_CACHE_LINE) gasnetc_smp_node_line_t node[];
} gasnetc_smp_control_t;

/* The mapping, identical in every process. */
extern gasnetc_smp_control_t *gasnetc_smp_control;
extern gasnetc_smp_queues_t *gasnetc_smp_queues;
extern uint8_t *gasnetc_smp_segments;

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
extern uint64_t gasnetc_smp_tsan_word;
static inline void gasnetc_smp_tsan_release(void) {
  /* a read-modify-write: TSan joins every releaser's clock (a store would replace it) */
  (void)__atomic_fetch_add(&gasnetc_smp_tsan_word, 0, __ATOMIC_RELEASE);
}
static inline void gasnetc_smp_tsan_acquire(void) {
  (void)__atomic_load_n(&gasnetc_smp_tsan_word, __ATOMIC_ACQUIRE);
}
#else
static inline void gasnetc_smp_tsan_release(void) {}
static inline void gasnetc_smp_tsan_acquire(void) {}
#endif

/* ring.c */
extern void gasnetc_smp_ring_init(gasnetc_smp_ring_t *ring);
extern gasnetc_smp_slot_t *gasnetc_smp_ring_reserve(gasnetc_smp_ring_t *ring, uint64_t *pos_p);
extern void gasnetc_smp_ring_publish(gasnetc_smp_slot_t *slot, uint64_t pos);
extern gasnetc_smp_slot_t *gasnetc_smp_ring_take(gasnetc_smp_ring_t *ring, uint64_t *pos_p);
extern void gasnetc_smp_ring_release(gasnetc_smp_slot_t *slot, uint64_t pos);

/* boot.c: the start-up barrier over the control lines. */
extern void gasnetc_smp_boot_barrier(void);

/* smp_extended.c: registers the extended API overrides (called by each
 * node at the end of gasnetc_init). */
extern void gasnetc_smp_extended_init(void);

/* smp_xmem.c: collective, in attach once every pid is published: reads
 * GASNET_SMP_XMEM and probes cross-memory reads. */
extern void gasnetc_smp_xmem_attach(void);

/* exit.c */
/* Set the job's exit code unless one is set already (a non-zero code
 * replaces a zero one); returns the code in force. */
extern int gasnetc_smp_claim_exit(int code);
/* The job's exit code, or fallback while none is set. */
extern int gasnetc_smp_job_code(int fallback);
/* Called by every poll: ends this node (or lets its own exit path finish)
 * once the job is ending. */
extern void gasnetc_smp_check_exit(void);
/* Each node, in gasnet_init: the on_exit handler, the fatal-signal hook
 * and the handler of the signal below. */
extern void gasnetc_smp_exit_init(void);
/* What the supervisor sends a node that has not noticed, GASNET_EXITTIMEOUT
 * seconds after the job began to end (GASNet's choice: clients rarely use it,
 * and its default action is to ignore it). */
#define GASNETC_SMP_REMOTEEXIT_SIGNAL SIGURG

/* supervisor.c: never returns; ends the process with the job's exit code. */
#include <signal.h>
extern void gasnetc_supervisor_signals(sigset_t *set);
extern void gasnetc_smp_supervise(pid_t *pids, unsigned nodes, const void *saved_sigmask)
    GASNETI_NORETURN;

#endif
