/* ucx_internal.h: the ucx conduit's state and message format.
 *
 * Every node has one UCP worker and an endpoint to every other node, made
 * from the worker addresses the nodes exchange at start-up through the
 * bootstrap exchange (src/gasnet_bootstrap.h: the launcher's socket under
 * gasnetrun_ucx, PMIx under Open MPI's mpirun). MPI is not used.
 *
 * An AM is one UCP active message (one AM id for all) whose UCP header is
 * ours: a Long's is a 32-byte gasnetc_hdr_t and the handler arguments,
 * padded to 16 bytes; any other's is the header's first 16 bytes and the
 * arguments right after them (fewer bytes to move, and more messages
 * within UCX's short protocol through its shared memory). Its data is the
 * Medium or Long payload. An AM is sent eagerly
 * (UCP_AM_SEND_FLAG_EAGER), so the receive callback gets it whole and
 * copies it: a Medium into a packet kept until delivery, a Long straight
 * into the segment. A large payload to a peer of this host outside its
 * supernode goes by rendezvous instead, and the callback fetches it into
 * those places. Control messages (credits, the barrier's fence, exit
 * notices) use the same id and are acted on in the callback. AMs between
 * members of a supernode never come here: they use the shared-memory
 * layer's rings (ucx_shm.c).
 *
 * Order: every AM carries its number in its stream (sender, receiver,
 * request or reply); the receiver queues each stream in that order,
 * holding early arrivals, whatever order UCX completes them in
 * (ucx_poll.c). Requests and replies wait in two queues, each delivered by
 * one thread at a time, replies first.
 *
 * Flow control: a node may have GASNET_UCX_CREDITS requests not yet
 * delivered at each peer; replies need none (each answers a request still
 * counted against its sender). Credits come back on any AM to the sender or
 * in a CREDIT message once half the window is owed. Messages to the node
 * itself skip UCX and go straight into its own queues, under the same
 * credits. */
#ifndef UCX_INTERNAL_H
#define UCX_INTERNAL_H

#include "gasnet_internal.h"
#include "gasnet_am_fence.h"

#include <ucp/api/ucp.h>

#include <sys/types.h>

typedef enum {
  GASNETC_K_REQUEST = 1, /* an AM request */
  GASNETC_K_REPLY,       /* an AM reply */
  GASNETC_K_CREDIT,      /* credits handed back, nothing else */
  GASNETC_K_FENCE,       /* seq: answer once my requests before it have run (ucx_fence.c) */
  GASNETC_K_FENCE_ACK,   /* they have */
  GASNETC_K_EXIT         /* seq: the sender's exit notice (ucx_exit.c) */
} gasnetc_kind_t;

/* Header flags. */
enum { GASNETC_F_IN_PLACE = 1 }; /* Long: the payload is already at addr (RMA) */

/* The UCP active message id of every message of the conduit. */
#define GASNETC_AM_ID 17

/* Request and reply streams. */
enum { GASNETC_CH_REQ = 0, GASNETC_CH_REP = 1, GASNETC_NCH = 2 };

typedef struct {
  uint8_t kind; /* gasnetc_kind_t */
  uint8_t category;
  uint8_t handler;
  uint8_t numargs;
  uint32_t src;
  uint16_t credits; /* request credits handed back to the receiver */
  uint16_t flags;
  uint32_t seq; /* number in its stream; FENCE: a request number; EXIT: the notice */
  uint64_t nbytes;
  uint64_t addr;
} gasnetc_hdr_t;
_Static_assert(sizeof(gasnetc_hdr_t) == 32, "the message header is 32 bytes");

/* Arguments follow the header, padded so a kept payload starts 16-byte aligned. */
static inline size_t gasnetc_args_bytes(unsigned numargs) {
  return ((size_t)numargs * sizeof(gasnet_handlerarg_t) + 15) & ~(size_t)15;
}

/* On the wire every message but a Long sends only the header's fields
 * before nbytes, and its arguments unpadded right after them: a Short and
 * a control message have no length, and a Medium's is its UCP data's. A
 * Long keeps the whole header (its destination, and its length when the
 * payload went ahead by RMA). Through UCX's shared memory a Short of 16
 * arguments, or a Medium of a few arguments and up to 64 bytes, then goes
 * by UCX's short protocol (100 bytes with UCP's own header) instead of a
 * copied send (docs/ucx-conduit.md, "Compact headers"). */
#define GASNETC_HDR_COMPACT offsetof(gasnetc_hdr_t, nbytes)
_Static_assert(GASNETC_HDR_COMPACT == 16, "a compact header is 16 bytes");

static inline int gasnetc_hdr_is_compact(const gasnetc_hdr_t *h) {
  int am = h->kind == GASNETC_K_REQUEST || h->kind == GASNETC_K_REPLY;
  return !am || h->category != GASNETI_AM_LONG;
}

/* Where the arguments start in a message as sent, and its header's bytes
 * with them. */
static inline size_t gasnetc_wire_args_at(const gasnetc_hdr_t *h) {
  return gasnetc_hdr_is_compact(h) ? GASNETC_HDR_COMPACT : sizeof(*h);
}
static inline size_t gasnetc_wire_header_bytes(const gasnetc_hdr_t *h) {
  if (!gasnetc_hdr_is_compact(h)) return sizeof(*h) + gasnetc_args_bytes(h->numargs);
  size_t args = (size_t)h->numargs * sizeof(gasnet_handlerarg_t);
  /* A Medium's payload follows in UCX's buffer, which the callback keeps
   * only when the payload is aligned as a Medium's must be: the arguments
   * end on that alignment, as the padded ones of a whole header did. */
  if (h->category == GASNETI_AM_MEDIUM)
    args = (args + GASNET_DATA_ALIGNMENT - 1) & ~(size_t)(GASNET_DATA_ALIGNMENT - 1);
  return GASNETC_HDR_COMPACT + args;
}

/* A message kept until delivery: header, arguments, Medium payload. The
 * payload is either copied after the arguments or, when UCX lets us keep
 * the buffer it received it in, left there (kept) and handed back to UCX
 * once the handler has run. */
typedef struct gasnetc_pkt_s {
  struct gasnetc_pkt_s *next;
  size_t size; /* bytes allocated after the header's start */
  void *kept;  /* UCX's buffer holding the Medium payload, or NULL */
  _Alignas(16) gasnetc_hdr_t hdr;
} gasnetc_pkt_t;

static inline void *gasnetc_pkt_args(gasnetc_pkt_t *p) { return &p->hdr + 1; }
static inline void *gasnetc_pkt_payload(gasnetc_pkt_t *p) {
  if (p->kept) return p->kept;
  return (uint8_t *)(&p->hdr + 1) + gasnetc_args_bytes(p->hdr.numargs);
}

typedef struct {
  gasnetc_pkt_t *head, *tail;
} gasnetc_queue_t;

typedef struct {
  gasnetc_pkt_t *head;
  unsigned count;
} gasnetc_spare_t;

/* Requests a node may have undelivered at each peer, by default. */
#define GASNETC_CREDITS_DEFAULT 64

typedef struct {
  ucp_context_h context;
  ucp_worker_h worker;
  ucp_ep_h *ep;           /* per node; NULL for this node */
  ucp_rkey_h *rkey;       /* per node: its segment's key; NULL if none */
  ucp_mem_h segment_mem;  /* this node's segment, mapped by UCP */
  pid_t *pid;             /* per node */
  gasnet_node_t *host;    /* per node: the lowest node of its host */
  unsigned local_procs;   /* nodes on this host */
  unsigned local_cpus;    /* CPUs they may run on together */
  uint32_t window;        /* credits per peer */
  uint32_t *credits;      /* per peer: requests we may still send it (gasneti_mt_*) */
  uint32_t *owed;         /* per peer: credits we owe it (gasneti_mt_*) */
  uint32_t (*send_seq)[GASNETC_NCH]; /* per peer and stream: the next number to send */
  uint32_t (*recv_seq)[GASNETC_NCH]; /* per peer and stream: the next number to queue */
  gasnetc_pkt_t *(*held)[GASNETC_NCH]; /* per peer and stream: early arrivals, by number */
  gasnetc_queue_t queue[GASNETC_NCH];  /* arrived in order, not yet delivered */
  int delivering[GASNETC_NCH];         /* a thread is delivering that queue */
  gasnetc_spare_t spare[2];            /* packets kept for reuse: small, largest */
} gasnetc_ucx_t;

extern gasnetc_ucx_t gasnetc_ucx;

/* Is node i on this node's host? */
static inline int gasnetc_same_host(gasnet_node_t i) {
  return gasnetc_ucx.host[i] == gasnetc_ucx.host[gasneti_mynode];
}

/* ------------------------------------------------------------ locking
 * In PAR one mutex covers every UCX call (the worker is created
 * UCS_THREAD_MODE_SERIALIZED) and the conduit's queues; handlers run
 * without it. Each thread counts how deep it is inside the lock, so the
 * exit path, which may run from a signal handler, never re-enters UCX
 * (ucx_exit.c); it takes the lock only by trying. */
extern GASNETI_THREAD_LOCAL int gasnetc_lock_depth;
#ifdef GASNETI_THREADS
extern pthread_mutex_t gasnetc_ucx_lock;
static inline void gasnetc_lock(void) {
  pthread_mutex_lock(&gasnetc_ucx_lock);
  gasnetc_lock_depth++;
}
static inline void gasnetc_unlock(void) {
  gasnetc_lock_depth--;
  pthread_mutex_unlock(&gasnetc_ucx_lock);
}
static inline int gasnetc_trylock(void) {
  if (pthread_mutex_trylock(&gasnetc_ucx_lock) != 0) return 0;
  gasnetc_lock_depth++;
  return 1;
}
#else
static inline void gasnetc_lock(void) { gasnetc_lock_depth++; }
static inline void gasnetc_unlock(void) { gasnetc_lock_depth--; }
static inline int gasnetc_trylock(void) {
  gasnetc_lock_depth++;
  return 1;
}
#endif

/* Fatal: "<call>: <what> failed: <UCX's reason>". */
extern void gasnetc_ucx_fail(const char *call, const char *what, ucs_status_t st) GASNETI_NORETURN;

/* The bootstrap exchange's allgather (start-up and attach only), during
 * which an exit notice ends this node at once. */
extern void gasnetc_boot_allgather(const void *mine, size_t len, void *all, const char *call);

/* Wait for a UCP request (lock not held), progressing the worker; NULL and
 * errors encoded as pointers are accepted. Returns its status. */
extern ucs_status_t gasnetc_request_wait(void *req);

/* ------------------------------------------------------------ ucx_send.c */
extern void gasnetc_send_init(void);
/* Send a control message (lock held; never waits). */
extern void gasnetc_send_ctrl(gasnet_node_t dest, gasnetc_kind_t kind, uint32_t seq);
/* A request from src is being delivered: owe src its credit (lock not held). */
extern void gasnetc_credit_owe(gasnet_node_t src);
/* Credits arrived from src (lock held). */
extern void gasnetc_credit_returned(gasnet_node_t src, unsigned n);

/* ------------------------------------------------------------ ucx_poll.c */
extern void gasnetc_poll_init(void);
/* A message arrived or was sent to this node itself (lock held): queue it
 * in its stream's order. */
extern void gasnetc_accept(gasnetc_pkt_t *p);
extern gasnetc_pkt_t *gasnetc_pkt_alloc(size_t size);
/* Progress the worker a bounded amount (lock held). */
extern int gasnetc_progress(void);

/* ------------------------------------------------------------ ucx_fence.c
 * The barrier as a fence for requests: the shared fence
 * (src/gasnet_am_fence.h) over this conduit's control messages. */
extern void gasnetc_fence_init(void);
/* After a barrier: run the requests this node sent itself before it. */
extern void gasnetc_fence_run_own(void);

/* ------------------------------------------------------------ ucx_rma.c */
extern void gasnetc_rma_init(void);
/* gasnetc_attach_segment, once every node's key is unpacked: which
 * peers' segments UCX maps into this process. */
extern void gasnetc_rma_find_mapped(void);
/* ... and whether it maps every peer of this host outside this node's
 * supernode (vacuously so when there is none). */
extern int gasnetc_rma_host_mapped(void);
/* gasnetc_attach_segment: register the extended-API overrides. */
extern void gasnetc_rma_attach(void);
/* A Long of nbytes to dest, large enough to go by RMA: put it at its
 * destination and wait until it is there (lock not held); 1 if done. */
extern int gasnetc_rma_long_payload(gasnet_node_t dest, const gasneti_am_t *msg);
/* dest's segment is mapped into this process: UCX reaches it through its
 * shared-memory transports. */
extern int gasnetc_peer_mapped(gasnet_node_t node);

/* ------------------------------------------------------------ ucx_exit.c */
extern void gasnetc_exit_init(void);
/* Node src's exit notice (lock may be held). */
extern void gasnetc_exit_notice(gasnet_node_t src, uint32_t notice);
/* Around the bootstrap exchange's calls: a notice that came before, or
 * comes during one, ends this node at once. */
extern void gasnetc_exit_bootstrap_enter(void);
extern void gasnetc_exit_bootstrap_leave(void);
/* If another node has ended the job, end this one too (lock not held). */
extern void gasnetc_exit_check(void);
/* Every so often, look for nodes of this host that died without a word. */
extern void gasnetc_liveness_check(void);
/* UCX reports dest unreachable. */
extern void gasnetc_peer_lost(gasnet_node_t dest, ucs_status_t why);

#endif
