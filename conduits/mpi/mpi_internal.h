/* mpi_internal.h: the mpi conduit's state and message formats.
 *
 * Every AM is one "packet" (header, arguments, and the payload when it
 * fits) sent with MPI_Isend on a private duplicate of MPI_COMM_WORLD and
 * received into one of a fixed pool of MPI_ANY_SOURCE receives per
 * channel; what finds no posted receive waits in MPI as an unexpected
 * message until one is free. A payload too large for a packet follows as
 * a second message on the payload tag, which the receiver posts straight
 * into the destination segment (Long) or a buffer of its size (Medium).
 * Every packet carries its number in the stream (sender, destination,
 * channel); the receiver delivers each stream strictly in that order, and
 * posts payload receives in it. Credits bound what each sender may have in
 * flight to each receiver: see docs/mpi-conduit.md for the protocol. */
#ifndef MPI_INTERNAL_H
#define MPI_INTERNAL_H

#include "gasnet_internal.h"
#include "gasnet_am_fence.h"

#include <mpi.h>

/* Requests and replies travel on separate channels, each with its own
 * buffers and credits, so a reply never waits behind requests. */
enum { GASNETC_CH_REQ = 0, GASNETC_CH_REP = 1, GASNETC_NCH = 2 };

/* Tags on the private communicator. */
enum {
  GASNETC_TAG_REQ = 1,      /* request packets */
  GASNETC_TAG_REP = 2,      /* reply packets */
  GASNETC_TAG_CTRL = 3,     /* credit returns and exit notices */
  GASNETC_TAG_PAYLOAD = 4   /* separate payloads: + channel, matched in the sender's order */
};

/* Packet header flags. */
enum {
  GASNETC_F_REQUEST = 1,  /* a request (else a reply) */
  GASNETC_F_SEPARATE = 2, /* the payload follows as its own message */
  GASNETC_F_IN_PLACE = 4  /* Long: the payload is already at dest_addr (loopback, or RMA) */
};

typedef struct {
  uint8_t category; /* gasneti_am_category_t */
  uint8_t handler;
  uint8_t numargs;
  uint8_t flags;
  uint32_t src;
  uint16_t credits[GASNETC_NCH]; /* credits returned to the receiver, per channel */
  uint32_t seq;                  /* number in its stream (sender, destination, channel) */
  uint64_t nbytes;
  uint64_t dest_addr;
} gasnetc_hdr_t;

_Static_assert(sizeof(gasnetc_hdr_t) == 32, "the packet header is 32 bytes");

/* Arguments follow the header, padded so an inline payload starts 16-byte
 * aligned (at least GASNET_DATA_ALIGNMENT, which configure caps at 16). */
static inline size_t gasnetc_args_bytes(unsigned numargs) {
  return ((size_t)numargs * sizeof(gasnet_handlerarg_t) + 15) & ~(size_t)15;
}

static inline void *gasnetc_inline_payload(gasnetc_hdr_t *hdr) {
  return (uint8_t *)(hdr + 1) + gasnetc_args_bytes(hdr->numargs);
}

typedef enum {
  GASNETC_CTRL_CREDIT = 1,
  GASNETC_CTRL_EXIT = 2,
  GASNETC_CTRL_FENCE = 3,    /* mpi_fence.c: answer once my requests before `code` have run */
  GASNETC_CTRL_FENCE_ACK = 4 /* they have */
} gasnetc_ctrl_kind_t;

/* Control messages one peer may have in flight to a node: each credit
 * return carries at least `threshold` (half the depth) of the 2 x depth
 * credits the peer can owe, so at most four, plus its one exit notice,
 * one FENCE and one FENCE_ACK. */
enum { GASNETC_CTRL_PER_PEER = 7 };

typedef struct {
  uint32_t kind; /* gasnetc_ctrl_kind_t */
  uint32_t src;
  uint16_t credits[GASNETC_NCH];
  int32_t code; /* EXIT: the job's exit code; FENCE: a request packet number */
} gasnetc_ctrl_t;

/* A send in flight: its request and the buffer MPI reads from. */
typedef struct {
  MPI_Request req;
  void *buf;    /* packet_size bytes, allocated on first use */
  void *bounce; /* a separate payload's copy, freed when the send completes */
} gasnetc_sendslot_t;



/* Everything the conduit keeps, set up by gasnetc_init. */
typedef struct {
  MPI_Comm comm;
  int client_init;  /* the client called MPI_Init: we do not own MPI */
  int thread_level; /* what MPI provides */
  unsigned local_procs;
  unsigned local_cpus;  /* CPUs the host's processes may run on together */
  gasnet_node_t *host; /* host[i]: lowest node on node i's host */

  size_t packet_size; /* bytes of a receive buffer, header included */
  size_t bounce_max;  /* separate payloads up to this size are sent from a copy */
  unsigned depth;     /* credits per peer and channel */
  unsigned threshold; /* owed credits that trigger an explicit return */

  /* Flow control, per peer: credits we hold toward it and credits we owe it. */
  uint16_t (*credits)[GASNETC_NCH];
  uint16_t (*owed)[GASNETC_NCH];
  /* Order, per peer and channel (a stream). Sending: the number of the
   * next packet to that peer (every packet, not only those with a
   * separate payload). Receiving: the number of the next packet to accept
   * (to post its payload's receive), and the packets of the stream still
   * held, sorted by number: those ahead of their turn, and those accepted
   * but waiting for their payload or for an earlier packet (a list through
   * deferred_next, indexed by packet slot; -1 ends it). mpi_poll.c. */
  uint32_t (*payload_seq)[GASNETC_NCH];
  uint32_t (*payload_next)[GASNETC_NCH];
  int (*deferred_head)[GASNETC_NCH];
  int *deferred_next;
  gasnet_node_t *owed_queue; /* peers owed an explicit credit return */
  uint8_t *owed_queued;
  unsigned owed_nqueued;

  /* Receives. A fixed pool of P packet receives per channel and C control
   * receives, all MPI_ANY_SOURCE, whatever the number of nodes
   * (GASNET_MPI_RECVS), in one request array polled with MPI_Testsome:
   *   rreq: [rep packets P | ctrl C | req packets P]
   * A reply-only poll tests the prefix up to the requests. Packet slot s
   * (0..2P-1, rep then req) names a pool buffer; the separate payload of
   * the packet it holds, once accepted, is received with preq[s], a plain
   * MPI_Irecv tested (apart, and only while any is posted) as
   *   preq: [rep payloads P | req payloads P]. */
  unsigned npool; /* P */
  unsigned nctrl; /* C */
  MPI_Request *rreq;
  MPI_Request *preq;
  unsigned npayload[GASNETC_NCH]; /* payload receives posted, per channel */
  uint8_t *rbuf;        /* 2P packet buffers, rep then req */
  gasnetc_ctrl_t *ctrl; /* C control buffers */
  void **bounce;        /* 2P: a Medium's separate payload buffer */

  /* Sends: slots, a stack of free ones, and the compact list MPI_Testsome
   * looks at. */
  unsigned nsend;
  gasnetc_sendslot_t *send;
  unsigned *send_free;
  unsigned nfree;
  MPI_Request *active_req;
  unsigned *active_slot;
  unsigned nactive;
  int *send_idx; /* MPI_Testsome's output for the sends */
} gasnetc_mpi_t;

extern gasnetc_mpi_t gasnetc_mpi;

static inline int gasnetc_payload_tag(int ch) { return GASNETC_TAG_PAYLOAD + ch; }

/* Indices into rreq. */
static inline unsigned gasnetc_ctrl_index(unsigned i) { return gasnetc_mpi.npool + i; }
static inline unsigned gasnetc_reply_prefix(void) { return gasnetc_mpi.npool + gasnetc_mpi.nctrl; }
static inline unsigned gasnetc_nrreq(void) { return 2 * gasnetc_mpi.npool + gasnetc_mpi.nctrl; }
/* Packet slot s (0..2P-1, rep then req) <-> its channel, rreq index and buffer. */
static inline int gasnetc_slot_channel(unsigned s) {
  return s < gasnetc_mpi.npool ? GASNETC_CH_REP : GASNETC_CH_REQ;
}
static inline unsigned gasnetc_slot_rindex(unsigned s) {
  return s < gasnetc_mpi.npool ? s : gasnetc_mpi.nctrl + s;
}
static inline gasnetc_hdr_t *gasnetc_slot_buf(unsigned s) {
  return (gasnetc_hdr_t *)(gasnetc_mpi.rbuf + (size_t)s * gasnetc_mpi.packet_size);
}

/* ------------------------------------------------------------ locking
 * In PAR every MPI call and all conduit state are under one lock (so MPI
 * needs only MPI_THREAD_SERIALIZED for our own calls); handlers run
 * without it. In SEQ the lock itself is nothing. In both, each thread
 * counts how deep it is inside the lock: a signal that arrives there may
 * have interrupted an MPI call, which must not be re-entered (Open MPI's
 * progress refuses it), so mpi_exit.c holds the signal until the count
 * drops back to 0 (gasnetc_signal_deliver). */
extern GASNETI_THREAD_LOCAL volatile int gasnetc_lock_depth;
extern volatile int gasnetc_signal_pending; /* a signal held back; mpi_exit.c */
extern void gasnetc_signal_deliver(void);
static inline void gasnetc_lock_left(void) {
  if (--gasnetc_lock_depth == 0 && __builtin_expect(gasnetc_signal_pending != 0, 0))
    gasnetc_signal_deliver();
}
#ifdef GASNETI_THREADS
extern pthread_mutex_t gasnetc_mpi_lock;
extern int gasnetc_lock_waiters; /* atomic: threads blocked in gasnetc_lock */
static inline void gasnetc_lock(void) {
  if (pthread_mutex_trylock(&gasnetc_mpi_lock) != 0) {
    __atomic_fetch_add(&gasnetc_lock_waiters, 1, __ATOMIC_ACQ_REL);
    pthread_mutex_lock(&gasnetc_mpi_lock);
    __atomic_fetch_sub(&gasnetc_lock_waiters, 1, __ATOMIC_ACQ_REL);
  }
  gasnetc_lock_depth++;
}
static inline void gasnetc_unlock(void) {
  pthread_mutex_unlock(&gasnetc_mpi_lock);
  gasnetc_lock_left();
}
static inline int gasnetc_trylock(void) {
  if (pthread_mutex_trylock(&gasnetc_mpi_lock) != 0) return 0;
  gasnetc_lock_depth++;
  return 1;
}
/* A poller gives way to threads waiting for the lock to send or deliver:
 * a client thread that polls in a tight loop would otherwise win the
 * (unfair) mutex again and again and starve them. */
static inline int gasnetc_poll_trylock(void) {
  return !__atomic_load_n(&gasnetc_lock_waiters, __ATOMIC_ACQUIRE) && gasnetc_trylock();
}
#else
static inline void gasnetc_lock(void) { gasnetc_lock_depth++; }
static inline void gasnetc_unlock(void) { gasnetc_lock_left(); }
static inline int gasnetc_trylock(void) {
  gasnetc_lock_depth++;
  return 1;
}
static inline int gasnetc_poll_trylock(void) { return gasnetc_trylock(); }
#endif

/* ------------------------------------------------------------ errors */
/* Set when MPI itself failed: the exit path then aborts through MPI
 * instead of talking to the other nodes. */
extern volatile int gasnetc_mpi_broken;
/* Fatal unless rc is MPI_SUCCESS: "failed to <what>: <MPI's reason>". */
extern void gasnetc_mpi_fail(int rc, const char *what) GASNETI_NORETURN;
static inline void gasnetc_mpi_check(int rc, const char *what) {
  if (__builtin_expect(rc != MPI_SUCCESS, 0)) gasnetc_mpi_fail(rc, what);
}

/* ------------------------------------------------------------ mpi_boot.c */
extern void gasnetc_mpi_post_receives(void);
/* Cancel every posted receive (lock held; the exit path). */
extern void gasnetc_mpi_cancel_receives(void);

/* ------------------------------------------------------------ mpi_send.c */
/* Take a free send slot (lock held); NULL when none is free. */
extern gasnetc_sendslot_t *gasnetc_send_slot_get(unsigned *index_p);
/* Start an Isend of len bytes at buf (a slot's buffer or bounce) and track
 * it in the slot (lock held). */
extern void gasnetc_send_slot_start(unsigned index, const void *buf, size_t len,
                                    gasnet_node_t dest, int tag);
/* Retire completed sends (lock held). */
extern int gasnetc_send_progress(void);
/* Return owed credits to the queued peers in control messages (lock held). */
extern void gasnetc_credit_flush(void);

/* ------------------------------------------------------------ mpi_fence.c
 * The barrier as a fence for the requests sent through MPI: the shared
 * fence (src/gasnet_am_fence.h) over this conduit's control messages. */
extern void gasnetc_fence_init(void);

/* ------------------------------------------------------------ mpi_poll.c */
/* Handle arrived control messages only (lock held; the exit protocol). */
extern int gasnetc_poll_ctrl(void);

/* ------------------------------------------------------------ mpi_exit.c */
extern volatile int gasnetc_exit_noticed; /* an EXIT arrived; see gasnetc_exit_code_noticed */
extern void gasnetc_exit_notice(gasnet_node_t src, int code);
/* If another node has ended the job, end this node too (lock not held). */
extern void gasnetc_exit_check(void);
extern void gasnetc_exit_register(void);

/* gasnetc_attach_segment, once every segment is known: the shared-memory
 * layer's and RMA's part of the job, and extended-ref's overrides
 * (mpi_ops.c). Collective. */
extern void gasnetc_mpi_ops_attach(void);
/* Abort the whole job through MPI with this code; never returns. */
extern void gasnetc_abort(int code) GASNETI_NORETURN;

#endif
